"""RR@k (sql/measures/rr.sql)."""

QRELS = {"q": {"c": 1, "d": 1}}
RUN = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}


def test_the_worked_example(score):
    assert score("RR", QRELS, RUN) == {"q": 1 / 3}
    assert score("RR@2", QRELS, RUN) == {"q": 0.0}


def test_rel_raises_the_bar(score):
    assert score("RR(rel=2)", {"q": {"c": 1, "d": 2}}, RUN) == {"q": 1 / 4}
