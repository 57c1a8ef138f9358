"""alpha-nDCG (sql/measures/alpha_ndcg.sql), against ndeval through pyndeval (diversity_cases.py)."""

from math import log2

import pytest

from diversity_cases import RUN, SUBTOPIC_QRELS, check_against_ndeval, diversity


def test_the_worked_example():
    # gains a 2, c 1, x -, b 0.5; the greedy ideal a, c, b (2, 1, 0.5)
    run = 2 + 1 / log2(3) + 0.5 / log2(5)
    assert diversity("alpha-nDCG@4") == {"q": pytest.approx(run / (2 + 1 / log2(3) + 0.5 / 2), abs=1e-15)}
    assert diversity("alpha-nDCG@1") == {"q": 1.0}
    assert diversity("alpha_nDCG(alpha=0)@2") == {"q": pytest.approx((2 + 1 / log2(3)) / (2 + 1 / log2(3)))}


def test_the_greedy_ideal_takes_the_larger_doc_id_of_equal_gains_as_ndeval():
    # e and f each cover one new subtopic: the ideal places f first, then e's subtopic is covered once more
    rows = [("q", "1", "e", 1), ("q", "2", "f", 1), ("q", "1", "g", 1), ("q", "2", "g", 1)]
    # ideal: g (2), f (0.5: subtopic 2 seen), e (0.5)
    ideal = 2 + 0.5 / log2(3)
    assert diversity("alpha-nDCG@2", rows, {"q": {"g": 2.0, "e": 1.0}}) == {"q": pytest.approx((2 + 0.5 / log2(3)) / ideal)}


def test_a_query_without_a_covered_subtopic_and_one_the_run_missed_score_0():
    rows = SUBTOPIC_QRELS + [("none", "1", "a", 0), ("missed", "1", "a", 1)]
    values = diversity("alpha-nDCG@10", rows, {**RUN, "none": {"a": 1.0}})
    assert values["none"] == values["missed"] == 0.0


def test_equal_to_ndeval():
    check_against_ndeval("alpha-nDCG")
