package org.pyflink_table.bridge.window;

import org.pyflink_table.bridge.errors.ValidationException;
import org.pyflink_table.bridge.expressions.Expr;

/**
 * A group window as the Python builders define it: {@code Tumble.over(size).on(time).alias(w)},
 * {@code Slide.over(size).every(slide).on(time).alias(w)} or
 * {@code Session.with_gap(gap).on(time).alias(w)}. Its expressions stay unresolved until the window
 * is applied to a table.
 */
public final class GroupWindowSpec {
  public enum Kind { TUMBLE, SLIDE, SESSION }

  public final Kind kind;
  /** Window length (tumble, slide) or inactivity gap (session). */
  public final Expr size;
  /** The slide of a sliding window; null otherwise. */
  public final Expr slide;
  public final Expr timeField;
  public final String alias;

  private GroupWindowSpec(Kind kind, Expr size, Expr slide, Expr timeField, String alias) {
    if (alias == null || alias.isBlank()) {
      throw new ValidationException("A group window needs an alias, e.g. .alias('w').");
    }
    this.kind = kind;
    this.size = size;
    this.slide = slide;
    this.timeField = timeField;
    this.alias = alias;
  }

  public static GroupWindowSpec tumble(Expr size, Expr timeField, String alias) {
    return new GroupWindowSpec(Kind.TUMBLE, size, null, timeField, alias);
  }

  public static GroupWindowSpec slide(Expr size, Expr slide, Expr timeField, String alias) {
    return new GroupWindowSpec(Kind.SLIDE, size, slide, timeField, alias);
  }

  public static GroupWindowSpec session(Expr gap, Expr timeField, String alias) {
    return new GroupWindowSpec(Kind.SESSION, gap, null, timeField, alias);
  }

  @Override
  public String toString() {
    switch (kind) {
      case TUMBLE: return "TumbleWindow(" + alias + ", " + timeField + ", " + size + ")";
      case SLIDE: return "SlideWindow(" + alias + ", " + timeField + ", " + size + ", " + slide + ")";
      default: return "SessionWindow(" + alias + ", " + timeField + ", " + size + ")";
    }
  }
}
