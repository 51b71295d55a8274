"""The ``pyflink-table`` command: version, help, ``run`` (master, py-files, requirements, program
arguments), ``shell``, and start-up feedback (quiet JVM logs, log level option, progress bar).

Each Spark start is a separate process (the command owns its process), so the checks are grouped
into three programs. Expected values are the inputs themselves or hand-computed.
"""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from pyflink_table import __version__
from pyflink_table.cli import main

CLI = str(Path(sys.executable).with_name("pyflink-table"))
TIMEOUT = 600

# Lines Spark prints at start-up with its own defaults; pyflink_table must not show them.
STARTUP_NOISE = ("Using Spark's default log4j profile", "WARN Utils", "NativeCodeLoader",
                 "Setting default log level", "To adjust logging level")


def _env(tmp_path: Path) -> Dict[str, str]:
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")  # --pyRequirements installs there
    for key in ("PYFLINK_TABLE_MASTER", "PYFLINK_TABLE_PY_FILES", "PYFLINK_TABLE_PYTHONPATH"):
        env.pop(key, None)
    return env


def _cli(args: List[str], tmp_path: Path, stdin: str = "") -> Tuple[int, str, str]:
    proc = subprocess.run([CLI] + args, input=stdin, capture_output=True, text=True, cwd=tmp_path,
                          env=_env(tmp_path), timeout=TIMEOUT)
    return proc.returncode, proc.stdout, proc.stderr


def _write_wheel(folder: Path) -> Path:
    """A minimal pure-Python wheel (package ``clidemo_pkg``), so pip installs it offline."""
    wheel = folder / "clidemo_pkg-1.0-py3-none-any.whl"
    files = {
        "clidemo_pkg/__init__.py": "SUFFIX = '!'\n",
        "clidemo_pkg-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: clidemo-pkg\nVersion: 1.0\n",
        "clidemo_pkg-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
                                           "Tag: py3-none-any\n",
    }
    record = "".join(f"{name},,\n" for name in files) + "clidemo_pkg-1.0.dist-info/RECORD,,\n"
    with zipfile.ZipFile(wheel, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
        zf.writestr("clidemo_pkg-1.0.dist-info/RECORD", record)
    return wheel


def test_version_and_help(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _cli(["--version"], tmp_path)
    assert code == 0, err
    assert out.startswith(f"pyflink-table {__version__} ") and "pyspark 4.3.0" in out

    for args, expected in ([["--help"], ["run", "shell", "--version"]],
                           [["run", "--help"], ["--master", "--py-files", "--pyRequirements", "-py", "-pym"]],
                           [["shell", "--help"], ["--master", "t_env"]]):
        with pytest.raises(SystemExit) as exit_info:
            main(args)
        assert exit_info.value.code == 0
        text = capsys.readouterr().out
        for word in expected:
            assert word in text, (args, word)

    # Usage errors name the problem, without starting Spark.
    code, _, err = _cli(["run"], tmp_path)
    assert code == 2 and "give the program to run" in err
    code, _, err = _cli(["run", "missing_job.py"], tmp_path)
    assert code == 2 and "program file 'missing_job.py' does not exist" in err
    # -pym runs a module found in --py-files; everything after it is the module's sys.argv.
    (tmp_path / "mods").mkdir()
    (tmp_path / "mods" / "argv_printer.py").write_text("import sys\nprint('MODULE', sys.argv[1:])\n")
    code, out, err = _cli(["run", "--py-files", "mods", "-pym", "argv_printer", "-py", "x", "--", "y"], tmp_path)
    assert code == 0 and "MODULE ['-py', 'x', '--', 'y']" in out, err
    (tmp_path / "job.py").write_text("print('never runs')\n")
    code, _, err = _cli(["run", "--py-files", "nowhere.zip", "job.py"], tmp_path)
    assert code != 0 and "--py-files entry 'nowhere.zip' does not exist" in err


JOB = textwrap.dedent("""
    import sys
    import helper_module                      # shipped with --py-files (a folder)
    import single_file_module                 # shipped with --py-files (a .py file)
    import clidemo_pkg                        # installed from --pyRequirements
    from pyflink_table import DataTypes, EnvironmentSettings, TableEnvironment
    from pyflink_table.expressions import col
    from pyflink_table.udf import udf

    print("ARGS", sys.argv[1:])
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    conf = t_env._spark.sparkContext.getConf()
    print("MASTER", t_env._spark.sparkContext.master)
    print("PROGRESS", conf.get("spark.ui.showConsoleProgress"))

    @udf(result_type=DataTypes.STRING())
    def decorate(x):
        # Runs in a Spark Python worker: the shipped modules must be importable there too.
        import helper_module, single_file_module, clidemo_pkg
        return helper_module.PREFIX + x + single_file_module.MIDDLE + clidemo_pkg.SUFFIX

    for row in t_env.from_elements([('a',), ('b',)], ['w']).select(decorate(col('w'))).execute().collect():
        print("ROW", row[0])

    @udf(result_type=DataTypes.INT())
    def fails(x):
        return 1 // 0

    try:
        t_env.from_elements([(1,)], ['x']).select(fails(col('x'))).execute().collect()
    except Exception as e:
        print("FAILED", type(e).__name__, "ZeroDivisionError" in str(e))
""")


def test_run_ships_files_and_requirements_to_workers(tmp_path: Path) -> None:
    (tmp_path / "libdir").mkdir()
    (tmp_path / "libdir" / "helper_module.py").write_text("PREFIX = '<'\n")
    (tmp_path / "single_file_module.py").write_text("MIDDLE = '>'\n")
    wheel = _write_wheel(tmp_path)
    (tmp_path / "requirements.txt").write_text(f"{wheel}\n")
    job_dir = tmp_path / "jobs"
    job_dir.mkdir()
    (job_dir / "job.py").write_text(JOB)
    # The job's folder must not be where the modules are found: move the cwd elsewhere too.
    code, out, err = _cli(["run", "--master", "local[1]", "--py-files", "libdir,single_file_module.py",
                           "--pyRequirements", "requirements.txt", "-py", "jobs/job.py",
                           "--master", "not-ours", "x"], tmp_path)
    assert code == 0, err[-3000:]
    lines = out.splitlines()
    # Arguments after the program are the program's, even ones spelled like run's options.
    assert "ARGS ['--master', 'not-ours', 'x']" in lines
    assert "MASTER local[1]" in lines
    assert "PROGRESS false" in lines  # stderr is a pipe, not a terminal
    assert sorted(line for line in lines if line.startswith("ROW")) == ["ROW <a>!", "ROW <b>!"]
    # A failing UDF: one exception carrying the worker's traceback, no task stack dumps on stderr.
    assert "FAILED PythonException True" in lines
    for noise in STARTUP_NOISE + ("ERROR Executor", "Lost task", "aborting job"):
        assert noise not in err, noise


def test_log_level_option_and_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    job = tmp_path / "verbose.py"
    job.write_text(textwrap.dedent("""
        from pyflink_table import Configuration, EnvironmentSettings, TableEnvironment
        conf = Configuration()
        conf.set_string("pyflink_table.log.level", "INFO")
        settings = EnvironmentSettings.new_instance().in_batch_mode().with_configuration(conf).build()
        t_env = TableEnvironment.create(settings)
        print("PROGRESS", t_env._spark.sparkContext.getConf().get("spark.ui.showConsoleProgress"))
    """))
    leader, follower = pty.openpty()  # stderr on a terminal: the progress bar is switched on
    proc = subprocess.Popen([CLI, "run", str(job)], stdout=subprocess.PIPE, stderr=follower, cwd=tmp_path,
                            env=_env(tmp_path), text=True)
    os.close(follower)
    terminal = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closes when the process ends
            break
        if not chunk:
            break
        terminal += chunk
    os.close(leader)
    out = proc.communicate(timeout=TIMEOUT)[0]
    text = terminal.decode(errors="replace")
    assert proc.returncode == 0, text[-3000:]
    assert "PROGRESS true" in out.splitlines()
    assert " INFO SparkContext: " in text  # the option lowered the level from WARN to INFO


def test_shell_has_t_env_and_common_names(tmp_path: Path) -> None:
    commands = textwrap.dedent("""
        t_env.from_elements([(1, 'spark'), (2, 'flink')], ['id', 'w']).select(col('w').upper_case, col('id') + lit(1)).execute().print()
        print(type(bt_env).__name__, bt_env is t_env, DataTypes.INT(), Row(1, 'x'))
        print("STREAMING", st_env._streaming, t_env._streaming)
    """)
    code, out, err = _cli(["shell", "--master", "local[1]"], tmp_path, stdin=commands)
    assert code == 0, err[-3000:]
    # The printed table of the first command (PyFlink's layout; values hand-computed).
    assert f"|{'SPARK':>31} |{2:>21} |" in out  # STRING and BIGINT columns are 32 and 22 wide
    assert f"|{'FLINK':>31} |{3:>21} |" in out
    assert "TableEnvironment True INT <Row(1, 'x')>" in out
    assert "STREAMING True False" in out
    assert "Traceback" not in err, err
