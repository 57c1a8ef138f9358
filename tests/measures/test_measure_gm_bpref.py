"""GMbpref (sql/measures/gm_bpref.sql), trec_eval's gm_bpref: bpref per query, geometric mean in the `all` row."""

import math

import pytest

import sqlrank

# q1: R = 2, N = 2; relevant, non-relevant, relevant -> bpref (1 + (1 - 1/2)) / 2 = 0.75; q2: bpref 0
QRELS = {"q1": {"r1": 1, "r2": 1, "n1": 0, "n2": 0}, "q2": {"r": 1, "n": 0}}
RUN = {"q1": {"r1": 3.0, "n1": 2.0, "r2": 1.0}, "q2": {"n": 1.0}}


def test_per_query_it_is_bpref(score):
    assert score("GMbpref", QRELS, RUN) == {"q1": 0.75, "q2": 0.0}


def test_the_all_row_is_the_geometric_mean_floored_at_1e_5():
    summary = sqlrank.evaluate(QRELS, RUN, ["gm_bpref"]).summary
    assert summary["gm_bpref"] == pytest.approx(math.exp((math.log(0.75) + math.log(1e-5)) / 2), rel=1e-12)
