"""The bounds of every numeric option, and the one check of a whole number against them.

The command line gives these to its options (a value outside is a usage error naming the
range); the Python API checks its arguments with whole_number(). A bound is where a larger
value stops meaning anything more and starts costing: DuckDB starts every thread it is given
(--threads 100000 spent minutes creating threads for a 14-line input), no ranking is longer than
the largest cutoff, and a resampling test past a million trials only takes longer.
"""

from __future__ import annotations

import numbers
import re

from .errors import EvaluationError

MAX_THREADS = 1024
MAX_DEPTH = 2_147_483_647  # as measures.MAX_CUTOFF: no ranking is longer
MAX_TRIALS = 1_000_000
MAX_BUCKETS = 1_000_000
SEEDS = (-(2**63), 2**63 - 1)  # DuckDB's BIGINT, which the resampling macros take


def whole_number(name: str, value, low: int = 1, high: int | None = None, error=EvaluationError) -> int:
    """`value` as a Python int when it is a whole number (int, numpy integer) within [low, high]; else `error`."""
    from .checks import messages  # the words the shell's macros say too (shell_door.py)

    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise error(messages.render(messages.WHOLE_NUMBER, name=name, low=low,
                                    value=f"{type(value).__name__} {value!r}"))
    number = int(value)
    if number < low:
        raise error(messages.render(messages.WHOLE_NUMBER, name=name, low=low, value=number))
    if high is not None and number > high:
        raise error(messages.render(messages.AT_MOST, name=name, high=high, value=number))
    return number


# a size DuckDB reads as bytes: a number above 0 and a unit (its parser says which units); checked here
# because DuckDB silently falls back to its default for a negative size or an unknown unit
_SIZE = re.compile(r"\s*(\d+(\.\d*)?|\.\d+)\s*[A-Za-z]+\s*")


def memory_size(text) -> str:
    """`text` when it is a memory size above 0 with its unit (4GB, 500MiB); else an EvaluationError."""
    match = _SIZE.fullmatch(str(text))
    if match is None or float(match.group(1)) <= 0:
        raise EvaluationError(f"memory limit must be a size above 0 with its unit, e.g. 4GB or 500MiB, got '{text}'")
    return str(text)
