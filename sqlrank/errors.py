"""The exceptions sqlrank users see.

Every message says what was expected, what was found and what to do, and
names the file (and line or column) when there is one. The CLI turns these
into a one-or-two-line message and an exit code, never a traceback. The
pieces those messages are made of (shorten, first_line, out_of_memory) are
here too, so that every module words them alike.
"""

from __future__ import annotations

import contextvars


class SqlrankError(Exception):
    """Base class: every user-facing sqlrank error."""

    exit_code = 1


class InputError(SqlrankError):
    """An input file or table is unreadable or malformed (bad data)."""


class MeasureError(SqlrankError):
    """A measure name or parameter that the registry does not know (usage)."""

    exit_code = 2


class EvaluationError(SqlrankError):
    """The data is readable but cannot be evaluated under the chosen policy."""


class ChoiceError(EvaluationError):
    """An option's value that is none of its choices (a test, a correction, a baseline): usage, as a bad measure."""

    exit_code = 2


class OutputError(SqlrankError):
    """A result cannot be written where it was asked to go."""


class ResourceError(SqlrankError):
    """DuckDB ran out of the memory it was given: the inputs are fine, the limits are too tight."""


class SqlrankNotice(UserWarning):
    """Something a loader did that changes values (labels cut to integers, duplicate rows dropped).

    evaluate() reports these in Result.notices(); load_run() and load_qrels(), which return only a
    view's name, issue them as this warning.
    """


# ---------------------------------------------------------------- pieces of messages

# the door a message is read at: "python" (the library), or "cli", which the command line sets while its
# command runs, so that a hint names the option the reader can type (--run-map, not run_columns=)
DOOR: "contextvars.ContextVar[str]" = contextvars.ContextVar("sqlrank_door", default="python")


def at_command_line() -> bool:
    return DOOR.get() == "cli"


def option_hint(python: str, cli: str) -> str:
    """How to set an option, in the words of the door in use: `--run-col <name>` on the command line,
    `run_col=<name> (CLI: --run-col <name>)` in Python."""
    return cli if at_command_line() else f"{python} (CLI: {cli})"


def shorten(text, width: int = 80) -> str:
    """User text for a one-line message: control characters escaped (\\t, \\x1f), cut at `width`."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))
    return text if len(text) <= width else text[: width - 3] + "..."


def first_line(error: Exception) -> str:
    """The first line of an exception's message (DuckDB's go on with context), or its type's name."""
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def out_of_memory(error: Exception, con=None) -> ResourceError | None:
    """DuckDB's out-of-memory error in the user's words (never "a corrupt file"), or None for any other error.

    con: the connection that failed, when known: one given a spill folder is not told to add one.
    """
    import duckdb  # sqlrank.errors stays importable on its own; duckdb is loaded by then wherever this is called

    if not isinstance(error, duckdb.OutOfMemoryException):
        return None
    if "failed to offload" in str(error) or "max_temp_directory_size" in str(error):
        # memory ran out and the spill files found no room either: more memory helps, a bigger folder too
        return ResourceError(f"DuckDB's temp directory is full ({first_line(error)}); free space there, or give DuckDB "
                             "a folder on a disk with room (--temp-directory, temp_directory=), or raise the memory "
                             "limit (--memory-limit)")
    folder = _spill_folder(con)
    if folder:
        return ResourceError(f"DuckDB ran out of memory ({first_line(error)}) although it could spill to {folder}: "
                             "what it was doing does not spill; raise the memory limit (--memory-limit, "
                             "memory_limit=) or use fewer threads (--threads, threads=)")
    return ResourceError(f"DuckDB ran out of memory ({first_line(error)}); raise the memory limit "
                         "(--memory-limit, memory_limit=) or give DuckDB a folder to spill to "
                         "(--temp-directory, temp_directory=)")


def _spill_folder(con) -> str | None:
    """The temp directory the user gave `con` (DuckDB's own default, .tmp, is none), or None."""
    if con is None:
        return None
    try:
        folder = con.execute("SELECT current_setting('temp_directory')").fetchall()[0][0]
    except Exception:  # noqa: BLE001 - a connection that cannot say: the general hint
        return None
    return folder if folder and folder != ".tmp" else None
