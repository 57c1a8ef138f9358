"""IPrec@recall (sql/measures/iprec.sql), trec_eval 10's iprec_at_recall_x."""

import pytest

import sqlrank

# R = 4; relevant documents at ranks 1 and 4 (precision 1/1 and 2/4 there)
QRELS = {"q": {"a": 1, "d": 1, "y": 1, "z": 1, "b": 0}}
RUN = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}


def test_the_worked_example(score):
    assert score("IPrec@0.3", QRELS, RUN) == {"q": 1.0}  # lround(1.2) = 1 relevant document: max(1, 0.5)
    assert score("IPrec@0.4", QRELS, RUN) == {"q": 0.5}  # lround(1.6) = 2
    assert score("IPrec@0.7", QRELS, RUN) == {"q": 0.0}  # lround(2.8) = 3 are never found


def test_trec_eval_10_rounds_where_9_added_0_9():
    # R = 4, level 0.3: 10.0 needs lround(1.2) = 1 document, 9.x (long)(1.2 + 0.9) = 2
    assert sqlrank.evaluate(QRELS, RUN, ["iprec_at_recall_0.30"]).per_query.to_pylist()[0]["value"] == 1.0


def test_halves_round_up_and_level_0_starts_at_the_first_relevant_document(score):
    # R = 4, level 0.125 (0.5 documents) -> 1; level 0 -> 1 as well
    assert score("IPrec@0.125", QRELS, RUN) == score("IPrec@0", QRELS, RUN) == {"q": 1.0}


def test_spellings():
    assert [str(m) for m in sqlrank.parse_measures("iprec_at_recall..10,.20")] == ["IPrec@0.1", "IPrec@0.2"]
    assert len(sqlrank.parse_measures("iprec_at_recall")) == 11
    assert sqlrank.measures.trec_name(sqlrank.parse_measures("IPrec@0.1")[0]) == "iprec_at_recall_0.10"
    with pytest.raises(sqlrank.MeasureError, match="needs its recall"):
        sqlrank.parse_measures("IPrec")
