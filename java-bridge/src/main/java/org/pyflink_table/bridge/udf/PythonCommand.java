package org.pyflink_table.bridge.udf;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The command a Spark Python worker unpickles for one Python function: a pair (callable, return
 * type). Built here when the callable depends on the query (which functions, which columns): it is
 * a call of a worker-side factory, {@code module.name(*args)}, with str and bytes arguments, in
 * pickle protocol 3. The bytes arguments are the functions' own pickles, made by PySpark's
 * serializer when they were registered.
 */
final class PythonCommand {
  private PythonCommand() {}

  // Pickle opcodes (Python's Lib/pickle.py).
  private static final int PROTO = 0x80;
  private static final int GLOBAL = 'c';
  private static final int MARK = '(';
  private static final int TUPLE = 't';
  private static final int REDUCE = 'R';
  private static final int NONE = 'N';
  private static final int TUPLE2 = 0x86;
  private static final int BINUNICODE = 'X';
  private static final int BINBYTES = 'B';
  private static final int STOP = '.';

  /** The pickle of {@code (module.name(*args), None)}; each arg a String or a byte[]. */
  static byte[] call(String module, String name, Object... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(PROTO);
    out.write(3);
    out.write(GLOBAL);
    out.writeBytes((module + "\n" + name + "\n").getBytes(StandardCharsets.UTF_8));
    out.write(MARK);
    for (Object a : args) {
      byte[] data;
      if (a instanceof String) {
        out.write(BINUNICODE);
        data = ((String) a).getBytes(StandardCharsets.UTF_8);
      } else {
        out.write(BINBYTES);
        data = (byte[]) a;
      }
      writeLength(out, data.length);
      out.writeBytes(data);
    }
    out.write(TUPLE);
    out.write(REDUCE);
    out.write(NONE);
    out.write(TUPLE2);
    out.write(STOP);
    return out.toByteArray();
  }

  private static void writeLength(ByteArrayOutputStream out, int n) {
    // little-endian 4-byte length, as BINUNICODE and BINBYTES expect
    out.write(n & 0xff);
    out.write((n >>> 8) & 0xff);
    out.write((n >>> 16) & 0xff);
    out.write((n >>> 24) & 0xff);
  }
}
