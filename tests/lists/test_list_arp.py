"""ARP@k (sql/lists/arp.sql) against RecBole's AveragePopularity, on random cases and recommenders' fixture."""

import pytest

from list_cases import fixture_inputs, random_inputs, recbole_average_popularity, sqlrank_values


def test_recommenders_fixture_by_hand():
    truth, run, train, _ = fixture_inputs()
    # training counts: 1: 1, 2: 1, 3: 2, 4: 3, 5: 1; users get 3 5 / 2 5 / 1 2
    assert sqlrank_values("ARP@2", truth, run, train=train) == pytest.approx(
        {"1": 1.5, "2": 1.0, "3": 1.0, "all": 3.5 / 3}, abs=1e-12)


@pytest.mark.parametrize("seed", [1])
def test_random_cases(seed):
    truth, run, train, lists, _ = random_inputs(seed)
    expected = recbole_average_popularity(train, lists, 5)
    values = sqlrank_values("ARP@5", truth, run, train=train)
    assert values == pytest.approx({**expected, "all": sum(expected.values()) / len(expected)}, abs=1e-12)
