package org.pyflink_table.bridge.types;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.pyflink_table.bridge.Checks;

/**
 * Self-checking test of {@link FlinkTypes}: the shared list tests/type_strings.txt (which the
 * Python parser reads too, in tests/test_type_strings.py), the Spark types, and Flink SQL's
 * spellings. Run main from the repository root; it exits non-zero on a failure.
 */
public final class FlinkTypesTest {
  private static final Checks CHECKS = new Checks("FlinkTypesTest");

  public static void main(String[] args) throws IOException {
    Path shared = Path.of(System.getProperty("type.strings", "tests/type_strings.txt"));
    int cases = 0;
    for (String raw : Files.readAllLines(shared, StandardCharsets.UTF_8)) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) continue;
      cases++;
      if (line.startsWith("!")) {
        String written = line.substring(1).strip();
        CHECKS.check(written, "refused", () -> {
          try {
            return "read as " + FlinkTypes.parse(written).fullFlinkType();
          } catch (RuntimeException e) {
            return "refused";
          }
        });
        continue;
      }
      int bar = line.indexOf('|');
      String written = bar < 0 ? line : line.substring(0, bar).strip();
      String canonical = bar < 0 ? line : line.substring(bar + 1).strip();
      CHECKS.check(written, canonical, () -> FlinkTypes.parse(written).fullFlinkType());
    }
    int read = cases;
    CHECKS.check("the shared list is read", "true", () -> String.valueOf(read > 60));

    // The Spark type each maps to (Spark's own SQL words).
    spark("DECIMAL(10, 2)", "DECIMAL(10,2)");
    spark("TIMESTAMP(3)", "TIMESTAMP_NTZ");
    spark("TIMESTAMP_LTZ(3)", "TIMESTAMP");
    spark("VARCHAR(5)", "STRING");
    spark("CHAR(3)", "STRING");
    spark("BYTES", "BINARY");
    spark("TIME(3)", "TIME(3)");
    spark("TIME(9)", "TIME(6)");
    spark("MULTISET<STRING>", "MAP<STRING, INT>");
    spark("ROW<a INT, `b c` ARRAY<BIGINT>>", "STRUCT<a: INT, `b c`: ARRAY<BIGINT>>");
    spark("INTERVAL DAY", "INTERVAL DAY TO SECOND");
    spark("INTERVAL YEAR TO MONTH", "INTERVAL YEAR TO MONTH");
    CHECKS.check("nullability", "false true", () -> FlinkTypes.parse("INT NOT NULL").nullable() + " "
        + FlinkTypes.parse("INT").nullable());

    // Flink SQL (CAST, DDL) spellings that the type grammar of DataTypes does not have.
    sql("VARCHAR", "STRING");
    sql("VARBINARY", "BYTES");
    sql("CHARACTER VARYING(2)", "VARCHAR(2)");
    sql("CHAR VARYING", "STRING");
    sql("CHARACTER", "CHAR(1)");
    sql("REAL", "FLOAT");
    sql("VARCHAR(3) NOT NULL", "VARCHAR(3) NOT NULL");
    CHECKS.check("VARCHAR outside SQL", "VARCHAR(1)", () -> FlinkTypes.parse("VARCHAR").fullFlinkType());

    // Errors name the type text.
    CHECKS.check("unknown type", "true", () -> {
      try {
        FlinkTypes.parse("ROW<a FOO>");
        return "accepted";
      } catch (RuntimeException e) {
        return String.valueOf(e.getMessage().contains("FOO") && e.getMessage().contains("ROW<a FOO>"));
      }
    });
    CHECKS.finish();
  }

  private static void spark(String flink, String expected) {
    CHECKS.check("Spark type of " + flink, expected, () -> FlinkTypes.toSpark(flink).sql());
  }

  private static void sql(String written, String expected) {
    CHECKS.check("SQL " + written, expected, () -> FlinkTypes.parseSql(written).fullFlinkType());
  }
}
