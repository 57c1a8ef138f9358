"""Parquet files: recognised by their magic bytes (PAR1), scanned in place (columnar, typed), never copied."""

from __future__ import annotations

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
    return tables.load_relation(con, loaded, relation, kind, columns, materialize=False)


READER = Reader("parquet", read, magic=b"PAR1", extensions=(".parquet",), title="Parquet")
