"""strec (sql/measures/st_recall.sql), against ndeval through pyndeval (diversity_cases.py)."""

import pytest

from diversity_cases import check_against_ndeval, diversity


def test_the_worked_example():
    assert diversity("StRecall@1") == pytest.approx(2 / 3)
    assert diversity("strec@2") == 1.0


def test_equal_to_ndeval():
    check_against_ndeval("strec")
