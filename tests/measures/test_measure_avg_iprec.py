"""AvgIPrec (sql/measures/avg_iprec.sql), trec_eval's 11pt_avg."""

import pytest

# R = 4; relevant documents at ranks 1 and 4: IPrec 1 at levels 0-0.3, 0.5 at 0.4-0.6, 0 from 0.7
QRELS = {"q": {"a": 1, "d": 1, "y": 1, "z": 1}}
RUN = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}


def test_the_worked_example(score):
    assert score("AvgIPrec", QRELS, RUN)["q"] == pytest.approx((4 * 1 + 3 * 0.5) / 11, abs=1e-15)
    assert score("11pt_avg", QRELS, RUN) == score("AvgIPrec", QRELS, RUN)


def test_no_relevant_judgment_scores_0(score):
    assert score("AvgIPrec", {"q": {"a": 0}}, RUN) == {"q": 0.0}
