"""Gains a double cannot hold, refused before any measure adds them up.

A label's gain is the label (gain=linear) or 2^label - 1 (gain=exp; ERR reads 2^label too). Past the
largest double (about 2^1024) a gain, or a query's sum of gains, is inf, and inf / inf is NaN or 0: nDCG
would be 0 or 1 whatever the ranking. Every DCG, ideal DCG or sum of gains of a query is at most the sum
of its positive gains (discounts are >= 1), so a finite sum proves them all finite.
"""

from __future__ import annotations

import math

from .. import sqlgen
from ..errors import InputError

EXP_OVERFLOW_LABEL = 1024  # 2^1024 is beyond the largest double


def refuse_overflowing_gains(con, table: str, label: str, exponential: list[str] | tuple = ()) -> None:
    """Refuse the first query (by query_id) whose positive labels, or their 2^label - 1 gains, add up to inf.

    table: a canonical qrels table; label: the qrels in messages; exponential: the names of the measures
    asked for that take 2^label (the exp sums are checked only for them). One ungrouped scan bounds every
    query's sums (largest label times the number of labels); only when the bound is not finite are the
    queries' sums taken.
    """
    quoted = sqlgen.identifier(table)
    exp = sqlgen.literal(bool(exponential))
    largest, count = con.execute(f"SELECT max(relevance), count(*) FROM {quoted} WHERE relevance > 0").fetchall()[0]
    if not count:
        return
    # 2^largest * count, in logarithms (2.0 ** 1100 is an OverflowError in Python), with a margin of a factor 2
    exp_may_overflow = bool(exponential) and largest + math.log2(count) >= EXP_OVERFLOW_LABEL - 1
    if largest * count < math.inf and not exp_may_overflow:
        return
    rows = con.execute(
        f"SELECT query_id, max(relevance), isinf(sum(relevance)) FROM {quoted} WHERE relevance > 0 "
        f"GROUP BY query_id HAVING isinf(sum(relevance)) OR ({exp} AND isinf(sum(power(2.0, relevance) - 1.0))) "
        "ORDER BY query_id LIMIT 1"
    ).fetchall()
    if not rows:
        return
    query_id, largest, linear_sum = rows[0]
    where = f"{label}: query '{query_id}'"
    if linear_sum:
        raise InputError(f"{where}: its positive labels (the largest {_number(largest)}) add up to more than the largest "
                         "number a double holds, so its gains, DCG and ideal DCG would be infinite; scale the "
                         "labels down")
    if largest >= EXP_OVERFLOW_LABEL:
        raise InputError(f"{where}: the label {_number(largest)} gives {exponential[0]} the gain 2^{_number(largest)} - 1, beyond "
                         f"the largest number a double holds (about 2^1024); use gain=linear, or labels below "
                         f"{EXP_OVERFLOW_LABEL}")
    raise InputError(f"{where}: the gains 2^label - 1 of its labels (the largest {_number(largest)}) add up, for "
                     f"{exponential[0]}, to more than the largest number a double holds; use gain=linear, or "
                     "smaller labels")


def exponential_measures(measures) -> list[str]:
    """The names of the measures that take 2^label: gain=exp, and those graded by 2^label / 2^max_grade."""
    return [str(m) for m in measures if dict(m.params).get("gain") == "exp" or "max_grade" in m.definition.params]


def _number(value: float) -> str:
    """2000.0 as 2000, 1e308 as 1e+308."""
    return str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)
