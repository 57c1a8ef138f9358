"""RBPResidual (sql/measures/rbp_residual.sql), trec_eval 10's rbp_resid."""

import pytest


def test_the_worked_example(score):
    # labels by rank 1, (unjudged), 0: the unjudged rank's weight 0.1 · 0.9 and the tail 0.9³
    qrels = {"q": {"a": 1, "c": 0}}
    run = {"q": {"a": 3.0, "u": 2.0, "c": 1.0}}
    assert score("rbp_resid", qrels, run)["q"] == pytest.approx(0.9 ** 3 + 0.1 * 0.9, abs=1e-15)


def test_it_is_0_when_nothing_retrieved_is_unjudged(score):
    # trec_eval leaves the tail 0.9³ out too when every retrieved document is judged
    qrels = {"q": {"a": 1, "b": 0, "c": 0}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    assert score("RBPResidual", qrels, run) == {"q": 0.0}


def test_a_negative_label_counts_as_unjudged(score):
    qrels = {"q": {"a": 1, "n": -1}}
    run = {"q": {"a": 2.0, "n": 1.0}}
    assert score("RBPResidual", qrels, run)["q"] == pytest.approx(0.9 ** 2 + 0.1 * 0.9, abs=1e-15)


def test_the_last_bits_are_trec_eval_s(score):
    # m_rbp_resid.c: the weight multiplied by 0.9 at each rank, then weight + (1.0 - 0.9) · Σ unjudged weights;
    # unjudged, judged, unjudged, judged: 0.9^4 + (1.0 - 0.9) · (1 + 0.9²), each power a running product
    qrels = {"q": {"a": 0, "b": 1}}
    run = {"q": {"u1": 4.0, "a": 3.0, "u2": 2.0, "b": 1.0}}
    weights = [1.0]
    for _ in range(4):
        weights.append(weights[-1] * 0.9)
    assert score("rbp_resid", qrels, run)["q"] == weights[4] + (1.0 - 0.9) * (weights[0] + weights[2])
