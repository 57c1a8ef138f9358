"""Judged@k (sql/measures/judged.sql), ir_measures' judgment rate."""

# labels by rank: 1, (unjudged), 0, -1 (a negative label is still a judgment here)
QRELS = {"q": {"a": 1, "c": 0, "d": -1}}
RUN = {"q": {"a": 4.0, "u": 3.0, "c": 2.0, "d": 1.0}}


def test_the_worked_example(score):
    assert score("Judged@2", QRELS, RUN) == {"q": 0.5}
    assert score("Judged@10", QRELS, RUN) == {"q": 0.75}  # over the 4 documents there are, not over 10


def test_a_query_the_run_missed_scores_0(score):
    assert score("Judged@10", {**QRELS, "other": {"a": 1}}, RUN)["other"] == 0.0
