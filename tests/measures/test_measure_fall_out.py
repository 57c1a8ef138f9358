"""FallOut@k (sql/measures/fall_out.sql): the worked example, and torchmetrics' retrieval_fall_out on random cases.

torchmetrics (with torch) is too heavy a test dependency for this suite: `fall_out_by_hand` follows its
source (functional/retrieval/fall_out.py) in numpy: the non-relevant targets, 0 when there are none, else
those among the top k by score over all of them.
"""

import numpy as np
import pytest

import sqlrank
from retrieval_cases import assert_equal_to_by_hand

QRELS = {"q": {"a": 1, "b": 0, "c": 0, "d": 0}, "other": {"a": 1}}
RUN = {"q": {"a": 5.0, "b": 4.0, "x": 3.0, "c": 2.0}, "other": {"a": 1.0}}


def test_the_worked_example(score):
    assert score("FallOut", QRELS, RUN) == {"q": 2 / 3, "other": 0.0}  # other: N = 0
    assert score("FallOut@2", QRELS, RUN) == {"q": 1 / 3, "other": 0.0}
    assert score("FallOut(rel=2)@1", QRELS, RUN) == {"q": 1 / 4, "other": 1.0}  # a is non-relevant under rel=2


def test_the_expected_value_under_tied_scores():
    # b and c tie at rank 2-3 with one place within k=2: each is there half the time, (1/2 + 1/2) / 3
    run = {"q": {"a": 5.0, "b": 4.0, "c": 4.0}}
    result = sqlrank.evaluate({"q": QRELS["q"]}, run, ["FallOut@2"], ties="average")
    assert result.summary == {"FallOut@2": pytest.approx(1 / 3, abs=1e-15)}


def fall_out_by_hand(preds: np.ndarray, target: np.ndarray, top_k: int | None) -> float:
    negative = 1 - target
    if not negative.sum():
        return 0.0
    return float(negative[np.argsort(-preds, kind="stable")][: top_k or len(preds)].sum() / negative.sum())


@pytest.mark.parametrize("seed", range(12))
def test_equal_to_torchmetrics_retrieval_fall_out_on_random_cases(seed):
    assert_equal_to_by_hand(seed, "FallOut", fall_out_by_hand)
