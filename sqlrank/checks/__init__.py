"""The checks every reader's output goes through before it is trusted.

validate() scans a canonical table once: rows exist, no empty id, every value
a number and not NaN, and pair_screen's screen for duplicate (query_id,
doc_id) pairs. resolve_duplicates() applies the duplicates policy when that
screen could not rule them out.

The input is a readers.Loaded record; what is wrong with it is explained by
the reader that made it (Loaded.explain), since only the reader knows where
its rows came from (a file's line, a DataFrame's row). Imports go one way:
readers -> checks, never back.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

import duckdb

from .. import sqlgen
from ..errors import InputError, at_command_line, option_hint
from . import messages
from .pair_screen import bad_row, screen

DUPLICATE_POLICIES = ("error", "first", "max")


def value_column(kind: str) -> str:
    """The canonical column holding a run's scores or the qrels' labels."""
    return "score" if kind == "run" else "relevance"


def validate(con, loaded, kind: str) -> None:
    """One scan of `loaded.table`: rows exist; no empty ids; every value a number, not NaN (a label finite).

    A run of one system may have no rows (it retrieved nothing): loaded.no_rows says so, and the
    engine's missing policy decides; empty qrels, or a run_id table without rows, are refused.

    Otherwise the reader's explanation (loaded.explain) says which row is wrong.
    The same scan screens for duplicate (query_id, doc_id) pairs: when all the
    pairs' hashes differ, all the pairs differ, and resolve_duplicates() need
    not group the table by its string keys.
    """
    value = value_column(kind)
    ids = ["query_id", "doc_id"] + (["run_id"] if "run_id" in loaded.columns else []) + \
        (["subtopic_id"] if kind == "subtopic_qrels" else [])
    try:
        # a score may be infinite (trec_eval reads `inf`), a label may not: no gain can use it
        with _every_value_read(con):
            total, bad, equal_hashes = screen(con, sqlgen.identifier(loaded.table), ids,
                                              bad_row(ids, value, finite=kind != "run"))
    except duckdb.Error as error:  # a view: a cast or a read fails only now
        raise loaded.explain(con, loaded, kind, error) from None
    if total == 0 and kind == "run" and "run_id" not in loaded.columns:
        loaded.no_rows = True  # a system that retrieved nothing: the missing policy decides (engine)
        return
    if total == 0:
        what = ": the qrels are empty, so nothing can be evaluated" if kind == "qrels" else ""
        empty = loaded.empty or f"no rows{what}; expected rows of query_id, doc_id, {value}"
        raise InputError(f"{loaded.label}: {empty}")
    if bad:
        with _every_value_read(con):
            raise loaded.explain(con, loaded, kind, None)
    loaded.may_have_duplicates = equal_hashes > 0


# disabled_optimizers holds for the whole database, which evaluations in threads share (macros.library_connection):
# one change at a time, so that each puts back what it found
_OPTIMIZER_SETTING = threading.Lock()


@contextmanager
def _every_value_read(con):
    """DuckDB's statistics propagation off while the checks read: pyarrow's Parquet min/max leave NaN out,
    and DuckDB then folds isnan(score) to false in a projection, passing a NaN score unseen."""
    with _OPTIMIZER_SETTING:
        before = con.execute("SELECT current_setting('disabled_optimizers')").fetchone()[0]
        con.execute(sqlgen.set_option("disabled_optimizers",
                                      ",".join(filter(None, [before, "statistics_propagation"]))))
        try:
            yield
        finally:
            con.execute(sqlgen.set_option("disabled_optimizers", before))


def resolve_duplicates(con, loaded, kind: str, policy: str) -> int:
    """Apply the duplicates policy to (query_id, doc_id) pairs; returns how many rows were dropped.

    'error' (default) refuses and names the first duplicates (trec_eval exits
    with "duplicate docs"); 'first' keeps the first row in input order; 'max'
    keeps the highest score (run) or label (qrels).
    """
    if policy not in DUPLICATE_POLICIES:
        raise InputError(f"unknown duplicates policy '{policy}' (expected one of: {', '.join(DUPLICATE_POLICIES)})")
    if not loaded.may_have_duplicates:
        return 0
    table = sqlgen.identifier(loaded.table)
    # a table holding several runs (run_id column) has each document once per run, not once overall
    has_run_id = "run_id" in [row[0] for row in con.execute(f"DESCRIBE {table}").fetchall()]
    key = "run_id, query_id, doc_id" if has_run_id else "query_id, doc_id"
    if kind == "subtopic_qrels":  # a document is judged once for each subtopic
        key = "query_id, subtopic_id, doc_id"
    examples = con.execute(
        f"SELECT query_id, doc_id, count(*) AS copies FROM {table} GROUP BY {key} "
        f"HAVING count(*) > 1 ORDER BY {key} LIMIT 3"
    ).fetchall()
    if not examples:
        return 0
    if policy == "error":
        several = ""
        if kind == "run" and not has_run_id and loaded.other_columns:
            several = ("; if one column names the system of each row (a table of several runs), pass "
                       f"{option_hint('run_col=<name>', '--run-col <name>')}; other columns: "
                       f"{', '.join(loaded.other_columns[:5])}")
        raise duplicates_error(loaded.label, examples, several)
    order = "input_order" if policy == "first" else f"{value_column(kind)} DESC"
    before = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    deduplicated = loaded.table + "_deduplicated"
    con.execute(sqlgen.create_temp_table(
        deduplicated,
        f"SELECT * EXCLUDE (input_order) FROM (SELECT *, row_number() OVER () AS input_order FROM {table}) "
        f"QUALIFY row_number() OVER (PARTITION BY {key} ORDER BY {order}, input_order) = 1"
    ))
    after = con.execute(f"SELECT count(*) FROM {sqlgen.identifier(deduplicated)}").fetchone()[0]
    loaded.table = deduplicated
    return before - after


def duplicates_error(label: str, examples: list[tuple[str, str, int]], hint: str = "") -> InputError:
    """The refusal of duplicate rows, given the first (query_id, doc_id, copies) in key order."""
    shown = ", ".join(messages.render(messages.DUPLICATE_EXAMPLE, query_id=q, doc_id=d, copies=n)
                      for q, d, n in examples)
    return InputError(messages.render(messages.DUPLICATES, input=label, examples=shown,
                                      fix=messages.DUPLICATES_FIX_CLI if at_command_line()
                                      else messages.DUPLICATES_FIX_PYTHON) + hint)


__all__ = ["DUPLICATE_POLICIES", "bad_row", "duplicates_error", "resolve_duplicates", "validate", "value_column"]
