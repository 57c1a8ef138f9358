"""nDCGrel (sql/measures/ndcg_rel.sql), trec_eval's ndcg_rel."""

import math

import pytest

QRELS = {"q": {"a": 2, "b": 1, "c": 0}}


def test_the_worked_example(score):
    # ideal [2, 1]; the run ranks c, a: a adds nDCG@2, b (not retrieved) the whole list's, the same number
    at_2 = (2 / math.log2(3)) / (2 + 1 / math.log2(3))
    assert score("nDCGrel", QRELS, {"q": {"c": 2.0, "a": 1.0}})["q"] == pytest.approx(at_2, abs=1e-15)


def test_each_relevant_document_is_scored_at_its_own_rank(score):
    # run c, x, a, y, b: a at 3 -> DCG@3/IDCG@2-capped; b at 5 -> DCG@5/IDCG; mean of the two
    dcg_3 = 2 / math.log2(4)
    dcg_5 = dcg_3 + 1 / math.log2(6)
    ideal = 2 + 1 / math.log2(3)
    run = {"q": {"c": 5.0, "x": 4.0, "a": 3.0, "y": 2.0, "b": 1.0}}
    assert score("ndcg_rel", QRELS, run)["q"] == pytest.approx((dcg_3 / ideal + dcg_5 / ideal) / 2, abs=1e-15)


def test_no_positive_label_scores_0(score):
    assert score("nDCGrel", {"q": {"a": 0}}, {"q": {"a": 1.0}}) == {"q": 0.0}
