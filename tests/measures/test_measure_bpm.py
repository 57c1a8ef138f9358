"""BPM(T, min_rel, max_rel)@k (sql/measures/bpm.sql), the static Bejeweled Player Model as cwl_eval computes it."""

import pytest

import sqlrank

QRELS = {"q": {"a": 0, "b": 1, "c": 2, "d": 2}}
RUN = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}


def test_the_worked_example(score):
    # gains 0, 0.5, 1, 1: the gain reaches T = 1 at position 3
    assert score("BPM(max_rel=2)@10", QRELS, RUN)["q"] == pytest.approx(1.5 / 3, abs=1e-15)


def test_the_cutoff_and_t_stop_the_user_and_without_a_cutoff_cwl_evals_1000_positions_may_be_read():
    summary = sqlrank.evaluate(QRELS, RUN, ["BPM(max_rel=2)@2", "BPM(T=2,max_rel=2)@10", "BPM(T=5,max_rel=2)"],
                               names="asked").summary
    assert summary["BPM(max_rel=2)@2"] == pytest.approx(0.5 / 2, abs=1e-15)
    assert summary["BPM(T=2,max_rel=2)@10"] == pytest.approx(2.5 / 4, abs=1e-15)
    assert summary["BPM(T=5,max_rel=2)"] == pytest.approx(2.5 / 1000, abs=1e-15)  # T never reached
