"""Queries (users) with no relevant judgment, under a policy named after torchmetrics' empty_target_action.

Such a query can score nothing but 0 on a measure of relevant items, which pulls the mean down for a reason
that is the test set's, not the system's (a user whose ratings are all below `rel`). trec_eval scores them 0;
recommender libraries leave them out or let the user choose:

    zero   score 0 on every measure, as today (torchmetrics 'neg')
    skip   left out of the evaluation, as if not in the truth (torchmetrics 'skip', RecBole, recommenders)
    error  refused, naming the first of them (torchmetrics 'error')

'Relevant' is a label >= rel (evaluate's `rel`, 1 when not given). The count goes to the notices.
"""

from __future__ import annotations

from .. import sqlgen
from ..errors import EvaluationError
from .gains import _number

EMPTY_POLICIES = ("zero", "skip", "error")
_TORCHMETRICS = {"zero": "neg", "skip": "skip", "error": "error"}


def apply_empty_policy(con, qrels_table: str, qrels_label: str, policy: str, rel: float | None) -> str | None:
    """Apply `policy` to the queries of `qrels_table` without a label >= rel; the notice, None when there are none."""
    level = 1 if rel is None else rel
    table = sqlgen.identifier(qrels_table)
    empty, queries, examples = con.execute(
        f"SELECT count(*) FILTER (WHERE best < {sqlgen.literal(float(level))}), count(*), "
        f"list(query_id ORDER BY query_id) FILTER (WHERE best < {sqlgen.literal(float(level))})[1:3] "
        f"FROM (SELECT query_id, max(relevance) AS best FROM {table} GROUP BY query_id)").fetchone()
    if not empty:
        return None
    shown = ", ".join(examples) + (", ..." if empty > 3 else "")
    which = (f"{qrels_label}: {empty} of {queries} queries have no relevant judgment (label >= {_number(float(level))}) "
             f"({shown})")
    if policy == "error":
        raise EvaluationError(f"{which}: refused (empty='error'); pass empty='zero' to score them 0 or "
                              "empty='skip' to leave them out (CLI: --empty zero|skip)")
    if policy == "skip":
        con.execute(f"DELETE FROM {table} WHERE query_id IN (SELECT query_id FROM {table} GROUP BY query_id "
                    f"HAVING max(relevance) < {sqlgen.literal(float(level))})")
        return f"{which}: left out (empty='skip', torchmetrics' empty_target_action='skip')"
    return f"{which}: every measure scores them 0 (empty='zero', torchmetrics' empty_target_action='neg')"
