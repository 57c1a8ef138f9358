"""Several generated cases evaluated as one: their queries renamed apart, then put in one qrels and one run.

An evaluation of a few small queries costs DuckDB's planning of the measures' SQL, not the rows; a
property test over the whole catalogue pays that plan once per call. Every measure's per-query value
reads its own query alone, so a batch of cases gives each case's per-query values, for one plan.
Checks of what spans queries (the `all` row, a run's notices) see the batch as one case with more queries.
"""

from __future__ import annotations

from hypothesis import strategies as st


def batches(cases: st.SearchStrategy, size: int) -> st.SearchStrategy:
    """`size` cases drawn from `cases` (each a (qrels, run) pair of dicts), merged into one (qrels, run)."""
    return st.lists(cases, min_size=size, max_size=size).map(merged)


def merged(cases) -> tuple[dict, dict]:
    """The cases' qrels and runs as one pair, case i's query q named 'i|q'."""
    qrels, run = {}, {}
    for number, (case_qrels, case_run) in enumerate(cases):
        qrels.update({f"{number}|{query}": judgments for query, judgments in case_qrels.items()})
        run.update({f"{number}|{query}": scores for query, scores in case_run.items()})
    return qrels, run
