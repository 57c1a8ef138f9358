"""prefs_num_prefs_ful (sql/measures/prefs_num_prefs_ful.sql), against trec_eval 10 on its own preference files (prefs_cases.py)."""

import pytest

from prefs_cases import check_against_trec_eval, worked_example


def test_the_worked_example():
    assert worked_example()["prefs_num_prefs_ful"] == pytest.approx(6, abs=1e-12)


def test_equal_to_trec_eval():
    check_against_trec_eval("prefs_num_prefs_ful")
