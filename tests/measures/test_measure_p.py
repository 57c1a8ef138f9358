"""P@k (sql/measures/p.sql)."""

# relevant documents at ranks 1 and 3, four retrieved
QRELS = {"q": {"a": 1, "c": 1, "z": 1}}
RUN = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}


def test_the_worked_example(score):
    assert score("P@2", QRELS, RUN) == {"q": 0.5}
    assert score("P@10", QRELS, RUN) == {"q": 0.2}  # always k, even when fewer were retrieved
    assert score("P", QRELS, RUN) == {"q": 0.5}  # relevant retrieved / retrieved


def test_a_query_the_run_missed_scores_0(score):
    assert score("P", {**QRELS, "other": {"a": 1}}, RUN)["other"] == 0.0


def test_set_p_is_p_over_the_whole_list(score):
    assert score("SetP", QRELS, RUN) == score("set_P", QRELS, RUN) == {"q": 0.5}  # trec_eval's set_P
