"""Tables in memory: pandas and polars DataFrames (and LazyFrames), pyarrow Tables, RecordBatchReaders and
Datasets, DuckDB relations.

DuckDB scans pandas and pyarrow objects in place (a view over the registered
object, no copy; a pyarrow Dataset is scanned from its files); polars DataFrames
and DuckDB relations are handed over as Arrow tables (polars strings as string views,
without a copy), a LazyFrame once collected and a RecordBatchReader once read (a stream
cannot be scanned twice). Columns are mapped as for files (tables.py).
"""

from __future__ import annotations

import sys

import duckdb

from .. import sqlgen
from ..errors import InputError, first_line
from . import tables
from .base import Loaded, Reader, keeps_order

EXPLAIN = tables.explainer()


def label_of(source, kind: str | None = None) -> str:
    """How messages name an object: `<pandas DataFrame>`, `<pyarrow Table run>` (which argument it was)..."""
    role = f" {kind}" if kind else ""
    return f"<{type(source).__module__.split('.')[0]} {type(source).__name__}{role}>"


def accepts(source) -> bool:
    module = type(source).__module__
    return isinstance(source, duckdb.DuckDBPyRelation) or module.startswith(("polars", "pandas", "pyarrow"))


def unordered(source) -> str | None:
    """What an object without a row order of its own is, for ties='input' (None: it has one).

    A DuckDB relation is a query, whose rows come in no defined order without an ORDER BY; a pyarrow
    Dataset is scanned from its files in parallel. pandas, polars and pyarrow tables (and a
    RecordBatchReader, read whole in its stream's order) keep their rows in order.
    """
    if isinstance(source, duckdb.DuckDBPyRelation):
        return "a DuckDB relation (a query, whose rows have no order without ORDER BY)"
    if type(source).__module__.startswith("pyarrow") and "Dataset" in type(source).__name__:
        return "a pyarrow Dataset (scanned from its files in parallel)"
    return None


def polars_to_arrow(frame):
    """A polars DataFrame as an Arrow table without copying its strings.

    polars holds strings as Arrow string views, DuckDB's own layout; its default export converts
    them to plain strings, a copy of every id (docs/performance.md, "Round four").
    """
    polars = sys.modules["polars"]
    # Arrow has no 128-bit integer: such a column goes as its digits, which sqlrank reads as ids or numbers
    wide = [name for name, dtype in frame.schema.items() if str(dtype) in ("Int128", "UInt128")]
    if wide:
        frame = frame.with_columns(polars.col(wide).cast(polars.String))
    compat_level = getattr(polars, "CompatLevel", None)  # polars 1.0 has no CompatLevel
    return frame.to_arrow(compat_level=compat_level.newest()) if compat_level else frame.to_arrow()


def read(con, source, table: str, kind: str, columns: dict, label: str | None = None) -> Loaded:
    label = label or label_of(source, kind)
    data_name = table + "_data"
    without_order = unordered(source)
    try:
        if isinstance(source, duckdb.DuckDBPyRelation):
            source = source.to_arrow_table() if hasattr(source, "to_arrow_table") else source.arrow()
        elif type(source).__name__ == "LazyFrame":  # polars: the query plan runs once, here
            source = polars_to_arrow(source.collect())
        elif type(source).__module__.startswith("polars"):
            source = polars_to_arrow(source)
        elif type(source).__name__ == "RecordBatchReader":  # read once here: the checks and the measures scan it again
            source = source.read_all()
        names = getattr(source, "column_names", None) or list(getattr(source, "columns", []))
        tables.refuse_duplicate_names(label, [str(name) for name in names])
        if type(source).__module__.startswith("pandas") and len(source) == 0:
            # pandas guesses an empty column's dtype (float64 or object): no rows, no type to check
            import pyarrow as pa

            source = pa.table({str(name): pa.array([], pa.string()) for name in names})
        con.register(data_name, source)
        found = tables.describe(con, sqlgen.identifier(data_name))
        if kind == "run" and keeps_order(columns) and without_order and \
                tables.rank_column([name for name, _ in found]) is None:
            raise InputError(f"{label}: ties='input' takes the run's own order, but this is {without_order} and "
                             "has no rank column; add a column 'rank' (lowest first), pass a pandas, polars or "
                             "pyarrow table in its order, or choose another ties policy")
    except InputError:
        raise
    except Exception as error:  # pandas, pyarrow, polars and DuckDB each have their own: all mean "unreadable"
        raise InputError(f"{label}: cannot be read as a table: {first_line(error)}") from None
    loaded = Loaded(table, label, EXPLAIN)
    return tables.load_described(con, loaded, sqlgen.identifier(data_name), found, kind, columns, materialize=False)


READER = Reader("table", read, accepts=accepts)
