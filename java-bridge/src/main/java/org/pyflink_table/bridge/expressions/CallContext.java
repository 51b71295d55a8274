package org.pyflink_table.bridge.expressions;

import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.types.DataType;
import org.pyflink_table.bridge.errors.ValidationException;

/** The compiled arguments of one built-in call, with access to their types and the raw tree. */
public final class CallContext {
  public final String name;
  public final List<Column> args;
  public final List<Expr> exprs;
  public final Scope scope;
  /** Set for DISTINCT aggregates: {@code col('a').distinct.count}. */
  public final boolean distinct;

  CallContext(String name, List<Column> args, List<Expr> exprs, Scope scope, boolean distinct) {
    this.name = name;
    this.args = args;
    this.exprs = exprs;
    this.scope = scope;
    this.distinct = distinct;
  }

  public Column arg(int i) {
    return args.get(i);
  }

  public int size() {
    return args.size();
  }

  public DataType type(int i) {
    return scope.typeOf(args.get(i));
  }

  /** The value of a literal argument (e.g. a cast target or a trim flag). */
  public Object literal(int i) {
    Expr e = exprs.get(i);
    if (e instanceof Expr.Literal) {
      return ((Expr.Literal) e).value;
    }
    throw new ValidationException("Argument " + (i + 1) + " of " + name + " must be a literal, got " + e + ".");
  }
}
