"""A user's own SQL, run in a connection that has the macros (and perhaps the canonical views)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import duckdb

from .errors import SqlrankError, first_line, out_of_memory

if TYPE_CHECKING:
    import pyarrow as pa


def query(con: duckdb.DuckDBPyConnection, sql: str) -> pa.Table | None:
    """What `sql` selects, as an Arrow table; None for a statement without a result (CREATE, SET, ...).

    A DuckDB error becomes a SqlrankError of one line (a ResourceError when memory ran out).
    """
    try:
        relation = con.sql(sql)
        return None if relation is None else relation.to_arrow_table()
    except duckdb.Error as error:
        raise out_of_memory(error) or SqlrankError(f"the SQL failed: {first_line(error)}") from None
