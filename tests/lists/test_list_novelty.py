"""Novelty@k (sql/lists/novelty.sql) against recommenders' novelty(), on its own fixture and random cases."""

import math

import pytest

from list_cases import FIXTURE, fixture_inputs, random_inputs, recommenders_novelty, sqlrank_values


def test_recommenders_fixture():
    truth, run, train, lists = fixture_inputs()
    values = sqlrank_values("Novelty", truth, run, train=train)
    assert values["all"] == pytest.approx(FIXTURE["expected"]["novelty"], abs=FIXTURE["expected"]["tolerance"])
    assert values["all"] == pytest.approx(recommenders_novelty(train, lists), abs=1e-12)
    # user 1 gets items 3 (novelty 2) and 5 (3): the mean
    assert values["1"] == pytest.approx((2 + 3) / 2, abs=1e-12)


def test_an_item_never_interacted_with_adds_0_and_still_counts():
    truth, run, train, _ = fixture_inputs()
    values = sqlrank_values("Novelty", truth, run, train=train.slice(0, 3))  # user 1's training items: 1, 2, 4
    assert values["1"] == 0.0 and values["3"] == pytest.approx((math.log2(3) + math.log2(3)) / 2, abs=1e-12)


@pytest.mark.parametrize("seed", [1])
def test_random_cases(seed):
    truth, run, train, lists, _ = random_inputs(seed)
    values = sqlrank_values("Novelty@5", truth, run, train=train)
    assert values["all"] == pytest.approx(recommenders_novelty(train, {u: l[:5] for u, l in lists.items()}),
                                          abs=1e-12)
