package org.pyflink_table.bridge.connectors;

import static org.pyflink_table.bridge.connectors.CsvText.State.*;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.Serializable;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A small CSV tokenizer for the few places where Spark's CSV reader says too little: whether a file
 * holds a line break inside a quoted value (so it must be read record by record rather than line by
 * line), how many fields a malformed record has, and, on the error path only, which line of a file a
 * failed row starts on. A quote opens a value only at the start of a field; inside quotes a doubled
 * quote or the escape character keeps the next character literal.
 */
final class CsvText {
  private CsvText() {}

  /**
   * The reading options of one CSV table that decide how text splits into records and fields.
   *
   * @param quote -1 when quoting is disabled
   * @param escape -1 when there is no escape character other than the doubled quote
   * @param nullLiteral null when no null literal is set
   */
  record Dialect(int delimiter, int quote, int escape, boolean comments, boolean header, String nullLiteral,
      boolean multiLine) implements Serializable {
    private static final long serialVersionUID = 1L;

    Dialect withMultiLine(boolean value) {
      return new Dialect(delimiter, quote, escape, comments, header, nullLiteral, value);
    }

    /** Every special character is ASCII, so UTF-8 bytes can be scanned without decoding. */
    boolean ascii() {
      return delimiter < 128 && quote < 128 && escape < 128;
    }
  }

  // --- scanning for quoted line breaks ------------------------------------------------------------

  /** Where the scanner stands in a record; FOUND: a line break was seen inside a quoted value. */
  enum State { START, FIELD_START, UNQUOTED, QUOTED, QUOTED_ESCAPE, AFTER_QUOTE, COMMENT, FOUND }

  private static State step(State state, int c, Dialect d) {
    boolean lineBreak = c == '\n' || c == '\r';
    switch (state) {
      case START:
        if (d.comments && c == '#') return COMMENT;
        // fall through: a record starts with a field
      case FIELD_START:
        if (c == d.quote) return QUOTED;
        if (c == d.delimiter) return FIELD_START;
        return lineBreak ? START : UNQUOTED;
      case UNQUOTED:
        if (c == d.delimiter) return FIELD_START;
        return lineBreak ? START : UNQUOTED;
      case QUOTED:
        if (lineBreak) return FOUND;
        if (c == d.quote) return AFTER_QUOTE;
        return c == d.escape ? QUOTED_ESCAPE : QUOTED;
      case QUOTED_ESCAPE:
        return lineBreak ? FOUND : QUOTED;
      case AFTER_QUOTE:
        if (c == d.quote) return QUOTED; // a doubled quote stands for one quote
        if (c == d.delimiter) return FIELD_START;
        return lineBreak ? START : UNQUOTED;
      case COMMENT:
        return lineBreak ? START : COMMENT;
      default:
        return state;
    }
  }

  /** What a scan of one file found: a quoted line break, and the first line break between records. */
  static final class Layout implements Serializable {
    private static final long serialVersionUID = 1L;
    final boolean quotedLineBreak;
    /** "\n", "\r\n" or "\r"; null when the file has no line break between records. */
    final String separator;

    /** The file ends inside a quoted value (its last record's quote is never closed). */
    final boolean unclosedAtEnd;

    Layout(boolean quotedLineBreak, String separator, boolean unclosedAtEnd) {
      this.quotedLineBreak = quotedLineBreak;
      this.separator = separator;
      this.unclosedAtEnd = unclosedAtEnd;
    }
  }

  /**
   * Scans a stream: whether a quoted value holds a line break, which line break separates records
   * (Spark needs it spelled out to keep a quoted "\r\n" as it is) and whether the last quote is
   * never closed. Files without quoted line breaks are read to the end anyway; the others are
   * read record by record, which costs more than this scan.
   */
  static Layout scan(InputStream in, Dialect d) throws IOException {
    if (d.quote < 0) return new Layout(false, null, false);
    Scanner s = new Scanner(d);
    if (d.ascii()) {
      byte[] buf = new byte[1 << 16];
      byte quote = (byte) d.quote;
      for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
        int i = 0;
        while (i < n) {
          if (s.outsideQuotes() && s.separator != null && !d.comments) {
            // Fast path: outside quotes only the next quote matters, and whether a field starts there
            // depends only on the character before it.
            int q = i;
            while (q < n && buf[q] != quote) q++;
            if (q > i) s.state = stateAfter(buf[q - 1] & 0xff, d);
            if (q == n) break;
            i = q;
          }
          s.accept(buf[i] & 0xff);
          i++;
        }
      }
    } else {
      Reader r = new InputStreamReader(in, StandardCharsets.UTF_8);
      char[] buf = new char[1 << 15];
      for (int n = r.read(buf); n >= 0; n = r.read(buf)) {
        for (int i = 0; i < n; i++) {
          s.accept(buf[i]);
        }
      }
    }
    if (s.crPending) s.separator = "\r";
    return s.layout();
  }

  /** The state outside quotes after character {@code c} (no comments). */
  private static State stateAfter(int c, Dialect d) {
    if (c == d.delimiter) return FIELD_START;
    return c == '\n' || c == '\r' ? START : UNQUOTED;
  }

  private static final class Scanner {
    final Dialect d;
    State state = START;
    boolean found;
    boolean crPending;
    String separator;

    Scanner(Dialect d) {
      this.d = d;
    }

    /** Feeds one character. */
    void accept(int c) {
      if (crPending) {
        crPending = false;
        separator = c == '\n' ? "\r\n" : "\r";
      }
      boolean inQuotes = state == QUOTED || state == QUOTED_ESCAPE;
      if (separator == null && !inQuotes && !crPending && (c == '\n' || c == '\r')) {
        if (c == '\n') {
          separator = "\n";
        } else {
          crPending = true;
        }
      }
      state = step(state, c, d);
      if (state == FOUND) {
        found = true;
        state = QUOTED;
      }
    }

    boolean outsideQuotes() {
      return !crPending && (state == START || state == FIELD_START || state == UNQUOTED);
    }

    Layout layout() {
      return new Layout(found, separator, state == QUOTED || state == QUOTED_ESCAPE);
    }
  }

  // --- records and fields ---------------------------------------------------------------------------

  /**
   * One record of a file: the line it starts on (1-based), its text and its fields.
   *
   * @param unclosed the last value opened a quote that the record never closes
   */
  record Record(long line, String text, List<String> fields, boolean unclosed, boolean comment) {
    /** The fields joined by the delimiter, a null literal as empty: how the job shows a parsed row. */
    String joined(Dialect d) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < fields.size(); i++) {
        if (i > 0) sb.appendCodePoint(d.delimiter);
        String f = fields.get(i);
        sb.append(d.nullLiteral != null && d.nullLiteral.equals(f) ? "" : f);
      }
      return sb.toString();
    }
  }

  /** Reads records one at a time; a record ends at a line break outside quotes (or at any, by line). */
  static final class RecordReader {
    private final Reader in;
    private final Dialect d;
    private int pending = -2;
    private long line = 1;

    RecordReader(Reader in, Dialect d) {
      this.in = in;
      this.d = d;
    }

    private int read() throws IOException {
      if (pending != -2) {
        int c = pending;
        pending = -2;
        return c;
      }
      return in.read();
    }

    /** The next record, or null at the end of the input. */
    Record next() throws IOException {
      int c = read();
      if (c < 0) return null;
      long startLine = line;
      StringBuilder text = new StringBuilder();
      List<String> fields = new ArrayList<>();
      StringBuilder field = new StringBuilder();
      boolean comment = d.comments && c == '#';
      State state = comment ? COMMENT : START;
      while (c >= 0) {
        boolean lineBreak = c == '\n' || c == '\r';
        if (lineBreak) {
          if (c == '\r') {
            int n = read();
            if (n == '\n') {
              if (state == QUOTED && d.multiLine) {
                text.append("\r\n");
                field.append("\r\n");
                line++;
                c = read();
                continue;
              }
            } else {
              pending = n;
            }
          }
          line++;
          if (!(state == QUOTED || state == QUOTED_ESCAPE) || !d.multiLine) break;
          text.append((char) c);
          field.append((char) c);
          state = QUOTED;
          c = read();
          continue;
        }
        text.append((char) c);
        switch (state) {
          case COMMENT:
            break;
          case START:
          case FIELD_START:
          case UNQUOTED:
          case AFTER_QUOTE:
            if (c == d.quote && state != UNQUOTED) {
              // a quote opens a value at its start; right after a closing quote it is a doubled one
              if (state == AFTER_QUOTE) field.append((char) c);
              state = QUOTED;
            } else if (c == d.delimiter) {
              fields.add(field.toString());
              field.setLength(0);
              state = FIELD_START;
            } else {
              field.append((char) c);
              state = UNQUOTED;
            }
            break;
          case QUOTED:
            if (c == d.quote) {
              state = AFTER_QUOTE;
            } else if (c == d.escape) {
              state = QUOTED_ESCAPE;
            } else {
              field.append((char) c);
            }
            break;
          case QUOTED_ESCAPE:
            field.append((char) c);
            state = QUOTED;
            break;
          default:
            break;
        }
        c = read();
      }
      boolean unclosed = state == QUOTED || state == QUOTED_ESCAPE;
      if (!comment && (text.length() > 0 || !fields.isEmpty())) fields.add(field.toString());
      return new Record(startLine, text.toString(), fields, unclosed, comment);
    }
  }

  /**
   * The number of fields of one record's text, or -1 when a quoted value is never closed. Spark
   * hands a malformed record to the job as text; this tells too few fields from too many.
   */
  static int fieldCount(String text, Dialect d) {
    try {
      Record r = new RecordReader(new StringReader(text), d.withMultiLine(true)).next();
      if (r == null) return 0;
      return r.unclosed ? -1 : r.fields.size();
    } catch (IOException e) {
      throw new IllegalStateException(e); // a StringReader does not fail
    }
  }
}
