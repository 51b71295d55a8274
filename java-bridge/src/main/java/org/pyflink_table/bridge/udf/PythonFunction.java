package org.pyflink_table.bridge.udf;

import org.pyflink_table.bridge.expressions.UserFunction;

/** What every kind of Python function (scalar, table, aggregate) shares as a user function. */
public abstract class PythonFunction implements UserFunction {
  /** The name it was registered under, or the function's own name. */
  protected final String name;

  protected PythonFunction(String name) {
    this.name = name;
  }

  @Override
  public final String name() {
    return name;
  }
}
