"""The command line as a process: main() for the console script, run() for a caller's own process.

A process-wide setting (the garbage collector, the signal handlers) is made in main(), never in
run(), which tests call in their own process.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
from typing import NoReturn

import typer

import sqlrank

from . import failures
from .commands import app


def main() -> NoReturn:
    """The console script `sqlrank` (and `python -m sqlrank`): the command, then the end of the process."""
    # one command and the process ends: collecting reference cycles would only cost time (docs/performance.md)
    gc.disable()
    for name in failures.STOP_SIGNALS:
        if hasattr(signal, name):  # SIGHUP is POSIX only
            signal.signal(getattr(signal, name), failures.stop)
    code = run()
    # The command is done: its output written (files renamed into place), its DuckDB connection
    # closed (spill files removed). Tearing the interpreter down would free every module and object
    # one by one, a tenth of a small evaluation's time (docs/performance.md); os._exit skips that,
    # once what is buffered for stdout and stderr is out.
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:  # None: started with the descriptor closed (`>&-`)
                stream.flush()
        except (OSError, ValueError):  # a reader that went away (`| head`), a closed stream
            pass
    os._exit(code)


def run(args: list[str] | None = None) -> int:
    """The command line's work (the arguments of sys.argv unless given); returns the exit code.

    Changes nothing in the process beyond the command's own output: tests call it in theirs.
    """
    try:
        code = app(args=args, prog_name="sqlrank", standalone_mode=False)
    except typer.TyperException as error:  # a usage error Typer found: one line, as sqlrank's own
        if type(error).__name__ == "NoArgsIsHelpError":  # `sqlrank` alone: the help, as asked for
            print(error.format_message(), file=sys.stderr)
            return 2
        command = getattr(getattr(error, "ctx", None), "command_path", "sqlrank")
        message = sqlrank.escaping.notice(failures.one_line(error.format_message()))
        print(f"sqlrank: error: {message} (see '{command} --help')", file=sys.stderr)
        return getattr(error, "exit_code", 2)
    except typer.Abort:
        print("sqlrank: error: aborted", file=sys.stderr)
        return 1
    except SystemExit as end:
        return failures.exit_code(end.code)
    except BaseException:
        # a stop signal: DuckDB interrupted (its own error, whatever its type), the `with` blocks have closed
        # the connection (its spill files removed) and the atomic write removed its temporary file
        stopped_by = failures.stopped_by()
        if stopped_by is None:
            raise
        typer.echo(f"sqlrank: stopped by {signal.Signals(stopped_by).name}", err=True)
        return 128 + stopped_by
    return code if isinstance(code, int) else 0
