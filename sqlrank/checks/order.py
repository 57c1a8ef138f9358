"""ties='input': the run's own order must be an order, checked once its reader has kept it.

The reader keeps it as the input_rank column (readers.base.keeps_order): a TREC run's rank
field, a table's rank column, or the row number. Every row needs a finite rank, and no two
documents of one query (of one run) may share one: they would have no order between them,
and the policy that asks for the input's order has no rule to guess one.
"""

from __future__ import annotations

from .. import sqlgen
from ..errors import EvaluationError, InputError, shorten
from . import messages

INPUT_RANK = "input_rank"  # readers.base.INPUT_RANK (checks do not import the readers)


def check_order(con, loaded) -> None:
    """Refuse a run whose input_rank is missing, not a finite number, or given twice within a query."""
    table = sqlgen.identifier(loaded.table)
    columns = [row[0] for row in con.execute(f"DESCRIBE {table}").fetchall()]
    if INPUT_RANK not in columns:  # loaded before ties='input' was asked for: its order is gone
        raise EvaluationError(f"{loaded.label}: was read without its order, which ties='input' needs; "
                              "pass the file or table itself")
    runs = "run_id, " if "run_id" in columns else ""
    said = {"input": loaded.label, "policy": "ties='input'", "order": loaded.order or "its rank column"}
    bad = con.execute(f"SELECT {runs}query_id, doc_id, {INPUT_RANK} FROM {table} "
                      f"WHERE {INPUT_RANK} IS NULL OR NOT isfinite({INPUT_RANK}) LIMIT 1").fetchone()
    if bad is not None:
        *run, query_id, doc_id, rank = bad
        raise InputError(messages.render(messages.INPUT_RANK_MISSING, **said, run=_run(run),
                                         query_id=shorten(query_id), doc_id=shorten(doc_id),
                                         found="no number" if rank is None else f"the rank {rank}"))
    shared = con.execute(
        f"SELECT {runs}query_id, {INPUT_RANK}, count(*), min(doc_id) FROM {table} "
        f"GROUP BY ALL HAVING count(*) > 1 ORDER BY ALL LIMIT 1").fetchone()
    if shared is not None:
        *run, query_id, rank, count, doc_id = shared
        shown = f"{int(rank)}" if rank.is_integer() else f"{rank}"  # 3, not 3.0: the rank as a file writes it
        raise InputError(messages.render(messages.INPUT_RANK_SHARED, **said, run=_run(run),
                                         query_id=shorten(query_id), rank=shown, count=count,
                                         doc_id=shorten(doc_id)))


def _run(run: list) -> str:
    """`run 'x', ` for a table holding several runs (its run_id), nothing otherwise."""
    return f"run '{shorten(run[0])}', " if run else ""
