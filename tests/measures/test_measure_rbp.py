"""RBP(p, rel)@k (sql/measures/rbp.sql), ir_measures' binary rank-biased precision."""

import pytest

import sqlrank

# relevant documents at ranks 1 and 3; the label-2 one is at rank 3
QRELS = {"q": {"a": 1, "c": 2, "b": 0}}
RUN = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}


def test_the_worked_example(score):
    assert score("RBP", QRELS, RUN)["q"] == pytest.approx(0.2 * (1 + 0.8 ** 2), abs=1e-15)
    assert score("RBP(p=0.5)", QRELS, RUN)["q"] == pytest.approx(0.5 * 1.25, abs=1e-15)
    assert score("RBP@2", QRELS, RUN)["q"] == pytest.approx(0.2, abs=1e-15)
    assert score("RBP(rel=2)", QRELS, RUN)["q"] == pytest.approx(0.2 * 0.8 ** 2, abs=1e-15)


def test_rbp_in_upper_case_is_ir_measures_and_in_lower_case_trec_evals():
    assert [str(m) for m in sqlrank.parse_measures(["RBP", "rbp"])] == ["RBP", "GradedRBP"]
    with pytest.raises(sqlrank.MeasureError, match="greater than 0"):
        sqlrank.parse_measures("RBP(p=0)")
