"""The one scan that checks an input table: its rows, its bad rows, and a screen for duplicate pairs.

A (query_id, doc_id) pair may appear once (trec_eval refuses "duplicate docs"),
and proving it means looking at every row. The screen hashes each pair in
DuckDB, reads the hashes into numpy and sorts them there: equal neighbours are
the only candidates for a duplicate. When there are none, every pair is
different and no exact check is needed; equal hashes (a duplicate, or a rare
collision) leave the exact check to checks.resolve_duplicates(). numpy's
vectorised sort is several times faster than the same sort inside DuckDB (a
lag() window) or count(DISTINCT hash) (docs/performance.md, "Input checks").

How the hashes reach numpy depends on the size. Up to STREAM_FROM_ROWS rows,
one fetch: DuckDB collects the whole result and numpy copies it, the faster
way for small inputs. Past that, the result is streamed in batches into one
preallocated array, so that the collected result and its copy never coexist
(half the peak memory).

Memory: numpy's arrays live outside DuckDB's buffer manager, so numpy sorts
only when they fit in what DuckDB's memory_limit leaves free (a quarter kept
back): 18 bytes a row for a single fetch (the hash and the flag once in
DuckDB's result and once in numpy's copy), 8 for the stream (the hash array;
a batch's flags are counted and dropped). Otherwise DuckDB sorts the hashes
itself (a lag() window), which keeps within the limit and spills to disk, so
that the limit bounds the whole process.
"""

from __future__ import annotations

import re

STREAM_FROM_ROWS = 1 << 24  # more rows than this are streamed to numpy in batches (see above)
STREAM_BATCH_ROWS = 1 << 22
# numpy's memory a row: a single fetch holds the hash (8) and the flag (1) twice, in DuckDB's result
# and in numpy's copy; the stream holds the hash array alone
BYTES_PER_ROW = {"fetch": 18, "stream": 8}
_UNITS = {"bytes": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50}
_FALLBACK_LIMIT = 2**30  # a limit DuckDB shows in a way not known here: assume 1 GiB


def bad_row(ids: list[str], value: str, finite: bool = False) -> str:
    """SQL, never NULL, for a row sqlrank refuses: an id NULL or empty, a value NULL, not a number or NaN.

    finite: infinite values are refused too (labels: no gain can use one; a score may be infinite).
    """
    empty = " OR ".join(f"{column} IS NULL OR {column} = ''" for column in ids)
    infinite = f" OR isinf({value})" if finite else ""
    return f"coalesce({empty} OR {value} IS NULL OR isnan({value}){infinite}, true)"


def screen(con, table: str, ids: list[str], bad: str) -> tuple[int, int, int]:
    """(rows, rows where `bad` holds, equal neighbouring pair hashes) of `table` (a quoted name).

    `ids` are the columns hashed together; `bad` is a SQL condition that is never NULL (bad_row()).
    At most a hash and a flag per row come back into Python, never the rows themselves.
    """
    hashed = f"SELECT hash({', '.join(ids)}) AS pair_hash, {bad} AS bad FROM {table}"
    total = con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]
    fetch = "stream" if total > STREAM_FROM_ROWS else "fetch"
    if not _numpy_fits(con, total, BYTES_PER_ROW[fetch]):
        return con.execute(
            "SELECT count(*), count(*) FILTER (WHERE bad), count(*) FILTER (WHERE pair_hash = previous_hash) "
            f"FROM (SELECT bad, pair_hash, lag(pair_hash) OVER (ORDER BY pair_hash) AS previous_hash "
            f"FROM ({hashed}) AS hashed) AS sorted_hashes"
        ).fetchall()[0]
    import numpy

    if fetch == "stream":
        hashes, bad_rows = _streamed(con, hashed, total)
    else:
        columns = con.sql(hashed).fetchnumpy()
        hashes, bad_rows = columns["pair_hash"], int(numpy.count_nonzero(columns["bad"]))
    hashes.sort()
    return len(hashes), bad_rows, int(numpy.count_nonzero(hashes[1:] == hashes[:-1]))


def _streamed(con, hashed: str, total: int):
    """(the pair hashes in one numpy array, the number of bad rows), batch by batch."""
    import numpy

    hashes = numpy.empty(total, dtype=numpy.uint64)
    filled = bad_rows = 0
    for batch in con.sql(hashed).to_arrow_reader(STREAM_BATCH_ROWS):
        rows = batch.num_rows
        if filled + rows > total:  # the input grew between the count and this read
            hashes = numpy.concatenate([hashes, numpy.empty(filled + rows - total, dtype=numpy.uint64)])
            total = filled + rows
        # the hash column is UBIGINT and never NULL, so its data buffer is the hashes; read through
        # numpy.frombuffer because pyarrow's Array.to_numpy() imports pandas where it is installed.
        # The flags are counted on Arrow's bitmap, without making numpy booleans of them first
        column = batch.column(0)
        hashes[filled:filled + rows] = numpy.frombuffer(column.buffers()[1], dtype=numpy.uint64, count=rows,
                                                        offset=column.offset * 8)
        bad_rows += batch.column(1).true_count
        filled += rows
    return hashes[:filled], bad_rows


def _numpy_fits(con, rows: int, bytes_per_row: int) -> bool:
    """Whether numpy's arrays for `rows` fit in what DuckDB's memory limit leaves free, a quarter kept back."""
    used = con.execute("SELECT coalesce(sum(memory_usage_bytes), 0) FROM duckdb_memory()").fetchall()[0][0]
    return used + rows * bytes_per_row <= memory_limit_bytes(con) * 3 // 4


def memory_limit_bytes(con) -> int:
    """DuckDB's memory_limit in bytes ('3.7 GiB' -> 3972844748)."""
    shown = con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]
    match = re.fullmatch(r"\s*([0-9.]+)\s*([A-Za-z]+)\s*", str(shown))
    if not match or match.group(2) not in _UNITS:
        return _FALLBACK_LIMIT
    return int(float(match.group(1)) * _UNITS[match.group(2)])
