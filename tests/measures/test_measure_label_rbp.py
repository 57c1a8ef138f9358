"""LabelRBP(rel, p)@k (sql/measures/label_rbp.sql), ranx's rbp.p: RBP with the label as gain.

ranx's formula (ranx/metrics/rank_biased_precision.py, _rank_biased_precision): each retrieved document
judged with label >= rel_lvl gains its label, times p^(i-1), summed and times (1 - p). It is worked here
by hand (ranx_rbp below) rather than by calling ranx, whose numba compilation takes a minute.
"""

import pytest

import sqlrank

QRELS = {"q": {"a": 2, "b": 0, "c": 1, "n": -1}}
RUN = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "n": 1.0}}


def ranx_rbp(qrels: dict, run: dict, p: float, rel_lvl: int = 1) -> float:
    """ranx's rank_biased_precision for one query, as its loop computes it."""
    ranked = sorted(run, key=run.get, reverse=True)
    return (1 - p) * sum(qrels.get(doc, 0) * p ** i for i, doc in enumerate(ranked) if qrels.get(doc, 0) >= rel_lvl)


def test_the_worked_example(score):
    assert score("LabelRBP(p=0.95)", QRELS, RUN)["q"] == pytest.approx(0.05 * (2 + 0.95 ** 2), abs=1e-15)
    summary = sqlrank.evaluate(QRELS, RUN, ["LabelRBP(p=0.95,rel=2)", "LabelRBP(p=0.95)@1"], names="asked").summary
    assert summary == pytest.approx({"LabelRBP(p=0.95,rel=2)": 0.05 * 2, "LabelRBP(p=0.95)@1": 0.05 * 2}, abs=1e-15)


def test_equals_ranx_rbp_and_differs_from_rbp_on_graded_labels():
    qrels = {"q1": {"a": 2, "b": 1, "c": 2, "d": 0}, "q2": {"e": 1, "f": 2}}
    run = {"q1": {"d": 5.0, "a": 4.0, "x": 3.0, "c": 2.0, "b": 1.0}, "q2": {"f": 2.0, "y": 1.5, "e": 1.0}}
    for p, rel in ((0.95, 1), (0.8, 1), (0.5, 2)):
        result = sqlrank.evaluate(qrels, run, [f"LabelRBP(p={p},rel={rel})", f"RBP(p={p},rel={rel})"], names="asked")
        values = {(row["measure"], row["query_id"]): row["value"] for row in result.per_query.to_pylist()}
        for query in qrels:
            assert values[(f"LabelRBP(p={p},rel={rel})", query)] == pytest.approx(
                ranx_rbp(qrels[query], run[query], p, rel), abs=1e-15)
        assert values[(f"LabelRBP(p={p},rel={rel})", "q1")] != values[(f"RBP(p={p},rel={rel})", "q1")]


def test_ties_average_is_the_mean_over_the_groups_orders():
    # a (label 2) and c (label 1) tied at ranks 1-2: each weighs (1 + p) / 2
    tied = sqlrank.evaluate({"q": {"a": 2, "c": 1}}, {"q": {"a": 1.0, "c": 1.0}}, ["LabelRBP(p=0.5)"], ties="average")
    assert tied.summary["LabelRBP(p=0.5)"] == pytest.approx(0.5 * (2 + 1) * (1 + 0.5) / 2, abs=1e-15)
