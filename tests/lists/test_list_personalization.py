"""Personalization@k (sql/lists/personalization.sql) against recmetrics' personalization, which forms every pair."""

import pytest

from list_cases import fixture_inputs, random_inputs, recmetrics_personalization, sqlrank_values


def test_recommenders_fixture():
    truth, run, _, lists = fixture_inputs()
    # lists 3 5 / 2 5 / 1 2: cosines 1/2, 0, 1/2 over 3 pairs
    assert sqlrank_values("Personalization", truth, run) == {"all": pytest.approx(1 - 1 / 3, abs=1e-12)}
    assert recmetrics_personalization(lists) == pytest.approx(2 / 3, abs=1e-12)


@pytest.mark.parametrize("seed", [1])
def test_random_cases(seed):
    truth, run, _, lists, _ = random_inputs(seed)
    expected = recmetrics_personalization({u: l[:6] for u, l in lists.items()})
    assert sqlrank_values("Personalization@6", truth, run) == {"all": pytest.approx(expected, abs=1e-12)}
