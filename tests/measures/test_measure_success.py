"""Success@k (sql/measures/success.sql)."""

QRELS = {"q": {"c": 1}}
RUN = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}


def test_the_worked_example(score):
    assert score("Success@1", QRELS, RUN) == {"q": 0.0}
    assert score("Success@5", QRELS, RUN) == {"q": 1.0}
