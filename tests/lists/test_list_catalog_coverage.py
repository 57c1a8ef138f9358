"""CatalogCoverage@k (sql/lists/catalog_coverage.sql) against recommenders' catalog_coverage()."""

import pytest

from list_cases import FIXTURE, fixture_inputs, random_inputs, recommenders_catalog_coverage, sqlrank_values


def test_recommenders_fixture():
    truth, run, train, lists = fixture_inputs()
    values = sqlrank_values("CatalogCoverage", truth, run, train=train)
    assert values == {"all": pytest.approx(FIXTURE["expected"]["catalog_coverage"], abs=1e-12)}  # the `all` row alone


def test_an_items_table_is_the_catalogue():
    truth, run, train, _ = fixture_inputs()
    # recommended: 1, 2, 3, 5, of a catalogue of 8
    assert sqlrank_values("CatalogCoverage", truth, run, items=[str(i) for i in range(1, 9)]) == {"all": 0.5}


@pytest.mark.parametrize("seed", [1])
def test_random_cases(seed):
    truth, run, train, lists, _ = random_inputs(seed)
    expected = recommenders_catalog_coverage(train, {u: l[:3] for u, l in lists.items()})
    assert sqlrank_values("CatalogCoverage@3", truth, run, train=train) == {"all": pytest.approx(expected, abs=1e-12)}
