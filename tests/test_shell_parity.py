"""The DuckDB shell's macros refuse what the Python door refuses, in the same words.

Each case runs through both doors: a measure's gain map, the resampling tests' trials, seed and
confidence, a column map, empty qrels, a run sharing no query with the qrels; and TREC's own
file naming (qrels.robust03), which the shell reads as TREC as the Python door does.
"""

from __future__ import annotations

import re

import duckdb
import pyarrow as pa
import pytest

import sqlrank

QRELS = {"q1": {"d1": 1, "d2": 2}}
RUN = {"r": {"q1": {"d1": 1.0, "d2": 2.0}}}


@pytest.fixture(scope="module")
def con():
    con = sqlrank.connect()
    con.execute("CREATE TABLE qrels AS SELECT * FROM (VALUES ('q1', 'd1', 1), ('q1', 'd2', 2)) t(query_id, doc_id, relevance)")
    con.execute("CREATE TABLE run AS SELECT * FROM (VALUES ('q1', 'd1', 1.0), ('q1', 'd2', 2.0)) t(query_id, doc_id, score)")
    con.execute("CREATE TABLE stranger AS SELECT * FROM (VALUES ('x1', 'd1', 1.0)) t(query_id, doc_id, score)")
    con.execute("CREATE TABLE no_qrels AS SELECT * FROM qrels WHERE false")
    con.execute("CREATE TABLE per_query AS SELECT * FROM (VALUES ('a', 'q1', 'AP', 0.1), ('b', 'q1', 'AP', 0.3)) "
                "t(run_id, query_id, measure, value)")
    return con


def shell_error(con, sql: str) -> str:
    """The shell's message, without DuckDB's `Invalid Input Error: sqlrank: ` before it."""
    with pytest.raises(duckdb.Error) as caught:
        con.execute(sql).fetchall()
    line = str(caught.value).splitlines()[0]
    assert line.startswith("Invalid Input Error: sqlrank: "), line
    return line.removeprefix("Invalid Input Error: sqlrank: ")


@pytest.mark.parametrize("gains, words", [
    ("{1:nan}", "gain must be a finite number, got 'nan'"),
    ("{1:inf,2:inf}", "gain must be a finite number, got 'inf'"),
    ("{-1:5}", "each entry of a gain map is label:gain with a whole-number label >= 0, got '-1:5'"),
    ("{1.5:9}", "each entry of a gain map is label:gain with a whole-number label >= 0, got '1.5:9'"),
    ("{1:3,1:9}", "label 1 is given two gains; give it one"),
    ("{1:3", "a gain map is written gains={label:gain,...}, e.g. gains={1:3,2:9}, got '{1:3'"),
    ("{1:x}", "gain must be a number, got 'x'"),
])
def test_a_gain_map_is_refused_by_both_doors_in_the_same_words(con, gains, words):
    with pytest.raises(sqlrank.MeasureError) as python:
        sqlrank.evaluate(QRELS, RUN, [f"nDCG(gains={gains})"])
    assert str(python.value) == f"nDCG(gains={gains}): {words}"
    assert shell_error(con, f"FROM sqlrank.ndcg('qrels', 'run', gain := '{gains}')") == f"sqlrank.ndcg: {words}"


def test_a_good_gain_map_gives_the_same_number_in_both_doors(con):
    python = sqlrank.evaluate(QRELS, RUN, ["nDCG(gains={1:3,2:9})"]).means["r"]["nDCG(gains={1:3,2:9})"]
    shell = con.execute("FROM sqlrank.ndcg('qrels', 'run', gain := '{1:3,2:9}')").fetchall()
    assert python == shell[0][1] == 1.0


@pytest.mark.parametrize("python, shell, words", [
    ({"trials": 0}, "randomization_test('per_query', 'b', 'a', trials := 0)", "trials must be a whole number >= 1, got 0"),
    ({"trials": -3}, "tukey_hsd('per_query', trials := -3)", "trials must be a whole number >= 1, got -3"),
    ({"trials": 2_000_000}, "bootstrap_test('per_query', 'b', 'a', trials := 2000000)",
     "trials must be at most 1000000, got 2000000"),
    ({"confidence": 0}, "bootstrap_test('per_query', 'b', 'a', confidence := 0)",
     "confidence must be between 0 and 1 (e.g. 0.95), not 0"),
    ({"confidence": 1.5}, "bootstrap_test('per_query', 'b', 'a', confidence := 1.5)",
     "confidence must be between 0 and 1 (e.g. 0.95), not 1.5"),
])
def test_the_resampling_parameters_are_refused_by_both_doors_in_the_same_words(con, python, shell, words):
    table = pa.table({"run_id": ["a", "b"], "query_id": ["q1", "q1"], "measure": ["AP", "AP"], "value": [0.1, 0.3]})
    with pytest.raises(sqlrank.EvaluationError) as caught:
        sqlrank.compare(table, tests=["randomization"], **python)
    assert str(caught.value) == words
    assert shell_error(con, "FROM sqlrank." + shell) == words


def test_a_null_trials_or_an_empty_input_is_refused_too(con):
    assert shell_error(con, "FROM sqlrank.randomization_test('per_query', 'b', 'a', trials := NULL)") == \
        "trials must be a whole number >= 1, got NULL"
    assert shell_error(con, "FROM sqlrank.randomization_test('per_query', 'b', 'nobody', trials := 0)") == \
        "trials must be a whole number >= 1, got 0"


def test_a_column_map_is_checked(con):
    assert shell_error(con, "FROM sqlrank.ap('qrels', 'run', run_columns := {'qury_id': 'qid'})") == (
        "run_columns: unknown column 'qury_id' (expected one of: query_id, doc_id, score, rank); the keys are the "
        "canonical names, the values the input's: run_columns := {'query_id': 'qid'}")
    assert shell_error(con, "FROM sqlrank.ap('qrels', 'run', qrels_columns := 'qid')") == (
        "qrels_columns must be a struct naming the input's column of each canonical one, such as "
        "{'query_id': 'qid'}; got VARCHAR qid")


def test_empty_qrels_and_a_disjoint_run_are_refused_by_both_doors(con):
    assert shell_error(con, "FROM sqlrank.ap('no_qrels', 'run')") == (
        "no_qrels: no rows: the qrels are empty, so nothing can be evaluated; expected rows of query_id, doc_id, "
        "relevance")
    with pytest.raises(sqlrank.InputError, match=re.escape(
            ": no rows: the qrels are empty, so nothing can be evaluated; expected rows of query_id, doc_id, relevance")):
        sqlrank.evaluate(con.sql("FROM no_qrels").to_arrow_table(), RUN, ["AP"])
    shared = ("shares no query with the qrels (its 1 query, e.g. 'x1'; the qrels have e.g. 'q1'): it is most likely "
              "not a run of these qrels, or its query ids are written otherwise; ")
    assert shell_error(con, "FROM sqlrank.ap('qrels', 'stranger')") == \
        f"run 'stranger': {shared}pass validate := false to evaluate it anyway"
    with pytest.raises(sqlrank.EvaluationError) as python:
        sqlrank.evaluate(QRELS, {"stranger": {"x1": {"d1": 1.0}}}, ["AP"])
    assert str(python.value) == f"run 'stranger': {shared}pass allow_disjoint=True (CLI: --allow-disjoint) to evaluate it anyway"
    assert con.execute("FROM sqlrank.ap('qrels', 'stranger', validate := false)").fetchall() == [("q1", 0.0)]


def test_an_empty_run_scores_every_qrels_query_as_missing_says_in_both_doors(con):
    """A run that retrieved nothing is still a run: each query of the qrels scores 0 (missing='zero'), under
    either ranking branch of the table macros; a run of other rows is untouched."""
    con.execute("CREATE TABLE nothing AS SELECT * FROM run WHERE false")
    python = sqlrank.evaluate(QRELS, con.sql("FROM nothing").to_arrow_table(), ["AP", "nDCG@10"])
    assert [(row["query_id"], row["value"]) for row in python.per_query.to_pylist()] == [("q1", 0.0), ("q1", 0.0)]
    for macro in ("ap('qrels', 'nothing')", "ndcg('qrels', 'nothing', k := 10)", "ap('qrels', 'nothing', ties := 'average')"):
        assert con.execute(f"FROM sqlrank.{macro}").fetchall() == [("q1", 0.0)], macro
    assert con.execute("FROM sqlrank.ap('qrels', 'nothing', missing := 'skip')").fetchall() == []
    assert con.execute("FROM sqlrank.ap('qrels', 'run')").fetchall() == [("q1", 1.0)]


def test_trec_s_own_file_names_are_read_as_trec_by_both_doors(con, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "qrels.robust03").write_text("q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 1\n")
    (tmp_path / "input.uic0301").write_text("q1 Q0 d1 1 3.0 r\nq1 Q0 d2 2 2.0 r\nq1 Q0 d3 3 1.0 r\n")
    python = sqlrank.evaluate("qrels.robust03", "input.uic0301", ["AP"]).means["input.uic0301"]["AP"]
    shell = con.execute("FROM sqlrank.ap('qrels.robust03', 'input.uic0301')").fetchall()
    assert python == shell[0][1] == pytest.approx((1 / 1 + 2 / 3) / 2)
