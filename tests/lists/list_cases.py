"""What the list measures' tests share: recommenders' own fixture, random cases, and the reference formulas.

The formulas are re-implemented here in numpy and plain Python, each from its library's source (recommenders and
RecBole pull in torch or heavy pins this suite does not install): recommenders' recommenders/evaluation/
python_evaluation.py (novelty, catalog_coverage, distributional_coverage, user_diversity, user_serendipity),
RecBole's recbole/evaluator/metrics.py
(AveragePopularity, TailPercentage, GiniIndex), recmetrics' metrics.py (personalization).
"""

from __future__ import annotations

import functools
import json
import math
import warnings
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow as pa

import sqlrank
from sqlrank import sqlgen
from sqlrank import item_features
from sqlrank.lists import parse_list_measure

FIXTURE = json.loads((Path(__file__).parent.parent / "data" / "recommenders_diversity_data.json").read_text())


def fixture_inputs():
    """recommenders' diversity_data: the truth (its reco_df's Relevance), the run (its lists, in row order) and the
    training interactions, as sqlrank takes them; the lists as {user: [items]}."""
    reco = FIXTURE["reco"]
    lists: dict[str, list[str]] = {}
    for user, item in zip(reco["UserId"], reco["ItemId"]):
        lists.setdefault(str(user), []).append(str(item))
    truth = pa.table({"user_id": [str(u) for u in reco["UserId"]], "item_id": [str(i) for i in reco["ItemId"]],
                      "relevance": reco["Relevance"]})
    train = pa.table({"user_id": [str(u) for u in FIXTURE["train"]["UserId"]],
                      "item_id": [str(i) for i in FIXTURE["train"]["ItemId"]]})
    return truth, run_of(lists), train, lists


def run_of(lists: dict[str, list[str]]) -> pa.Table:
    """A run ranking each user's items in list order (scores falling)."""
    rows = [(user, item, float(len(items) - place)) for user, items in lists.items() for place, item in enumerate(items)]
    return pa.table({name: list(column) for name, column in zip(("user_id", "item_id", "score"), zip(*rows))})


def random_inputs(seed: int, users: int = 20, catalogue: int = 30, length: int = 10, interactions: int = 200):
    """Random lists of `length` distinct items per user over a catalogue of zero-padded ids (their text order is
    their number's), training interactions drawn with a popularity skew (repeats allowed), a truth of one item each."""
    generator = np.random.default_rng(seed)
    items = [f"i{number:02d}" for number in range(catalogue)]
    popularity = generator.random(catalogue) ** 3
    lists = {f"u{user:02d}": [items[i] for i in generator.choice(catalogue, length, replace=False)]
             for user in range(users)}
    drawn = generator.choice(catalogue, interactions, p=popularity / popularity.sum())
    train = pa.table({"user_id": [f"t{n % 37}" for n in range(interactions)], "item_id": [items[i] for i in drawn]})
    truth = pa.table({"user_id": list(lists), "item_id": [chosen[0] for chosen in lists.values()]})
    return truth, run_of(lists), train, lists, items


def fixture_features() -> dict[str, list[float]]:
    """recommenders' item_feature_df: {item: its feature vector}."""
    features = FIXTURE["item_features"]
    return {str(item): vector for item, vector in zip(features["ItemId"], features["features"])}


def sqlrank_values(measure: str, truth, run, train=None, items=None, features=None) -> dict[str, float]:
    """{user or 'all': value} of one list measure, from sqlrank.evaluate and from the shell's table macro, which
    must agree."""
    result = sqlrank.evaluate(truth, run, [measure], train=train, items=items, features=features)
    python = {row["query_id"]: row["value"] for row in result.to_arrow().to_pylist()}
    parsed = parse_list_measure(measure)
    con = _shell()
    for name in ("train", "items"):  # a table an earlier call left must not stand in for an input this one has not
        con.unregister(name)
    con.execute("DROP TABLE IF EXISTS features")
    with warnings.catch_warnings():  # the notice that a truth without labels takes every item as relevant
        warnings.simplefilter("ignore", sqlrank.SqlrankNotice)
        sqlrank.load_qrels(con, truth, "qrels")
    sqlrank.load_run(con, run, "run")
    named = {"k": parsed.k, **{name: parsed.param(name) for name in parsed.definition.params}}
    if train is not None:  # a table of canonical columns: load_qrels would refuse repeated interactions
        con.register("train", train.rename_columns(["query_id", "doc_id"]))
    if items is not None:
        con.register("items", pa.table({"item_id": list(items)}))
        named["items"] = "items"
    if features is not None:  # the shell takes the long form (item, feature, weight) the Python reader makes
        con.execute(f"CREATE OR REPLACE TABLE features AS {item_features.features_sql(con, features)}")
        named["features"] = "features"
    call = sqlgen.call(f"sqlrank.{parsed.definition.macro}", "'qrels'", "'run'", **named)
    shell = dict(con.execute(f"SELECT query_id, value FROM {call}").fetchall())
    assert shell == python
    return python


@functools.cache
def _shell():
    """One connection with the shell's macros for every call: installing them is the slow part."""
    return sqlrank.connect()


# ---------------------------------------------------------------- the references

def train_counts(train: pa.Table) -> Counter:
    return Counter(train["item_id"].to_pylist())


def recommenders_novelty(train: pa.Table, lists: dict) -> float:
    """novelty(): Σ over the recommendations of -log2(count / n_train) (items unseen in training left out of the
    sum by its inner join), over the number of recommendations."""
    counts, n = train_counts(train), train.num_rows
    recommendations = [item for items in lists.values() for item in items]
    return sum(-math.log2(counts[item] / n) for item in recommendations if item in counts) / len(recommendations)


def recommenders_catalog_coverage(train: pa.Table, lists: dict) -> float:
    return len({item for items in lists.values() for item in items}) / len(set(train["item_id"].to_pylist()))


def recommenders_distributional_coverage(lists: dict) -> float:
    counts = Counter(item for items in lists.values() for item in items)
    total = sum(counts.values())
    return -sum(count / total * np.log2(count / total) for count in counts.values())


def recbole_average_popularity(train: pa.Table, lists: dict, k: int) -> dict[str, float]:
    """AveragePopularity@k per user: cumsum of the training counts / arange, at k (item_count.get(item, 0))."""
    counts = train_counts(train)
    return {user: float(np.cumsum([counts.get(item, 0) for item in items])[k - 1] / k) for user, items in lists.items()}


def recbole_tail_percentage(train: pa.Table, lists: dict, k: int, tail: float) -> dict[str, float]:
    """TailPercentage@k per user, its long tail from tail_ratio."""
    counts = train_counts(train)
    if tail > 1:
        tail_items = [item for item, count in counts.items() if count <= tail]
    else:
        ordered = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]))
        tail_items = [item for item, _ in ordered[:max(int(len(ordered) * tail), 1)]]
    return {user: float(np.cumsum([1 if item in tail_items else 0 for item in items])[k - 1] / k)
            for user, items in lists.items()}


def recbole_gini_index(lists: dict, k: int, num_items: int) -> float:
    """GiniIndex.get_gini over the top k of every user."""
    matrix = np.array([items[:k] for items in lists.values()])
    sorted_count = np.array(sorted(Counter(matrix.flatten()).values()))
    idx = np.arange(num_items - sorted_count.shape[0] + 1, num_items + 1)
    return float(np.sum((2 * idx - num_items - 1) * sorted_count) / (matrix.shape[0] * matrix.shape[1]) / num_items)


def recmetrics_personalization(lists: dict) -> float:
    """1 - the mean off-diagonal cosine similarity of the users' binary item vectors (all pairs formed here)."""
    items = sorted({item for chosen in lists.values() for item in chosen})
    matrix = np.array([[1.0 if item in chosen else 0.0 for item in items] for chosen in lists.values()])
    unit = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    similarity = unit @ unit.T
    dim = similarity.shape[0]
    return float(1 - (similarity.sum() - dim) / (dim * (dim - 1)))


def cooccurrence_cosines(train: pa.Table) -> dict[tuple, float]:
    """_get_cooccurrence_similarity: each user's item pairs i1 <= i2 counted, over the product of the items'
    square-rooted interaction counts; keyed (i1, i2)."""
    by_user: dict[str, list[str]] = {}
    for user, item in zip(train["user_id"].to_pylist(), train["item_id"].to_pylist()):
        by_user.setdefault(user, []).append(item)
    pairs = Counter((i1, i2) for items in by_user.values() for i1 in items for i2 in items if i1 <= i2)
    counts = train_counts(train)
    return {(i1, i2): count / (counts[i1] ** 0.5 * counts[i2] ** 0.5) for (i1, i2), count in pairs.items()}


def feature_cosines(features: dict[str, list[float]]) -> dict[tuple, float]:
    """_get_item_feature_similarity: f1 . f2 / (|f1| |f2|) for every pair i1 <= i2."""
    vectors = {item: np.array(vector, dtype=float) for item, vector in features.items()}
    return {(i1, i2): float(vectors[i1] @ vectors[i2] / (np.linalg.norm(vectors[i1]) * np.linalg.norm(vectors[i2])))
            for i1 in vectors for i2 in vectors if i1 <= i2}


def recommenders_user_diversity(lists: dict, cosines: dict) -> dict[str, float]:
    """user_diversity: 1 - the mean similarity over each user's pairs i1 < i2 (a missing pair 0); a user with no
    pair has no row."""
    values = {}
    for user, items in lists.items():
        sims = [cosines.get((i1, i2), 0.0) for i1 in items for i2 in items if i1 < i2]
        if sims:
            values[user] = 1 - sum(sims) / len(sims)
    return values


def recommenders_user_serendipity(train: pa.Table, lists: dict, relevant: set, cosines: dict) -> dict[str, float]:
    """user_serendipity: per recommended item, (1 - its mean similarity to every training row of the user) ×
    its relevance; the user's mean over the items; a user without training rows has no row."""
    history: dict[str, list[str]] = {}
    for user, item in zip(train["user_id"].to_pylist(), train["item_id"].to_pylist()):
        history.setdefault(user, []).append(item)
    values = {}
    for user, items in lists.items():
        if user in history and items:
            per_item = [(1 - np.mean([cosines.get((min(item, seen), max(item, seen)), 0.0) for seen in history[user]]))
                        * (1.0 if (user, item) in relevant else 0.0) for item in items]
            values[user] = float(np.mean(per_item))
    return values
