"""Hits@k (sql/measures/hits.sql), ranx's hits: relevant retrieved within k, averaged over queries."""

import pytest

import sqlrank

# q: relevant documents at ranks 1, 3 and 7; r: one at rank 2
QRELS = {"q": {"d1": 1, "d3": 1, "d7": 1, "d9": 1}, "r": {"d2": 1}}
RUN = {"q": {f"d{rank}": 10.0 - rank for rank in range(1, 9)}, "r": {"d1": 2.0, "d2": 1.0}}


def test_the_worked_example(score):
    assert score("Hits@5", QRELS, RUN) == {"q": 2.0, "r": 1.0}
    assert score("Hits", QRELS, RUN) == {"q": 3.0, "r": 1.0}


def test_the_all_row_is_the_mean_not_the_sum_nor_success():
    result = sqlrank.evaluate(QRELS, RUN, ["hits@5", "NumRelRet@5", "Success@5"])
    assert list(result.summary.values()) == [pytest.approx(1.5), 3, 1.0]
