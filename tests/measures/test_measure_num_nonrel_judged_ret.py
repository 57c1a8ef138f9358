"""NumNonRelJudgedRet@k (sql/measures/num_nonrel_judged_ret.sql); trec_eval's lines are in tests/test_conformance.py."""

import sqlrank

QRELS = {"q": {"a": 1, "b": 0, "c": 0, "d": -1}, "other": {"a": 0}}
RUN = {"q": {"a": 5.0, "b": 4.0, "x": 3.0, "c": 2.0, "d": 1.0}}


def test_the_worked_example(score):
    assert score("NumNonRelJudgedRet", QRELS, RUN) == {"q": 2.0, "other": 0.0}
    assert score("NumNonRelJudgedRet@3", QRELS, RUN) == {"q": 1.0, "other": 0.0}
    assert score("NumNonRelJudgedRet(rel=2)", QRELS, RUN) == {"q": 3.0, "other": 0.0}


def test_the_all_row_is_the_sum():
    run = {**RUN, "other": {"a": 1.0}}
    assert sqlrank.evaluate(QRELS, run, ["num_nonrel_judged_ret"]).summary == {"num_nonrel_judged_ret": 3.0}
