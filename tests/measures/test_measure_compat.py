"""Compat(p, normalize) (sql/measures/compat.sql), Clarke et al.'s compatibility as ir_measures computes it."""

import pytest

import sqlrank

# labels by rank 0, 2, 1: the ideal is b (label 2), then c (label 1)
QRELS = {"q": {"a": 0, "b": 2, "c": 1}}
RUN = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}


def test_the_worked_example(score):
    # overlaps 0, 1, 2 at depths 1, 2, 3; the ideal's with itself 1, 2, 2
    assert score("Compat(p=0.5)", QRELS, RUN)["q"] == pytest.approx(
        (0.5 * 1 / 2 + 0.25 * 2 / 3) / (1 + 0.5 * 2 / 2 + 0.25 * 2 / 3), abs=1e-15)


def test_normalize_false_the_ideal_run_and_the_edges():
    ideal = {"q": {"b": 3.0, "c": 2.0, "a": 1.0}, "r": {"x": 1.0}}
    summary = sqlrank.evaluate({**QRELS, "r": {"x": 0}, "m": {"y": 1}}, ideal,
                               ["Compat", "Compat(p=0.5,normalize=False)"], names="asked", missing="zero")
    values = {(row["measure"], row["query_id"]): row["value"] for row in summary.per_query.to_pylist()}
    assert values[("Compat", "q")] == pytest.approx(1.0, abs=1e-15)  # the ideal order scores 1
    # unnormalized: the RBO, overlaps 1, 2, 2 at depths 1, 2, 3
    assert values[("Compat(p=0.5,normalize=False)", "q")] == pytest.approx((1 + 0.5 + 0.25 * 2 / 3) / 1.75, abs=1e-15)
    # no relevant judgment; a query the run missed
    assert values[("Compat", "r")] == 0.0 and values[("Compat", "m")] == 0.0


def test_its_p_defaults_to_ir_measures_0_95_and_normalize_takes_ir_measures_words():
    (measure,) = sqlrank.parse_measures("Compat")
    assert (measure.param("p"), measure.param("normalize")) == (0.95, "True")
    with pytest.raises(sqlrank.MeasureError, match="unknown normalize 'yes'"):
        sqlrank.parse_measures("Compat(normalize=yes)")
