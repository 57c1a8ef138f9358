"""The item similarities computed from sums of unit vectors and shared-user counts (sql/45_lists.sql) against the
pairwise formulas, where recommenders' fixtures do not reach: a recommended item in the user's own history (its
cosine with itself, 1), items without a vector or with a vector of zeros (0), and the same bits whatever the
number of DuckDB threads."""

import numpy as np
import pyarrow as pa
import pytest

import sqlrank
from list_cases import cooccurrence_cosines, recommenders_user_diversity, recommenders_user_serendipity, run_of


def _features_cosines(vectors: dict[str, list[float]]) -> dict[tuple, float]:
    """f1 . f2 / (|f1| |f2|) for every pair i1 <= i2, 0 where a vector is all zeros (recommenders' fillna(0))."""
    arrays = {item: np.array(vector, dtype=float) for item, vector in vectors.items()}
    norms = {item: np.linalg.norm(array) for item, array in arrays.items()}
    return {(i1, i2): float(arrays[i1] @ arrays[i2] / (norms[i1] * norms[i2])) if norms[i1] and norms[i2] else 0.0
            for i1 in arrays for i2 in arrays if i1 <= i2}


def _case():
    generator = np.random.default_rng(37)
    items = [f"i{n:02d}" for n in range(20)]
    lists = {f"u{u:02d}": list(generator.choice(items, 5, replace=False)) for u in range(10)}
    # each user has seen some of the items recommended to them, and others; other training users add co-occurrences
    seen = {(user, str(item)) for user in lists for item in generator.choice(items, 6, replace=False)}
    seen |= {(f"t{generator.integers(15)}", str(generator.choice(items))) for _ in range(120)}
    seen = sorted(seen)
    train = pa.table({"user_id": [u for u, _ in seen], "item_id": [i for _, i in seen]})
    # i18 has a vector of zeros and i19 none: both have similarity 0 to every item
    vectors = {item: list(generator.normal(size=3)) for item in items[:18]} | {"i18": [0.0, 0.0, 0.0]}
    relevant = {(user, item) for user, chosen in lists.items() for item in chosen}
    truth = pa.table({"user_id": [u for u, _ in sorted(relevant)], "item_id": [i for _, i in sorted(relevant)]})
    return lists, train, vectors, relevant, truth


def test_history_overlap_and_vectors_of_zeros_match_the_pairwise_formulas_in_the_same_bits_on_any_threads():
    lists, train, vectors, relevant, truth = _case()
    pairs = set(zip(train["user_id"].to_pylist(), train["item_id"].to_pylist()))
    assert any((user, item) in pairs for user, chosen in lists.items() for item in chosen)  # the overlap tested
    measures = ["Diversity", "Serendipity", "Diversity(similarity=features)", "Serendipity(similarity=features)"]
    rows = [sorted((row["measure"], row["query_id"], row["value"]) for row in
                   sqlrank.evaluate(truth, run_of(lists), measures, train=train, features=vectors,
                                    threads=threads).to_arrow().to_pylist())
            for threads in (1, 4)]
    assert rows[0] == rows[1]  # the sums add as decimals: the same bits in any order
    found = {(measure, user): value for measure, user, value in rows[0]}
    for suffix, cosines in (("", cooccurrence_cosines(train)),
                            ("(similarity=features)", _features_cosines(vectors | {"i19": [0.0, 0.0, 0.0]}))):
        expected = {f"Diversity{suffix}": recommenders_user_diversity(lists, cosines),
                    f"Serendipity{suffix}": recommenders_user_serendipity(train, lists, relevant, cosines)}
        for measure, per_user in expected.items():
            assert {user: found[(measure, user)] for user in lists} == pytest.approx(per_user, abs=1e-12)
            assert found[(measure, "all")] == pytest.approx(np.mean(list(per_user.values())), abs=1e-12)
