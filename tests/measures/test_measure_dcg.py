"""DCG@k (sql/measures/dcg.sql)."""

import math

import pytest

# the worked example of the header: judgments A=3, B=3, C=2, D=2, E=1, F=1; the run ranks A, E, C, D, F
QRELS = {"q": {"A": 3, "B": 3, "C": 2, "D": 2, "E": 1, "F": 1}}
RUN = {"q": {"A": 5.0, "E": 4.0, "C": 3.0, "D": 2.0, "F": 1.0}}


def test_the_worked_example(score):
    expected = 3 / math.log2(2) + 1 / math.log2(3) + 2 / math.log2(4) + 2 / math.log2(5) + 1 / math.log2(6)
    assert score("DCG", QRELS, RUN)["q"] == pytest.approx(expected, abs=1e-12)
    assert score("DCG@2", QRELS, RUN)["q"] == pytest.approx(3 + 1 / math.log2(3), abs=1e-12)


def test_the_jarvelin_discount_leaves_ranks_below_the_base_undiscounted(score):
    # base 2: ranks 1 and 2 weigh 1, rank 3 weighs 1/log2 3
    assert score("DCG(discount=jarvelin)@3", QRELS, RUN)["q"] == pytest.approx(3 + 1 + 2 / math.log2(3), abs=1e-12)


def test_the_log_discount_takes_any_base_as_scikit_learn_s_log_base(score):
    # every judged document is retrieved, so scikit-learn's ideal (the scored items) is the qrels' own
    import numpy as np
    from sklearn.metrics import dcg_score, ndcg_score

    labels, scores = np.array([[3, 3, 2, 2, 1, 1]]), np.array([[5.0, 0.5, 3.0, 2.0, 4.0, 1.0]])
    run = {"q": dict(zip("ABCDEF", scores[0]))}
    dcg10 = score("DCG(discount=log,base=10)@4", QRELS, run)["q"]
    assert dcg10 == dcg_score(labels, scores, k=4, log_base=10, ignore_ties=True)
    # by hand: ranks A, E, C, D gain 3, 1, 2, 2 over log10(2), log10(3), log10(4), log10(5)
    assert dcg10 == pytest.approx(3 / math.log10(2) + 1 / math.log10(3) + 2 / math.log10(4) + 2 / math.log10(5),
                                  abs=1e-12)
    # the base cancels in nDCG
    assert score("nDCG(discount=log,base=3)@4", QRELS, run)["q"] == pytest.approx(
        ndcg_score(labels, scores, k=4, ignore_ties=True), abs=1e-15)
