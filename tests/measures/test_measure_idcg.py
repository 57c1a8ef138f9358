"""IDCG@k (sql/measures/idcg.sql)."""

import math

import pytest

# the worked example of the header: judgments A=3, B=3, C=2, D=2, E=1, F=1; the run ranks A, E, C, D, F
QRELS = {"q": {"A": 3, "B": 3, "C": 2, "D": 2, "E": 1, "F": 1}}
RUN = {"q": {"A": 5.0, "E": 4.0, "C": 3.0, "D": 2.0, "F": 1.0}}


def test_the_worked_example(score):
    expected = 3 + 3 / math.log2(3) + 2 / 2 + 2 / math.log2(5) + 1 / math.log2(6)
    assert score("IDCG@5", QRELS, RUN)["q"] == pytest.approx(7.1409951840957, abs=1e-12)
    assert expected == pytest.approx(7.1409951840957, abs=1e-12)


def test_the_ideal_from_the_run_reorders_only_what_was_retrieved(score):
    # retrieved labels 3, 1, 2, 2, 1 re-sorted: 3, 2, 2, 1, 1 (B, labelled 3, was not retrieved)
    expected = 3 + 2 / math.log2(3) + 2 / 2 + 1 / math.log2(5) + 1 / math.log2(6)
    assert score("IDCG(ideal=run)@5", QRELS, RUN)["q"] == pytest.approx(expected, abs=1e-12)
