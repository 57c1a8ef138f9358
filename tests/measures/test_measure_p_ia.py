"""P-IA (sql/measures/p_ia.sql), against ndeval through pyndeval (diversity_cases.py)."""

import pytest

from diversity_cases import check_against_ndeval, diversity


def test_the_worked_example():
    assert diversity("P-IA@4") == pytest.approx(4 / 12)
    assert diversity("P-IA@10") == pytest.approx(4 / 30)  # always k, as P@k
    assert diversity("P-IA") == pytest.approx(4 / 12)  # without @k: the documents retrieved


def test_equal_to_ndeval():
    check_against_ndeval("P-IA")
