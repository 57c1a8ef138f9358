"""AP@k (sql/measures/ap.sql)."""

import pytest

# R = 3; the relevant documents a and b at ranks 1 and 3
QRELS = {"q": {"a": 1, "b": 1, "c": 1, "x": 0}}
RUN = {"q": {"a": 3.0, "x": 2.0, "b": 1.0}}


def test_the_worked_example(score):
    assert score("AP", QRELS, RUN)["q"] == pytest.approx((1 / 1 + 2 / 3) / 3, abs=1e-15)
    assert score("AP(denominator=retrieved)", QRELS, RUN)["q"] == pytest.approx((1 + 2 / 3) / 2, abs=1e-15)


def test_the_cutoff_and_min_r_k(score):
    assert score("AP@2", QRELS, RUN)["q"] == pytest.approx(1 / 3, abs=1e-15)
    assert score("AP(denominator=min_R_k)@2", QRELS, RUN)["q"] == pytest.approx(1 / 2, abs=1e-15)


def test_no_relevant_judgment_scores_0(score):
    assert score("AP", {"q": {"x": 0}}, RUN) == {"q": 0.0}
