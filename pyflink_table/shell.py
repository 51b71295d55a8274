"""The interactive shell of ``pyflink-table shell``: FLIP-38's Python shell on Spark.

The shell's namespace holds a batch environment ``t_env`` (also under FLIP-38's name ``bt_env``),
a streaming environment ``st_env``, and the names a Table API session usually imports: ``DataTypes``, ``Row``, ``col``, ``lit``,
``call``, ``EnvironmentSettings`` ... and the UDF decorators when available. Reading commands from
a pipe works too: ``echo "t_env.from_elements([(1,)]).execute().print()" | pyflink-table shell``.
"""

from __future__ import annotations

import code
import importlib
import sys
from typing import Any, Dict

__all__ = ["shell_namespace", "start_shell"]

# Modules whose public names the shell imports; optional ones are skipped when absent.
_STAR_MODULES = ("pyflink_table", "pyflink_table.expressions")
_OPTIONAL_STAR_MODULES = ("pyflink_table.udf", "pyflink_table.window", "pyflink_table.table_descriptor",
                          "pyflink_table.schema")


def _public_names(module_name: str) -> Dict[str, Any]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
    return {name: getattr(module, name) for name in names if hasattr(module, name)}


def shell_namespace() -> Dict[str, Any]:
    """The shell's variables: common Table API names, a batch ``t_env`` and a streaming ``st_env``.

    :return: a dict usable as the globals of an interactive console.
    """
    namespace: Dict[str, Any] = {"__name__": "__console__", "__doc__": None}
    for module_name in _STAR_MODULES:
        namespace.update(_public_names(module_name))
    for module_name in _OPTIONAL_STAR_MODULES:
        try:
            namespace.update(_public_names(module_name))
        except ImportError:
            pass  # built in parallel by other parts of the package; offer it once it exists
    from pyflink_table import EnvironmentSettings, TableEnvironment

    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    namespace["t_env"] = t_env
    namespace["bt_env"] = t_env
    # FLIP-38's shell also offers a streaming environment (same Spark session start, no extra cost).
    namespace["st_env"] = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    return namespace


_BANNER = """pyflink_table {version}: PyFlink's Table API on Apache Spark {spark}.
  t_env (batch TableEnvironment, also bt_env), st_env (streaming), DataTypes, Row, col, lit, call ...
  are ready. Try:
    t_env.from_elements([(1, 'hi'), (2, 'hello')], ['id', 'word']).select(col('word').upper_case).execute().print()
  exit() or Ctrl-D leaves."""


def start_shell() -> None:
    """Start Spark and run the interactive console until the user leaves it."""
    from pyflink_table import __version__

    namespace = shell_namespace()
    spark_version = namespace["t_env"]._spark.version
    interactive = sys.stdin.isatty()
    if interactive:
        try:
            import readline
            import rlcompleter

            readline.set_completer(rlcompleter.Completer(namespace).complete)
            readline.parse_and_bind("tab: complete")
        except ImportError:
            pass  # no line editing on this platform; the shell still works
    banner = _BANNER.format(version=__version__, spark=spark_version) if interactive else ""
    code.interact(banner=banner, local=namespace, exitmsg="" if not interactive else None)
