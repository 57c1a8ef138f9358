"""The exceptions sqlrank users see.

Every message says what was expected, what was found and what to do, and
names the file (and line or column) when there is one. The CLI turns these
into a one-or-two-line message and an exit code, never a traceback.
"""


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


class OutputError(SqlrankError):
    """A result cannot be written where it was asked to go."""


class ResourceError(SqlrankError):
    """DuckDB ran out of the memory it was given: the inputs are fine, the limits are too tight."""


class SqlrankNotice(UserWarning):
    """Something a loader did that changes values (labels cut to integers, duplicate rows dropped).

    evaluate() reports these in Result.notices(); load_run() and load_qrels(), which return only a
    view's name, issue them as this warning.
    """
