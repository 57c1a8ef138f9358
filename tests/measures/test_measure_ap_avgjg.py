"""AP_avgjg, trec_eval's map_avgjg (sql/measures/ap_avgjg.sql): the worked example and its edge cases by hand;
trec_eval's own output in tests/test_multi_judge.py."""

import pytest

import sqlrank

from judge_cases import judged


def test_the_worked_example():
    # judge 1: a at 1, b at 3 of R = 2; judge 2: c at 2 of R = 1
    assert judged("AP_avgjg") == pytest.approx(((1 / 1 + 2 / 3) / 2 + (1 / 2) / 1) / 2, abs=1e-15)
    assert [str(m) for m in sqlrank.parse_measures(["map_avgjg"])] == ["AP_avgjg"]


def test_the_edge_cases():
    assert judged("AP_avgjg", "norel") == 0.5  # judge 2 has no relevant document (a's -1 is unjudged): adds 0
    assert judged("AP_avgjg", "missed") == 0.0
    # rel=2: judge x has a (rank 1), judge y b (rank 2)
    assert judged("AP_avgjg(rel=2)", "graded") == pytest.approx((1 + 1 / 2) / 2, abs=1e-15)
    assert judged("AP_avgjg", "graded") == pytest.approx((1 + 1) / 2 / 2 + (1 / 2) / 2, abs=1e-15)
