"""Serendipity@k (sql/lists/serendipity.sql) against recommenders' user_serendipity / serendipity: its own fixture,
worked by hand, and random cases."""

import math

import numpy as np
import pyarrow as pa
import pytest

from list_cases import (cooccurrence_cosines, feature_cosines, fixture_features, fixture_inputs, run_of,
                        recommenders_user_serendipity, sqlrank_values)

TOLERANCE = 1e-4  # recommenders' TOL, for the values its tests print to 5 digits


def test_recommenders_fixture_by_cooccurrence():
    truth, run, train, _ = fixture_inputs()
    values = sqlrank_values("Serendipity", truth, run, train=train)
    # by hand (the users who saw each item: 1 {u1}, 2 {u1}, 3 {u2, u3}, 4 {u1, u2, u3}, 5 {u3}), relevant
    # recommendations: u1's 3, u2's 2 and 5, u3's 1. u1 saw 1, 2, 4: cos(3, 4) = 2/√6, the others 0
    u1 = (1 - (2 / math.sqrt(6)) / 3) / 2
    u2 = ((1 - (1 / math.sqrt(3)) / 2) + (1 - (1 / math.sqrt(2) + 1 / math.sqrt(3)) / 2)) / 2  # u2 saw 3, 4
    u3 = (1 - (1 / math.sqrt(3)) / 3) / 2  # u3 saw 3, 4, 5; cos(1, 4) = 1/√3
    assert values == pytest.approx({"1": u1, "2": u2, "3": u3, "all": (u1 + u2 + u3) / 3}, abs=1e-12)
    assert [values[u] for u in "123"] == pytest.approx([0.363915, 0.53455, 0.403775], abs=TOLERANCE)
    assert values["all"] == pytest.approx(0.43408, abs=TOLERANCE)  # test_serendipity


def test_recommenders_fixture_by_features():
    truth, run, train, _ = fixture_inputs()
    values = sqlrank_values("Serendipity(similarity=features)", truth, run, train=train, features=fixture_features())
    # every cosine is 1/2 or 0: u1's 3 against 1, 2, 4: 1/2 each; u2's 2 against 3, 4: 1/2, 0 and 5: 1/2, 1/2;
    # u3's 1 against 3, 4, 5: 1/2, 1/2, 0
    worked = {"1": 0.5 / 2, "2": (0.75 + 0.5) / 2, "3": (1 - 1 / 3) / 2}
    assert values == pytest.approx(worked | {"all": sum(worked.values()) / 3}, abs=1e-12)
    assert [values[u] for u in "123"] == pytest.approx([0.25, 0.625, 0.3333], abs=TOLERANCE)
    assert values["all"] == pytest.approx(0.4028, abs=TOLERANCE)


def test_users_without_history_or_list_are_left_out_of_all():
    """u2 has no training history (recommenders' inner join drops it): 0, and not in the mean. The same
    item seen twice counts once."""
    truth = pa.table({"user_id": ["u1", "u2"], "item_id": ["c", "c"]})
    run = run_of({"u1": ["c", "d"], "u2": ["c"]})
    train = pa.table({"user_id": ["u1", "u1", "u1", "v", "v"], "item_id": ["a", "a", "b", "a", "c"]})
    values = sqlrank_values("Serendipity", truth, run, train=train)
    # a: {u1, v}, b: {u1}, c: {v}: cos(c, a) = 1/√2, cos(c, b) = 0; c relevant, d not
    expected = (1 - (1 / math.sqrt(2)) / 2) / 2
    assert values == pytest.approx({"u1": expected, "u2": 0.0, "all": expected}, abs=1e-12)


def test_random_cases():
    generator = np.random.default_rng(11)
    items = [f"i{n:02d}" for n in range(25)]
    users = [f"u{u:02d}" for u in range(12)]
    lists, seen = {}, set()
    for user in users:  # recommenders refuses a recommendation the user interacted with in training
        chosen = list(generator.choice(items, 12, replace=False))
        lists[user] = chosen[:6]
        seen |= {(user, item) for item in chosen[6:][:int(generator.integers(1, 6))]}
    seen |= {(f"t{generator.integers(20)}", str(generator.choice(items))) for _ in range(150)}
    seen = sorted(seen)
    train = pa.table({"user_id": [u for u, _ in seen], "item_id": [i for _, i in seen]})
    relevant = {(user, item) for user, chosen in lists.items() for item in chosen if generator.random() < 0.5}
    truth = pa.table({"user_id": [u for u, _ in sorted(relevant)], "item_id": [i for _, i in sorted(relevant)]})
    vectors = {item: list(generator.normal(size=4)) for item in items}
    run = run_of(lists)
    top4 = {user: chosen[:4] for user, chosen in lists.items()}
    for measure, features, cosines in (("Serendipity@4", None, cooccurrence_cosines(train)),
                                       ("Serendipity(similarity=features)@4", vectors, feature_cosines(vectors))):
        expected = recommenders_user_serendipity(train, top4, relevant, cosines)
        values = sqlrank_values(measure, truth, run, train=train, features=features)
        users_judged = {user for user, _ in relevant}  # users without a relevant item are not evaluated
        assert {u: values[u] for u in users_judged} == pytest.approx({u: expected[u] for u in users_judged}, abs=1e-12)
        assert values["all"] == pytest.approx(np.mean([expected[u] for u in users_judged]), abs=1e-12)
