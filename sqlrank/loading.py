"""Register any input the Python API accepts as a canonical view, for SQL users of `sqlrank.connect()`.

    con = sqlrank.connect()
    sqlrank.load_qrels(con, "qrels.txt", name="qrels")
    sqlrank.load_run(con, "run.parquet", name="run")
    con.sql("SELECT avg(value) FROM sqlrank.ndcg('qrels', 'run', k := 10)")
"""

from __future__ import annotations

from . import inputs


def _register(con, source, name: str, kind: str, duplicates: str, columns: dict) -> str:
    loaded = inputs.load(con, source, f"sqlrank_{kind}_{name}_source", kind, columns)
    inputs.resolve_duplicates(con, loaded, kind, duplicates)
    con.execute(f"CREATE OR REPLACE TEMP VIEW {inputs.quote_identifier(name)} AS "
                f"SELECT * FROM {inputs.quote_identifier(loaded.table)}")
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
