"""The command line run in-process, its stdout and stderr apart, for the tests that read its messages."""
from __future__ import annotations

from typer.testing import CliRunner


def invoke(*args, catch_exceptions: bool = True):
    from sqlrank.cli import app

    try:
        runner = CliRunner(mix_stderr=False)  # click < 8.2 mixes stderr into stdout unless told
    except TypeError:
        runner = CliRunner()
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=catch_exceptions)
