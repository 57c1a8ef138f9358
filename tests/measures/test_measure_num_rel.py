"""NumRel (sql/measures/num_rel.sql)."""

QRELS = {"q": {"A": 2, "B": 1, "C": 0, "D": -1}}
RUN = {"q": {"A": 1.0}}


def test_the_worked_example(score):
    assert score("NumRel", QRELS, RUN) == {"q": 2.0}
    assert score("NumRel(rel=2)", QRELS, RUN) == {"q": 1.0}


def test_it_counts_the_judgments_of_a_query_the_run_missed(score):
    assert score("NumRel", {**QRELS, "other": {"A": 1}}, RUN)["other"] == 1.0
