"""ERR@k (sql/measures/err.sql), gdeval's expected reciprocal rank."""

import pytest

import sqlrank

# labels by rank 0, 1, 3
QRELS = {"q": {"a": 0, "b": 1, "c": 3}}
RUN = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}


def test_the_worked_example(score):
    assert score("ERR", QRELS, RUN)["q"] == pytest.approx((1 / 16) / 2 + (15 / 16) * (7 / 16) / 3, abs=1e-15)
    assert score("ERR@2", QRELS, RUN)["q"] == pytest.approx((1 / 16) / 2, abs=1e-15)


def test_max_grade_is_a_parameter(score):
    # R = 1/8 and 7/8 with max_grade 3
    assert score("ERR(max_grade=3)", QRELS, RUN)["q"] == pytest.approx((1 / 8) / 2 + (7 / 8) * (7 / 8) / 3,
                                                                       abs=1e-15)


def test_a_label_above_max_grade_is_refused():
    with pytest.raises(sqlrank.EvaluationError, match="above max_grade"):
        sqlrank.evaluate({"q": {"a": 5}}, RUN, ["ERR@10"])


def test_nothing_relevant_scores_0(score):
    assert score("ERR@10", {"q": {"a": 0, "x": -1}}, RUN) == {"q": 0.0}
