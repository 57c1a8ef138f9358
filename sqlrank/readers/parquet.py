"""Parquet files: recognised by their magic bytes (PAR1), scanned in place (columnar, typed), never copied.

Scanned in place, the file is read again after its checks: the evaluation checks that its identity has
not changed after its last read, and load_run/load_qrels copy it (docs/performance.md, "Inputs read once
checked").
"""

from __future__ import annotations

import duckdb

from .. import sqlgen
from ..errors import first_line
from . import files, tables
from .base import Loaded, Reader


def _unreadable(loaded: Loaded, error: Exception) -> str:
    return (f"{loaded.label}: is not a readable Parquet file ({first_line(error)}); it may be truncated "
            "or corrupt: write it again")


EXPLAIN = tables.explainer(text=False, otherwise=_unreadable)


def read(con, file: files.File, table: str, kind: str, columns: dict) -> Loaded:
    loaded = Loaded(table, str(file.path), EXPLAIN, file.path, compression=file.compression, fmt="parquet")
    relation = f"read_parquet({sqlgen.file_path(file.path)}, hive_partitioning = false)"
    tables.refuse_duplicate_names(loaded.label, _field_names(con, loaded, kind), "the Parquet schema")
    return tables.load_relation(con, loaded, relation, kind, columns, materialize=False)


def _field_names(con, loaded: Loaded, kind: str) -> list[str]:
    """The top-level field names as the file spells them (DuckDB renames a repeated one: `query_id_1`).

    parquet_schema() lists the schema depth first, each group with its number of children.
    """
    try:
        rows = con.execute(f"SELECT name, coalesce(num_children, 0) FROM parquet_schema("
                           f"{sqlgen.file_path(loaded.path)})").fetchall()
    except duckdb.Error as error:
        raise loaded.explain(con, loaded, kind, error) from None
    names, position = [], 1
    for _ in range(rows[0][1] if rows else 0):
        names.append(rows[position][0])
        pending = 1  # skip the field and everything under it
        while pending:
            pending += rows[position][1] - 1
            position += 1
    return names


READER = Reader("parquet", read, magic=b"PAR1", extensions=(".parquet",), title="Parquet")
