# Typing stubs for the parts of py4j (PySpark's JVM bridge) that pyflink_table uses.
# Values coming from the JVM are dynamic: they are typed Any.
