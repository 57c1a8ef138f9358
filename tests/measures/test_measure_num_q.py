"""NumQ (sql/measures/num_q.sql)."""

import sqlrank

QRELS = {"q1": {"a": 1}, "q2": {"a": 0}, "q3": {"b": 1}}
RUN = {"q1": {"a": 1.0}, "q2": {"b": 1.0}}


def test_one_per_query_and_the_all_row_counts_them(score):
    assert score("NumQ", QRELS, RUN) == {"q1": 1.0, "q2": 1.0, "q3": 1.0}
    assert sqlrank.evaluate(QRELS, RUN, ["num_q"]).summary == {"num_q": 3.0}


def test_skipped_queries_are_not_counted():
    assert sqlrank.evaluate(QRELS, RUN, ["NumQ"], missing="skip").summary == {"NumQ": 2.0}
