package org.pyflink_table.bridge.expressions;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the bridge noted about plan nodes it built, keyed by the expression id of one of their
 * outputs, so that a later pass over the plan can recognise them. Ids are never reused; the latest
 * 4,096 notes are kept, as a plan is planned soon after it is built and old ones are dropped.
 */
public final class ExprIdMemo<V> {
  private static final int KEPT = 4096;

  private final Map<Long, V> notes = Collections.synchronizedMap(new LinkedHashMap<Long, V>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, V> eldest) {
      return size() > KEPT;
    }
  });

  /** Notes {@code value} for the node whose output has expression id {@code id}. */
  public void put(long id, V value) {
    notes.put(id, value);
  }

  /** The note for {@code id}, or null. */
  public V get(long id) {
    return notes.get(id);
  }
}
