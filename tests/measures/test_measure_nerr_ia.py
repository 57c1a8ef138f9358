"""nERR-IA (sql/measures/nerr_ia.sql), against ndeval through pyndeval (diversity_cases.py)."""

import pytest

from diversity_cases import check_against_ndeval, diversity


def test_the_worked_example():
    assert diversity("nERR-IA@4") == pytest.approx((2 + 1 / 2 + 0.5 / 4) / (2 + 1 / 2 + 0.5 / 3))
    assert diversity("nERR-IA@2") == 1.0


def test_a_query_the_run_missed_scores_0():
    assert diversity("nERR-IA@5", "missed") == 0.0


def test_equal_to_ndeval():
    check_against_ndeval("nERR-IA")
