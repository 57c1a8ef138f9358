"""Spark computes the per-user list measures as the single machine does (per user and the `all` row, which Spark
weighs by sqlrank.list_weights) and refuses the measures of the whole run by name. One test: Spark is slow."""

import numpy as np
import pyarrow as pa
import pytest

import sqlrank
from list_cases import run_of

PER_USER = ["Novelty@5", "ARP@5", "APLT(tail=0.3)@5", "Diversity@5", "IntraListSimilarity", "Serendipity@5",
            "Diversity(similarity=features)@3", "Serendipity(similarity=features)"]


def _inputs():
    """30 users' lists of 1 to 6 over 20 items, a training log of those users and others (so that Serendipity has
    histories, and some user none), feature vectors, a truth of two items per user (some users without one)."""
    generator = np.random.default_rng(5)
    items = [f"i{n:02d}" for n in range(20)]
    lists = {f"u{u:02d}": [str(i) for i in generator.choice(items, generator.integers(1, 7), replace=False)]
             for u in range(30)}
    seen = sorted({(f"u{generator.integers(28):02d}", str(generator.choice(items))) for _ in range(120)}
                  | {(f"t{generator.integers(9)}", str(generator.choice(items))) for _ in range(60)})
    train = pa.table({"query_id": [u for u, _ in seen], "doc_id": [i for _, i in seen]})
    features = pa.table({"item_id": items, "features": [list(generator.normal(size=3)) for _ in items]})
    judged = sorted({(user, chosen[place]) for user, chosen in lists.items() if user != "u29" for place in (0, -1)})
    truth = pa.table({"query_id": [u for u, _ in judged], "doc_id": [i for _, i in judged],
                      "relevance": [1] * len(judged)})
    run = run_of(lists).rename_columns(["query_id", "doc_id", "score"])
    return truth, run, train, features


def test_spark_equals_the_single_machine_on_every_per_user_list_measure(spark):
    from sqlrank import spark as sqlrank_spark

    truth, run, train, features = _inputs()
    single = sqlrank.evaluate(truth, run, PER_USER, train=train, features=features).to_arrow().to_pylist()
    result = sqlrank_spark.evaluate(spark.createDataFrame(truth), spark.createDataFrame(run), PER_USER, spark=spark,
                                    buckets=3, train=spark.createDataFrame(train), features=features)
    got = result.to_arrow().to_pylist()
    assert [(r["query_id"], r["measure"]) for r in got] == [(r["query_id"], r["measure"]) for r in single]
    assert [r["value"] for r in got] == pytest.approx([r["value"] for r in single], abs=1e-12)
    # the data exercise every weight: the `all` row is not the plain mean of the users' values (lists of one item
    # and of several, users without a training history)
    for measure in ("Novelty@5", "Diversity@5", "Serendipity@5"):
        values = [r["value"] for r in single if r["measure"] == measure]
        assert values[-1] != pytest.approx(np.mean(values[:-1]), abs=1e-6), measure
    for whole_run in ("CatalogCoverage@5", "Personalization"):
        with pytest.raises(sqlrank.MeasureError, match=f"{whole_run}: a list measure of the whole run .* not "
                                                       "computed on Spark"):
            sqlrank_spark.evaluate(truth, run, ["Novelty", whole_run], spark=spark, train=train)
