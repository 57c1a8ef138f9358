"""The one scan that checks an input table: its rows, its bad rows, and a screen for duplicate pairs.

A (query_id, doc_id) pair may appear once (SPEC §5, trec_eval), and proving it
means looking at every row. The screen hashes each pair in DuckDB, reads the
hashes into numpy and sorts them there: equal neighbours are the only candidates
for a duplicate. When there are none, every pair is different and no exact
check is needed; equal hashes (a duplicate, or a collision: about one chance
in 10^5 for 10M rows) leave the exact check to input_checks.resolve_duplicates().

Why numpy: its vectorised sort (x86-simd-sort, Highway on ARM) sorts 10M
64-bit hashes in 0.06 s. The whole screen costs 0.23 s on a 10M-row Parquet
run, where the same sort inside DuckDB (a lag() window over the hashes) costs
0.66 s, and count(DISTINCT hash) 0.63 s (measured on the benchmark's data,
2 cores, an earlier machine). On an AMD Zen 4 (below) with numpy's AVX2 sort:
0.13 s for the sort; the lag() window 0.79 s, count(DISTINCT) 1.7 s, pyarrow's
unique() 0.90 s, a DuckDB ORDER BY compared in numpy 0.71 s.

How the hashes reach numpy depends on the size. Up to STREAM_FROM_ROWS rows,
one fetch: DuckDB collects the whole result, numpy copies it (10M rows: 0.22 s).
Past that, the result is streamed in batches into one preallocated array, so
the collected result and its copy never coexist: at 100M rows the single fetch
takes 4.6 s and a 2.0 GB peak, the stream 1.9 s and 1.0 GB. Below it the
single fetch is kept: at 1M rows it is faster (0.074 s against 0.092 s), at
10M the two cost the same (medians of 0.31 s and 0.29 s over 7 fresh
processes each, and within noise for a whole evaluation).

Memory: numpy's arrays live outside DuckDB's buffer manager, so numpy sorts
only when they fit in what DuckDB's memory_limit leaves free (a quarter kept
back): 18 bytes a row for a single fetch (the hash and the flag once in
DuckDB's result and once in numpy's copy), 8 for the stream (the hash array;
a batch's flags are counted and dropped). Otherwise DuckDB sorts the hashes
itself (a lag() window), which keeps within the limit and spills to disk. So
the limit bounds the whole process: at 100M rows under `--memory-limit 4GB` a
Parquet run (read in place) is screened by numpy, a TREC run (parsed into
DuckDB's memory first) by DuckDB; giving numpy a fixed share of the limit
instead took that TREC evaluation's peak RSS from 4.1 GB to 5.3 GB.

Pages: numpy asks the kernel for transparent huge pages (madvise) for every
large array, and the screen's arrays are the largest the process makes. Where
memory comes from a hypervisor, as on the benchmark's machine, a huge page
costs far more to fault in than the 512 small pages it replaces: a fresh
800 MB array took 1.78 s to fill with huge pages and 0.30 s without, and the
screen of a 10M-row run 0.47 s against 0.30 s (100M: 3.5 s against 2.6 s;
memory left idle for a few seconds first, as between two commands). Sorting
the filled array takes the same time either way (0.68 s for 100M hashes), so
the screen turns huge pages off while it runs and puts numpy's setting back.

The CPU: numpy's sort (x86-simd-sort) takes its AVX-512 path wherever the CPU
has AVX-512. On AMD's family 19h with AVX-512 (Zen 4: EPYC 9004, Ryzen 7000)
that path's compress-store to memory is microcoded: 10M hashes sort in 0.64 s
there, 0.13 s on numpy's AVX2 path (an EPYC family 25 model 17, the
benchmark's machine on 2026-11-23; a 10M-row evaluation from Parquet 4.32 ->
4.00 s, medians of 5 interleaved; 100M under a 4GB limit 36-44 s -> 29-31 s).
OpenJDK turns its AVX-512 sort off on that family for the same reason; Zen 5
(family 1Ah) fixed the instruction. numpy chooses its path when it loads, from
NPY_DISABLE_CPU_FEATURES, so only a process of sqlrank's own (the command
line) can choose for it: prepare_numpy(). In a user's program the user
decides, before importing numpy (README, Decisions: "numpy's sort on AMD
Zen 4").
"""

from __future__ import annotations

import os
import re
import sys
from contextlib import contextmanager

STREAM_FROM_ROWS = 1 << 24  # more rows than this are streamed to numpy in batches (see above)
STREAM_BATCH_ROWS = 1 << 22
# numpy's memory a row: a single fetch holds the hash (8) and the flag (1) twice, in DuckDB's result
# and in numpy's copy; the stream holds the hash array alone
BYTES_PER_ROW = {"fetch": 18, "stream": 8}
_UNITS = {"bytes": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50}
_FALLBACK_LIMIT = 2**30  # a limit DuckDB shows in a way not known here: assume 1 GiB


# numpy's AVX-512 features, named as numpy >= 2.4 names them (x86-64 levels) and as numpy 2.0-2.3 did;
# a name numpy does not know is an ImportWarning, so each version gets its own list
_AVX512_FEATURES = {"levels": "X86_V4 AVX512_ICL AVX512_SPR",
                    "before 2.4": "AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL AVX512_SPR"}


def prepare_numpy(environ=os.environ) -> None:
    """numpy's settings for a process of sqlrank's own (the command line), made before numpy loads.

    - One OpenBLAS thread: numpy loads OpenBLAS, whose thread pool busy-waits on every core after
      loading (~0.08 s of CPU taken from DuckDB on 2 cores), and nothing here multiplies matrices.
    - numpy's AVX2 sort on AMD family 19h (see above).
    A user's own OPENBLAS_NUM_THREADS, NPY_DISABLE_CPU_FEATURES or NPY_ENABLE_CPU_FEATURES wins.
    Once numpy is loaded its choices are made and this does nothing. A user's program, which
    imports sqlrank as a library, never calls it.
    """
    if "numpy" in sys.modules:
        return
    environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if {"NPY_DISABLE_CPU_FEATURES", "NPY_ENABLE_CPU_FEATURES"} & environ.keys():
        return
    features = features_to_disable(_cpu_description(environ), _numpy_version())
    if features:
        environ["NPY_DISABLE_CPU_FEATURES"] = features


def features_to_disable(cpu: str, numpy_version: str | None) -> str | None:
    """numpy's AVX-512 features when `cpu` (/proc/cpuinfo, or Windows' PROCESSOR_IDENTIFIER) is AMD family 19h.

    Zen 3, of that family too, has no AVX-512: numpy's choice is then the same either way.
    """
    family = re.search(r"(?:cpu family\s*:|Family)\s*(\d+)", cpu)
    if "AuthenticAMD" not in cpu or not family or int(family.group(1)) != 0x19 or not numpy_version:
        return None
    major_minor = tuple(int(part) for part in re.findall(r"\d+", numpy_version)[:2])
    return _AVX512_FEATURES["levels" if major_minor >= (2, 4) else "before 2.4"]


def _cpu_description(environ) -> str:
    """The first processor's entry of /proc/cpuinfo (Linux), PROCESSOR_IDENTIFIER (Windows), else ''."""
    try:
        with open("/proc/cpuinfo", "rb") as cpuinfo:
            return cpuinfo.read(4096).decode("ascii", "replace")
    except OSError:
        return environ.get("PROCESSOR_IDENTIFIER", "")


def _numpy_version() -> str | None:
    """The installed numpy's version, read without loading numpy (importlib.metadata: ~1 ms once DuckDB is loaded)."""
    from importlib import metadata

    try:
        return metadata.version("numpy")
    except metadata.PackageNotFoundError:
        return None


def bad_row(ids: list[str], value: str) -> str:
    """SQL, never NULL, for a row sqlrank refuses: an id NULL or empty, a value NULL, not a number or NaN."""
    empty = " OR ".join(f"{column} IS NULL OR {column} = ''" for column in ids)
    return f"coalesce({empty} OR {value} IS NULL OR isnan({value}), true)"


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

    with _small_pages():
        if fetch == "stream":
            hashes, bad_rows = _streamed(con, hashed, total)
        else:
            columns = con.sql(hashed).fetchnumpy()
            hashes, bad_rows = columns["pair_hash"], int(numpy.count_nonzero(columns["bad"]))
        hashes.sort()
        return len(hashes), bad_rows, int(numpy.count_nonzero(hashes[1:] == hashes[:-1]))


@contextmanager
def _small_pages():
    """numpy's arrays made inside on ordinary pages, not transparent huge pages (see above)."""
    try:
        # numpy's own switch (NUMPY_MADVISE_HUGEPAGE at import); it returns the setting it replaces
        from numpy._core.multiarray import _set_madvise_hugepage
    except ImportError:  # a numpy without the switch: its arrays come as they come
        yield
        return
    previous = _set_madvise_hugepage(False)
    try:
        yield
    finally:
        _set_madvise_hugepage(previous)


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
        # numpy.frombuffer because pyarrow 26's Array.to_numpy() imports pandas where it is installed
        # (0.15-0.2 s). The flags are counted on Arrow's bitmap: at 100M rows 0.01 s, against 0.12 s
        # to turn them into numpy booleans first
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
