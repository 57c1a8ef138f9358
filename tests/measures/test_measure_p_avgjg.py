"""P_avgjg, trec_eval's P_avgjg (sql/measures/p_avgjg.sql): the worked example and its edge cases by hand;
trec_eval's own output in tests/test_multi_judge.py."""

import pytest

import sqlrank

from judge_cases import judged


def test_the_worked_example():
    assert judged("P_avgjg@2") == 0.5  # judge 1: a within 2; judge 2: c within 2
    assert judged("P_avgjg@1") == (1 / 1 + 0 / 1) / 2  # judge 1: a; judge 2: none
    assert judged("P_avgjg()") == pytest.approx((2 / 3 + 1 / 3) / 2, abs=1e-15)  # relevant retrieved / retrieved
    assert [str(m) for m in sqlrank.parse_measures(["P_avgjg.5,10"])] == ["P_avgjg@5", "P_avgjg@10"]


def test_the_edge_cases():
    assert judged("P_avgjg@1", "norel") == 0.5
    assert judged("P_avgjg@5", "missed") == 0.0
    assert judged("P_avgjg@5", "short") == 1 / 5  # a shorter run is filled with non-relevant documents
