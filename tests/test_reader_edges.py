"""Readers at the edges: a lone CR among LF or CRLF line ends, an empty pandas frame, a polars Int128 column.

Each is compared with the same input written plainly (LF lines, typed columns), whose numbers are
worked by hand: qrels q1 d1 0, d3 1; q2 d1 1; the run ranks d1, d2, d3 on q1 and d1 on q2:
AP q1 = 1/3, AP q2 = 1, mean 2/3; NumRet 4.
"""

from __future__ import annotations

import pytest

import sqlrank

QRELS = "q1 0 d1 0\nq1 0 d3 1\nq2 0 d1 1\n"
RUN = "q1 Q0 d1 1 3 r\nq1 Q0 d2 2 2 r\nq1 Q0 d3 3 1 r\nq2 Q0 d1 1 1 r\n"


def mixed(text: str, crlf: bool) -> bytes:
    """`text` with CRLF (or LF) line ends, but a lone CR ending its second line."""
    lines = text.splitlines()
    end = "\r\n" if crlf else "\n"
    return (lines[0] + end + lines[1] + "\r" + end.join(lines[2:]) + end).encode()


@pytest.mark.parametrize("crlf", [True, False])
def test_a_lone_cr_ends_a_line_in_both_doors(tmp_path, con, crlf):
    (tmp_path / "qrels.txt").write_bytes(mixed(QRELS, crlf))
    (tmp_path / "run.trec").write_bytes(mixed(RUN, crlf))
    means = sqlrank.evaluate(tmp_path / "qrels.txt", {"r": tmp_path / "run.trec"}, ["AP", "NumRet"]).means["r"]
    assert means == {"AP": pytest.approx(2 / 3), "NumRet": 4}
    shell = con.execute(f"FROM sqlrank.ap('{tmp_path}/qrels.txt', '{tmp_path}/run.trec') ORDER BY query_id").fetchall()
    assert shell == [("q1", pytest.approx(1 / 3)), ("q2", 1.0)]


def test_an_empty_pandas_frame_with_the_right_columns_is_an_empty_run():
    pandas = pytest.importorskip("pandas")
    qrels = pandas.DataFrame({"query_id": ["q1", "q2"], "doc_id": ["d3", "d1"], "relevance": [1, 1]})
    run = pandas.DataFrame({"query_id": [], "doc_id": [], "score": []})  # pandas makes these float64
    result = sqlrank.evaluate(qrels, {"r": run}, ["AP"])
    assert result.means["r"]["AP"] == 0.0
    with pytest.raises(sqlrank.InputError, match="no rows: the qrels are empty"):
        sqlrank.evaluate(run.rename(columns={"score": "relevance"}), {"r": {"q1": {"d1": 1.0}}}, ["AP"])


def test_a_polars_int128_column_is_read_as_its_digits():
    polars = pytest.importorskip("polars")
    qrels = polars.DataFrame({"query_id": polars.Series([1, 1, 2], dtype=polars.Int128), "doc_id": ["d1", "d3", "d1"],
                              "relevance": polars.Series([0, 1, 1], dtype=polars.Int128)})
    run = {"1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "2": {"d1": 1.0}}
    assert sqlrank.evaluate(qrels, {"r": run}, ["AP"]).means["r"]["AP"] == pytest.approx(2 / 3)


def test_out_of_memory_with_a_spill_folder_does_not_ask_for_one(tmp_path):
    """DuckDB's message is the same with and without a temp directory: the hint is sqlrank's, from the connection."""
    big = "SELECT list(range) FROM (SELECT range, range % 7 AS g FROM range(6000000)) GROUP BY g"
    with sqlrank.connect(memory_limit="20MB", threads=1, temp_directory=str(tmp_path)) as con:
        with pytest.raises(sqlrank.ResourceError) as caught:
            sqlrank.query(con, big)
    message = str(caught.value)
    assert f"although it could spill to {tmp_path}: what it was doing does not spill" in message
    assert "give DuckDB a folder to spill to" not in message


def test_out_of_memory_while_reading_with_a_spill_folder_does_not_ask_for_one(tmp_path):
    """A read that runs out of memory is explained by the reader (files.read_error), which asks the reading
    connection for its spill folder as the engine's errors do."""
    import duckdb

    from sqlrank.readers import trec
    from sqlrank.readers.base import Loaded

    error = duckdb.OutOfMemoryException("Out of Memory Error: failed to allocate data of size 64.0 MiB")
    loaded = Loaded(table="run", label="run.trec", explain=trec.explain, path=tmp_path / "run.trec", fmt="trec")
    with sqlrank.connect(temp_directory=str(tmp_path)) as con:
        message = str(trec.explain(con, loaded, "run", error))
    assert f"although it could spill to {tmp_path}: what it was doing does not spill" in message
    with sqlrank.connect() as con:
        assert "give DuckDB a folder to spill to" in str(trec.explain(con, loaded, "run", error))
