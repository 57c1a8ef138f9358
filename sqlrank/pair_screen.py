"""The one scan that checks an input table: its rows, its bad rows, and a screen for duplicate pairs.

A (query_id, doc_id) pair may appear once (SPEC §5, trec_eval), and proving it
means looking at every row. The screen hashes each pair in DuckDB, streams the
hashes to numpy and sorts them there: equal neighbours are the only candidates
for a duplicate. When there are none, every pair is different and no exact
check is needed; equal hashes (a duplicate, or a collision: about one chance
in 10^5 for 10M rows) leave the exact check to inputs.resolve_duplicates().

Why numpy: its vectorised sort (x86-simd-sort, Highway on ARM) sorts 10M
64-bit hashes in 0.06 s. The whole screen costs 0.23 s on a 10M-row Parquet
run, where the same sort inside DuckDB (a lag() window over the hashes) costs
0.66 s, and count(DISTINCT hash) 0.63 s (measured on the benchmark's data,
2 cores).

Memory: the hashes take 8 bytes a row outside DuckDB's buffer manager, so the
screen keeps them within an eighth of DuckDB's memory_limit: past that the
hash space is split into parts (hash modulo the number of parts), each read by
a scan of its own and sorted alone. With DuckDB's default limit (80% of RAM)
one part holds hundreds of millions of rows; 100M rows under a 4GB limit take
two parts.
"""

from __future__ import annotations

import math
import re

MEMORY_SHARE = 8  # the hashes may use 1/MEMORY_SHARE of DuckDB's memory_limit
_UNITS = {"bytes": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50}
_FALLBACK_LIMIT = 2**30  # a limit DuckDB shows in a way not known here: assume 1 GiB


def screen(con, table: str, ids: list[str], bad: str) -> tuple[int, int, int]:
    """(rows, rows where `bad` holds, equal neighbouring pair hashes) of `table` (a quoted name).

    `ids` are the columns hashed together; `bad` is a SQL condition that is never NULL.
    Only the hashes are read back into Python: the table's rows never are.
    """
    import numpy

    total = con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]
    parts = max(1, math.ceil(total * 8 / max(memory_limit_bytes(con) // MEMORY_SHARE, 1)))
    bad_rows = equal_hashes = 0
    for part in range(parts):
        # one part is the common case: no filter, so the scan is the plain one
        in_part = "" if parts == 1 else f"WHERE pair_hash % {parts} = {part}"
        columns = con.sql(
            f"SELECT pair_hash, bad FROM (SELECT hash({', '.join(ids)}) AS pair_hash, {bad} AS bad FROM {table}) "
            f"AS hashed {in_part}"
        ).fetchnumpy()
        bad_rows += int(numpy.count_nonzero(columns["bad"]))
        if bad_rows:
            break  # the input is refused anyway; the caller names the bad row
        hashes = columns["pair_hash"]
        del columns
        hashes.sort()
        equal_hashes += int(numpy.count_nonzero(hashes[1:] == hashes[:-1]))
    return total, bad_rows, equal_hashes


def memory_limit_bytes(con) -> int:
    """DuckDB's memory_limit in bytes ('3.7 GiB' -> 3972844748)."""
    shown = con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]
    match = re.fullmatch(r"\s*([0-9.]+)\s*([A-Za-z]+)\s*", str(shown))
    if not match or match.group(2) not in _UNITS:
        return _FALLBACK_LIMIT
    return int(float(match.group(1)) * _UNITS[match.group(2)])
