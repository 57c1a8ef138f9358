"""NumRelRet@k (sql/measures/num_rel_ret.sql)."""

# relevant documents at ranks 1, 3 and 7
QRELS = {"q": {"d1": 1, "d3": 1, "d7": 1, "d9": 1}}
RUN = {"q": {f"d{rank}": 10.0 - rank for rank in range(1, 9)}}


def test_the_worked_example(score):
    assert score("NumRelRet", QRELS, RUN) == {"q": 3.0}
    assert score("NumRelRet@5", QRELS, RUN) == {"q": 2.0}
