"""DistributionalCoverage@k (sql/lists/distributional_coverage.sql) against recommenders' distributional_coverage()."""

import pytest

from list_cases import (FIXTURE, fixture_inputs, random_inputs, recommenders_distributional_coverage,
                        sqlrank_values)


def test_recommenders_fixture():
    truth, run, _, lists = fixture_inputs()
    values = sqlrank_values("DistributionalCoverage", truth, run)
    assert values["all"] == pytest.approx(FIXTURE["expected"]["distributional_coverage"], abs=1e-4)
    assert values == {"all": pytest.approx(recommenders_distributional_coverage(lists), abs=1e-12)}


@pytest.mark.parametrize("seed", [1])
def test_random_cases(seed):
    truth, run, _, lists, _ = random_inputs(seed)
    expected = recommenders_distributional_coverage({u: l[:4] for u, l in lists.items()})
    assert sqlrank_values("DistributionalCoverage@4", truth, run) == {"all": pytest.approx(expected, abs=1e-12)}
