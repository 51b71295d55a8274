"""The ``pyflink-table`` command: run a Table API program on Spark, or open an interactive shell.

``pyflink-table run -py job.py [--py-files a.py,lib.zip] [--pyRequirements req.txt] [--master URL] [args...]``
is the counterpart of FLIP-38's ``flink run -py job.py``: the program runs in this process as
``__main__`` and every :class:`~pyflink_table.TableEnvironment` it creates uses the given Spark
master (embedded local Spark by default), with the user's files shipped to the Python workers.
``pyflink-table shell`` opens a Python shell with a batch ``t_env`` ready.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import runpy
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path
from typing import List, Optional, Sequence

from pyflink_table.java_gateway import MASTER_ENV, PY_FILES_ENV, PYTHONPATH_ENV

__all__ = ["main", "version_text"]

_PY_FILE_SUFFIXES = (".py", ".zip", ".egg", ".jar", ".whl")


def version_text() -> str:
    """The version line printed by ``pyflink-table --version``."""
    from pyflink_table import __version__

    try:
        spark = metadata.version("pyspark")
    except metadata.PackageNotFoundError:
        spark = "not installed"
    return f"pyflink-table {__version__} (PyFlink 2.3 Table API) on pyspark {spark}, Python {sys.version.split()[0]}"


def _parser() -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """The command's parser and its ``run`` sub-parser."""
    parser = argparse.ArgumentParser(
        prog="pyflink-table",
        description="Run PyFlink Table API programs on Apache Spark.",
        epilog="Run 'pyflink-table COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=version_text())
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = commands.add_parser(
        "run",
        help="run a Python Table API program",
        description="Run a Python Table API program on Spark (embedded local Spark unless --master is given). "
        "Arguments after the program are passed to it in sys.argv.",
        usage="pyflink-table run [-h] [--master URL] [--py-files FILES] [--pyRequirements FILE] "
        "[-py] PROGRAM.py [args ...] | -pym MODULE [args ...]",
    )
    run.add_argument("-m", "--master", metavar="URL",
                     help="Spark master for every TableEnvironment the program creates, e.g. local[4], "
                          "spark://host:7077 (overrides the program's spark.master)")
    run.add_argument("-pyfs", "--py-files", "--pyFiles", dest="py_files", action="append", default=[],
                     metavar="FILES",
                     help="comma-separated .py/.zip/.egg files or directories put on the Python path of the "
                          "program and of the Spark Python workers (repeatable)")
    run.add_argument("-pyreq", "--pyRequirements", "--py-requirements", dest="py_requirements",
                     metavar="FILE",
                     help="requirements.txt installed (pip install --target, cached) for the program and its "
                          "Python workers")
    run.add_argument("-py", "--python", dest="python_flag", metavar="PROGRAM.py",
                     help="the program to run (the file may also be given without -py)")
    run.add_argument("-pym", "--pyModule", dest="module", metavar="MODULE",
                     help="run a module (found on the Python path or in --py-files) instead of a file")
    run.add_argument("program_and_args", nargs="*", metavar="PROGRAM.py [args ...]",
                     help="the program file, then its own arguments")

    shell = commands.add_parser(
        "shell",
        help="open an interactive Python shell with a batch t_env ready",
        description="Interactive Python shell with t_env = TableEnvironment.create(EnvironmentSettings."
        "in_batch_mode()) and the common names (DataTypes, col, lit, call, udf, ...) imported.",
    )
    shell.add_argument("-m", "--master", metavar="URL", help="Spark master (default: embedded local Spark)")
    shell.add_argument("-pyfs", "--py-files", "--pyFiles", dest="py_files", action="append", default=[],
                       metavar="FILES", help="comma-separated .py/.zip/.egg files or directories to ship")
    commands.add_parser(
        "jar",
        help="print the path of the bridge jar (for spark-submit --jars)",
        description="Print the path of pyflink_table's bridge jar, e.g. for "
        "spark-submit --master URL --jars $(pyflink-table jar) job.py.",
    )
    return parser, run


def _split_files(values: Sequence[str]) -> List[str]:
    return [item.strip() for value in values for item in value.split(",") if item.strip()]


def _zip_directory(directory: Path) -> Path:
    # Spark ships files, not folders: a folder of modules travels as a zip on the Python path.
    target = Path(tempfile.mkdtemp(prefix="pyflink-table-pyfiles-")) / f"{directory.name or 'files'}.zip"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(directory.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                zf.write(path, path.relative_to(directory).as_posix())
    return target


def _prepare_py_files(values: Sequence[str]) -> List[str]:
    """Resolved paths to ship; directories are zipped. Raises SystemExit naming a missing file."""
    shipped: List[str] = []
    for item in _split_files(values):
        path = Path(item).expanduser().resolve()
        if not path.exists():
            raise SystemExit(f"pyflink-table: error: --py-files entry '{item}' does not exist")
        if path.is_dir():
            shipped.append(str(_zip_directory(path)))
        elif path.suffix.lower() in _PY_FILE_SUFFIXES:
            shipped.append(str(path))
        else:
            raise SystemExit(
                f"pyflink-table: error: --py-files entry '{item}' is not a .py, .zip or .egg file or a directory"
            )
    return shipped


def _driver_path_entry(shipped: str) -> str:
    # A .py file is importable from its folder; archives are path entries themselves.
    return str(Path(shipped).parent) if shipped.endswith(".py") else shipped


def _install_requirements(requirements: str) -> Path:
    """``pip install --target`` into a cache folder named after the file's content; returns it."""
    req = Path(requirements).expanduser().resolve()
    if not req.is_file():
        raise SystemExit(f"pyflink-table: error: --pyRequirements file '{requirements}' does not exist")
    digest = hashlib.sha256(req.read_bytes()).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "pyflink_table" / "requirements"
    target = cache / digest
    if (target / ".complete").exists():
        return target
    partial = cache / f"{digest}.partial-{os.getpid()}"
    shutil.rmtree(partial, ignore_errors=True)
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
           "--target", str(partial), "-r", str(req)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=str(req.parent))
    if proc.returncode != 0:
        shutil.rmtree(partial, ignore_errors=True)
        raise SystemExit(f"pyflink-table: error: installing {requirements} failed:\n{proc.stderr or proc.stdout}")
    (partial / ".complete").write_text(str(req))
    shutil.rmtree(target, ignore_errors=True)
    partial.rename(target)
    return target


def _is_local(master: Optional[str]) -> bool:
    return master is None or master.startswith("local")


def _configure(master: Optional[str], py_files: Sequence[str], requirements: Optional[str]) -> None:
    """Environment variables read when the program's first TableEnvironment starts Spark."""
    if master:
        os.environ[MASTER_ENV] = master
    shipped = _prepare_py_files(py_files)
    if requirements:
        installed = _install_requirements(requirements)
        sys.path.insert(0, str(installed))
        if _is_local(master):
            # Local workers are child processes of this machine: a path entry is enough.
            os.environ[PYTHONPATH_ENV] = str(installed)
        else:
            # Remote workers get the packages as a zip (pure-Python packages only).
            shipped.append(str(_zip_directory(installed)))
    for entry in reversed(shipped):
        sys.path.insert(0, _driver_path_entry(entry))
    if shipped:
        os.environ[PY_FILES_ENV] = ",".join(shipped)


_RUN_VALUE_OPTIONS = {"-m", "--master", "-pyfs", "--py-files", "--pyFiles", "-pyreq", "--pyRequirements",
                      "--py-requirements"}
_RUN_PROGRAM_OPTIONS = {"-py", "--python", "-pym", "--pyModule"}


def _split_run_args(tokens: Sequence[str]) -> tuple[List[str], List[str]]:
    """(run's own options and the program, the program's arguments).

    Everything after the program belongs to the program, even tokens that look like run's options.
    """
    i = 0
    while i < len(tokens):
        token = tokens[i]
        name = token.split("=", 1)[0]
        if token == "--":
            return list(tokens[:i]), list(tokens[i + 1:])
        if name in _RUN_PROGRAM_OPTIONS:
            end = i + 1 if "=" in token else i + 2
            return list(tokens[:end]), list(tokens[end:])
        if name in _RUN_VALUE_OPTIONS:
            i += 1 if "=" in token else 2
        elif token.startswith("-"):
            i += 1
        else:
            return list(tokens[:i + 1]), list(tokens[i + 1:])
    return list(tokens), []


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser, rest: List[str]) -> int:
    positional: List[str] = list(args.program_and_args)
    program: Optional[str] = args.python_flag
    if len(positional) > 1 or (positional and (program is not None or args.module is not None)):
        parser.error("give one program: pyflink-table run [-py] job.py [args ...] or -pym MODULE [args ...]")
    if program is None and args.module is None:
        if not positional:
            parser.error("give the program to run (pyflink-table run [-py] job.py) or -pym MODULE")
        program = positional[0]
    if program is not None and args.module is not None:
        parser.error("give either a program file or -pym MODULE, not both")
    if program is not None and not Path(program).is_file():
        parser.error(f"program file '{program}' does not exist")
    _configure(args.master, args.py_files, args.py_requirements)
    if program is not None:
        path = str(Path(program).resolve())
        sys.argv = [program] + rest
        sys.path.insert(0, str(Path(path).parent))
        runpy.run_path(path, run_name="__main__")
    else:
        sys.argv = [args.module] + rest
        runpy.run_module(args.module, run_name="__main__", alter_sys=True)
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the ``pyflink-table`` command; returns the exit status.

    :param argv: the arguments after the command name; ``sys.argv[1:]`` when omitted.
    """
    parser, run_parser = _parser()
    tokens = list(sys.argv[1:] if argv is None else argv)
    program_args: List[str] = []
    if tokens and tokens[0] == "run":
        own, program_args = _split_run_args(tokens[1:])
        tokens = ["run"] + own
    args = parser.parse_args(tokens)
    if args.command == "run":
        return _run(args, run_parser, program_args)
    if args.command == "jar":
        from pyflink_table.java_gateway import bridge_jar

        print(bridge_jar())
        return 0
    if args.command == "shell":
        from pyflink_table.shell import start_shell

        _configure(args.master, args.py_files, None)
        start_shell()
        return 0
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
