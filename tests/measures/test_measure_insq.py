"""INSQ(T, min_rel, max_rel) (sql/measures/insq.sql), the C/W/L user model as cwl_eval computes it."""

import pytest

import sqlrank

QRELS = {"q": {"a": 0, "b": 2}}
RUN = {"q": {"a": 2.0, "b": 1.0}}


def test_the_worked_example(score):
    # reaches 4 / (i + 1)² over 1000 positions; the label-2 document at position 2 gains 1
    reaches = [4 / (i + 1) ** 2 for i in range(1, 1001)]
    assert score("INSQ(max_rel=2)", QRELS, RUN)["q"] == pytest.approx(reaches[1] / sum(reaches), abs=1e-12)


def test_t_sets_the_patience():
    # T = 2: reaches (4 / (i + 3))², so 16/25 at position 2
    reaches = [(4 / (i + 3)) ** 2 for i in range(1, 1001)]
    assert sqlrank.evaluate(QRELS, RUN, ["INSQ(T=2,max_rel=2)"]).summary["INSQ(T=2,max_rel=2)"] == pytest.approx(
        reaches[1] / sum(reaches), abs=1e-12)
