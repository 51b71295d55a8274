package org.pyflink_table.bridge.udf;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.orc.ColumnStatistics;
import org.apache.orc.DateColumnStatistics;
import org.apache.orc.IntegerColumnStatistics;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.TypeDescription;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.DictionaryPageReadStore;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.View;
import org.apache.spark.sql.execution.datasources.FileStatusWithMetadata;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.execution.datasources.PartitionDirectory;
import org.apache.spark.sql.execution.datasources.orc.OrcFileFormat;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.pyflink_table.bridge.expressions.ScalaInterop;

/**
 * What the footers of a Parquet or ORC file source tell about its rows and a grouping key's
 * distinct values, read without decoding any data. Parquet: the footer's row count per row group;
 * per row group and column the minimum, maximum and null count (for an integral key, {@code max -
 * min + 1} over all row groups bounds its distinct values); and, for a column chunk whose pages are
 * all dictionary encoded, the dictionary page's number of entries (read from its page header: the
 * chunk's distinct values, so their sum over the row groups bounds the key's, whatever its type);
 * when the dictionaries are small ({@link #MAX_VALUES}), their values themselves, whose union over
 * all row groups and files is the key's exact set of non-NULL values (the sum counts a key once
 * per row group holding it, too weak for a file of many row groups).
 * ORC: the file footer's row count and, per column, minimum, maximum and whether it has NULLs (an
 * integral or DATE key's range; ORC's footer has no dictionary sizes). An uncached file source has
 * no other statistics (Spark knows only its size), so without this a few large groups from a file
 * would be packed.
 */
final class FooterKeyDomain {
  private FooterKeyDomain() {}

  /** Beyond this many files the footers are not read (each is a read; on object stores a request). */
  static final int MAX_FILES = 256;

  /**
   * Dictionary values kept per file, and in the union over all files, for an exact distinct count;
   * beyond it the sum of the dictionaries' sizes is the bound. Decoding a dictionary page of this
   * many entries takes well under a millisecond; grouping by more keys than this would need more
   * than 50M rows to take the per-group path at all.
   */
  static final int MAX_VALUES = 10_000;

  /**
   * The facts already read per file (its path, length and modification time, so a rewritten file is
   * read again) and column name: a file's footer never changes. Bounded, oldest dropped.
   */
  private static final Map<String, Facts> FACTS = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Facts> eldest) {
      return size() > 4_096;
    }
  };

  /**
   * One file's row count and, for one column, its distinct-value bounds (infinity where unknown)
   * and, when every chunk of it is dictionary encoded with small dictionaries, its non-NULL values
   * (else null).
   */
  private record Facts(long rows, long min, long max, long nulls, double dictionaryEntries, boolean rangeKnown,
      Set<Object> values) {}

  /**
   * The rows of {@code plan} when it is projections of a Parquet or ORC file source (a filter would make
   * the footers' count an overestimate), or NaN.
   */
  static double rows(LogicalPlan plan) {
    LogicalPlan node = plan;
    while (node instanceof Project || transparent(node)) node = node.children().head();
    HadoopFsRelation files = footed(node);
    if (files == null) return Double.NaN;
    List<Facts> facts = facts(files, null, null);
    if (facts == null) return Double.NaN;
    double rows = 0;
    for (Facts f : facts) rows += f.rows;
    return rows;
  }

  /**
   * An upper bound of the distinct values (NULL included) of the attribute {@code id} of {@code
   * plan}'s output, when it is a column of a Parquet or ORC file source's files reached through projections
   * and filters; infinity otherwise.
   */
  static double distinct(LogicalPlan plan, ExprId id, DataType type) {
    LogicalPlan node = plan;
    while (true) {
      if (node instanceof LogicalRelation) break;
      if (node instanceof Project) {
        ExprId source = null;
        for (NamedExpression e : ScalaInterop.list(((Project) node).projectList())) {
          if (!e.exprId().equals(id)) continue;
          if (e instanceof Attribute) source = id;
          else if (e instanceof Alias && sameValue(((Alias) e).child()) instanceof Attribute a) source = a.exprId();
        }
        if (source == null) return Double.POSITIVE_INFINITY;
        id = source;
        node = ((Project) node).child();
      } else if (node instanceof Filter || transparent(node)) {
        node = node.children().head();
      } else {
        return Double.POSITIVE_INFINITY;
      }
    }
    HadoopFsRelation files = footed(node);
    if (files == null) return Double.POSITIVE_INFINITY;
    String name = null;
    for (Attribute a : ScalaInterop.list(((LogicalRelation) node).output())) {
      if (a.exprId().equals(id)) name = a.name();
    }
    if (name == null) return Double.POSITIVE_INFINITY;
    for (String p : files.partitionSchema().fieldNames()) {
      if (p.equalsIgnoreCase(name)) return Double.POSITIVE_INFINITY; // a directory's value, not in the files
    }
    List<Facts> facts = facts(files, name, type);
    if (facts == null) return Double.POSITIVE_INFINITY;
    boolean rangeKnown = integral(type);
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    boolean noNull = true;
    double entries = 0;
    Set<Object> values = new HashSet<>();
    for (Facts f : facts) {
      rangeKnown &= f.rangeKnown;
      min = Math.min(min, f.min);
      max = Math.max(max, f.max);
      noNull &= f.nulls == 0; // an unknown count (-1) makes NULL possible
      entries += f.dictionaryEntries;
      if (values != null && f.values != null) values.addAll(f.values);
      if (f.values == null || values == null || values.size() > MAX_VALUES) values = null;
    }
    double nullValue = noNull ? 0 : 1;
    double range = !rangeKnown ? Double.POSITIVE_INFINITY : min > max ? 0 : (double) max - min + 1;
    double exact = values == null ? Double.POSITIVE_INFINITY : values.size();
    return Math.min(Math.min(range, entries), exact) + nullValue;
  }

  /** A node of an analyzed plan that passes its child's rows on unchanged (a view and its alias). */
  private static boolean transparent(LogicalPlan node) {
    return node instanceof SubqueryAlias || node instanceof View;
  }

  /**
   * {@code e} without casts to the type it already has (a file source's declared schema casts each
   * column to itself in the analyzed plan), so that the column is recognised.
   */
  private static Expression sameValue(Expression e) {
    while (e instanceof Cast c && c.child().dataType().sameType(c.dataType())) e = c.child();
    return e;
  }

  /** The Parquet or ORC files relation {@code node} scans, or null. */
  private static HadoopFsRelation footed(LogicalPlan node) {
    if (!(node instanceof LogicalRelation)) return null;
    if (!(((LogicalRelation) node).relation() instanceof HadoopFsRelation files)) return null;
    return files.fileFormat() instanceof ParquetFileFormat || files.fileFormat() instanceof OrcFileFormat ? files : null;
  }

  /** Each file's facts (for {@code column} when given), or null when a file cannot be read or there are too many. */
  private static List<Facts> facts(HadoopFsRelation files, String column, DataType type) {
    List<FileStatus> statuses = new ArrayList<>();
    List<PartitionDirectory> dirs;
    try {
      dirs = ScalaInterop.list(files.location().listFiles(
          ScalaInterop.seq(List.<Expression>of()), ScalaInterop.seq(List.<Expression>of())));
    } catch (RuntimeException e) {
      return null; // e.g. files gone since the table was listed: the scan reports it when it runs
    }
    for (PartitionDirectory dir : dirs) {
      for (FileStatusWithMetadata f : ScalaInterop.list(dir.files())) {
        statuses.add(f.fileStatus());
        if (statuses.size() > MAX_FILES) return null;
      }
    }
    SparkSession spark = files.sparkSession();
    Configuration conf = null;
    List<Facts> out = new ArrayList<>();
    for (FileStatus status : statuses) {
      String key = status.getPath() + "|" + status.getLen() + "|" + status.getModificationTime() + "|" + column;
      Facts known;
      synchronized (FACTS) {
        known = FACTS.get(key);
      }
      if (known == null) {
        if (conf == null) conf = spark.sessionState().newHadoopConfWithOptions(files.options());
        try {
          known = files.fileFormat() instanceof OrcFileFormat ? readOrc(status, conf, column, type)
              : read(status, conf, column, type);
        } catch (IOException | RuntimeException e) {
          return null; // unreadable here: the scan reports it when it runs
        }
        synchronized (FACTS) {
          FACTS.put(key, known);
        }
      }
      out.add(known);
    }
    return out;
  }

  private static Facts read(FileStatus status, Configuration conf, String column, DataType type) throws IOException {
    HadoopInputFile input = HadoopInputFile.fromStatus(status, conf);
    try (ParquetFileReader reader = ParquetFileReader.open(input)) {
      long rows = 0;
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      long nulls = 0;
      double entries = 0;
      Set<Object> values = column == null ? null : new HashSet<>();
      boolean rangeKnown = column != null && integral(type);
      for (BlockMetaData block : reader.getFooter().getBlocks()) {
        rows += block.getRowCount();
        if (column == null) continue;
        ColumnChunkMetaData chunk = chunk(block, column);
        if (chunk == null) return new Facts(rows, 0, 0, -1, Double.POSITIVE_INFINITY, false, null);
        Statistics<?> stats = chunk.getStatistics();
        long chunkNulls = stats == null || !stats.isNumNullsSet() ? -1 : stats.getNumNulls();
        nulls = nulls < 0 || chunkNulls < 0 ? -1 : nulls + chunkNulls;
        if (rangeKnown) {
          if (!signedIntegral(chunk.getPrimitiveType()) || stats == null || stats.isEmpty()) {
            rangeKnown = false;
          } else if (stats.hasNonNullValue()) {
            min = Math.min(min, ((Number) stats.genericGetMin()).longValue());
            max = Math.max(max, ((Number) stats.genericGetMax()).longValue());
          } else if (chunkNulls < 0) {
            rangeKnown = false;
          }
        }
        double chunkEntries = dictionaryEntries(chunk, input);
        entries += chunkEntries;
        if (values != null && chunkEntries <= MAX_VALUES) values = dictionaryValues(reader, block, chunk, values);
        if (values != null && (chunkEntries > MAX_VALUES || values.size() > MAX_VALUES)) values = null;
      }
      return new Facts(rows, min, max, nulls, entries, rangeKnown, values);
    }
  }

  /** An ORC file's facts from its footer: row count, the column's range (integral or DATE) and whether it has NULLs. */
  private static Facts readOrc(FileStatus status, Configuration conf, String column, DataType type) throws IOException {
    OrcFile.ReaderOptions options = OrcFile.readerOptions(conf).maxLength(status.getLen());
    try (Reader reader = OrcFile.createReader(status.getPath(), options)) {
      long rows = reader.getNumberOfRows();
      if (column == null) return new Facts(rows, 0, 0, -1, Double.POSITIVE_INFINITY, false, null);
      TypeDescription schema = reader.getSchema();
      TypeDescription field = null;
      List<String> names = schema.getFieldNames();
      for (int i = 0; i < names.size(); i++) {
        if (names.get(i).equals(column)) {
          field = schema.getChildren().get(i);
          break;
        }
        if (names.get(i).toLowerCase(Locale.ROOT).equals(column.toLowerCase(Locale.ROOT))) {
          field = schema.getChildren().get(i);
        }
      }
      ColumnStatistics[] all = reader.getStatistics();
      if (field == null || field.getId() >= all.length) return new Facts(rows, 0, 0, -1, Double.POSITIVE_INFINITY, false, null);
      ColumnStatistics stats = all[field.getId()];
      long nulls = stats.hasNull() ? 1 : 0;
      if (stats.getNumberOfValues() == 0) {
        return new Facts(rows, Long.MAX_VALUE, Long.MIN_VALUE, nulls, Double.POSITIVE_INFINITY, integral(type), null);
      }
      if (integral(type) && stats instanceof IntegerColumnStatistics i) {
        return new Facts(rows, i.getMinimum(), i.getMaximum(), nulls, Double.POSITIVE_INFINITY, true, null);
      }
      if (integral(type) && stats instanceof DateColumnStatistics d) {
        return new Facts(rows, d.getMinimumDayOfEpoch(), d.getMaximumDayOfEpoch(), nulls, Double.POSITIVE_INFINITY, true,
            null);
      }
      return new Facts(rows, 0, 0, nulls, Double.POSITIVE_INFINITY, false, null);
    }
  }

  /** The chunk of the top-level column {@code name} (as Spark matches it: exactly, else ignoring case). */
  private static ColumnChunkMetaData chunk(BlockMetaData block, String name) {
    ColumnChunkMetaData folded = null;
    for (ColumnChunkMetaData c : block.getColumns()) {
      String[] path = c.getPath().toArray();
      if (path.length != 1) continue;
      if (path[0].equals(name)) return c;
      if (path[0].toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) folded = c;
    }
    return folded;
  }

  /** The distinct values of a chunk whose pages are all dictionary encoded (its dictionary's entries), else infinity. */
  private static double dictionaryEntries(ColumnChunkMetaData chunk, HadoopInputFile input) throws IOException {
    EncodingStats encodings = chunk.getEncodingStats();
    if (!chunk.hasDictionaryPage() || encodings == null || encodings.hasNonDictionaryEncodedPages()) {
      return Double.POSITIVE_INFINITY;
    }
    try (SeekableInputStream in = input.newStream()) {
      in.seek(chunk.getDictionaryPageOffset());
      PageHeader header = Util.readPageHeader(in);
      return header.isSetDictionary_page_header() ? header.getDictionary_page_header().getNum_values()
          : Double.POSITIVE_INFINITY;
    }
  }

  /**
   * {@code values} with the entries of the chunk's dictionary page added (decoded as their physical
   * type, so two values are one exactly when their bytes are), or null when it cannot be decoded.
   */
  private static Set<Object> dictionaryValues(ParquetFileReader reader, BlockMetaData block, ColumnChunkMetaData chunk,
      Set<Object> values) throws IOException {
    ColumnDescriptor column = reader.getFileMetaData().getSchema().getColumnDescription(chunk.getPath().toArray());
    DictionaryPageReadStore store = reader.getDictionaryReader(block); // its class is package-private
    DictionaryPage page = store.readDictionaryPage(column);
    if (page == null) return null;
    Dictionary dictionary = page.getEncoding().initDictionary(column, page);
    PrimitiveType.PrimitiveTypeName physical = column.getPrimitiveType().getPrimitiveTypeName();
    for (int id = 0; id <= dictionary.getMaxId(); id++) {
      switch (physical) {
        case INT32 -> values.add(dictionary.decodeToInt(id));
        case INT64 -> values.add(dictionary.decodeToLong(id));
        // Raw bits: the set counts NaNs or zeros of other bits apart, which only loosens the bound.
        case FLOAT -> values.add(Float.floatToRawIntBits(dictionary.decodeToFloat(id)));
        case DOUBLE -> values.add(Double.doubleToRawLongBits(dictionary.decodeToDouble(id)));
        case BINARY, FIXED_LEN_BYTE_ARRAY, INT96 -> values.add(dictionary.decodeToBinary(id).copy());
        default -> {
          return null;
        }
      }
    }
    return values;
  }

  private static boolean integral(DataType t) {
    return t instanceof ByteType || t instanceof ShortType || t instanceof IntegerType || t instanceof LongType
        || t instanceof DateType;
  }

  /** INT32/INT64 as signed numbers (plain, signed integer or date): their statistics order them as Spark does. */
  private static boolean signedIntegral(PrimitiveType p) {
    PrimitiveType.PrimitiveTypeName n = p.getPrimitiveTypeName();
    if (n != PrimitiveType.PrimitiveTypeName.INT32 && n != PrimitiveType.PrimitiveTypeName.INT64) return false;
    LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
    return a == null || a instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation
        || (a instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.isSigned());
  }
}
