"""NERR9(min_rel, max_rel)@k (sql/measures/nerr9.sql), Azzopardi et al.'s equation 9 as cwl_eval computes it."""

import pytest

QRELS = {"q": {"a": 0, "b": 1, "c": 2}}
RUN = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}


def test_the_worked_example(score):
    # gains 0, 0.5, 1: reaches 1, 1/2, 1/6
    assert score("NERR9(max_rel=2)@3", QRELS, RUN)["q"] == pytest.approx((0.5 / 2 + 1 / 6) / (1 + 1 / 2 + 1 / 6),
                                                                          abs=1e-15)
