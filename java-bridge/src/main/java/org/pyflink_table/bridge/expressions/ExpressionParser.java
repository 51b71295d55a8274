package org.pyflink_table.bridge.expressions;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.pyflink_table.bridge.errors.SqlParserException;
import org.pyflink_table.bridge.errors.ValidationException;

/**
 * Parses Flink's string expressions, e.g. {@code "a, b.count as cnt"}, into unresolved
 * {@link Expr} trees. It follows Flink's own parser (PlannerExpressionParserImpl), including its
 * quirks, so a string accepted by Flink means the same here:
 *
 * <pre>
 * expression := logic [TO bound | AS name | AS '(' name {',' name} ')']
 * logic      := comparison {('&amp;&amp;' | '||') comparison}     (one level, left to right)
 * comparison := term [('===' | '==' | '=' | '!==' | '!=' | '&lt;&gt;' | '&gt;=' | '&gt;' | '&lt;=' | '&lt;') term]
 * term       := product {('+' | '-') product}
 * product    := unary {('*' | '/' | '%') unary}
 * unary      := ('!' | '-' | '+') unary | composite
 * composite  := primary {'.' suffix | OVER name}
 * suffix     := name ['(' [expression {',' expression}] ')'] | '?' '(' expression ',' expression ')'
 * primary    := '(' expression ')' | literal | name | '*' | name '(' arguments ')' | '?' '(' arguments ')'
 * </pre>
 *
 * Keywords are case-insensitive; function and method names are kept as written, since the
 * compiler normalises them.
 */
public final class ExpressionParser {

  private static final String[][] COMPARISONS = {
      {"===", "equals"}, {"==", "equals"}, {"=", "equals"},
      {"!==", "notEquals"}, {"!=", "notEquals"}, {"<>", "notEquals"},
      {">=", "greaterThanOrEqual"}, {">", "greaterThan"},
      {"<=", "lessThanOrEqual"}, {"<", "lessThan"}};
  private static final String[][] LOGIC_OPERATORS = {{"&&", "and"}, {"||", "or"}};
  private static final String[][] TERM_OPERATORS = {{"+", "plus"}, {"-", "minus"}};
  private static final String[][] PRODUCT_OPERATORS = {{"*", "times"}, {"/", "divide"}, {"%", "mod"}};

  private static final Map<String, String> OVER_CONSTANTS = Map.of(
      "unbounded_row", "unboundedRow", "unbounded_range", "unboundedRange",
      "current_row", "currentRow", "current_range", "currentRange");

  /** Year-month interval suffixes and their length in months. */
  private static final Map<String, Integer> MONTH_UNITS = Map.of(
      "year", 12, "years", 12, "quarter", 3, "quarters", 3, "month", 1, "months", 1);

  /** Day-time interval suffixes and their length in milliseconds. */
  private static final Map<String, Long> MILLI_UNITS = Map.ofEntries(
      Map.entry("week", 604_800_000L), Map.entry("weeks", 604_800_000L),
      Map.entry("day", 86_400_000L), Map.entry("days", 86_400_000L),
      Map.entry("hour", 3_600_000L), Map.entry("hours", 3_600_000L),
      Map.entry("minute", 60_000L), Map.entry("minutes", 60_000L),
      Map.entry("second", 1_000L), Map.entry("seconds", 1_000L),
      Map.entry("milli", 1L), Map.entry("millis", 1L));

  /** toDate / toTime / toTimestamp and the types of the legacy SQL time classes they cast to. */
  private static final Map<String, String> TEMPORAL_CONVERSIONS = Map.of(
      "todate", "DATE", "totime", "TIME(0)", "totimestamp", "TIMESTAMP(3)");

  private static final Map<String, String> TRIM_MODES = Map.of(
      "leading", "trimLeading", "trailing", "trimTrailing", "both", "trim");

  /** Suffixes that are keywords in Flink: their call names are canonical whatever the case. */
  private static final Set<String> KEYWORD_SUFFIXES = Set.of("asc", "desc", "distinct", "over");

  /** Flink's legacy type names (TypeInformation constants) in the SQL type syntax. */
  private static final Map<String, String> LEGACY_TYPES = Map.ofEntries(
      Map.entry("STRING", "STRING"), Map.entry("INT", "INT"), Map.entry("LONG", "BIGINT"),
      Map.entry("BOOL", "BOOLEAN"), Map.entry("BOOLEAN", "BOOLEAN"),
      Map.entry("DOUBLE", "DOUBLE"), Map.entry("FLOAT", "FLOAT"),
      Map.entry("BYTE", "TINYINT"), Map.entry("SHORT", "SMALLINT"),
      // Flink maps the legacy BigDecimal type to DECIMAL(38, 18), unlike SQL's bare DECIMAL.
      Map.entry("DECIMAL", "DECIMAL(38, 18)"),
      Map.entry("SQL_DATE", "DATE"), Map.entry("SQL_TIME", "TIME(0)"),
      Map.entry("SQL_TIMESTAMP", "TIMESTAMP(3)"),
      Map.entry("INTERVAL_MONTHS", "INTERVAL MONTH"), Map.entry("INTERVAL_MILLIS", "INTERVAL SECOND(3)"));

  /** Deeper nesting is refused with a parse error rather than overflowing the JVM's stack. */
  static final int MAX_NESTING = 200;

  private final String text;
  private int pos;
  private int nesting;

  private ExpressionParser(String text) {
    this.text = text == null ? "" : text;
  }

  /** Parses a comma-separated list of expressions, as given to select or group_by. */
  public static List<Expr> parseList(String text) {
    ExpressionParser p = new ExpressionParser(text);
    List<Expr> items = new ArrayList<>();
    do {
      items.add(p.expression());
    } while (p.consume(","));
    p.expectEnd("',' or end of expression");
    return items;
  }

  /** Parses exactly one expression. */
  public static Expr parse(String text) {
    ExpressionParser p = new ExpressionParser(text);
    Expr e = p.expression();
    p.expectEnd("end of expression");
    return e;
  }

  // ---------------------------------------------------------------------------------------------
  // Grammar, from the loosest binding to the tightest.

  private Expr expression() {
    int start = skipWs();
    Expr e = logic();
    if (consumeKeyword("to")) {
      // Column ranges for with_columns / without_columns: a to c, 1 to 3.
      int toStart = skipWs();
      return new Expr.Call("range", rangeBound(e, start), rangeBound(composite(), toStart));
    }
    if (consumeKeyword("as")) {
      List<Expr> names = consume("(") ? aliasNames() : List.of(aliasName());
      return new Expr.Call("as", prepend(e, names), null);
    }
    return e;
  }

  // Flink parses && and || at one precedence level, left to right: a || b && c is (a || b) && c.
  private Expr logic() {
    return leftAssociative(LOGIC_OPERATORS, this::comparison);
  }

  // Non-associative: a < b < c is an error, as in Flink.
  private Expr comparison() {
    Expr left = term();
    for (String[] op : COMPARISONS) {
      if (consume(op[0])) {
        return new Expr.Call(op[1], left, term());
      }
    }
    return left;
  }

  private Expr term() {
    return leftAssociative(TERM_OPERATORS, this::product);
  }

  private Expr product() {
    return leftAssociative(PRODUCT_OPERATORS, this::unary);
  }

  /** One binary precedence level, left to right: {@code a - b - c} is {@code (a - b) - c}. */
  private Expr leftAssociative(String[][] operators, Supplier<Expr> operand) {
    Expr left = operand.get();
    String name;
    while ((name = consumeOperator(operators)) != null) {
      left = new Expr.Call(name, left, operand.get());
    }
    return left;
  }

  private Expr unary() {
    if (++nesting > MAX_NESTING) {
      throw error(pos, "expression nested deeper than " + MAX_NESTING + " levels");
    }
    try {
      return unaryOperand();
    } finally {
      nesting--;
    }
  }

  private Expr unaryOperand() {
    if (startsNumber()) {
      // A minus sign glued to digits belongs to the literal, so -1.minutes is one interval.
      return composite();
    }
    if (consume("!")) {
      return new Expr.Call("not", unary());
    }
    if (consume("-")) {
      return new Expr.Call("minusPrefix", unary());
    }
    if (consume("+")) {
      // Flink drops a unary plus, so "+a" keeps the name a.
      return unary();
    }
    return composite();
  }

  private Expr composite() {
    Expr e = primary();
    while (true) {
      if (consume(".")) {
        e = suffix(e);
      } else if (consumeKeyword("over")) {
        e = new Expr.Call("over", e, new Expr.FieldRef(name("over window alias")));
      } else {
        return e;
      }
    }
  }

  /** What follows {@code operand.}: a method call in the Scala DSL's style. */
  private Expr suffix(Expr operand) {
    if (consume("?")) {
      List<Expr> branches = arguments();
      requireArity("?", branches, 2);
      return new Expr.Call("ifThenElse", operand, branches.get(0), branches.get(1));
    }
    String name = identifier("method name");
    String key = name.toLowerCase(Locale.ROOT);
    Expr special = specialCall(key, operand);
    if (special != null) return special;
    String temporal = TEMPORAL_CONVERSIONS.get(key);
    if (temporal != null) {
      skipEmptyParentheses();
      return temporal(operand, temporal);
    }
    if (!peek("(")) {
      if (key.equals("rows")) {
        return new Expr.Literal(intervalCount(operand, "row"), "ROW_INTERVAL");
      }
      Integer months = MONTH_UNITS.get(key);
      if (months != null) {
        return new Expr.Literal(monthInterval(operand, months), "INTERVAL MONTH");
      }
      Long millis = MILLI_UNITS.get(key);
      if (millis != null) {
        return new Expr.Literal(milliInterval(operand, millis), "INTERVAL SECOND(3)");
      }
    }
    List<Expr> args = peek("(") ? arguments() : List.of();
    if (key.equals("log") && args.size() == 1) {
      // a.log(base) is log(base, a).
      return new Expr.Call("log", args.get(0), operand);
    }
    if (key.equals("distinct") && !args.isEmpty() && operand instanceof Expr.FieldRef f) {
      // count.distinct(a): the aggregate named before the dot over distinct arguments, in the
      // shape the compiler reads for a.distinct.count.
      List<Expr> distinctArgs = new ArrayList<>(args);
      distinctArgs.set(0, new Expr.Call("distinct", args.get(0)));
      return new Expr.Call(f.name, distinctArgs, null);
    }
    String callName = KEYWORD_SUFFIXES.contains(key) ? key : name;
    return new Expr.Call(callName, prepend(operand, args), null);
  }

  private Expr primary() {
    skipWs();
    if (atEnd()) {
      throw expected("expression");
    }
    char c = text.charAt(pos);
    if (c == '(') {
      pos++;
      Expr e = expression();
      expect(")");
      return e;
    }
    if (c == '\'' || c == '"') {
      return new Expr.Literal(quoted(), null);
    }
    if (startsNumber()) {
      return number();
    }
    if (c == '`') {
      return new Expr.FieldRef(name("field name"));
    }
    if (c == '*') {
      pos++;
      return new Expr.FieldRef("*");
    }
    if (c == '?') {
      pos++;
      List<Expr> args = arguments();
      requireArity("?", args, 3);
      return new Expr.Call("ifThenElse", args, null);
    }
    if (!Character.isJavaIdentifierStart(c)) {
      throw expected("expression");
    }
    String name = identifier("expression");
    String key = name.toLowerCase(Locale.ROOT);
    if (key.equals("true") || key.equals("false")) {
      return new Expr.Literal(Boolean.valueOf(key), null);
    }
    String overConstant = OVER_CONSTANTS.get(key);
    if (overConstant != null) {
      return new Expr.Call(overConstant);
    }
    if (!peek("(")) {
      return new Expr.FieldRef(name);
    }
    return prefixCall(name, key);
  }

  /** A call written {@code name(...)}; a few names take types, modes or names as arguments. */
  private Expr prefixCall(String name, String key) {
    if (key.equals("null") || key.equals("nullof")) {
      expect("(");
      return new Expr.Literal(null, typeText());
    }
    Expr special = specialCall(key, null);
    if (special != null) return special;
    List<Expr> args = arguments();
    String temporal = TEMPORAL_CONVERSIONS.get(key);
    if (temporal != null) {
      requireArity(name, args, 1);
      return temporal(args.get(0), temporal);
    }
    boolean star = args.size() == 1 && args.get(0) instanceof Expr.FieldRef f && f.name.equals("*");
    if (key.equals("count") && star) {
      return new Expr.Call(name);
    }
    return new Expr.Call(name, args, null);
  }

  /** A parenthesised, comma-separated argument list, possibly empty. */
  private List<Expr> arguments() {
    expect("(");
    List<Expr> args = new ArrayList<>();
    if (consume(")")) {
      return args;
    }
    do {
      args.add(expression());
    } while (consume(","));
    expect(")");
    return args;
  }

  private void requireArity(String name, List<Expr> args, int count) {
    if (args.size() != count) {
      throw error(pos, name + " takes " + count + " arguments but got " + args.size() + ".");
    }
  }

  /** Alias names up to the closing parenthesis, which the caller has opened. */
  private List<Expr> aliasNames() {
    List<Expr> names = new ArrayList<>();
    do {
      names.add(aliasName());
    } while (consume(","));
    expect(")");
    return names;
  }

  /** An alias name as a string literal; Flink's as('x') spelling quotes it. */
  private Expr aliasName() {
    skipWs();
    if (!atEnd() && (text.charAt(pos) == '\'' || text.charAt(pos) == '"')) {
      return new Expr.Literal(quoted(), null);
    }
    return new Expr.Literal(name("alias name"), null);
  }

  /**
   * After {@code trim}, consumes {@code (MODE,} and returns the function for that mode, or
   * consumes nothing and returns null when the call has no mode.
   */
  /**
   * The calls whose arguments are a type, names or a trim mode, after {@code operand.name} or, with
   * a null operand, after {@code name} (the operand then comes first, or last for trim): {@code
   * cast(TYPE)}, {@code as(names)}, {@code trim(MODE, characters)}. Null for other names and a
   * trim without a mode.
   */
  private Expr specialCall(String key, Expr operand) {
    switch (key) {
      case "cast":
      case "as":
        expect("(");
        if (operand == null) {
          operand = expression();
          expect(",");
        }
        return key.equals("cast")
            ? new Expr.Call("cast", operand, new Expr.Literal(typeText(), null))
            : new Expr.Call("as", prepend(operand, aliasNames()), null);
      case "trim":
        return trimWithMode(operand);
      default:
        return null;
    }
  }

  /**
   * A trim with a mode, {@code (MODE, characters)} after {@code operand.trim} or, with a null
   * operand, {@code (MODE, characters, operand)} after {@code trim}; null without a mode.
   */
  private Expr trimWithMode(Expr operand) {
    String mode = trimMode();
    if (mode == null) return null;
    Expr characters = expression();
    if (operand == null) {
      expect(",");
      operand = expression();
    }
    expect(")");
    return new Expr.Call(mode, operand, characters);
  }

  private String trimMode() {
    int save = pos;
    if (consume("(") && startsIdentifier()) {
      String mode = TRIM_MODES.get(identifier("trim mode").toLowerCase(Locale.ROOT));
      if (mode != null && consume(",")) {
        return mode;
      }
    }
    pos = save;
    return null;
  }

  private Expr rangeBound(Expr bound, int start) {
    boolean index = bound instanceof Expr.Literal l && l.value instanceof Integer;
    if (!(bound instanceof Expr.FieldRef) && !index) {
      throw error(start, "a column name or index expected as range bound but " + bound + " found.");
    }
    return bound;
  }

  // ---------------------------------------------------------------------------------------------
  // Literals.

  private boolean startsNumber() {
    skipWs();
    int i = pos;
    if (i < text.length() && text.charAt(i) == '-') {
      i++;
    }
    if (i < text.length() && text.charAt(i) == '.') {
      i++;
    }
    return isDigitAt(i);
  }

  /** A number with Flink's suffixes: L long, p decimal, f float, d double. */
  private Expr number() {
    int start = pos;
    if (text.charAt(pos) == '-') {
      pos++;
    }
    skipDigits();
    boolean fraction = text.startsWith(".", pos) && isDigitAt(pos + 1);
    if (fraction) {
      pos++;
      skipDigits();
    }
    boolean exponent = false;
    if (pos < text.length() && Character.toLowerCase(text.charAt(pos)) == 'e') {
      boolean signed = text.startsWith("+", pos + 1) || text.startsWith("-", pos + 1);
      int exponentDigits = pos + (signed ? 2 : 1);
      if (isDigitAt(exponentDigits)) {
        exponent = true;
        pos = exponentDigits;
        skipDigits();
      }
    }
    String digits = text.substring(start, pos);
    switch (numberSuffix()) {
      case 'l':
        if (!fraction && !exponent) {
          pos++;
          return new Expr.Literal(integer(digits, start, true), null);
        }
        break;
      case 'p':
        if (!exponent) {
          pos++;
          return decimal(digits);
        }
        break;
      case 'f':
        pos++;
        return new Expr.Literal(Float.parseFloat(digits), null);
      case 'd':
        pos++;
        return new Expr.Literal(Double.parseDouble(digits), null);
      default:
        break;
    }
    if (fraction || exponent) {
      return new Expr.Literal(Double.parseDouble(digits), null);
    }
    return new Expr.Literal(integer(digits, start, false), null);
  }

  /** The lower-cased suffix letter after a number, or 0 when the number is not followed by one. */
  private char numberSuffix() {
    if (pos >= text.length() || isIdentifierPartAt(pos + 1)) {
      return 0;
    }
    char c = Character.toLowerCase(text.charAt(pos));
    return c == 'l' || c == 'p' || c == 'f' || c == 'd' ? c : 0;
  }

  /** Integer if it fits (Flink's INT literal), else Long. */
  private Number integer(String digits, int start, boolean forceLong) {
    BigInteger value = new BigInteger(digits);
    if (value.bitLength() < 32 && !forceLong) {
      return value.intValue();
    }
    if (value.bitLength() < 64) {
      return value.longValue();
    }
    throw error(start, "integer literal " + digits + " is out of the BIGINT range.");
  }

  private static Expr decimal(String digits) {
    BigDecimal value = new BigDecimal(digits);
    int scale = value.scale();
    int precision = Math.max(value.precision(), scale);
    return new Expr.Literal(value.toPlainString(), "DECIMAL(" + precision + ", " + scale + ")");
  }

  /** A quoted string at pos; the quote character is escaped by doubling it, as in SQL. */
  private String quoted() {
    int start = pos;
    char quote = text.charAt(pos++);
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (atEnd()) {
        throw error(start, "closing " + quote + " expected but end of expression found.");
      }
      char c = text.charAt(pos++);
      if (c == quote) {
        if (!text.startsWith(String.valueOf(quote), pos)) {
          return sb.toString();
        }
        pos++;
      }
      sb.append(c);
    }
  }

  /** A date/time conversion: a typed literal when the operand is a readable string literal. */
  private static Expr temporal(Expr operand, String type) {
    if (operand instanceof Expr.Literal l && l.flinkType == null && l.value instanceof String s) {
      String iso = isoTemporal(s.strip(), type);
      if (iso != null) {
        return new Expr.Literal(iso, type);
      }
    }
    return new Expr.Call("cast", operand, new Expr.Literal(type, null));
  }

  /** The value in the ISO form the compiler reads, or null to leave the string to a cast. */
  private static String isoTemporal(String value, String type) {
    try {
      switch (type) {
        case "DATE":
          LocalDate.parse(value);
          return value;
        case "TIME(0)":
          LocalTime.parse(value);
          return value;
        default:
          String iso = value.replaceFirst(" ", "T");
          LocalDateTime.parse(iso);
          return iso;
      }
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  // Flink accepts interval suffixes on integer literals only.

  private static Integer monthInterval(Expr operand, int months) {
    try {
      return Math.toIntExact(Math.multiplyExact(intervalCount(operand, "year-month"), months));
    } catch (ArithmeticException e) {
      throw invalidInterval("year-month", operand);
    }
  }

  private static Long milliInterval(Expr operand, long millis) {
    try {
      return Math.multiplyExact(intervalCount(operand, "day-time"), millis);
    } catch (ArithmeticException e) {
      throw invalidInterval("day-time", operand);
    }
  }

  private static long intervalCount(Expr operand, String kind) {
    if (operand instanceof Expr.Literal l && l.flinkType == null
        && (l.value instanceof Integer || l.value instanceof Long)) {
      return ((Number) l.value).longValue();
    }
    throw invalidInterval(kind, operand);
  }

  private static ValidationException invalidInterval(String kind, Expr operand) {
    return new ValidationException("Invalid literal for " + kind + " interval: " + operand);
  }

  // ---------------------------------------------------------------------------------------------
  // Types.

  /** The type text up to the parenthesis closing the current call, which it consumes. */
  private String typeText() {
    int start = skipWs();
    int depth = 0;
    while (!atEnd()) {
      char c = text.charAt(pos);
      if (c == '\'' || c == '`') {
        // Quoted field names and descriptions in ROW types may hold parentheses.
        quoted();
        continue;
      }
      if (c == ')' && depth == 0) {
        break;
      }
      depth += c == '(' ? 1 : c == ')' ? -1 : 0;
      pos++;
    }
    String raw = text.substring(start, pos).strip();
    if (raw.isEmpty()) {
      pos = start;
      throw expected("type");
    }
    expect(")");
    return canonicalType(raw);
  }

  /** Legacy type names (LONG, SQL_TIMESTAMP, OBJECT_ARRAY(...)) in SQL syntax; SQL types as is. */
  static String canonicalType(String raw) {
    String type = raw.strip();
    String upper = type.toUpperCase(Locale.ROOT);
    String legacy = LEGACY_TYPES.get(upper);
    if (legacy != null) {
      return legacy;
    }
    int open = type.indexOf('(');
    if (open > 0 && type.endsWith(")")) {
      String inner = type.substring(open + 1, type.length() - 1);
      switch (upper.substring(0, open).strip()) {
        case "PRIMITIVE_ARRAY":
          return "ARRAY<" + canonicalType(inner) + " NOT NULL>";
        case "OBJECT_ARRAY":
          return "ARRAY<" + canonicalType(inner) + ">";
        case "MAP": {
          int comma = topLevelComma(inner);
          if (comma >= 0) {
            return "MAP<" + canonicalType(inner.substring(0, comma)) + ", "
                + canonicalType(inner.substring(comma + 1)) + ">";
          }
          break;
        }
        default:
          break;
      }
    }
    return type;
  }

  private static int topLevelComma(String s) {
    int depth = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '(' || c == '<') {
        depth++;
      } else if (c == ')' || c == '>') {
        depth--;
      } else if (c == ',' && depth == 0) {
        return i;
      }
    }
    return -1;
  }

  // ---------------------------------------------------------------------------------------------
  // Tokens.

  /** Skips whitespace and returns the position reached. */
  private int skipWs() {
    while (!atEnd() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
    return pos;
  }

  private boolean atEnd() {
    return pos >= text.length();
  }

  private boolean peek(String symbol) {
    skipWs();
    return text.startsWith(symbol, pos);
  }

  private boolean consume(String symbol) {
    if (peek(symbol)) {
      pos += symbol.length();
      return true;
    }
    return false;
  }

  private void expect(String symbol) {
    if (!consume(symbol)) {
      throw expected("'" + symbol + "'");
    }
  }

  private void expectEnd(String expected) {
    skipWs();
    if (!atEnd()) {
      throw expected(expected);
    }
  }

  /** Consumes the first of the operators that is next and returns its call name, else null. */
  private String consumeOperator(String[][] operators) {
    for (String[] op : operators) {
      if (consume(op[0])) {
        return op[1];
      }
    }
    return null;
  }

  /** Consumes the keyword when it is the whole next word. */
  private boolean consumeKeyword(String keyword) {
    if (!startsIdentifier()) {
      return false;
    }
    int save = pos;
    if (identifier(keyword).equalsIgnoreCase(keyword)) {
      return true;
    }
    pos = save;
    return false;
  }

  private void skipEmptyParentheses() {
    int save = pos;
    if (!(consume("(") && consume(")"))) {
      pos = save;
    }
  }

  private boolean startsIdentifier() {
    skipWs();
    return !atEnd() && Character.isJavaIdentifierStart(text.charAt(pos));
  }

  /** A Java identifier, as Flink's parser reads names. */
  private String identifier(String what) {
    if (!startsIdentifier()) {
      throw expected(what);
    }
    int start = pos;
    while (isIdentifierPartAt(pos)) {
      pos++;
    }
    return text.substring(start, pos);
  }

  /** An identifier, or any text in backquotes (a doubled backquote stands for one). */
  private String name(String what) {
    skipWs();
    if (!atEnd() && text.charAt(pos) == '`') {
      int start = pos;
      String name = quoted();
      if (name.isEmpty()) {
        throw error(start, "a name expected between the backquotes.");
      }
      return name;
    }
    return identifier(what);
  }

  private void skipDigits() {
    while (isDigitAt(pos)) {
      pos++;
    }
  }

  private boolean isDigitAt(int i) {
    return i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9';
  }

  private boolean isIdentifierPartAt(int i) {
    return i < text.length() && Character.isJavaIdentifierPart(text.charAt(i));
  }

  private static List<Expr> prepend(Expr first, List<Expr> rest) {
    List<Expr> all = new ArrayList<>(rest.size() + 1);
    all.add(first);
    all.addAll(rest);
    return all;
  }

  private SqlParserException expected(String what) {
    skipWs();
    return error(pos, what + " expected but " + found() + " found.");
  }

  private static SqlParserException error(int at, String message) {
    return new SqlParserException("Could not parse expression at column " + (at + 1) + ": " + message);
  }

  /** The token at pos, for error messages. */
  private String found() {
    if (atEnd()) {
      return "end of expression";
    }
    int end = pos + 1;
    if (isIdentifierPartAt(pos)) {
      while (isIdentifierPartAt(end)) {
        end++;
      }
    }
    return "'" + text.substring(pos, end) + "'";
  }
}
