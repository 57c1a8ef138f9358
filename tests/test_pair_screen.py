"""The input scan of sqlrank/checks/pair_screen.py: row and bad-row counts and the duplicate screen.

The screen must find every duplicate (query_id, doc_id) pair whether numpy sorts
the hashes or DuckDB does (a tight memory_limit), and must not send a clean
input to the exact check.
"""

from __future__ import annotations

import duckdb
import pytest

import sqlrank
from sqlrank.checks import pair_screen
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
        "from sqlrank.checks import pair_screen\n"
        "pair_screen.STREAM_FROM_ROWS, pair_screen.STREAM_BATCH_ROWS = 10, 7\n"
        "con = duckdb.connect()\n"
        "con.execute(\"CREATE TABLE t AS SELECT CAST(i % 5 AS VARCHAR) AS query_id, CAST(i AS VARCHAR) AS doc_id, \"\n"
        "            \"CAST(CASE WHEN i = 3 THEN 'nan' ELSE '1' END AS DOUBLE) AS score FROM range(50) AS r(i)\")\n"
        "print(pair_screen.screen(con, 't', ['query_id', 'doc_id'], 'coalesce(isnan(score), true)'), "
        "'pandas' in sys.modules)\n"
    )
    assert run_fresh(script) == "(50, 1, 0) False\n"
