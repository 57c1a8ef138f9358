"""How a command ends when it cannot finish: a user's mistake in one line with its exit code, or a stop signal.

The signal handlers are installed by main() only (they are process-wide); everything else here
is safe in a calling process.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

import typer

import sqlrank
from sqlrank.errors import DOOR, SqlrankError

STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")
_stopped_by: int | None = None  # the signal that asked the command to stop, once one has


class Stop(BaseException):
    """Raised by a stop signal's handler: not an Exception, so that nothing catches it but the `with` blocks'
    clean-up, and not KeyboardInterrupt, which click would print as 'Aborted!' with exit 1."""


def stop(number: int, frame) -> None:
    """The handler of the stop signals: the command unwinds through its `with` blocks."""
    global _stopped_by
    if _stopped_by is None:  # a second signal during the clean-up must not cut it short
        _stopped_by = number
        raise Stop()


def stopped_by() -> int | None:
    """The signal that stopped the command, or None while none has."""
    return _stopped_by


@contextmanager
def user_errors():
    """A sqlrank error is the user's to fix: one line on stderr and its exit code, no traceback; the library
    words its hints for the command line meanwhile (--run-map, not run_columns=)."""
    door = DOOR.set("cli")
    try:
        yield
    except SqlrankError as error:
        if _stopped_by is not None:  # DuckDB's "interrupted", worded by the library as its own failure
            raise Stop() from None
        typer.echo(f"sqlrank: error: {sqlrank.escaping.notice(error)}", err=True)  # one line, whatever it quotes
        raise typer.Exit(error.exit_code) from None
    finally:
        DOOR.reset(door)


def one_line(message: str) -> str:
    """Typer's message on one line, in sqlrank's words: without the `Value error, ` and `Input should be`
    of the validation library under Typer."""
    text = " ".join(message.split()).replace("Value error, ", "").replace("Input should be ", "expected ")
    text = text.replace("expected greater than or equal to ", "expected a number >= ")
    return text.replace(", unable to parse string as an integer", "").replace(", unable to parse string as a number", "")


def exit_code(code) -> int:
    """What Python makes of SystemExit(code): None is 0, a number itself, anything else printed and 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1
