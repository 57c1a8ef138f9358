"""MAP-IA (sql/measures/ap_ia.sql), against ndeval through pyndeval (diversity_cases.py)."""

import pytest

import sqlrank

from diversity_cases import check_against_ndeval, diversity


def test_the_worked_example():
    # subtopic 1: a at 1; 2: a at 1, b at 4 (2 of 2 by then); 3: c at 2
    assert diversity("AP_IA") == pytest.approx((1 + (1 + 2 / 4) / 2 + 1 / 2) / 3)
    assert diversity("AP_IA") == 0.75
    assert [sqlrank.parse_measures([name])[0].name for name in ("MAP-IA", "MAP_IA")] == ["AP_IA", "AP_IA"]  # ndeval's


def test_equal_to_ndeval():
    check_against_ndeval("MAP-IA")
