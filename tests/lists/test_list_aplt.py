"""APLT@k (sql/lists/aplt.sql) against RecBole's TailPercentage, its tail_ratio as a share and as a count."""

import pytest

from list_cases import random_inputs, recbole_tail_percentage, sqlrank_values


@pytest.mark.parametrize(("seed", "tail"), [(1, 0.1), (2, 0.3), (3, 4)])
def test_random_cases(seed, tail):
    truth, run, train, lists, _ = random_inputs(seed)
    expected = recbole_tail_percentage(train, lists, 5, tail)
    measure = "APLT@5" if tail == 0.1 else f"APLT(tail={tail})@5"
    values = sqlrank_values(measure, truth, run, train=train)
    assert values == pytest.approx({**expected, "all": sum(expected.values()) / len(expected)}, abs=1e-12)
    assert 0 < values["all"] < 1  # the data reach the tail, and not only it
