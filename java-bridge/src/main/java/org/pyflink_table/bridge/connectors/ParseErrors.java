package org.pyflink_table.bridge.connectors;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.LongAccumulator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Malformed rows of CSV and JSON files, seen from the driver: the failing job's message gets the
 * line number (Spark's readers do not know it, so the named file is scanned on this error path
 * only), and the rows that {@code *.ignore-parse-errors} skips or keeps with NULL fields are counted
 * per table with Spark accumulators, readable as metrics and logged as a warning after each job.
 */
public final class ParseErrors {
  private ParseErrors() {}

  private static final Logger LOG = LoggerFactory.getLogger(ParseErrors.class);

  /** Metric name suffix: rows dropped because they could not be read as a row at all. */
  public static final String SKIPPED = "skipped-parse-errors";
  /** Metric name suffix: rows kept with NULL in the fields that could not be parsed. */
  public static final String NULLED = "nulled-parse-errors";

  static final String CSV_PREFIX = "Failed to deserialize CSV row '";
  static final String JSON_PREFIX = "Failed to deserialize JSON '";
  static final String TABLE_MARK = "' of table '";
  static final String FILE_MARK = "' in file ";

  /** How each CSV table splits its files into records, for locating a failed row. */
  private static final Map<String, CsvText.Dialect> DIALECTS = new ConcurrentHashMap<>();

  static void registerDialect(String table, CsvText.Dialect d) {
    DIALECTS.put(table, d);
  }

  // --- line numbers --------------------------------------------------------------------------------

  /**
   * The message of a failed CSV/JSON row with its 1-based line number and the record's text as it
   * stands in the file (line breaks shown as \n), on one line; null when {@code raw} is not such a
   * message. The line is left out when the file cannot be read or holds no matching record.
   */
  public static String describe(String raw) {
    if (raw == null) return null;
    boolean csv = raw.contains(CSV_PREFIX);
    if (!csv && !raw.contains(JSON_PREFIX)) return null;
    String prefix = csv ? CSV_PREFIX : JSON_PREFIX;
    String m = raw.substring(raw.indexOf(prefix));
    int tableAt = m.lastIndexOf(TABLE_MARK);
    int fileAt = m.indexOf(FILE_MARK, tableAt);
    if (tableAt < 0 || fileAt < 0) return null;
    String rowText = m.substring(prefix.length(), tableAt);
    String table = m.substring(tableAt + TABLE_MARK.length(), fileAt);
    int fileEnd = m.indexOf(": ", fileAt + FILE_MARK.length());
    if (fileEnd < 0) return null;
    String fileUri = m.substring(fileAt + FILE_MARK.length(), fileEnd);
    String rest = m.substring(fileEnd).replaceAll(" ?SQLSTATE: [0-9A-Z]+", "").strip();
    int nl = rest.indexOf('\n');
    if (nl >= 0) rest = rest.substring(0, nl).strip();
    String shownFile = fileUri;
    long line = -1;
    String recordText = rowText;
    try {
      Path path = new Path(new URI(fileUri));
      shownFile = path.toUri().getPath();
      Object[] found = csv ? locateCsv(path, table, rowText) : locateJson(path, rowText);
      if (found != null) {
        line = (Long) found[0];
        recordText = (String) found[1];
      }
    } catch (Exception e) { // the message stays useful without the line
      LOG.debug("Cannot locate the failed row in {}", fileUri, e);
    }
    String shownRow = recordText.replace("\r", "\\r").replace("\n", "\\n");
    return prefix + shownRow + TABLE_MARK + table + "' in file " + shownFile + (line > 0 ? ", line " + line : "") + rest;
  }

  private static Configuration hadoop() {
    return SparkSession.active().sparkContext().hadoopConfiguration();
  }

  /** {line, record text} of the first record of the file that reads as {@code rowText}, or null. */
  private static Object[] locateCsv(Path path, String table, String rowText) throws IOException {
    CsvText.Dialect d = DIALECTS.get(table);
    if (d == null) return null;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(Formats.openText(path, hadoop()), StandardCharsets.UTF_8))) {
      CsvText.RecordReader records = new CsvText.RecordReader(in, d);
      boolean first = true;
      for (CsvText.Record r = records.next(); r != null; r = records.next()) {
        boolean header = first && d.header();
        first = false;
        if (header || r.comment() || r.text().isEmpty()) continue;
        // Spark shows a malformed record as its text, a well-formed one as its fields joined.
        String text = r.text().replaceAll("[\r\n]+$", "");
        if (text.equals(rowText) || r.joined(d).equals(rowText)) return new Object[] {r.line(), text};
      }
    }
    return null;
  }

  private static Object[] locateJson(Path path, String rowText) throws IOException {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(Formats.openText(path, hadoop()), StandardCharsets.UTF_8))) {
      long line = 0;
      for (String s = in.readLine(); s != null; s = in.readLine()) {
        line++;
        if (s.equals(rowText) || s.strip().equals(rowText.strip())) return new Object[] {line, s};
      }
    }
    return null;
  }

  // --- counted skips -------------------------------------------------------------------------------

  private static final Map<String, LongAccumulator> COUNTERS = new ConcurrentHashMap<>();
  private static final Map<String, Long> REPORTED = new ConcurrentHashMap<>();
  private static SparkContext counted;

  /** The accumulator counting {@code <table>.<suffix>} on this session's SparkContext. */
  static synchronized LongAccumulator counter(SparkSession spark, String table, String suffix) {
    SparkContext sc = spark.sparkContext();
    if (counted != sc) { // a new SparkContext starts from zero
      COUNTERS.clear();
      REPORTED.clear();
      counted = sc;
      sc.addSparkListener(new SparkListener() {
        @Override
        public void onJobEnd(SparkListenerJobEnd jobEnd) {
          reportNewCounts();
        }
      });
    }
    String name = table + "." + suffix;
    return COUNTERS.computeIfAbsent(name, n -> sc.longAccumulator("pyflink_table " + n));
  }

  private static synchronized void reportNewCounts() {
    for (Map.Entry<String, LongAccumulator> e : COUNTERS.entrySet()) {
      long now = e.getValue().sum();
      long before = REPORTED.getOrDefault(e.getKey(), 0L);
      if (now > before) {
        REPORTED.put(e.getKey(), now);
        String name = e.getKey();
        boolean skipped = name.endsWith(SKIPPED);
        String table = name.substring(0, name.length() - (skipped ? SKIPPED : NULLED).length() - 1);
        String what = skipped ? "malformed row(s) skipped" : "row(s) read with NULL for unparsable or missing fields";
        LOG.warn("Table '{}': {} {} (ignore-parse-errors); {} so far, metric '{}'.", table, now - before, what, now, name);
      }
    }
  }

  /** Current counts by metric name ({@code <table>.skipped-parse-errors}, ...), totals of this process. */
  public static synchronized Map<String, Long> counts() {
    Map<String, Long> out = new TreeMap<>();
    for (Map.Entry<String, LongAccumulator> e : COUNTERS.entrySet()) out.put(e.getKey(), e.getValue().sum());
    return out;
  }
}
