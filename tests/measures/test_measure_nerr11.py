"""NERR11(T, min_rel, max_rel) (sql/measures/nerr11.sql), Azzopardi et al.'s equation 11 as cwl_eval computes it."""

import pytest


def test_the_worked_example(score):
    # labels 0, 2 (gains 0, 1), T = 1: reaches 1, 4/9, then 0; without gain the user reads on for nothing
    assert score("NERR11(max_rel=2)", {"q": {"a": 0, "b": 2}, "r": {"a": 0}},
                 {"q": {"a": 2.0, "b": 1.0}, "r": {"a": 1.0}}) == pytest.approx({"q": 4 / 13, "r": 0.0}, abs=1e-15)
