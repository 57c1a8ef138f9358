"""AUROC@k (sql/measures/auroc.sql): the worked example, torchmetrics' retrieval_auroc and scikit-learn's roc_auc_score
on random cases.

torchmetrics (with torch) is too heavy a test dependency for this suite: `roc_auc_by_curve` follows its
source (functional/retrieval/auroc.py: the top k by score, 0 without a positive target, then
binary_auroc, the trapezoids under the ROC curve of cumulative true and false positives, 0 without a
negative) in numpy, a different computation from sqlrank's count of ordered pairs.
"""

import numpy as np
import pytest

from retrieval_cases import assert_equal_to_by_hand

QRELS = {"q": {"a": 1, "b": 0, "c": 1, "d": 0}, "other": {"a": 1}}
RUN = {"q": {"a": 5.0, "b": 4.0, "x": 3.0, "c": 2.0, "d": 1.0}, "other": {"a": 1.0, "b": 0.5}}


def test_the_worked_example(score):
    assert score("AUROC", QRELS, RUN) == {"q": 0.75, "other": 0.0}  # other: no judged non-relevant item
    assert score("AUROC@2", QRELS, RUN) == {"q": 1.0, "other": 0.0}
    assert score("AUROC@1", QRELS, RUN) == {"q": 0.0, "other": 0.0}  # a alone: no pair


def roc_auc_by_curve(preds: np.ndarray, target: np.ndarray, top_k: int | None) -> float:
    order = np.argsort(-preds, kind="stable")[: top_k or len(preds)]
    preds, target = preds[order], target[order]
    if not target.sum():
        return 0.0
    true_positives = np.concatenate([[0], np.cumsum(target)])
    false_positives = np.concatenate([[0], np.cumsum(1 - target)])
    if false_positives[-1] == 0:
        return 0.0
    tpr, fpr = true_positives / true_positives[-1], false_positives / false_positives[-1]
    return float(np.sum((fpr[1:] - fpr[:-1]) * (tpr[1:] + tpr[:-1]) / 2))


@pytest.mark.parametrize("seed", range(12))
def test_equal_to_torchmetrics_retrieval_auroc_on_random_cases(seed):
    assert_equal_to_by_hand(seed, "AUROC", roc_auc_by_curve)


def roc_auc_by_scikit_learn(preds: np.ndarray, target: np.ndarray, top_k: int | None) -> float:
    """scikit-learn's roc_auc_score of the top k, and torchmetrics' 0 where one class is missing there."""
    from sklearn.metrics import roc_auc_score

    order = np.argsort(-preds, kind="stable")[: top_k or len(preds)]
    if len(set(target[order])) < 2:
        return 0.0
    return float(roc_auc_score(target[order], preds[order]))


@pytest.mark.parametrize("seed", range(6))
def test_equal_to_scikit_learns_roc_auc_score_on_the_top_k(seed):
    assert_equal_to_by_hand(seed, "AUROC", roc_auc_by_scikit_learn)
