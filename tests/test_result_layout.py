"""The result table's layout and its `all` rows, on inputs big enough for DuckDB to split the work.

The engine gathers each query's values into one row, sorts those rows and
unnests the long table from them (sqlrank/engine.py, measures_sql), and sums
the means by each query's position: these tests hold that to the documented
order and to sqlrank.summary, the shell's definition of the `all` row, bit for bit.
"""

from __future__ import annotations

import random

import pandas as pd
import pytest

import sqlrank

# two parameter sets (rel=1 and rel=2), counts (summed, not averaged) and a measure without a cutoff
MEASURES = ["nDCG@10", "P(rel=2)@5", "NumRelRet@10", "AP", "NumRel", "RR(rel=2)"]
QUERIES = 3000  # ~18,000 result rows per run: several DuckDB vectors and row groups


def collection(seed: int):
    """qrels over QUERIES queries with graded labels, and three runs that each leave some queries out."""
    rng = random.Random(seed)
    qrels = [(f"q{q}", f"d{d}", rng.choice([0, 1, 1, 2, 3])) for q in range(QUERIES) for d in rng.sample(range(40), 6)]
    runs = {}
    for name in ("zeta", "alpha", "mid"):
        runs[name] = pd.DataFrame(
            [(f"q{q}", f"d{d}", rng.random()) for q in range(QUERIES) if rng.random() > 0.1
             for d in rng.sample(range(40), 12)],
            columns=["query_id", "doc_id", "score"])
    return pd.DataFrame(qrels, columns=["query_id", "doc_id", "relevance"]), runs


def sequential_mean(values: list[float], count_measure: bool) -> float:
    """trec_eval's mean: added one by one in query order (Python's + is the same IEEE addition)."""
    total = 0.0
    for value in values:
        total += value
    return total if count_measure else total / len(values)


@pytest.mark.parametrize("missing", ["zero", "skip"])
def test_rows_come_run_by_run_query_by_query_and_the_means_add_in_query_order(missing):
    qrels, runs = collection(seed=7)
    result = sqlrank.evaluate(qrels, runs, MEASURES, missing=missing)
    rows = result.to_arrow().to_pylist()
    queries = sorted({q for q in qrels["query_id"]})  # text order: q10 before q2
    names = [str(m) for m in result.measures]
    at = 0
    for run_id, run in runs.items():  # the runs in the order given
        retrieved = set(run["query_id"])
        expected_queries = queries if missing == "zero" else [q for q in queries if q in retrieved]
        assert len(expected_queries) > 2048
        block = rows[at:at + (len(expected_queries) + 1) * len(names)]
        at += len(block)
        per_query, means = block[:-len(names)], block[-len(names):]
        assert [(r["run_id"], r["query_id"], r["measure"]) for r in per_query] == [
            (run_id, q, m) for q in expected_queries for m in names]
        assert [(r["run_id"], r["query_id"], r["measure"]) for r in means] == [(run_id, "all", m) for m in names]
        for number, mean in enumerate(means):
            values = [r["value"] for r in per_query[number::len(names)]]
            assert mean["value"] == sequential_mean(values, count_measure=names[number].startswith("NumRel"))
    assert at == len(rows)


def test_the_all_rows_are_sqlrank_summary_of_the_per_query_rows(con):
    qrels, runs = collection(seed=11)
    result = sqlrank.evaluate(qrels, runs, MEASURES)
    table = result.to_arrow()
    con.register("result_rows", table)
    con.execute("CREATE TABLE per_query_rows AS SELECT * FROM result_rows WHERE query_id <> 'all'")
    shell = con.execute("SELECT run_id, measure, value FROM sqlrank.summary('per_query_rows')").fetchall()
    engine = [(r["run_id"], r["measure"], r["value"]) for r in table.to_pylist() if r["query_id"] == "all"]
    assert sorted(engine) == sorted(shell)
    assert {value for _, measure, value in engine if measure == "NumRel"} == {
        float(((qrels["relevance"] >= 1)).sum())}  # every qrels query counted in every run (missing='zero')


def test_the_mean_adds_in_query_order_when_duckdb_splits_the_work():
    """300,000 queries: enough rows for several threads, whose partial sums would give other last bits."""
    from sqlrank import engine
    from sqlrank.measures import parse_all

    con = sqlrank.connect()
    queries = 300_000
    # one relevant document per query, at a rank that varies from query to query: RR = 1/rank
    con.execute(f"CREATE TABLE qrels AS SELECT 'q' || i AS query_id, 'd' AS doc_id, 1 AS relevance "
                f"FROM range({queries}) AS t(i)")
    con.execute(f"CREATE TABLE judged AS SELECT 'r' AS run_id, 'q' || i AS query_id, 'd' AS doc_id, 1.0 AS relevance, "
                f"CAST(1 + (i * 7919) % 97 AS BIGINT) AS rank, 100 AS num_ret FROM range({queries}) AS t(i)")
    rows = con.execute(engine.measures_sql(parse_all(["RR"]), judged="judged", qrels="qrels")).fetchall()
    assert [q for _, q, _, _ in rows[:-1]] == sorted(f"q{i}" for i in range(queries))
    per_query = [value for _, _, _, value in rows[:-1]]
    assert rows[-1][:3] == ("r", "all", "RR")
    assert rows[-1][3] == sequential_mean(per_query, count_measure=False)
    assert sequential_mean(sorted(per_query), count_measure=False) != rows[-1][3]  # the data tells orders apart
