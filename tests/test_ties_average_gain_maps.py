"""ties='average' with a gain map: the mean over every order of the tie groups, each order given by ties='input'."""

from __future__ import annotations

import itertools

import pyarrow as pa
import pytest

import sqlrank

# q1: a, b, c tied at 2.0 above d; q2: e, f tied; g, h unjudged or judged 0
QRELS = {"q1": {"a": 2, "b": 1, "c": 0, "d": 3}, "q2": {"e": 1, "f": 2, "g": 0}}
RUN = {"q1": {"a": 2.0, "b": 2.0, "c": 2.0, "d": 1.0, "x": 1.0}, "q2": {"e": 5.0, "f": 5.0, "g": 4.0, "h": 4.0}}
MEASURES = ["ERR(gains={1:2,2:3})@3", "ndcg_rel.1=3,2=0.5", "Rndcg.2=5", "rbp.1=-1,3=2", "ERR@10"]


def _orders(run: dict) -> list[list[tuple[str, str]]]:
    """Every order of the run's rows that keeps the score order: each tie group permuted, per query."""
    per_query = []
    for query, scores in run.items():
        groups = [[doc for doc in scores if scores[doc] == score] for score in sorted(set(scores.values()), reverse=True)]
        per_query.append([[(query, doc) for group in choice for doc in group]
                          for choice in itertools.product(*(itertools.permutations(g) for g in groups))])
    return [[row for rows in combination for row in rows] for combination in itertools.product(*per_query)]


def test_average_with_gain_maps_is_the_mean_over_every_order():
    orders = _orders(RUN)
    assert len(orders) == 6 * 2 * 2 * 2  # q1: 3! orders of a, b, c and 2 of d, x; q2: 2 of e, f and 2 of g, h
    totals: dict[tuple[str, str], float] = {}
    for rows in orders:
        table = pa.table({"query_id": [q for q, _ in rows], "doc_id": [d for _, d in rows],
                          "score": [RUN[q][d] for q, d in rows]})
        result = sqlrank.evaluate(QRELS, table, MEASURES, ties="input", names="canonical")
        for row in result.per_query.to_pylist():
            key = (row["measure"], row["query_id"])
            totals[key] = totals.get(key, 0.0) + row["value"] / len(orders)
    averaged = sqlrank.evaluate(QRELS, RUN, MEASURES, ties="average", names="canonical")
    values = {(row["measure"], row["query_id"]): row["value"] for row in averaged.per_query.to_pylist()}
    assert values.keys() == totals.keys()
    for key, value in totals.items():
        assert values[key] == pytest.approx(value, abs=1e-12), key
    # the maps matter: the tie groups hold labels the maps change
    plain = sqlrank.evaluate(QRELS, RUN, ["ERR@3", "ndcg_rel", "Rndcg", "rbp"], ties="average").per_query.to_pylist()
    assert sorted(row["value"] for row in plain) != sorted(
        value for (measure, _), value in values.items() if measure != "ERR@10")
