"""CG@k (sql/measures/cg.sql)."""

# the worked example of the header: judgments A=3, B=3, C=2, D=2, E=1, F=1; the run ranks A, E, C, D, F
QRELS = {"q": {"A": 3, "B": 3, "C": 2, "D": 2, "E": 1, "F": 1}}
RUN = {"q": {"A": 5.0, "E": 4.0, "C": 3.0, "D": 2.0, "F": 1.0}}


def test_the_worked_example(score):
    assert score("CG@3", QRELS, RUN) == {"q": 6.0}
    assert score("CG(gain=exp)@3", QRELS, RUN) == {"q": 11.0}  # 7 + 1 + 3


def test_a_query_the_run_missed_scores_0(score):
    assert score("CG", {**QRELS, "other": {"A": 1}}, RUN)["other"] == 0.0
