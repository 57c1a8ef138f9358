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
