"""Diversity@k and IntraListSimilarity@k (sql/lists/diversity.sql, intra_list_similarity.sql) against
recommenders' user_diversity / diversity: its own fixture, worked by hand, and random cases."""

import math

import numpy as np
import pyarrow as pa
import pytest

import sqlrank
from list_cases import (cooccurrence_cosines, feature_cosines, fixture_features, fixture_inputs, run_of,
                        recommenders_user_diversity, sqlrank_values)

TOLERANCE = 1e-4  # recommenders' TOL, for the values its tests print to 5 digits


def test_recommenders_fixture_by_cooccurrence():
    truth, run, train, _ = fixture_inputs()
    values = sqlrank_values("Diversity", truth, run, train=train)
    # by hand: the users who saw each item: 1 {u1}, 2 {u1}, 3 {u2, u3}, 4 {u1, u2, u3}, 5 {u3}.
    # u1 gets 3, 5: cos = 1 / √2; u2 gets 2, 5: no common user; u3 gets 1, 2: cos = 1
    worked = {"1": 1 - 1 / math.sqrt(2), "2": 1.0, "3": 0.0}
    assert values == pytest.approx(worked | {"all": sum(worked.values()) / 3}, abs=1e-12)
    assert [values[u] for u in "123"] == pytest.approx([0.29289, 1.0, 0.0], abs=TOLERANCE)  # test_user_diversity
    assert values["all"] == pytest.approx(0.43096, abs=TOLERANCE)  # test_diversity
    similarity = sqlrank_values("IntraListSimilarity", truth, run, train=train)
    assert similarity == pytest.approx({user: 1 - value for user, value in values.items()}, abs=1e-12)


def test_recommenders_fixture_by_features():
    truth, run, train, _ = fixture_inputs()
    # every vector has two 1s and each pair recommended shares one: cos = 1/2 for every user
    values = sqlrank_values("Diversity(similarity=features)", truth, run, features=fixture_features())
    assert values == pytest.approx({"1": 0.5, "2": 0.5, "3": 0.5, "all": 0.5}, abs=1e-12)


def test_categories_worked_by_hand():
    """Categories are features of weight 1: a (drama, crime), b (drama), c (comedy) -> cos(a, b) = 1/√2, 0, 0;
    u1 gets a, b, c: diversity 1 - (1/√2) / 3; u2 gets c alone: no pair, 0, left out of `all`."""
    truth = pa.table({"user_id": ["u1", "u2"], "item_id": ["a", "c"]})
    run = run_of({"u1": ["a", "b", "c"], "u2": ["c"]})
    genres = pa.table({"item_id": ["a", "a", "b", "c"], "genre": ["drama", "crime", "drama", "comedy"]})
    values = sqlrank_values("ILD(similarity=features)", truth, run, features=genres)
    expected = 1 - (1 / math.sqrt(2)) / 3
    assert values == pytest.approx({"u1": expected, "u2": 0.0, "all": expected}, abs=1e-12)


def test_random_cases():
    generator = np.random.default_rng(7)
    items = [f"i{n:02d}" for n in range(25)]
    lists = {f"u{u:02d}": list(generator.choice(items, 6, replace=False)) for u in range(15)}
    # training interactions without repeats, as recommenders assumes (it counts a repeated row twice)
    train_pairs = sorted({(f"t{generator.integers(40)}", str(generator.choice(items))) for _ in range(300)})
    train = pa.table({"user_id": [u for u, _ in train_pairs], "item_id": [i for _, i in train_pairs]})
    vectors = {item: list(generator.normal(size=4)) for item in items}
    truth = pa.table({"user_id": list(lists), "item_id": [chosen[0] for chosen in lists.values()]})
    run = run_of(lists)
    top5 = {user: chosen[:5] for user, chosen in lists.items()}
    for measure, inputs, cosines in (("Diversity@5", {"train": train}, cooccurrence_cosines(train)),
                                     ("Diversity(similarity=features)@5", {"features": vectors},
                                      feature_cosines(vectors))):
        expected = recommenders_user_diversity(top5, cosines)
        values = sqlrank_values(measure, truth, run, **inputs)
        assert {user: values[user] for user in expected} == pytest.approx(expected, abs=1e-12)
        assert values["all"] == pytest.approx(np.mean(list(expected.values())), abs=1e-12)


def test_the_input_the_similarity_reads_is_refused_by_name():
    truth, run, train, _ = fixture_inputs()
    with pytest.raises(sqlrank.MeasureError, match=r"Diversity\(similarity=features\) reads the items' features"
                                                   r".*give features= \(CLI: --features\)"):
        sqlrank.evaluate(truth, run, ["Diversity(similarity=features)"], train=train)
    with pytest.raises(sqlrank.MeasureError, match=r"IntraListSimilarity reads the training interactions.*give train="):
        sqlrank.evaluate(truth, run, ["ILS"], features=fixture_features())
    with pytest.raises(sqlrank.MeasureError, match=r"unknown similarity 'feature'.*did you mean 'features'"):
        sqlrank.evaluate(truth, run, ["Diversity(similarity=feature)"], train=train)
