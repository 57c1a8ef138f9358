"""Invariants of the measures on random judgments and runs (Hypothesis).

* 0 <= nDCG, AP, RR, P, R <= 1, at every cutoff;
* the ideal ranking (judged documents by label, best first) scores nDCG 1;
* the order of the input rows (run or qrels) changes no number;
* unjudged documents added below the last relevant one change neither AP nor RR;
* evaluating several runs at once gives each run's numbers alone.

Each example is a whole collection (up to 5 queries, up to 8 documents each, tied scores and labels
from -1 to 3, real-valued ones too), so a few dozen examples cover many queries; the example count is
kept modest because every evaluate() call builds a DuckDB connection.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sqlrank
from every_measure_sql import every_measure

BOUNDED = ["nDCG", "nDCG@3", "AP", "AP@3", "RR", "RR@3", "P", "P@3", "R", "R@3"]
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])

query_ids = st.sampled_from(["q1", "q2", "q3", "10", "9"])
doc_ids = st.sampled_from(["a", "b", "c", "d", "e", "B", "é", "10", "9"])
labels = st.one_of(st.integers(-1, 3).map(float), st.sampled_from([0.5, 1.5]))
# few distinct scores, so that ties (broken by doc id) are common
scores = st.one_of(st.integers(0, 3).map(float), st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False))


@st.composite
def collections(draw):
    qrels = draw(st.dictionaries(query_ids, st.dictionaries(doc_ids, labels, min_size=1, max_size=8),
                                 min_size=1, max_size=5))
    run = draw(st.dictionaries(query_ids, st.dictionaries(doc_ids, scores, min_size=1, max_size=8),
                               min_size=1, max_size=5))
    return qrels, run


def rows(nested: dict) -> list[tuple[str, str, float]]:
    return [(q, d, v) for q, docs in nested.items() for d, v in docs.items()]


def frame(row_list, value: str) -> pd.DataFrame:
    return pd.DataFrame(row_list, columns=["query_id", "doc_id", value])


def numbers(result) -> dict[tuple[str, str, str], float]:
    """{(run_id, query_id, measure): value}, the `all` rows included."""
    return {(r["run_id"], r["query_id"], r["measure"]): r["value"] for r in result.to_arrow().to_pylist()}


def of_run(table: dict, run_id: str) -> dict[tuple[str, str], float]:
    return {(q, m): v for (r, q, m), v in table.items() if r == run_id}


def ideal_run(qrels: dict) -> dict:
    """Every judged document with a positive label, scored by its label: the best possible ranking."""
    return {q: {d: label for d, label in docs.items() if label > 0} for q, docs in qrels.items()
            if any(label > 0 for label in docs.values())}


def with_unjudged_below_the_last_relevant(run: dict, qrels: dict, extra: int) -> dict:
    """The run plus `extra` unjudged documents per query, scored strictly below its last relevant one."""
    out = {}
    for q, docs in run.items():
        relevant = [score for d, score in docs.items() if qrels.get(q, {}).get(d, 0) >= 1]
        floor = min(relevant) if relevant else min(docs.values())
        out[q] = dict(docs) | {f"unjudged-{i}": floor - 1 - i for i in range(extra)}
    return out


@SETTINGS
@given(collections(), st.randoms(use_true_random=False), st.integers(1, 3))
def test_measure_invariants(collection, random, extra):
    qrels, run = collection
    run_rows = rows(run)
    shuffled_run = random.sample(run_rows, len(run_rows))
    ideal = ideal_run(qrels)
    runs = {"run": frame(run_rows, "score"), "shuffled": frame(shuffled_run, "score"),
            "padded": frame(rows(with_unjudged_below_the_last_relevant(run, qrels, extra)), "score")}
    if ideal:
        runs["ideal"] = frame(rows(ideal), "score")
    qrels_frame = frame(rows(qrels), "relevance")
    together = numbers(sqlrank.evaluate(qrels_frame, runs, BOUNDED, allow_disjoint=True))  # independent draws

    # bounds, for every run, query, measure and the means
    assert all(0.0 <= value <= 1.0 for value in together.values()), together

    # the ideal ranking scores nDCG 1 on every query with a positive label, at every cutoff
    if ideal:
        for query in ideal:
            assert together[("ideal", query, "nDCG")] == pytest.approx(1.0, abs=1e-12)
            assert together[("ideal", query, "nDCG@3")] == pytest.approx(1.0, abs=1e-12)

    # the order of the run's rows changes nothing
    assert of_run(together, "shuffled") == pytest.approx(of_run(together, "run"), abs=1e-12)

    # unjudged documents below the last relevant one change neither AP nor RR
    plain, padded = of_run(together, "run"), of_run(together, "padded")
    for (query, measure), value in plain.items():
        if measure in ("AP", "RR"):
            assert padded[(query, measure)] == pytest.approx(value, abs=1e-12), (query, measure)

    # one run alone, with the qrels rows in another order, gives the numbers it has among the others
    # (two properties in one call: each evaluate() costs a DuckDB connection)
    qrels_rows = rows(qrels)
    shuffled_qrels = frame(random.sample(qrels_rows, len(qrels_rows)), "relevance")
    alone = numbers(sqlrank.evaluate(shuffled_qrels, {"run": runs["run"]}, BOUNDED, allow_disjoint=True))
    assert of_run(alone, "run") == pytest.approx(of_run(together, "run"), abs=1e-12)


def test_sums_run_in_rank_order_whatever_order_the_rows_come_in():
    # DuckDB adds a group's rows in the order its threads deliver them; trec_eval adds in rank order.
    # These gains give different last bits when added backwards, so a judged table stored in reverse
    # rank order tells an ordered sum from an unordered one.
    labels = [0.1, 0.7, 0.3, 1e-9, 0.9, 0.2, 0.6] * 700  # longer than one DuckDB vector (2,048 values)
    con = sqlrank.connect(threads=1)
    con.execute("CREATE TABLE q AS SELECT 'q1' AS query_id, 'd' || i AS doc_id, label AS relevance "
                "FROM unnest(?) WITH ORDINALITY AS l(label, i)", [labels])
    con.execute("CREATE TABLE judged AS SELECT 'r' AS run_id, 'q1' AS query_id, 'd' || i AS doc_id, relevance, "
                "CAST(i AS BIGINT) AS rank, 4900 AS num_ret FROM unnest(?) WITH ORDINALITY AS l(relevance, i) "
                "ORDER BY rank DESC", [labels])
    cg, dcg = con.execute("SELECT cg, dcg FROM (" + every_measure("sqlrank.rankings('q', 'judged')") + ")").fetchall()[0]
    forward = backward = 0.0
    for rank, label in enumerate(labels, start=1):
        forward += label / math.log2(rank + 1)
    for rank, label in reversed(list(enumerate(labels, start=1))):
        backward += label / math.log2(rank + 1)
    assert forward != backward  # the data does tell the two orders apart
    assert dcg == forward
    assert cg == sum(labels)  # Python's sum adds left to right, in rank order
