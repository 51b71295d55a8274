package org.pyflink_table.bridge.udf;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import net.razorvine.pickle.IObjectDeconstructor;
import net.razorvine.pickle.Pickler;

/**
 * The command a Spark Python worker unpickles for one Python function: a pair (callable, return
 * type). Built here when the callable depends on the query (which functions, which columns): it is
 * a call of a worker-side factory, {@code module.name(*args)}, with str and bytes arguments. The
 * pickle is written by Pyrolite (the pickle library Spark itself uses to talk to Python workers);
 * the bytes arguments are the functions' own pickles, made by PySpark's serializer when they were
 * registered. Structured arguments travel as JSON written by Jackson ({@link #json}).
 */
public final class PythonCommand {
  private PythonCommand() {}

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A call of {@code module.name(*args)} in the worker, as Pyrolite pickles it. */
  private record Call(String module, String name, Object[] args) {}

  /** The call being pickled by this thread: Pyrolite asks a deconstructor for module and name without it. */
  private static final ThreadLocal<Call> WRITING = new ThreadLocal<>();

  static {
    Pickler.registerCustomDeconstructor(Call.class, new IObjectDeconstructor() {
      @Override
      public String getModule() {
        return WRITING.get().module();
      }

      @Override
      public String getName() {
        return WRITING.get().name();
      }

      @Override
      public Object[] deconstruct(Object o) {
        return ((Call) o).args();
      }
    });
  }

  /** The pickle of {@code (module.name(*args), None)}; each arg a String or a byte[]. */
  public static byte[] call(String module, String name, Object... args) {
    return pickle(new Call(module, name, args), true);
  }

  /**
   * The pickle of {@code module.name(*args)} alone, for a factory that returns the whole command
   * (callable, return type): eval types whose worker reads the return type from the command.
   */
  public static byte[] command(String module, String name, Object... args) {
    return pickle(new Call(module, name, args), false);
  }

  private static byte[] pickle(Call call, boolean withoutReturnType) {
    WRITING.set(call);
    try {
      return new Pickler(false).dumps(withoutReturnType ? new Object[] {call, null} : call);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      WRITING.remove();
    }
  }

  /** {@code value} (maps, lists, strings, numbers) as JSON, read by Python's json module. */
  public static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
