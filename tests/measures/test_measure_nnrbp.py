"""nNRBP (sql/measures/nnrbp.sql), against ndeval through pyndeval (diversity_cases.py)."""

import pytest

from diversity_cases import check_against_ndeval, diversity


def test_the_worked_example():
    assert diversity("nNRBP") == pytest.approx((2 + 0.5 + 0.5 * 0.125) / (2 + 0.5 + 0.5 * 0.25))


def test_a_query_without_a_covered_subtopic_scores_0_where_ndeval_prints_nan():
    assert diversity("nNRBP", "none") == 0.0


def test_equal_to_ndeval():
    check_against_ndeval("nNRBP")
