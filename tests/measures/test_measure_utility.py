"""Utility (sql/measures/utility.sql), trec_eval's utility."""

# R = 5; 4 retrieved, 2 of them relevant
QRELS = {"q": {"a": 1, "c": 1, "v": 1, "w": 1, "z": 1, "b": 0}}
RUN = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}


def test_the_worked_example(score):
    assert score("Utility", QRELS, RUN) == {"q": 0.0}  # 2 - 2
    assert score("Utility(relevant_retrieved=2,relevant_missed=-0.5)", QRELS, RUN) == {"q": 0.5}  # 4 - 2 - 1.5


def test_trec_eval_utility_2_1_0_0(score):
    # trec_eval -m utility.2,-1,0,0: 2 x - (n - x)
    assert score("Utility(relevant_retrieved=2)", QRELS, RUN) == {"q": 2.0}


def test_a_query_the_run_missed_counts_only_its_missed_relevant_documents(score):
    values = score("Utility(relevant_missed=-1)", {**QRELS, "other": {"a": 1, "b": 1}}, RUN)
    assert values["other"] == -2.0
