"""NERR8(min_rel, max_rel)@k (sql/measures/nerr8.sql), Azzopardi et al.'s equation 8 as cwl_eval computes it."""

import pytest

import sqlrank

QRELS = {"q": {"a": 0, "b": 1, "c": 2}}
RUN = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}


def test_the_worked_example(score):
    # gains 0, 0.5, 1: reaches 1, 1, 0.5
    assert score("NERR8(max_rel=2)@3", QRELS, RUN)["q"] == pytest.approx((0.5 + 0.5) / 2.5, abs=1e-15)


def test_the_cutoff_and_a_top_label_document_first_which_stops_every_user():
    assert sqlrank.evaluate(QRELS, RUN, ["NERR8(max_rel=2)@2"]).summary["NERR8(max_rel=2)@2"] == pytest.approx(
        0.5 / 2, abs=1e-15)
    top_first = sqlrank.evaluate({"q": {"a": 2, "b": 2}}, {"q": {"a": 2.0, "b": 1.0}}, ["NERR8(max_rel=2)@10"])
    assert top_first.summary["NERR8(max_rel=2)@10"] == 1.0
