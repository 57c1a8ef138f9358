"""alpha-DCG (sql/measures/alpha_dcg.sql), against ndeval through pyndeval (diversity_cases.py)."""

from math import log2

import pytest

from diversity_cases import check_against_ndeval, diversity


def test_the_worked_example():
    run = 2 + 1 / log2(3) + 0.5 / log2(5)
    ideal_ideal = 3 + 1.5 / log2(3) + 0.75 / 2 + 0.375 / log2(5)
    assert diversity("alpha-DCG@4") == pytest.approx(run / ideal_ideal, abs=1e-15)


def test_at_1_normalised_where_ndeval_is_not():
    # ndeval's alpha-DCG@1 is the first gain itself (2 here): its normalising loop starts at rank 2
    assert diversity("alpha-DCG@1") == 2 / 3


def test_rel_2_reads_only_judgments_of_2_and_more():
    # graded: a {1} at 2, b {2} at 1; with rel 2 only subtopic 1 counts, which a covers at rank 1
    assert diversity("alpha_DCG(rel=2)@1", "graded") == 1.0
    assert diversity("alpha-DCG@1", "graded") == 0.5


def test_equal_to_ndeval():
    check_against_ndeval("alpha-DCG")
