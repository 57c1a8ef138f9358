"""RprecMult_avgjg, trec_eval's Rprec_mult_avgjg (sql/measures/rprec_mult_avgjg.sql): the worked example and its
edge cases by hand; trec_eval's own output in tests/test_multi_judge.py."""

import pytest

import sqlrank

from judge_cases import judged


def test_the_worked_example():
    # judge 1: c = (long)(2 + 0.9) = 2, a within 2; judge 2: c = (long)(1 + 0.9) = 1, c is at 2
    assert judged("RprecMult_avgjg@1") == 0.25
    # x = 0.2: judge 1's c = (long)(0.4 + 0.9) = 1 (a), judge 2's (long)(0.2 + 0.9) = 1 (none)
    assert judged("RprecMult_avgjg@0.2") == 0.5 / 1
    assert [str(m) for m in sqlrank.parse_measures(["Rprec_mult_avgjg_0.20"])] == ["RprecMult_avgjg@0.2"]


def test_the_edge_cases():
    assert judged("RprecMult_avgjg@1", "norel") == 0.5  # judge 2: R = 0, c = 0, adds 0
    assert judged("RprecMult_avgjg@1", "missed") == 0.0
    # rel=2: judge x R = 1, c = 1, a at 1; judge y R = 1, c = 1, b at 2
    assert judged("RprecMult_avgjg(rel=2)@1", "graded") == pytest.approx(0.5, abs=1e-15)
