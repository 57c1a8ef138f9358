"""ranx's and the recommender habits' spellings: each means one measure, never a near miss."""

from __future__ import annotations

import pytest

import sqlrank


@pytest.mark.parametrize("spelling, canonical", [
    ("hits@5", "Hits@5"),  # relevant retrieved in the top 5, averaged: not Success
    ("f1@10", "SetF@10"),  # F of P@10 and R@10
    ("f1", "SetF"),
    ("r-precision", "Rprec"),
    ("ndcg_burges@10", "nDCG(gain=exp)@10"),
    ("dcg_burges", "DCG(gain=exp)"),
    ("map@10-l2", "AP(rel=2)@10"),  # ranx's relevance level suffix
    ("mrr-l3", "RR(rel=3)"),
    ("hit_rate@10", "Success@10"),
    ("precision@5", "P@5"),
    ("recall@5", "R@5"),
])
def test_ranx_spellings(spelling, canonical):
    assert [str(m) for m in sqlrank.parse_measures(spelling)] == [canonical]


@pytest.mark.parametrize("spelling", ["HitRate@10", "hitrate@10", "HITRATE@10", "Recall@10", "RECALL@10", "MAP@10",
                                      "map@10", "MRR@10", "Mrr@10", "NDCG@10", "nDcG@10"])
def test_recommender_spellings_in_any_case(spelling):
    expected = {"hitrate": "Success@10", "recall": "R@10", "map": "AP@10", "mrr": "RR@10", "ndcg": "nDCG@10"}
    assert str(sqlrank.parse_measures(spelling)[0]) == expected[spelling.split("@")[0].lower()]


def test_a_ranx_spelling_with_parameters_of_its_own_says_what_to_write():
    with pytest.raises(sqlrank.MeasureError, match=r"ndcg_burges is nDCG\(gain=exp\); write that"):
        sqlrank.parse_measures("ndcg_burges(rel=2)@10")
    assert str(sqlrank.parse_measures("f1(beta=2)@5")[0]) == "SetF(beta=2)@5"


def test_hits_and_f1_numbers():
    qrels = {"q": {"a": 1, "b": 1, "c": 1}}
    run = {"q": {"a": 3.0, "x": 2.0, "b": 1.0}}
    values = list(sqlrank.evaluate(qrels, run, ["hits@2", "f1@2", "Success@2"]).summary.values())
    p, r = 1 / 2, 1 / 3
    assert values == pytest.approx([1.0, 2 * p * r / (p + r), 1.0])
