"""Register any input the Python API accepts as a canonical view, for SQL users of `sqlrank.connect()`.

    con = sqlrank.connect()
    sqlrank.load_qrels(con, "qrels.txt", name="qrels")
    sqlrank.load_run(con, "run.parquet", name="run")
    con.sql("SELECT avg(value) FROM sqlrank.ndcg('qrels', 'run', k := 10)")

What a loader changes (TREC labels cut to integers, duplicate rows dropped under
duplicates='first' or 'max') is issued as a sqlrank.SqlrankNotice warning.
"""

from __future__ import annotations

import warnings

from . import readers, sqlgen
from .checks import resolve_duplicates
from .checks.gains import refuse_overflowing_gains
from .readers.files import check_unchanged
from .errors import EvaluationError, SqlrankNotice
from .result import duplicates_notice


# sqlrank's own tables and views are named sqlrank_...: a user's view of such a name could replace one
RESERVED_PREFIX = "sqlrank_"


def check_view_name(name: str) -> None:
    """Refuse a view name in sqlrank's own namespace (DuckDB compares names in any case)."""
    if str(name).lower().startswith(RESERVED_PREFIX):
        raise EvaluationError(f"'{name}': names starting with '{RESERVED_PREFIX}' (in any case) are sqlrank's own; "
                              "choose another name for the view")


def _register(con, source, name: str, kind: str, duplicates: str, columns: dict) -> str:
    check_view_name(name)
    loaded = readers.load(con, source, f"sqlrank_{kind}_{name}_source", kind, columns)
    dropped = resolve_duplicates(con, loaded, kind, duplicates)
    if kind == "qrels":  # the measures are not known yet: the sums of linear gains (sqlrank.gain guards exp)
        refuse_overflowing_gains(con, loaded.table, loaded.label)
    table = loaded.table
    if loaded.in_place and not dropped:
        # a view would read the file (or DataFrame) again at every later macro call, whatever it holds
        # by then: keep the rows checked instead (docs/performance.md#inputs-read-once-checked)
        table = loaded.table + "_snapshot"
        con.execute(sqlgen.create_temp_table(table, sqlgen.select_all(loaded.table)))
    check_unchanged(loaded)  # the copy (or the duplicates' resolution) read the file again
    con.execute(sqlgen.create_temp_view(name, sqlgen.select_all(table)))
    # what evaluate() would list in Result.notices(): here only a name is returned, so say it now
    notices = loaded.notes + ([duplicates_notice(loaded.label, kind, dropped, duplicates)] if dropped else [])
    for notice in notices:
        warnings.warn(notice, SqlrankNotice, stacklevel=3)
    return name


def load_run(con, source, name: str = "run", *, duplicates: str = "error", query_col=None, doc_col=None,
             score_col=None) -> str:
    """Create view `name` (query_id, doc_id, score [, run_id]) from `source`; returns the view name."""
    return _register(con, source, name, "run", duplicates,
                     {"query_id": query_col, "doc_id": doc_col, "score": score_col})


def load_qrels(con, source, name: str = "qrels", *, duplicates: str = "error", query_col=None, doc_col=None,
               relevance_col=None) -> str:
    """Create view `name` (query_id, doc_id, relevance) from `source`; returns the view name."""
    return _register(con, source, name, "qrels", duplicates,
                     {"query_id": query_col, "doc_id": doc_col, "relevance": relevance_col})
