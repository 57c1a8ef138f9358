"""MAP-IA (sql/measures/ap_ia.sql), against ndeval through pyndeval (diversity_cases.py)."""


import pytest

from diversity_cases import RUN, SUBTOPIC_QRELS, check_against_ndeval, diversity


def test_the_worked_example():
    # subtopic 1: a at 1; 2: a at 1, b at 4 (2 of 2 by then); 3: c at 2
    assert diversity("AP_IA") == {"q": pytest.approx((1 + (1 + 2 / 4) / 2 + 1 / 2) / 3)}
    assert diversity("MAP-IA") == {"q": 0.75}


def test_equal_to_ndeval():
    check_against_ndeval("MAP-IA")
