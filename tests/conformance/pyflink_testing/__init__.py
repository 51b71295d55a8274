"""``pyflink.testing`` for the conformance runner, built only on pyflink_table's public API.

PyFlink's own test base classes start a Flink mini cluster and read rows from Java test sinks;
here the same class names create :class:`pyflink_table.TableEnvironment` objects and read back
the rows the public ``print`` connector prints (see :mod:`.source_sink_utils`).
"""
