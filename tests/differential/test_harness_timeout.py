"""The harness's run of our side stops a program that runs too long: a program awaiting a row that
never comes fails with a message naming it, and its stream job is cancelled."""

import pytest

from harness import STREAMING_PRELUDE, TIMED_OUT, monitored_table, run_ours


def test_a_program_awaiting_a_row_that_never_comes_times_out(_spark_started: None) -> None:
    from pyflink_table import _streaming

    program = (STREAMING_PRELUDE + "d = tempfile.mkdtemp()\n" + monitored_table("ev", "k STRING, v INT")
               + "it = t_env.from_path('ev').execute().collect()\nnext(it)\n")
    got = run_ours({"waits_for_ever": program, "after": "print('ran')\n"}, timeout_s=20)
    assert got["waits_for_ever"]["error"] == [
        TIMED_OUT, "program 'waits_for_ever' did not finish within 20 s under pyflink_table (awaiting a row that "
        "never comes?); its jobs were cancelled"]
    assert not [job for job in list(_streaming._running) if job.active()]
    # The programs after it still run.
    assert got["after"]["error"] is None and got["after"]["stdout"] == "ran\n"


def test_the_comparison_fails_with_that_message() -> None:
    from harness import Comparison

    timed_out = {"rows": None, "columns": None, "stdout": "", "error": [TIMED_OUT, "program 'p' did not finish"]}
    fine = {"rows": [], "columns": [], "stdout": "", "error": None}
    with pytest.raises(pytest.fail.Exception, match="program 'p' did not finish"):
        Comparison({"p": ""}, {"p": fine}, {"p": timed_out}).assert_same("p")
