"""The spread over queries on request: evaluate(..., aggregates=[...]) -> result.aggregates."""

from __future__ import annotations

import math
import statistics

import pytest

import sqlrank
from sqlrank.registry import SPREADS

QRELS = {"a": {"d": 1}, "b": {"d": 1}, "c": {"d": 1}, "e": {"d": 1}}
RUNS = {"x": {"a": {"d": 1.0}, "b": {"e": 2.0, "d": 1.0}, "c": {"e": 3.0, "f": 2.0, "g": 1.0, "d": 0.5},
              "e": {"e": 1.0}},
        "y": {"a": {"d": 1.0}}}


def by_key(result):
    return {(row["run_id"], row["measure"], row["aggregate"]): row["value"] for row in result.aggregates.to_pylist()}


def test_std_stderr_median_against_the_statistics_module():
    result = sqlrank.evaluate(QRELS, RUNS, ["RR", "P@1"], aggregates=list(SPREADS))
    values = by_key(result)
    per_query = {"x": {"RR": [1.0, 0.5, 0.25, 0.0], "P@1": [1.0, 0.0, 0.0, 0.0]},
                 "y": {"RR": [1.0, 0.0, 0.0, 0.0], "P@1": [1.0, 0.0, 0.0, 0.0]}}  # missing='zero': b, c, e score 0
    for run, measures in per_query.items():
        for measure, scores in measures.items():
            assert values[(run, measure, "std")] == pytest.approx(statistics.stdev(scores), abs=1e-12)
            assert values[(run, measure, "stderr")] == pytest.approx(statistics.stdev(scores) / math.sqrt(4), abs=1e-12)
            assert values[(run, measure, "median")] == pytest.approx(statistics.median(scores), abs=1e-12)
            assert values[(run, measure, "std_population")] == pytest.approx(statistics.pstdev(scores), abs=1e-12)
    # in the result's order: run by run, measure by measure, aggregate by aggregate as asked
    assert list(values)[:5] == [("x", "RR", a) for a in SPREADS] + [("x", "P@1", "std")]
    assert result.means["x"]["RR"] == pytest.approx(1.75 / 4)  # the means are unchanged


def test_skipped_queries_are_not_in_the_spread():
    result = sqlrank.evaluate(QRELS, RUNS["x"], ["RR"], aggregates="median", missing="skip")
    # e retrieved nothing relevant but is in the run: 1, 0.5, 0.25, 0 -> median 0.375
    assert list(by_key(result).values()) == [pytest.approx(0.375)]


def test_none_asked_none_computed():
    assert sqlrank.evaluate(QRELS, RUNS["x"], ["RR"]).aggregates is None


def test_an_unknown_aggregate_is_refused():
    with pytest.raises(sqlrank.EvaluationError, match=r"unknown aggregate 'variance' \(expected one of: std, stderr"):
        sqlrank.evaluate(QRELS, RUNS["x"], ["RR"], aggregates=["variance"])


def test_the_sql_accepts_exactly_the_registry_spreads(con):
    for aggregate in SPREADS:
        assert con.execute("SELECT sqlrank.spread([1.0, 2.0, 4.0], ?)", [aggregate]).fetchone()[0] is not None
    with pytest.raises(Exception, match="unknown aggregate 'mode'"):
        con.execute("SELECT sqlrank.spread([1.0], 'mode')").fetchall()
