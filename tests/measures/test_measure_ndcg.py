"""nDCG@k (sql/measures/ndcg.sql)."""

import pytest

# the worked example of the header: judgments A=3, B=3, C=2, D=2, E=1, F=1; the run ranks A, E, C, D, F
QRELS = {"q": {"A": 3, "B": 3, "C": 2, "D": 2, "E": 1, "F": 1}}
RUN = {"q": {"A": 5.0, "E": 4.0, "C": 3.0, "D": 2.0, "F": 1.0}}


def test_the_worked_example(score):
    assert score("nDCG@5", QRELS, RUN)["q"] == pytest.approx(0.8232936061974518, abs=1e-15)


def test_the_ideal_ranking_scores_exactly_1_and_no_gain_scores_0(score):
    ideal = {"q": {"A": 6.0, "B": 5.0, "C": 4.0, "D": 3.0, "E": 2.0, "F": 1.0}}
    assert score("nDCG", QRELS, ideal) == {"q": 1.0}
    assert score("nDCG", {"q": {"A": 0}}, RUN) == {"q": 0.0}  # IDCG = 0
