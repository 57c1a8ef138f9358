"""ERR-IA (sql/measures/err_ia.sql), against ndeval through pyndeval (diversity_cases.py)."""

import pytest

from diversity_cases import check_against_ndeval, diversity


def test_the_worked_example():
    assert diversity("ERR-IA@4") == pytest.approx((2 + 1 / 2 + 0.5 / 4) / (3 + 1.5 / 2 + 0.75 / 3 + 0.375 / 4))


def test_at_1_normalised_where_ndeval_is_not():
    assert diversity("ERR-IA@1") == 2 / 3


def test_alpha_1_counts_each_subtopic_once():
    assert diversity("ERR_IA(alpha=1)@4") == pytest.approx((2 + 1 / 2) / 3)


def test_equal_to_ndeval():
    check_against_ndeval("ERR-IA")
