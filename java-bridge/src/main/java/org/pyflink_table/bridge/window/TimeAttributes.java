package org.pyflink_table.bridge.window;

import org.pyflink_table.bridge.connectors.Connectors;

/**
 * Marks on the columns of a table that are event-time attributes. A source with a watermark
 * declaration (the streaming package's StreamSources) puts the mark on its rowtime column, a
 * connector table its mark on a {@code PROCTIME()} column; windows over streams read them.
 */
public final class TimeAttributes {
  private TimeAttributes() {}

  /** Column metadata key: the watermark delay, in milliseconds, of an event-time attribute. */
  public static final String WATERMARK_DELAY_MS = "pyflink_table.watermarkDelayMs";

  /**
   * A column of a bounded stream's rows numbered in arrival order, for judging late rows
   * (streaming.BoundedEventTime), set where a window's rows are reordered before their aggregation.
   */
  public static final String ARRIVAL = "__pft_arrival";

  /**
   * A column of a bounded stream's session-windowed rows: each row's own window {@code [t, t + gap)},
   * from which streaming.BoundedSessions forms the sessions again without the late rows.
   */
  public static final String ROW_WINDOW = "__pft_row_window";

  /** Column metadata key (true) of a processing-time attribute (a column declared {@code AS PROCTIME()}). */
  public static final String PROCTIME = Connectors.PROCTIME_MARK;
}
