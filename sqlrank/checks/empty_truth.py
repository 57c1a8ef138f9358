"""Queries (users) with no relevant judgment, under a policy named after torchmetrics' empty_target_action.

Such a query can score nothing but 0 on a measure of relevant items, which pulls the mean down for a reason
that is the test set's, not the system's (a user whose ratings are all below `rel`). trec_eval scores them 0;
recommender libraries leave them out or let the user choose:

    zero   score 0 on every measure, as today (torchmetrics 'neg')
    one    score 1 on every measure, the `all` row's mean taking them so (torchmetrics 'pos'); only measures
           averaged over the queries, since a sum or a geometric mean of counts has no such 1
    skip   left out of the evaluation, as if not in the truth (torchmetrics 'skip', RecBole, recommenders)
    error  refused, naming the first of them (torchmetrics 'error')

'Relevant' is a label >= rel (evaluate's `rel`, 1 when not given). The count goes to the notices.
"""

from __future__ import annotations

from .. import sqlgen
from ..errors import EvaluationError
from . import messages
from .gains import _number

EMPTY_TABLE = "sqlrank_empty_queries"

EMPTY_POLICIES = ("zero", "one", "skip", "error")


def check_empty_policy(policy: str, measures: list) -> None:
    """empty='one' sets a score of 1, which only a measure averaged over the queries can take: refuse the others."""
    summed = [str(measure) for measure in measures if measure.definition.aggregate != "mean"]
    if policy == "one" and summed:
        raise EvaluationError(messages.EMPTY_ONE_REFUSED.format(
            assign="=", measures=", ".join(summed),
            fix="ask for them in another call, or choose empty='zero' or 'skip'"))


def apply_empty_policy(con, qrels_table: str, report, policy: str, rel: float | None) -> None:
    """Apply `policy` to the queries of `qrels_table` without a label >= rel, and record them in `report`
    (Report.empty_queries, which its notices count).

    Under 'one' the queries are kept in the table EMPTY_TABLE, for score_one().
    """
    level = 1.0 if rel is None else float(rel)
    table = sqlgen.identifier(qrels_table)
    empty = f"SELECT query_id FROM {table} GROUP BY query_id HAVING max(relevance) < {sqlgen.literal(level)}"
    if policy == "one":  # made whether or not there are any: score_one() reads it
        con.execute(sqlgen.create_temp_table(EMPTY_TABLE, empty))
    report.empty_queries = sorted(row[0] for row in con.execute(empty).fetchall())
    report.empty_policy, report.empty_level = policy, level
    if policy == "error" and report.empty_queries:
        queries = con.execute(f"SELECT count(DISTINCT query_id) FROM {table}").fetchone()[0]
        raise EvaluationError(messages.EMPTY_REFUSED.format(which=_which(report, queries), assign="=",
                                                            fix=messages.EMPTY_FIX_PYTHON))
    if policy == "skip" and report.empty_queries:
        con.execute(f"DELETE FROM {table} WHERE query_id IN ({empty})")


def _which(report, queries: int) -> str:
    """'qrels.csv: 1 of 3 queries have no relevant judgment (label >= 4) (u3)'."""
    shown = ", ".join(report.empty_queries[:3]) + (", ..." if len(report.empty_queries) > 3 else "")
    return messages.EMPTY_QUERIES.format(input=report.qrels_label, count=len(report.empty_queries), queries=queries,
                                         level=_number(report.empty_level), shown=shown)


_DONE = {"zero": "every measure scores them 0 (empty='zero', torchmetrics' empty_target_action='neg')",
         "one": "every measure scores them 1 (empty='one', torchmetrics' empty_target_action='pos')",
         "skip": "left out (empty='skip', torchmetrics' empty_target_action='skip')"}


def empty_notice(report) -> str:
    """The notice of Report.empty_queries: how many, which, and what the policy did with them."""
    # under 'skip' they are no longer qrels queries: count them back in
    queries = report.qrels_queries + (len(report.empty_queries) if report.empty_policy == "skip" else 0)
    return f"{_which(report, queries)}: {_DONE[report.empty_policy]}"


def score_one(con, table):
    """The long result `table` with the queries of EMPTY_TABLE scored 1, and each `all` row the mean again.

    The mean adds in query order, as sqlrank.summary does (sql/90_summary.sql).
    """
    con.register("sqlrank_unscored", table)
    try:
        return con.sql(f"""
            WITH patched AS (
                SELECT run_id, query_id, measure,
                       CASE WHEN query_id <> 'all' AND query_id IN (SELECT query_id FROM {EMPTY_TABLE})
                            THEN 1.0 ELSE value END AS value,
                       row_number() OVER () AS row_order
                FROM sqlrank_unscored),
            means AS (
                SELECT run_id, measure, sum(value ORDER BY query_id) / count(*) AS mean
                FROM patched WHERE query_id <> 'all' GROUP BY run_id, measure)
            SELECT patched.run_id, patched.query_id, patched.measure,
                   CASE WHEN patched.query_id = 'all' THEN means.mean ELSE patched.value END AS value
            FROM patched LEFT JOIN means ON patched.run_id = means.run_id AND patched.measure = means.measure
            ORDER BY row_order""").to_arrow_table().cast(table.schema)
    finally:
        con.unregister("sqlrank_unscored")
