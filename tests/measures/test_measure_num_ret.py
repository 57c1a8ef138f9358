"""NumRet@k (sql/measures/num_ret.sql)."""

import sqlrank

QRELS = {"q": {"d1": 1}, "other": {"d1": 1}}
RUN = {"q": {f"d{rank}": 10.0 - rank for rank in range(1, 8)}}


def test_the_worked_example(score):
    assert score("NumRet", QRELS, RUN) == {"q": 7.0, "other": 0.0}
    assert score("NumRet@5", QRELS, RUN) == {"q": 5.0, "other": 0.0}


def test_the_all_row_is_the_sum():
    assert sqlrank.evaluate(QRELS, {"q": RUN["q"], "other": {"x": 1.0}}, ["NumRet"]).summary == {"NumRet": 8.0}
