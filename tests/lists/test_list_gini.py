"""Gini@k (sql/lists/gini.sql) against RecBole's GiniIndex, over an items table and over the training items."""

import pytest

from list_cases import fixture_inputs, random_inputs, recbole_gini_index, sqlrank_values


def test_the_worked_example():
    truth, run, train, lists = fixture_inputs()
    # the catalogue is the training items 1-5; recommended counts: 1: 1, 2: 2, 3: 1, 5: 2 over the catalogue 1-5 (4 has 0): sorted 0 1 1 2 2, n = 5
    expected = ((2 * 1 - 6) * 0 + (2 * 2 - 6) * 1 + (2 * 3 - 6) * 1 + (2 * 4 - 6) * 2 + (2 * 5 - 6) * 2) / (5 * 6)
    assert sqlrank_values("Gini", truth, run, train=train) == {"all": pytest.approx(expected, abs=1e-12)}
    assert expected == pytest.approx(recbole_gini_index(lists, 2, 5), abs=1e-12)


@pytest.mark.parametrize("seed", [1])
def test_random_cases(seed):
    truth, run, train, lists, items = random_inputs(seed)
    assert sqlrank_values("Gini@5", truth, run, items=items) == {
        "all": pytest.approx(recbole_gini_index(lists, 5, len(items)), abs=1e-12)}
