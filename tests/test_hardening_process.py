"""Hardening, round two: outputs' modes, `sqlrank query`'s reach, numeric options, signals, messages.

Each test reproduces one way sqlrank was attacked (a 0600 results file made world-readable, a
symlink loop, --threads 100000, SIGTERM mid-evaluation, ...) and checks the answer a user now
gets: the file's mode kept, one line `sqlrank: error: ...` with its exit code, nothing left behind.

The small data set used throughout (labels by rank in the comments):

    qrels  q1: a=2 b=0 c=1      q2: x=1 y=0
    run    q1: a 3.0, b 2.0, c 1.0  -> labels by rank [2, 0, 1]: AP (1/1 + 2/3) / 2 = 5/6
           q2: y 2.0, x 1.0         -> labels by rank [0, 1]:    AP (1/2) / 1 = 1/2
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import sqlrank
from sqlrank import export
from sqlrank.errors import OutputError

QRELS = "q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq2 0 x 1\nq2 0 y 0\n"
RUN = "q1 Q0 a 1 3.0 r\nq1 Q0 b 2 2.0 r\nq1 Q0 c 3 1.0 r\nq2 Q0 y 1 2.0 r\nq2 Q0 x 2 1.0 r\n"
MAP = ((1 / 1 + 2 / 3) / 2 + (1 / 2) / 1) / 2


@pytest.fixture
def qrels(tmp_path) -> Path:
    path = tmp_path / "qrels.txt"
    path.write_text(QRELS)
    return path


@pytest.fixture
def run(tmp_path) -> Path:
    path = tmp_path / "run.trec"
    path.write_text(RUN)
    return path


def invoke(*args):
    from typer.testing import CliRunner

    from sqlrank.cli import app

    try:
        runner = CliRunner(mix_stderr=False)  # click < 8.2 mixes stderr into stdout unless told
    except TypeError:
        runner = CliRunner()
    return runner.invoke(app, [str(a) for a in args])


def one_error_line(outcome, exit_code: int) -> str:
    """The one line a user mistake gets: `sqlrank: error: ...` (or click's usage line), no traceback."""
    assert outcome.exception is None or isinstance(outcome.exception, SystemExit), outcome.exception
    assert outcome.exit_code == exit_code, outcome.stderr
    assert "Traceback" not in outcome.stderr
    return outcome.stderr.strip().splitlines()[-1]


# ---------------------------------------------------------------- 9. output files' modes

def test_a_replaced_output_keeps_its_mode_and_a_new_one_honours_the_umask(qrels, run, tmp_path):
    private = tmp_path / "private.csv"
    private.write_text("old\n")
    private.chmod(0o600)
    assert invoke("eval", qrels, run, "-m", "AP", "-o", private).exit_code == 0
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert private.read_text() == f'"run_id","query_id","measure","value"\n"run","all","AP",{MAP!r}\n'
    old = os.umask(0o077)
    try:
        assert invoke("eval", qrels, run, "-m", "AP", "-o", tmp_path / "new.csv").exit_code == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.csv").stat().st_mode) == 0o600  # 0666 less the umask 077


def test_a_read_only_output_is_refused_not_replaced(qrels, run, tmp_path):
    locked = tmp_path / "locked.csv"
    locked.write_text("keep me\n")
    locked.chmod(0o444)
    outcome = invoke("eval", qrels, run, "-m", "AP", "-o", locked)
    line = one_error_line(outcome, 1)
    assert line == (f"sqlrank: error: {locked}: is read-only (mode 0444); make it writable (chmod u+w) "
                    "or choose another output file")
    assert locked.read_text() == "keep me\n" and stat.S_IMODE(locked.stat().st_mode) == 0o444


# ---------------------------------------------------------------- 12. a symlink loop as the output

def test_an_output_that_is_a_symlink_loop_is_an_output_error(qrels, run, tmp_path):
    loop = tmp_path / "loop.csv"
    loop.symlink_to(loop)
    outcome = invoke("eval", qrels, run, "-m", "AP", "-o", loop)
    assert one_error_line(outcome, 1) == (f"sqlrank: error: {loop}: is a symlink loop (it names itself, through "
                                          "one link or more); remove the link or choose another output file")
    with pytest.raises(OutputError, match="is a symlink loop"):
        export.write_bytes([b"x"], loop)
    assert loop.is_symlink()
