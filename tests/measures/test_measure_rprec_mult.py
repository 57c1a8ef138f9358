"""RprecMult@multiple (sql/measures/rprec_mult.sql), trec_eval's Rprec_mult_x."""

import sqlrank

# R = 4; relevant documents at ranks 1 and 4, 4 retrieved
QRELS = {"q": {"a": 1, "d": 1, "y": 1, "z": 1}}
RUN = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}


def test_the_worked_example(score):
    assert score("RprecMult@0.2", QRELS, RUN) == {"q": 1.0}  # (long)(0.8 + 0.9) = 1: P@1
    assert score("Rprec_mult_1.00", QRELS, RUN) == {"q": 0.5}  # P@4
    assert score("RprecMult@2", QRELS, RUN) == {"q": 0.25}  # P@8: unfilled ranks count as non-relevant


def test_the_rank_is_truncated_after_adding_0_9(score):
    assert score("RprecMult@0.1", QRELS, RUN) == {"q": 1.0}  # (long)(0.4 + 0.9) = 1
    assert score("RprecMult@0.5", QRELS, RUN) == {"q": 0.5}  # (long)(2.0 + 0.9) = 2: P@2


def test_r_0_scores_0_and_spellings(score):
    assert score("RprecMult@1", {"q": {"a": 0}}, RUN) == {"q": 0.0}
    # in increasing order, as trec_eval sorts a family's values
    assert [str(m) for m in sqlrank.parse_measures("Rprec_mult.5.0,0.2")] == ["RprecMult@0.2", "RprecMult@5"]
