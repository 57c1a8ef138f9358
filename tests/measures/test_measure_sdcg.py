"""SDCG(min_rel, max_rel)@k (sql/measures/sdcg.sql), scaled DCG as cwl_eval computes it."""

import math

import pytest

import sqlrank

QRELS = {"q": {"a": 2, "b": 0, "c": 1}}
RUN = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}


def test_the_worked_example(score):
    assert score("SDCG(max_rel=2)@3", QRELS, RUN)["q"] == pytest.approx(
        (1 + 0.5 / 2) / (1 + 1 / math.log2(3) + 1 / 2), abs=1e-12)


def test_min_rel_moves_the_scale_and_without_a_cutoff_k_is_1000():
    summary = sqlrank.evaluate(QRELS, RUN, ["SDCG(min_rel=1,max_rel=2)@3", "SDCG(max_rel=2)"], names="asked").summary
    # min_rel 1: labels 2, 0, 1 gain 1, 0, 0
    assert summary["SDCG(min_rel=1,max_rel=2)@3"] == pytest.approx(1 / (1 + 1 / math.log2(3) + 1 / 2), abs=1e-12)
    assert summary["SDCG(max_rel=2)"] == pytest.approx(1.25 / sum(1 / math.log2(i + 1) for i in range(1, 1001)),
                                                       abs=1e-12)
