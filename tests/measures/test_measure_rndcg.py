"""RnDCG (sql/measures/rndcg.sql), trec_eval's Rndcg."""

import math

import pytest

QRELS = {"q": {"a": 1, "b": 1, "c": 0}}
IDEAL = 1 + 1 / math.log2(3)


def test_the_worked_example(score):
    # ideal [1, 1], one R-level ending at 2; the run (4 long) is longer than 3: the whole list adds a point
    at_2 = (1 / math.log2(3)) / IDEAL
    whole = (1 / math.log2(3) + 1 / math.log2(4)) / IDEAL
    run = {"q": {"c": 4.0, "a": 3.0, "b": 2.0, "x": 1.0}}
    assert score("RnDCG", QRELS, run)["q"] == pytest.approx((at_2 + whole) / 2, abs=1e-15)


def test_a_run_exactly_one_longer_than_the_ideal_ranking_adds_no_point(score):
    # trec_eval's loop: the implied point at num_retrieved needs num_retrieved > L + 1
    run = {"q": {"c": 3.0, "a": 2.0, "b": 1.0}}
    assert score("Rndcg", QRELS, run)["q"] == pytest.approx((1 / math.log2(3)) / IDEAL, abs=1e-15)


def test_graded_levels_each_add_a_point(score):
    # ideal [2, 1]: levels end at 1 and 2; the run ranks a (2), b (1) ideally: both points 1
    assert score("RnDCG", {"q": {"a": 2, "b": 1}}, {"q": {"a": 2.0, "b": 1.0}})["q"] == pytest.approx(1.0, abs=1e-15)


def test_r_0_scores_0(score):
    assert score("RnDCG(rel=3)", QRELS, {"q": {"a": 1.0}}) == {"q": 0.0}
