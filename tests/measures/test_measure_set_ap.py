"""SetAP (sql/measures/set_ap.sql), trec_eval's set_map."""

import pytest

# R = 5; 4 retrieved, 2 of them relevant
QRELS = {"q": {"a": 1, "c": 1, "v": 1, "w": 1, "z": 1, "b": 0}}
RUN = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}


def test_the_worked_example(score):
    assert score("SetAP", QRELS, RUN)["q"] == pytest.approx(2 ** 2 / (4 * 5), abs=1e-15)
    assert score("set_map", QRELS, RUN)["q"] == pytest.approx(2 / 4 * 2 / 5, abs=1e-15)


def test_order_plays_no_part_and_r_0_scores_0(score):
    reversed_run = {"q": {doc: -value for doc, value in RUN["q"].items()}}
    assert score("SetAP", QRELS, reversed_run) == score("SetAP", QRELS, RUN)
    assert score("SetAP", {"q": {"b": 0}}, RUN) == {"q": 0.0}
