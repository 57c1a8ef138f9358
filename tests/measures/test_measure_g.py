"""G (sql/measures/g.sql), trec_eval's G."""

import math

import pytest


def test_the_worked_example(score):
    # ideal [2]: rank 1 costs 2, rank 2 costs 1; the label-2 document at rank 2: 2 / log2(2 + 3 - 2), over 2
    assert score("G", {"q": {"a": 2, "b": 0}}, {"q": {"b": 2.0, "a": 1.0}})["q"] == pytest.approx(
        1 / math.log2(3), abs=1e-15)


def test_the_ideal_ranking_scores_1_and_no_positive_label_scores_0(score):
    assert score("G", {"q": {"a": 3, "b": 1}}, {"q": {"a": 2.0, "b": 1.0}})["q"] == pytest.approx(1.0, abs=1e-15)
    assert score("G", {"q": {"a": 0}}, {"q": {"a": 1.0}}) == {"q": 0.0}
