"""RelP@k (sql/measures/rel_p.sql), trec_eval's relative_P_k and set_relative_P."""

import pytest

# R = 3; relevant documents at ranks 1 and 3, 4 retrieved
QRELS = {"q": {"a": 1, "c": 1, "z": 1}}
RUN = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}


def test_the_worked_example(score):
    assert score("RelP@2", QRELS, RUN) == {"q": 0.5}  # 1 / min(2, 3)
    assert score("relative_P_10", QRELS, RUN)["q"] == pytest.approx(2 / 3, abs=1e-15)  # 2 / min(10, 3)
    assert score("set_relative_P", QRELS, RUN)["q"] == pytest.approx(2 / 3, abs=1e-15)  # 2 / min(4, 3)


def test_no_relevant_judgment_scores_0(score):
    assert score("RelP@5", {"q": {"a": 0}}, RUN) == {"q": 0.0}
