package org.pyflink_table.bridge.expressions;

import java.util.ArrayList;
import java.util.List;
import py4j.Gateway;
import py4j.GatewayServer;
import py4j.Protocol;

/**
 * Decodes an argument list that Python sent as one string of Py4J command parts (one per line:
 * {@code i1}, {@code sabc}, {@code ro12}, {@code n} ...), so a call with any number of arguments,
 * literals and JVM objects mixed, is one Py4J round trip instead of one per array element.
 */
public final class Args {
  private static volatile Gateway gateway;

  private Args() {}

  /** Called once by the Python side with its gateway server, whose object table resolves references. */
  public static void attach(GatewayServer server) {
    gateway = server.getGateway();
  }

  public static List<Object> decode(String encoded) {
    List<Object> out = new ArrayList<>();
    if (encoded == null || encoded.isEmpty()) {
      return out;
    }
    Gateway g = gateway;
    if (g == null) {
      throw new IllegalStateException("Args.attach was not called by the Python side.");
    }
    int start = 0;
    int n = encoded.length();
    while (start < n) {
      int end = encoded.indexOf('\n', start);
      if (end < 0) {
        end = n;
      }
      // Py4J escapes newlines inside string parts, so each line is one whole part.
      out.add(Protocol.getObject(encoded.substring(start, end), g));
      start = end + 1;
    }
    return out;
  }
}
