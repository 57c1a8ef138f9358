"""R@k (sql/measures/recall.sql)."""

# R = 4; relevant documents at ranks 1 and 3
QRELS = {"q": {"a": 1, "c": 1, "y": 1, "z": 1}}
RUN = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}


def test_the_worked_example(score):
    assert score("R@2", QRELS, RUN) == {"q": 0.25}
    assert score("R@10", QRELS, RUN) == {"q": 0.5}


def test_no_relevant_judgment_scores_0(score):
    assert score("R@10", {"q": {"a": 0}}, RUN) == {"q": 0.0}


def test_set_recall_is_r_over_the_whole_list(score):
    assert score("SetR", QRELS, RUN) == score("set_recall", QRELS, RUN) == {"q": 0.5}  # trec_eval's set_recall
