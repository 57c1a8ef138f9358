"""The input scan of sqlrank/pair_screen.py: row and bad-row counts and the duplicate screen.

The screen must find every duplicate (query_id, doc_id) pair whether numpy sorts
the hashes or DuckDB does (a tight memory_limit), and must not send a clean
input to the exact check.
"""

from __future__ import annotations

import os
import sys

import duckdb
import pytest

import sqlrank
from sqlrank import pair_screen
from sqlrank.errors import InputError

from fresh_python import run_fresh

BAD = "coalesce(query_id IS NULL OR query_id = '' OR doc_id IS NULL OR doc_id = '' OR score IS NULL OR isnan(score), true)"


@pytest.fixture
def con():
    con = duckdb.connect()
    # 2,000 distinct pairs, then one pair repeated and one row with an empty doc id
    con.execute("CREATE TABLE clean AS SELECT 'q' || (i // 100) AS query_id, 'd' || (i % 100) AS doc_id, "
                "CAST(i AS DOUBLE) AS score FROM range(2000) AS r(i)")
    con.execute("CREATE TABLE doubled AS SELECT * FROM clean UNION ALL SELECT 'q7', 'd42', 0.5")
    con.execute("CREATE TABLE bad AS SELECT * FROM clean UNION ALL SELECT 'q7', '', 0.5")
    return con


def sorted_by(con, monkeypatch, sorter: str):
    """`con`, with the memory limit such that `sorter` ('numpy' or 'duckdb') sorts the hashes; records the SQL."""
    limit = 2**40 if sorter == "numpy" else 1024  # numpy's arrays for 2,001 rows take 36 KB
    monkeypatch.setattr(pair_screen, "memory_limit_bytes", lambda con: limit)
    statements = []

    class Recording:
        def sql(self, text):
            statements.append(text)
            return con.sql(text)

        def execute(self, text):
            statements.append(text)
            return con.execute(text)

    return Recording(), statements


@pytest.mark.parametrize("sorter", ["numpy", "duckdb"])
def test_screen_counts_rows_bad_rows_and_equal_hashes(con, monkeypatch, sorter):
    recording, statements = sorted_by(con, monkeypatch, sorter)
    ids = ["query_id", "doc_id"]
    assert pair_screen.screen(recording, "clean", ids, BAD) == (2000, 0, 0)
    assert pair_screen.screen(recording, "doubled", ids, BAD) == (2001, 0, 1)
    rows, bad, _ = pair_screen.screen(recording, "bad", ids, BAD)
    assert (rows, bad) == (2001, 1)
    # DuckDB sorts (a window) only when numpy's arrays would not fit in what the memory limit leaves
    assert any("lag(pair_hash)" in text for text in statements) == (sorter == "duckdb")


@pytest.mark.parametrize("setting, expected", [
    ("4GB", int(3.7 * 2**30)), ("500MB", int(476.8 * 2**20)), ("3GiB", 3 * 2**30),
])
def test_memory_limit_is_read_from_duckdb_in_bytes(setting, expected):
    con = duckdb.connect(config={"memory_limit": setting})
    assert pair_screen.memory_limit_bytes(con) == expected


@pytest.mark.parametrize("sorter", ["numpy", "duckdb"])
def test_a_duplicate_is_refused_whoever_sorts_the_hashes(tmp_path, monkeypatch, sorter):
    monkeypatch.setattr(pair_screen, "memory_limit_bytes", lambda con: 2**40 if sorter == "numpy" else 1024)
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 a 1\nq1 0 b 0\n")
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 a 1 2.0 r\nq1 Q0 b 2 1.0 r\nq1 Q0 a 3 0.5 r\n")
    with pytest.raises(InputError, match=r"duplicate \(query_id, doc_id\) rows, e.g. query 'q1' doc 'a' \(2 rows\)"):
        sqlrank.evaluate(qrels, run, ["AP"])
    run.write_text("q1 Q0 b 1 2.0 r\nq1 Q0 a 2 1.0 r\n")
    assert sqlrank.evaluate(qrels, run, ["AP"]).summary == {"AP": 0.5}


def test_what_duckdb_already_holds_counts_against_numpy(con, monkeypatch):
    # a table DuckDB holds in memory leaves less of the limit for numpy's arrays
    con.execute("CREATE TABLE held AS SELECT i, CAST(i AS VARCHAR) AS s FROM range(1000000) AS r(i)")
    held = con.execute("SELECT sum(memory_usage_bytes) FROM duckdb_memory()").fetchall()[0][0]
    need = 2001 * pair_screen.BYTES_PER_ROW["fetch"]
    assert held > need
    monkeypatch.setattr(pair_screen, "memory_limit_bytes", lambda con: (held // 2 + need) * 4 // 3)
    assert not pair_screen._numpy_fits(con, 2001, pair_screen.BYTES_PER_ROW["fetch"])
    assert pair_screen.screen(con, "doubled", ["query_id", "doc_id"], BAD) == (2001, 0, 1)  # DuckDB sorts
    assert pair_screen._numpy_fits(duckdb.connect(), 2001, pair_screen.BYTES_PER_ROW["fetch"])  # nothing held


@pytest.mark.parametrize("table, expected", [("clean", (2000, 0, 0)), ("doubled", (2001, 0, 1)), ("bad", (2001, 1, 0))])
def test_a_large_input_is_streamed_to_numpy_with_the_same_counts(con, monkeypatch, table, expected):
    """Past STREAM_FROM_ROWS the hashes come in batches (here of 300 rows: 7 of them) into one array."""
    monkeypatch.setattr(pair_screen, "STREAM_FROM_ROWS", 1000)
    monkeypatch.setattr(pair_screen, "STREAM_BATCH_ROWS", 300)
    streamed = []
    original = pair_screen._streamed

    def recorded(con, hashed, total):
        streamed.append(total)
        return original(con, hashed, total)

    monkeypatch.setattr(pair_screen, "_streamed", recorded)
    assert pair_screen.screen(con, table, ["query_id", "doc_id"], BAD) == expected
    assert streamed == [expected[0]]
    # the same hashes as one fetch: every pair hashed, none lost at a batch's edge
    hashes, bad = original(con, f"SELECT hash(query_id, doc_id) AS pair_hash, {BAD} AS bad FROM {table}", expected[0])
    fetched = con.sql(f"SELECT hash(query_id, doc_id) AS pair_hash FROM {table}").fetchnumpy()["pair_hash"]
    assert (sorted(hashes.tolist()), bad) == (sorted(fetched.tolist()), expected[1])


def test_the_stream_needs_less_of_the_memory_limit_than_one_fetch(con, monkeypatch):
    # 8 bytes a row instead of 18: a limit that refuses numpy a single fetch of 2001 rows allows the stream
    monkeypatch.setattr(pair_screen, "memory_limit_bytes", lambda con: 2001 * 12 * 4 // 3)
    assert not pair_screen._numpy_fits(duckdb.connect(), 2001, pair_screen.BYTES_PER_ROW["fetch"])
    assert pair_screen._numpy_fits(duckdb.connect(), 2001, pair_screen.BYTES_PER_ROW["stream"])


def test_the_stream_keeps_rows_that_arrive_beyond_the_count(con):
    """The count and the stream are two reads: a file that grew in between still has every row screened."""
    hashed = f"SELECT hash(query_id, doc_id) AS pair_hash, {BAD} AS bad FROM doubled"
    hashes, bad = pair_screen._streamed(con, hashed, 1000)  # counted 1000, 2001 arrive
    assert (len(hashes), bad) == (2001, 0)
    hashes.sort()
    assert int((hashes[1:] == hashes[:-1]).sum()) == 1


def test_the_stream_does_not_load_pandas(tmp_path):
    """pyarrow 26's Array.to_numpy() imports pandas where it is installed (0.15-0.2 s of a 100M-row
    evaluation); the stream reads the Arrow buffers with numpy instead."""
    pytest.importorskip("pandas")  # without pandas the test could not fail
    script = (
        "import sys, duckdb\n"
        "from sqlrank import pair_screen\n"
        "pair_screen.STREAM_FROM_ROWS, pair_screen.STREAM_BATCH_ROWS = 10, 7\n"
        "con = duckdb.connect()\n"
        "con.execute(\"CREATE TABLE t AS SELECT CAST(i % 5 AS VARCHAR) AS query_id, CAST(i AS VARCHAR) AS doc_id, \"\n"
        "            \"CAST(CASE WHEN i = 3 THEN 'nan' ELSE '1' END AS DOUBLE) AS score FROM range(50) AS r(i)\")\n"
        "print(pair_screen.screen(con, 't', ['query_id', 'doc_id'], 'coalesce(isnan(score), true)'), "
        "'pandas' in sys.modules)\n"
    )
    assert run_fresh(script) == "(50, 1, 0) False\n"


@pytest.mark.parametrize("fetch", ["fetch", "stream"])
@pytest.mark.parametrize("setting", [True, False])
def test_the_screen_makes_its_arrays_on_small_pages_and_puts_numpy_s_setting_back(con, monkeypatch, fetch, setting):
    """Huge pages cost 6x as much to fault in on the benchmark's machine (see pair_screen): the screen
    turns numpy's madvise off while its arrays are made, and leaves the caller's setting as it was."""
    from numpy._core.multiarray import _get_madvise_hugepage, _set_madvise_hugepage

    if fetch == "stream":
        monkeypatch.setattr(pair_screen, "STREAM_FROM_ROWS", 1000)
    seen = []

    class Watching:  # notes numpy's setting whenever the screen reads the hashes
        def sql(self, text):
            seen.append(_get_madvise_hugepage())
            return con.sql(text)

        def execute(self, text):
            return con.execute(text)

    previous = _set_madvise_hugepage(setting)
    try:
        assert pair_screen.screen(Watching(), "doubled", ["query_id", "doc_id"], BAD) == (2001, 0, 1)
        assert seen == [False]
        assert _get_madvise_hugepage() is setting

        class Failing(Watching):
            def sql(self, text):
                raise duckdb.IOException("the file went away")

        with pytest.raises(duckdb.IOException):
            pair_screen.screen(Failing(), "doubled", ["query_id", "doc_id"], BAD)
        assert _get_madvise_hugepage() is setting
    finally:
        _set_madvise_hugepage(previous)


# The first lines of /proc/cpuinfo on the benchmark's machine (AMD Zen 4), and Windows' description of one
ZEN4_CPUINFO = ("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n"
                "model name\t: AMD EPYC\nflags\t\t: fpu avx2 avx512f avx512dq\n")
ZEN4_WINDOWS = "AMD64 Family 25 Model 97 Stepping 2, AuthenticAMD"
LEVEL_NAMES = "X86_V4 AVX512_ICL AVX512_SPR"
OLD_NAMES = "AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL AVX512_SPR"


@pytest.mark.parametrize("cpu, numpy_version, expected", [
    (ZEN4_CPUINFO, "2.4.6", LEVEL_NAMES),
    (ZEN4_CPUINFO, "2.10.0", LEVEL_NAMES),
    (ZEN4_CPUINFO, "2.3.5", OLD_NAMES),
    (ZEN4_CPUINFO, "2.0.0rc1", OLD_NAMES),
    (ZEN4_WINDOWS, "2.4.6", LEVEL_NAMES),
    (ZEN4_CPUINFO, None, None),  # no numpy found: nothing to choose for
    (ZEN4_CPUINFO.replace("25", "26"), "2.4.6", None),  # Zen 5: its compress-store is fast
    ("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n", "2.4.6", None),
    ("AMD64 Family 26 Model 68 Stepping 0, AuthenticAMD", "2.4.6", None),
    ("", "2.4.6", None),  # a system that tells nothing
])
def test_numpy_s_avx512_sort_is_turned_off_on_amd_family_19h_only(cpu, numpy_version, expected):
    assert pair_screen.features_to_disable(cpu, numpy_version) == expected


def test_a_user_s_own_numpy_cpu_setting_wins(monkeypatch):
    monkeypatch.setattr(pair_screen, "_cpu_description", lambda environ: ZEN4_CPUINFO)
    monkeypatch.delitem(sys.modules, "numpy", raising=False)  # as before numpy loads
    for own in ({"NPY_DISABLE_CPU_FEATURES": "AVX2"}, {"NPY_ENABLE_CPU_FEATURES": "AVX2"}):
        environ = {**own, "OPENBLAS_NUM_THREADS": "4"}
        pair_screen.prepare_numpy(environ)
        assert environ == {**own, "OPENBLAS_NUM_THREADS": "4"}
    environ = {}
    pair_screen.prepare_numpy(environ)
    assert environ == {"NPY_DISABLE_CPU_FEATURES": pair_screen.features_to_disable(ZEN4_CPUINFO,
                                                                                     pair_screen._numpy_version()),
                       "OPENBLAS_NUM_THREADS": "1"}


def test_once_numpy_is_loaded_its_choice_stands(monkeypatch):
    import numpy  # noqa: F401  (loaded: its sort is chosen)

    monkeypatch.setattr(pair_screen, "_cpu_description", lambda environ: ZEN4_CPUINFO)
    environ = {}
    pair_screen.prepare_numpy(environ)
    assert environ == {}


def test_the_installed_numpy_takes_the_names_chosen_for_it_without_a_warning():
    """numpy warns (ImportWarning) and ignores a feature name it does not know; the installed numpy must
    know every name chosen for its version, and then reports its AVX-512 sort features off."""
    names = pair_screen.features_to_disable(ZEN4_CPUINFO, pair_screen._numpy_version())
    script = (
        "import warnings\n"
        "warnings.simplefilter('error', ImportWarning)\n"
        "import numpy\n"
        "from numpy._core._multiarray_umath import __cpu_features__ as features\n"
        "print(features['AVX512_SKX'], features['AVX512_ICL'])\n"
        "print(numpy.sort(numpy.array([3, 1, 2], dtype=numpy.uint64)).tolist())\n"
    )
    env = {key: value for key, value in os.environ.items() if not key.startswith("NPY_")}
    assert run_fresh(script, {**env, "NPY_DISABLE_CPU_FEATURES": names}) == "False False\n[1, 2, 3]\n"
