"""binG (sql/measures/bin_g.sql), trec_eval's binG."""

import math

import pytest

# R = 2; relevant at ranks 1 and 3, an unjudged document at rank 2
QRELS = {"q": {"a": 1, "c": 1}}
RUN = {"q": {"a": 3.0, "u": 2.0, "c": 1.0}}


def test_the_worked_example(score):
    assert score("binG", QRELS, RUN)["q"] == pytest.approx((1 / math.log2(2) + 1 / math.log2(3)) / 2, abs=1e-15)


def test_relevant_documents_not_retrieved_count_in_r_and_r_0_scores_0(score):
    assert score("binG", {"q": {**QRELS["q"], "z": 1, "y": 1}}, RUN)["q"] == pytest.approx(
        (1 + 1 / math.log2(3)) / 4, abs=1e-15)
    assert score("binG", {"q": {"a": 0}}, RUN) == {"q": 0.0}
