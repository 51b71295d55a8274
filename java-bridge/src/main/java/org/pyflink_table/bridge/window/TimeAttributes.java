package org.pyflink_table.bridge.window;

/**
 * Marks on the columns of a table that are event-time attributes. A source with a watermark
 * declaration (the streaming package's StreamSources) puts the mark on its rowtime column; windows
 * over streams read it, which is why it lives in this lower layer.
 */
public final class TimeAttributes {
  private TimeAttributes() {}

  /** Column metadata key: the watermark delay, in milliseconds, of an event-time attribute. */
  public static final String WATERMARK_DELAY_MS = "pyflink_table.watermarkDelayMs";
}
