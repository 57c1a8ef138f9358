"""ties='average' for the rest of the catalogue: each measure's expectation against the brute force.

The brute force (tests/test_ties.py) evaluates every ordering of every tie group as a run of its own
under ties='trec' and averages: the expectation by definition. Each measure the registry declares
'average' must equal it to 1e-12 on generated runs with many small tie groups, every label kind
(relevant, judged non-relevant, negative, unjudged) and a few parameter values; the measures
still refused must say why by name.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sqlrank
from batched import batches
from test_ties import assert_close, brute_force_mean, small_cases, values

# the measures this file adds, with cutoffs that cut tie groups and parameters off their defaults: the
# counts and sums linear in each document's chance of a place; those that read the documents above one
COUNTS = ["Hits@3", "Hits", "NumNonRelJudgedRet@3", "NumNonRelJudgedRet", "RelP@2", "RelP", "Unjudged@3",
          "Unjudged", "Judged@3", "Judged", "CG@2", "CG(gain=exp)@3", "IDCG@3", "IDCG(ideal=run)@2",
          "SetF@3", "SetF(beta=0.5)", "RprecMult@0.5", "RprecMult@1.4", "RBP@3", "RBP(p=0.5)",
          "GradedRBP", "RBPResidual", "GMAP", "GMAP@2", "RnDCG"]
ABOVE = ["bpref", "GMbpref", "binG", "ERR@3", "ERR", "ERR(max_grade=3)@2", "nDCGrel", "infAP", "infAP@3"]


def averaged_and_brute(case, measures, rel):
    qrels, run = case
    measures = [str(m) for m in sqlrank.parse_measures(measures, rel=rel)]
    ours = {(query, measure): value for (_, query, measure), value in
            values(qrels, run, measures, ties="average").items() if query in run}
    return ours, brute_force_mean(qrels, run, measures)


@settings(max_examples=5, deadline=None)
@given(case=batches(small_cases(), 2), rel=st.sampled_from([1, 2]))
def test_the_counts_average_is_the_mean_over_every_ordering(case, rel):
    assert_close(*averaged_and_brute(case, COUNTS, rel))


@settings(max_examples=5, deadline=None)
@given(case=batches(small_cases(), 2), rel=st.sampled_from([1, 2]))
def test_the_measures_reading_the_documents_above_average_to_the_mean_over_every_ordering(case, rel):
    assert_close(*averaged_and_brute(case, ABOVE, rel))


def test_a_worked_example_by_hand():
    """Three tied documents a = 2, b = 0, c unjudged, after d = 1 alone at rank 1 (R = 2)."""
    qrels = {"q": {"a": 2, "b": 0, "d": 1}}
    run = {"q": {"d": 2.0, "a": 1.0, "b": 1.0, "c": 1.0}}
    got = values(qrels, run, ["Hits@2", "RBP(p=0.5)@3", "Judged@2", "NumNonRelJudgedRet@3"], ties="average")
    # a lands at rank 2 with chance 1/3; RBP: d gives 1, a 0.5 or 0.25 or 0.125 (b and c add nothing)
    assert got[("run", "q", "Hits@2")] == pytest.approx(1 + 1 / 3, abs=1e-12)
    assert got[("run", "q", "RBP(p=0.5)@3")] == pytest.approx(0.5 * (1 + (0.5 + 0.25) / 3), abs=1e-12)
    assert got[("run", "q", "Judged@2")] == pytest.approx((1 + 2 / 3) / 2, abs=1e-12)
    assert got[("run", "q", "NumNonRelJudgedRet@3")] == pytest.approx(2 / 3, abs=1e-12)


def test_gmap_is_the_geometric_mean_of_the_expectations():
    """The `all` row of GMAP under average: exp(mean ln max(E[AP], 1e-5)), the per-query expectations' mean."""
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    run = {"q1": {"a": 1.0, "x": 1.0}, "q2": {"b": 1.0, "y": 1.0, "z": 1.0}}
    got = values(qrels, run, ["GMAP"], ties="average")
    q1, q2 = (1 + 1 / 2) / 2, (1 + 1 / 2 + 1 / 3) / 3
    assert got[("run", "q1", "GMAP")] == pytest.approx(q1, abs=1e-12)
    assert got[("run", "all", "GMAP")] == pytest.approx((q1 * q2) ** 0.5, abs=1e-12)
