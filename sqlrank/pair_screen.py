"""The one scan that checks an input table: its rows, its bad rows, and a screen for duplicate pairs.

A (query_id, doc_id) pair may appear once (SPEC §5, trec_eval), and proving it
means looking at every row. The screen hashes each pair in DuckDB, reads the
hashes into numpy and sorts them there: equal neighbours are the only candidates
for a duplicate. When there are none, every pair is different and no exact
check is needed; equal hashes (a duplicate, or a collision: about one chance
in 10^5 for 10M rows) leave the exact check to inputs.resolve_duplicates().

Why numpy: its vectorised sort (x86-simd-sort, Highway on ARM) sorts 10M
64-bit hashes in 0.06 s. The whole screen costs 0.23 s on a 10M-row Parquet
run, where the same sort inside DuckDB (a lag() window over the hashes) costs
0.66 s, and count(DISTINCT hash) 0.63 s (measured on the benchmark's data,
2 cores).

Memory: numpy's arrays live outside DuckDB's buffer manager, so numpy sorts
only when they fit in what DuckDB's memory_limit leaves free (a quarter kept
back): 18 bytes a row, the hash and the flag once in the result DuckDB collects
and once in numpy's copy. Otherwise DuckDB sorts the hashes itself (a lag()
window), which keeps within the limit and spills to disk. So the limit bounds
the whole process: at 100M rows under `--memory-limit 4GB` a Parquet run (read
in place) is screened by numpy, a TREC run (parsed into DuckDB's memory first)
by DuckDB; giving numpy a fixed share of the limit instead took that TREC
evaluation's peak RSS from 4.1 GB to 5.3 GB.
"""

from __future__ import annotations

import re

BYTES_PER_ROW = 18  # numpy's screen: a hash (8) and a flag (1), in DuckDB's result and in numpy's copy
_UNITS = {"bytes": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50}
_FALLBACK_LIMIT = 2**30  # a limit DuckDB shows in a way not known here: assume 1 GiB


def screen(con, table: str, ids: list[str], bad: str) -> tuple[int, int, int]:
    """(rows, rows where `bad` holds, equal neighbouring pair hashes) of `table` (a quoted name).

    `ids` are the columns hashed together; `bad` is a SQL condition that is never NULL.
    At most a hash and a flag per row come back into Python, never the rows themselves.
    """
    hashed = f"SELECT hash({', '.join(ids)}) AS pair_hash, {bad} AS bad FROM {table}"
    total = con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]
    if not _numpy_fits(con, total):
        return con.execute(
            "SELECT count(*), count(*) FILTER (WHERE bad), count(*) FILTER (WHERE pair_hash = previous_hash) "
            f"FROM (SELECT bad, pair_hash, lag(pair_hash) OVER (ORDER BY pair_hash) AS previous_hash "
            f"FROM ({hashed}) AS hashed) AS sorted_hashes"
        ).fetchall()[0]
    import numpy

    columns = con.sql(hashed).fetchnumpy()
    hashes = columns["pair_hash"]
    hashes.sort()
    return total, int(numpy.count_nonzero(columns["bad"])), int(numpy.count_nonzero(hashes[1:] == hashes[:-1]))


def _numpy_fits(con, rows: int) -> bool:
    """Whether numpy's arrays for `rows` fit in what DuckDB's memory limit leaves free, a quarter kept back."""
    used = con.execute("SELECT coalesce(sum(memory_usage_bytes), 0) FROM duckdb_memory()").fetchall()[0][0]
    return used + rows * BYTES_PER_ROW <= memory_limit_bytes(con) * 3 // 4


def memory_limit_bytes(con) -> int:
    """DuckDB's memory_limit in bytes ('3.7 GiB' -> 3972844748)."""
    shown = con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]
    match = re.fullmatch(r"\s*([0-9.]+)\s*([A-Za-z]+)\s*", str(shown))
    if not match or match.group(2) not in _UNITS:
        return _FALLBACK_LIMIT
    return int(float(match.group(1)) * _UNITS[match.group(2)])
