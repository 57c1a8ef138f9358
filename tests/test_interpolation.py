"""interpolation="trec_eval9": IPrec and AvgIPrec as trec_eval 9.x and pytrec_eval count recall · R, through every door.

trec_eval 10 (sqlrank's default) asks for lround(recall · R) relevant documents at a recall level; trec_eval 9.x,
and pytrec_eval, which embeds it, ask for (long)(recall · R + 0.9). pytrec_eval is the reference here, on
trec_eval's own test files; tests/test_differential.py checks the same on the generated hard cases.
"""

from __future__ import annotations

import duckdb
import pytest
import pytrec_eval

import sqlrank
from cli_runner import invoke
from sqlrank.cli import run

LEVELS = [f"iprec_at_recall_{level / 10:.2f}" for level in range(11)]
PAIRS = [("qrels.test", "results.test"), ("qrels.rel_level", "results.test"),
         ("qrels.robust03_630_389", "input.uic0301_630_389")]


def trec_file(path, value_field: int) -> dict:
    """{query: {doc: value}} from a TREC qrels (label in field 3) or run (score in field 4) file."""
    values: dict = {}
    for line in path.read_text().splitlines():
        fields = line.split()
        values.setdefault(fields[0], {})[fields[2]] = (int if value_field == 3 else float)(fields[value_field])
    return values


def pytrec(trec_data, qrels: str, results: str) -> dict:
    """{query: {trec name: value}} of the eleven levels and 11pt_avg, from pytrec_eval."""
    evaluator = pytrec_eval.RelevanceEvaluator(trec_file(trec_data / qrels, 3), {"iprec_at_recall", "11pt_avg"})
    return evaluator.evaluate(trec_file(trec_data / results, 4))


def test_python_and_sql_doors_equal_pytrec_eval_on_trec_eval_s_files(trec_data, con):
    trec_eval_10 = [f"IPrec(interpolation=trec_eval10)@{level / 10}" for level in range(11)]
    for qrels, results in PAIRS:
        expected = pytrec(trec_data, qrels, results)
        result = sqlrank.evaluate(trec_data / qrels, trec_data / results, [*LEVELS, "11pt_avg", *trec_eval_10],
                                  interpolation="trec_eval9", score_precision="float32", connection=con)
        actual = {(row["query_id"], row["measure"]): row["value"] for row in result.per_query.to_pylist()}
        assert {key: value for key, value in actual.items() if not key[1].startswith("IPrec")} == pytest.approx(
            {(query, name): value for query, values in expected.items() for name, value in values.items()},
            abs=1e-12), qrels
        # a measure's own interpolation wins; trec_eval 10's rounding gives other numbers on each of these pairs
        assert any(actual[(query, name)] != actual[(query, LEVELS[level])]
                   for query in expected for level, name in enumerate(trec_eval_10))
    # the shell's table macros take the parameter by name (qrels.rel_level: query 302 at 0.6 is 0.1528 under
    # trec_eval 10's rounding, 0.1420 under 9's; 11pt_avg differs on every query)
    expected = pytrec(trec_data, "qrels.rel_level", "results.test")
    sqlrank.load_qrels(con, trec_data / "qrels.rel_level", name="qrels")
    sqlrank.load_run(con, trec_data / "results.test", name="run")
    rows = con.sql("SELECT i.query_id, i.value, a.value "
                   "FROM sqlrank.iprec('qrels', 'run', recall := 0.6, interpolation := 'trec_eval9') AS i "
                   "JOIN sqlrank.avg_iprec('qrels', 'run', interpolation := 'trec_eval9') AS a USING (query_id)")
    assert {query: (iprec, average) for query, iprec, average in rows.fetchall()} == pytest.approx(
        {query: (values["iprec_at_recall_0.60"], values["11pt_avg"]) for query, values in expected.items()},
        abs=1e-12)


def test_the_command_line_prints_trec_eval_9_s_numbers_under_trec_eval_s_names(trec_data, capsysbinary):
    expected = pytrec(trec_data, "qrels.rel_level", "results.test")
    assert run(["eval", "-f", "trec", "-q", "--interpolation", "trec_eval9", "-m", "iprec_at_recall", "-m", "11pt_avg",
                str(trec_data / "qrels.rel_level"), str(trec_data / "results.test")]) == 0
    lines = [line.split("\t") for line in capsysbinary.readouterr().out.decode().splitlines()]
    printed = {(name.strip(), query): value for name, query, value in lines}
    assert printed == {**{(name, query): f"{value:.4f}" for query, values in expected.items()
                          for name, value in values.items()},
                       **{(name, "all"): f"{sum(values[name] for values in expected.values()) / 3:.4f}"
                          for name in [*LEVELS, "11pt_avg"]}}


def test_a_measure_s_own_interpolation_wins_and_a_wrong_one_is_refused(con):
    qrels = {"q": {"a": 1, "b": 1, "c": 1, "d": 1}}
    run = {"q": {"a": 4.0, "x": 3.0, "y": 2.0, "b": 1.0}}  # relevant at ranks 1 and 4, R = 4: precisions 1, 1/2
    result = sqlrank.evaluate(qrels, run, ["IPrec@0.3", "IPrec(interpolation=trec_eval10)@0.3", "AvgIPrec"],
                              interpolation="trec_eval9", connection=con)
    # lround(1.2) = 1 relevant document: 1;  (long)(1.2 + 0.9) = 2: 1/2;  AvgIPrec (3 · 1 + 3 · 1/2) / 11
    assert result.summary == {"IPrec@0.3": 0.5, "IPrec(interpolation=trec_eval10)@0.3": 1.0,
                              "AvgIPrec": pytest.approx(4.5 / 11, abs=1e-15)}
    with pytest.raises(sqlrank.MeasureError,
                       match=r"^unknown interpolation 'trec_eval8' \(expected one of: trec_eval10, trec_eval9\)$"):
        sqlrank.evaluate(qrels, run, ["AvgIPrec"], interpolation="trec_eval8", connection=con)
    sqlrank.load_qrels(con, qrels, name="qrels")
    sqlrank.load_run(con, run, name="run")
    with pytest.raises(duckdb.Error, match=r"unknown interpolation 'trec_eval8' \(expected one of: trec_eval10, trec_eval9\)"):
        con.execute("FROM sqlrank.avg_iprec('qrels', 'run', interpolation := 'trec_eval8')").fetchall()
    refused = invoke("eval", "--interpolation", "trec_eval8", "-", "-")
    assert refused.exit_code == 2 and "'trec_eval8' is not one of 'trec_eval10', 'trec_eval9'" in refused.stderr
