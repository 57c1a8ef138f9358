"""NRBP (sql/measures/nrbp.sql), against ndeval through pyndeval (diversity_cases.py)."""

import pytest

from diversity_cases import check_against_ndeval, diversity


def test_the_worked_example():
    assert diversity("NRBP") == pytest.approx((1 - 0.25) / 3 * (2 + 1 * 0.5 + 0.5 * 0.125))


def test_patience_is_ndeval_beta():
    assert diversity("NRBP(patience=0.8)") == pytest.approx((1 - 0.4) / 3 * (2 + 0.8 + 0.5 * 0.8 ** 3))


def test_equal_to_ndeval():
    check_against_ndeval("NRBP")
