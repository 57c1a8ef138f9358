"""alpha-nDCG (sql/measures/alpha_ndcg.sql), against ndeval through pyndeval (diversity_cases.py)."""

from math import log2

import pytest

from diversity_cases import check_against_ndeval, diversity


def test_the_worked_example():
    # gains a 2, c 1, x -, b 0.5; the greedy ideal a, c, b (2, 1, 0.5)
    run = 2 + 1 / log2(3) + 0.5 / log2(5)
    assert diversity("alpha-nDCG@4") == pytest.approx(run / (2 + 1 / log2(3) + 0.5 / 2), abs=1e-15)
    assert diversity("alpha-nDCG@1") == 1.0
    assert diversity("alpha_nDCG(alpha=0)@2") == pytest.approx((2 + 1 / log2(3)) / (2 + 1 / log2(3)))


def test_the_greedy_ideal_takes_the_larger_doc_id_of_equal_gains_as_ndeval():
    # the ideal c, b, a (2, 1.5, 1.5) gains less than the run a, b, c (2, 2, 1): above 1, as ndeval prints it
    ideal = 2 + 1.5 / log2(3) + 1.5 / 2
    assert diversity("alpha-nDCG@3", "tie") == pytest.approx((2 + 2 / log2(3) + 1 / 2) / ideal)  # 1.017710


def test_a_query_without_a_covered_subtopic_and_one_the_run_missed_score_0():
    assert diversity("alpha-nDCG@10", "none") == diversity("alpha-nDCG@10", "missed") == 0.0


def test_equal_to_ndeval():
    check_against_ndeval("alpha-nDCG")
