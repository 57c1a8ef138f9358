"""GradedRBP (sql/measures/graded_rbp.sql), trec_eval 10's rbp."""

import pytest


def test_the_worked_example(score):
    # labels by rank 2, 0, 4; the query's highest label 4 scales the gains to 0.5, 0, 1
    qrels = {"q": {"a": 2, "b": 0, "c": 4}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    assert score("rbp", qrels, run)["q"] == pytest.approx(0.1 * (0.5 + 0.9 ** 2), abs=1e-15)


def test_binary_labels_are_not_scaled_and_unjudged_documents_gain_0(score):
    qrels = {"q": {"a": 1, "c": 1, "d": -1}}
    run = {"q": {"a": 4.0, "u": 3.0, "c": 2.0, "d": 1.0}}
    assert score("GradedRBP", qrels, run)["q"] == pytest.approx(0.1 * (1 + 0.9 ** 2), abs=1e-15)


def test_the_last_bits_are_trec_eval_s(score):
    # m_rbp.c multiplies its weight by 0.9 at each rank and takes 1 - 0.9 in double: a relevant document
    # at rank 4 (three unjudged above) gives (1.0 - 0.9) · ((1.0 · 0.9) · 0.9) · 0.9 = 0.07289999999999999,
    # where 0.1 · pow(0.9, 3) gives 0.0729: the digit -f trec prints can differ (robust03 query 630, -M 50)
    qrels = {"q": {"d": 1}}
    run = {"q": {"u1": 4.0, "u2": 3.0, "u3": 2.0, "d": 1.0}}
    trec_eval_weight = 1.0
    for _ in range(3):
        trec_eval_weight *= 0.9
    assert score("rbp", qrels, run)["q"] == (1.0 - 0.9) * trec_eval_weight == 0.07289999999999999
