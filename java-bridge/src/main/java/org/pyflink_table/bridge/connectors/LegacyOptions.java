package org.pyflink_table.bridge.connectors;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * FLIP-38's legacy table options ({@code 'connector.type' = 'filesystem'}, {@code 'format.type' = 'csv'},
 * {@code 'connector.path'}, {@code 'format.field-delimiter'}, ...) read as the current keys.
 *
 * <p>Only a table declaring {@code connector.type} is rewritten. Version and mode keys that carry no
 * meaning here are dropped; {@code format.X} becomes {@code <format>.X}; keys without a current
 * equivalent are kept, so validation names them.
 */
final class LegacyOptions {
  private LegacyOptions() {}

  static void translate(Map<String, String> options) {
    if (!options.containsKey("connector.type") || options.containsKey("connector")) return;
    String format = options.get("format.type");
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : options.entrySet()) {
      String key = e.getKey();
      String value = e.getValue();
      switch (key) {
        case "connector.type":
          out.put("connector", value);
          break;
        case "connector.path":
          out.put("path", value);
          break;
        case "format.type":
          out.put("format", value);
          if ("csv".equals(value)) out.put(Connectors.LEGACY_CSV, "true");
          break;
        case "connector.property-version":
        case "format.property-version":
        case "update-mode":
          break; // versions of the legacy property scheme; append mode is the only batch mode
        case "format.derive-schema":
          if (!"true".equalsIgnoreCase(value)) out.put(key, value); // deriving from the table schema is what happens
          break;
        case "format.ignore-first-line":
          if ("true".equalsIgnoreCase(value)) out.put(Connectors.SKIP_FIRST_LINE, "true");
          break;
        default:
          if (key.startsWith("format.") && format != null) {
            out.put(format + "." + key.substring("format.".length()), value);
          } else {
            out.put(key, value);
          }
      }
    }
    options.clear();
    options.putAll(out);
  }
}
