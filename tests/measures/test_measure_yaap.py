"""yaap, trec_eval's m_yaap.c (sql/measures/yaap.sql): the worked example and the edge cases by hand, and trec_eval 10's
own values to 17 digits (tests/data/trec_eval/expected_yaap_full.csv; its source in that folder's README.md)."""

import csv
import math

import pytest

import sqlrank

QRELS = {"q": {"a": 1, "b": 1, "c": 1, "x": 0}}
RUN = {"q": {"a": 4.0, "x": 3.0, "b": 2.0, "y": 1.0}}


def test_the_worked_example(score):
    # R = 3; relevant at ranks 1 and 3: S = 1/1 + 2/3
    assert score("yaap", QRELS, RUN) == {"q": pytest.approx(math.log((1 + 5 / 3) / (1 + 3 - 5 / 3)), abs=1e-15)}


def test_the_edge_cases(score):
    every = {"q": {"a": 1, "b": 1}, "missed": {"a": 1, "b": 1, "c": 1}}
    # every relevant document first: S = R = 2, ln(3); a query the run missed: S = 0, ln(1 / (1 + R)), not 0
    assert score("yaap", every, {"q": {"a": 2.0, "b": 1.0}}) == {"q": pytest.approx(math.log(3), abs=1e-15),
                                                                "missed": pytest.approx(math.log(1 / 4), abs=1e-15)}
    assert score("yaap(rel=2)", {"q": {"a": 1}}, {"q": {"a": 1.0}}) == {"q": 0.0}  # R = 0: ln(1 / 1)


def test_equal_to_trec_eval(trec_data):
    options = {"": {}, "-l2": {"rel": 2}, "-c": {"missing": "zero"}}  # trec_eval's flag, evaluate's option
    with open(trec_data / "expected_yaap_full.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    for case in dict.fromkeys((row["options"], row["qrels"], row["run"]) for row in rows):
        flag, qrels, run = case
        result = sqlrank.evaluate(trec_data / qrels, trec_data / run, ["yaap"], **options[flag])
        got = {row["query_id"]: row["value"] for row in result.to_arrow().to_pylist()}
        want = {row["query_id"]: float(row["value"]) for row in rows if (row["options"], row["qrels"], row["run"]) == case}
        assert got == pytest.approx(want, abs=1e-9), case
