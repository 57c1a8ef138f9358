"""infAP (sql/measures/inf_ap.sql), trec_eval's inferred AP."""

import pytest

import sqlrank


def test_the_worked_example(score):
    # x (not in the qrels), n (label -1: pooled, not judged), r (relevant), R = 1
    qrels = {"q": {"n": -1, "r": 1}}
    run = {"q": {"x": 3.0, "n": 2.0, "r": 1.0}}
    assert score("infAP", qrels, run)["q"] == pytest.approx(1 / 3 + (2 / 3) * (1 / 2) * 0.5, abs=1e-12)


def test_with_complete_judgments_it_is_close_to_ap():
    qrels = {"q": {"a": 1, "b": 0, "c": 1, "d": 0}}
    run = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}
    values = sqlrank.evaluate(qrels, run, ["infAP", "AP"]).summary
    assert values["infAP"] == pytest.approx(values["AP"], abs=1e-4)  # only the epsilons differ


def test_r_0_scores_0(score):
    assert score("infAP", {"q": {"a": 0}}, {"q": {"a": 1.0}}) == {"q": 0.0}
