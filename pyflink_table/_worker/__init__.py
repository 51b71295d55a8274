"""Code that runs inside Spark's Python workers: evaluators wrapping user functions.

Everything here is pickled with the UDF on the driver and executed in the workers, so it must not
touch the JVM or import the driver-side modules that do.
"""
