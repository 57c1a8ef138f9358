"""Accuracy(rel)@k (sql/measures/accuracy.sql), ir_measures' share of (relevant, other) pairs ranked in order."""

import pytest

import sqlrank

# labels by rank 1, 0, 1, then an unjudged document
QRELS = {"q": {"a": 1, "b": 0, "c": 1}}
RUN = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "x": 1.0}}


def test_the_worked_example(score):
    assert score("Accuracy", QRELS, RUN)["q"] == pytest.approx(1 - (0 + 1) / (2 * 2), abs=1e-15)


def test_the_cutoff_rel_and_the_queries_without_both_kinds():
    qrels = {**QRELS, "all_relevant": {"a": 1}, "none": {"a": 0}, "missed": {"a": 1}}
    run = {**RUN, "all_relevant": {"a": 1.0}, "none": {"a": 1.0, "b": 0.5}}
    result = sqlrank.evaluate(qrels, run, ["Accuracy@2", "Accuracy@3", "Accuracy(rel=2)", "Accuracy"], names="asked")
    values = {(row["measure"], row["query_id"]): row["value"] for row in result.per_query.to_pylist()}
    assert values[("Accuracy@2", "q")] == 1.0  # a above b
    assert values[("Accuracy@3", "q")] == pytest.approx(1 - 1 / (1 * 2), abs=1e-15)  # c under b
    assert values[("Accuracy(rel=2)", "q")] == 0.0  # nothing relevant at rel 2
    assert [values[("Accuracy", query)] for query in ("all_relevant", "none", "missed")] == [0.0, 0.0, 0.0]
