"""NumNonRelJudgedRet (sql/measures/num_nonrel_judged_ret.sql)."""

# labels by rank: 1, (unjudged), 0, -1, 0
QRELS = {"q": {"a": 1, "c": 0, "d": -1, "e": 0}}
RUN = {"q": {"a": 5.0, "u": 4.0, "c": 3.0, "d": 2.0, "e": 1.0}}


def test_the_worked_example(score):
    assert score("NumNonRelJudgedRet", QRELS, RUN) == {"q": 2.0}
    assert score("num_nonrel_judged_ret@3", QRELS, RUN) == {"q": 1.0}
    assert score("NumNonRelJudgedRet(rel=2)", QRELS, RUN) == {"q": 3.0}  # the label-1 document is non-relevant now
