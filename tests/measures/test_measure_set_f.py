"""SetF (sql/measures/set_f.sql), trec_eval's set_F."""

import pytest

# R = 8; 4 retrieved, 2 of them relevant: P = 0.5, R' = 0.25
QRELS = {"q": {"a": 1, "c": 1, **{f"r{i}": 1 for i in range(6)}}}
RUN = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}


def test_the_worked_example(score):
    assert score("SetF", QRELS, RUN)["q"] == pytest.approx(2 * 0.5 * 0.25 / (0.5 + 0.25), abs=1e-15)


def test_beta_is_used_unsquared(score):
    # trec_eval's set_F.4 and ir_measures' SetF(beta=4): (4 + 1) P R / (4 P + R)
    assert score("SetF(beta=4)", QRELS, RUN)["q"] == pytest.approx(5 * 0.5 * 0.25 / (4 * 0.5 + 0.25), abs=1e-15)


def test_nothing_relevant_retrieved_scores_0(score):
    assert score("SetF", {"q": {"x": 1}}, RUN) == {"q": 0.0}
    assert score("SetF", {**QRELS, "missed": {"a": 1}}, RUN)["missed"] == 0.0
