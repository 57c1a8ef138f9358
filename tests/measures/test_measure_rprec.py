"""Rprec (sql/measures/rprec.sql)."""

import pytest

import sqlrank

# R = 3; relevant documents at ranks 1, 3 and 7
QRELS = {"q": {"d1": 1, "d3": 1, "d7": 1}}
RUN = {"q": {f"d{rank}": 10.0 - rank for rank in range(1, 9)}}


def test_the_worked_example(score):
    assert score("Rprec", QRELS, RUN)["q"] == pytest.approx(2 / 3, abs=1e-15)


def test_it_reads_past_any_depth_of_other_measures(score):
    # the top R = 3 holds d1 and d3 whatever else is asked for at small cutoffs
    result = sqlrank.evaluate(QRELS, RUN, ["P@1", "Rprec"])
    assert result.summary["Rprec"] == pytest.approx(2 / 3, abs=1e-15)
