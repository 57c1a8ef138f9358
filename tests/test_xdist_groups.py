"""The suite's one-worker fixtures rely on pytest-xdist's groups: a pytest/pytest-xdist pair that drops them
makes every worker start Spark again, slowly and silently (pyproject.toml pins pytest for that reason)."""

import pytest


@pytest.mark.xdist_group("spark")
def test_xdist_groups_reach_the_test_ids(request):
    if not getattr(request.config.option, "loadgroup", False):  # set only in xdist's workers under --dist loadgroup
        pytest.skip("checks the suite's parallel run (pytest -n auto --dist loadgroup)")
    assert request.node.nodeid.endswith("@spark"), request.node.nodeid
