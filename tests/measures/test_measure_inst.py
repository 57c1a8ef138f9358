"""INST(T, min_rel, max_rel) (sql/measures/inst.sql), the C/W/L user model as cwl_eval computes it."""

import duckdb
import pytest

import sqlrank

QRELS = {"q": {"a": 1, "b": 0}}
RUN = {"q": {"a": 2.0, "b": 1.0}}


def test_the_worked_example(score):
    # T_i = 0 from position 1: the user reaches position i with the chance 1 / i², over 1000 positions
    assert score("INST(max_rel=1)", QRELS, RUN)["q"] == pytest.approx(
        1 / sum(1 / i ** 2 for i in range(1, 1001)), abs=1e-12)


def test_a_missed_query_and_a_run_without_gain_score_0():
    result = sqlrank.evaluate({"q": {"a": 1}, "m": {"b": 1}}, {"q": {"x": 1.0}}, ["INST(max_rel=1)"])
    assert {row["query_id"]: row["value"] for row in result.per_query.to_pylist()} == {"q": 0.0, "m": 0.0}


def test_max_rel_is_1_binary_gains_by_default_and_the_scale_is_checked():
    assert str(sqlrank.parse_measures("INST(max_rel=1)")[0]) == "INST"
    message = ("INST: min_rel must be at least 0 and below max_rel (labels from min_rel to max_rel gain 0 to 1), "
               "got min_rel=2, max_rel=1.5; give the lowest and the highest label of the judgments' scale")
    with pytest.raises(sqlrank.MeasureError) as python:
        sqlrank.parse_measures("INST(min_rel=2,max_rel=1.5)")
    assert str(python.value) == message
    with sqlrank.connect(table_macros=False) as con:  # the check the shell's sqlrank.inst(...) makes says the same
        with pytest.raises(duckdb.Error) as shell:
            con.execute("SELECT sqlrank.cwl_scale_ok(2, 1.5, 'INST')").fetchall()
    assert f"sqlrank: {message}" in str(shell.value)


def test_ties_average_is_refused_by_name():
    with pytest.raises(sqlrank.SqlrankError, match="not defined yet for INST"):
        sqlrank.evaluate(QRELS, RUN, ["INST(max_rel=1)"], ties="average")
