"""csv, tsv, json, jsonl, parquet: a table's own columns and types (a Result's long rows), through Arrow.

The parts are made as they are taken, so a CSV is written while it is encoded;
an error of Arrow's comes out of the iteration as an OutputError. Arrow's CSV
writer uses one core, so a big table is encoded in slices of CSV_SLICE_ROWS rows
on one thread per core, and each slice is written, in order, while the next
ones are encoded (docs/performance.md, "Writing CSV"). pyarrow.csv and
pyarrow.parquet are imported only by the formats that need them.
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from typing import Iterator

from ..errors import OutputError

# Rows per CSV slice. Small slices keep each of Arrow's output buffers small (a buffer grown to
# tens of MB by doubling costs its copies and fresh pages) and let the file be written while the
# next slices are encoded.
CSV_SLICE_ROWS = 1 << 18


def render_csv(table) -> Iterator:
    with _arrow_errors("csv"):
        yield from _delimited(table, ",")


def render_tsv(table) -> Iterator:
    with _arrow_errors("tsv"):
        yield from _delimited(table, "\t")


def render_json(table) -> Iterator:
    """One JSON list of row objects."""
    with _arrow_errors("json"):
        _refuse_non_finite(table, "json")
        yield (_dumps(table.to_pylist(), "json", indent=1) + "\n").encode()


def render_jsonl(table) -> Iterator:
    """One JSON object per line."""
    with _arrow_errors("jsonl"):
        _refuse_non_finite(table, "jsonl")
        yield "".join(_dumps(row, "jsonl") + "\n" for row in table.to_pylist()).encode()


def render_parquet(table) -> Iterator:
    import pyarrow as pa
    import pyarrow.parquet as pq

    with _arrow_errors("parquet"):
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink)
        yield sink.getvalue()


def _refuse_non_finite(table, fmt: str) -> None:
    """JSON has no number for inf or NaN (Python would write `Infinity`, which JSON readers refuse)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    for name, column in zip(table.column_names, table.columns):
        if not pa.types.is_floating(column.type):
            continue
        for shown, test in (("inf", pc.is_inf), ("nan", pc.is_nan)):
            if pc.any(test(column)).as_py():
                raise OutputError(f"cannot write the result as {fmt}: column '{name}' holds {shown}, which JSON has "
                                  "no number for; choose csv or parquet, or select finite values")


def _dumps(value, fmt: str, indent: int | None = None) -> str:
    try:
        return json.dumps(value, indent=indent, default=str, allow_nan=False)
    except ValueError:  # an inf or NaN nested in a list or struct, which _refuse_non_finite does not look into
        raise OutputError(f"cannot write the result as {fmt}: a list or struct holds inf or nan, which JSON has "
                          "no number for; choose parquet, or select finite values") from None


@contextmanager
def _arrow_errors(fmt: str):
    import pyarrow as pa

    try:
        yield
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError) as error:
        # e.g. a LIST column selected by `sqlrank query` has no CSV form
        raise OutputError(f"cannot write the result as {fmt}: {error}; choose json, jsonl or parquet, "
                          "or select plain columns") from None


def _delimited(table, delimiter: str) -> Iterator:
    """CSV or TSV, header first, one buffer per slice of the table, in order."""
    import pyarrow as pa
    import pyarrow.csv as pa_csv

    def encode(first_row: int):
        sink = pa.BufferOutputStream()
        options = pa_csv.WriteOptions(include_header=first_row == 0, delimiter=delimiter, quoting_style="needed")
        pa_csv.write_csv(table.slice(first_row, CSV_SLICE_ROWS), sink, options)
        return sink.getvalue()

    starts = range(0, max(table.num_rows, 1), CSV_SLICE_ROWS)  # an empty table still has its header
    if len(starts) == 1:
        yield encode(0)
        return
    from concurrent.futures import ThreadPoolExecutor

    # pyarrow releases the GIL while it encodes, so the slices are encoded in parallel; map()
    # hands them back in order, each as soon as it and those before it are done
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        yield from pool.map(encode, starts)
