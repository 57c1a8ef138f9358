"""The two plans of sqlrank.judged_ranking give the same rows, and evaluate() picks the heap only when it may.

With a depth of at most 32, judged_ranking keeps a bounded heap per ranking
instead of sorting the run (sql/11_judged_ranking.sql); evaluate() asks for
that depth when every measure stops at a cutoff (engine.ranking_depth). Both
must give exactly the window's numbers: ties broken by doc id descending,
float32 scores, several runs in one table, depth, missing queries.
"""

from __future__ import annotations

import duckdb
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import sqlrank
from every_measure_sql import every_measure
from sqlrank.engine import ranking_depth, reads_zero_labels
from sqlrank.macros import install_measures, library_connection
from sqlrank.measures import parse_all

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

query_ids = st.sampled_from(["q1", "q2", "10", "9"])
doc_ids = st.sampled_from(["a", "b", "c", "d", "e", "B", "é", "10", "9", "x1", "x2", "x3"])
labels = st.sampled_from([-1.0, 0.0, 1.0, 2.0, 3.0])
# few distinct scores, so ties are common; 1.0 and 1.0000000001 tie only in float32
scores = st.one_of(st.sampled_from([0.0, 1.0, 1.0000000001, 2.0, -0.5]), st.floats(-1e3, 1e3, allow_nan=False))


@st.composite
def collections(draw):
    qrels = draw(st.dictionaries(query_ids, st.dictionaries(doc_ids, labels, min_size=1, max_size=10),
                                 min_size=1, max_size=4))
    runs = draw(st.lists(st.dictionaries(query_ids, st.dictionaries(doc_ids, scores, min_size=1, max_size=12),
                                         min_size=1, max_size=4), min_size=1, max_size=2))
    return qrels, runs


@st.composite
def batches(draw, size):
    """`size` collections in one (tests/batched.py): their queries renamed apart, run n of each in run n."""
    drawn = [draw(collections()) for _ in range(size)]
    qrels = {f"{number}|{query}": docs for number, (case, _) in enumerate(drawn) for query, docs in case.items()}
    runs = [{} for _ in range(max(len(case_runs) for _, case_runs in drawn))]
    for number, (_, case_runs) in enumerate(drawn):
        for run, case_run in zip(runs, case_runs):
            run.update({f"{number}|{query}": docs for query, docs in case_run.items()})
    return qrels, runs


def connection(qrels: dict, runs: list[dict]) -> duckdb.DuckDBPyConnection:
    con = library_connection()  # the process's database: the macros are not installed again for each example
    install_measures(con, [m.macro for m in sqlrank.REGISTRY.values()])  # every_measure calls them all
    con.register("qrels_frame", pd.DataFrame(
        [(q, d, label) for q, docs in qrels.items() for d, label in docs.items()],
        columns=["query_id", "doc_id", "relevance"]))
    con.register("run_frame", pd.DataFrame(
        [(f"r{n}", q, d, s) for n, run in enumerate(runs) for q, docs in run.items() for d, s in docs.items()],
        columns=["run_id", "query_id", "doc_id", "score"]))
    return con


@SETTINGS
@given(collections(), st.integers(1, 32), st.sampled_from(["double", "float32"]))
def test_heap_plan_equals_window_plan(collection, depth, precision):
    con = connection(*collection)
    columns = "run_id, query_id, doc_id, relevance, rank, num_ret"
    heap = con.execute(
        f"SELECT {columns} FROM sqlrank.judged_ranking('qrels_frame', 'run_frame', depth := {depth}, "
        f"score_precision := '{precision}') ORDER BY ALL").fetchall()
    # the window plan, cut to the same depth by hand
    window = con.execute(
        f"SELECT run_id, query_id, doc_id, relevance, rank, least(num_ret, {depth}) FROM "
        f"sqlrank.judged_ranking('qrels_frame', 'run_frame', score_precision := '{precision}') "
        f"WHERE rank <= {depth} ORDER BY ALL").fetchall()
    assert heap == window
    # the engine's call for ties='trec' over the whole run: judged_ranking's full plan alone, the same rows
    deep = "NULL" if depth % 2 else depth + 32
    alone = con.execute(
        f"SELECT {columns} FROM sqlrank.judged_full_ranking('qrels_frame', 'run_frame', score_precision := "
        f"'{precision}', depth := {deep}, zero_labels := false) ORDER BY ALL").fetchall()
    assert alone == con.execute(
        f"SELECT {columns} FROM sqlrank.judged_ranking('qrels_frame', 'run_frame', score_precision := "
        f"'{precision}', depth := {deep}, zero_labels := false) ORDER BY ALL").fetchall()
    # the heap plan really ran: no window in the plan
    plan = con.execute(f"EXPLAIN SELECT * FROM sqlrank.judged_ranking('qrels_frame', 'run_frame', depth := {depth})"
                       ).fetchall()[0][1]
    assert "WINDOW" not in plan.upper()


@pytest.mark.parametrize("depth", ["NULL", "10"])
def test_both_plans_refuse_an_unknown_score_precision(depth):
    """Each plan checks score_precision itself (the heap plan does not call sqlrank.ranked)."""
    con = connection({"q1": {"a": 1.0}}, [{"q1": {"a": 1.0, "b": 2.0}}])
    with pytest.raises(duckdb.Error, match="sqlrank: unknown score_precision 'half'"):
        con.execute(f"SELECT * FROM sqlrank.judged_ranking('qrels_frame', 'run_frame', depth := {depth}, "
                    "score_precision := 'half')").fetchall()


@settings(SETTINGS, max_examples=8)
@given(batches(3), st.sampled_from(["zero", "skip"]))
def test_cutoff_only_measures_match_the_full_ranking(collection, missing):
    qrels, runs = collection
    frame = pd.DataFrame([(f"r{n}", q, d, s) for n, run in enumerate(runs) for q, docs in run.items()
                          for d, s in docs.items()], columns=["run_id", "query_id", "doc_id", "score"])
    cutoff_only = ["nDCG@3", "P@5", "RR@10", "AP@4", "R@2", "Success@1", "DCG@3", "NumRet@2", "NumRelRet@3",
                   "NumRel"]
    heap = sqlrank.evaluate(qrels, frame, cutoff_only, missing=missing, allow_disjoint=True)  # independent draws
    full = sqlrank.evaluate(qrels, frame, cutoff_only + ["Rprec"], missing=missing,  # Rprec needs every rank
                            allow_disjoint=True)
    assert ranking_depth(parse_all(cutoff_only), None) == 10
    assert ranking_depth(parse_all(cutoff_only + ["Rprec"]), None) is None
    expected = {key: value for key, value in _numbers(full).items() if key[2] != "Rprec"}
    assert _numbers(heap) == pytest.approx(expected, abs=1e-12)


def _numbers(result) -> dict:
    return {(r["run_id"], r["query_id"], r["measure"]): r["value"] for r in result.to_arrow().to_pylist()}


@pytest.mark.parametrize(("measures", "depth", "expected"), [
    (["nDCG@10", "P@5"], None, 10),
    (["nDCG@10", "P@5"], 3, 3),            # the user's -M wins when smaller
    (["nDCG@10", "AP"], None, None),       # AP without a cutoff reads every rank
    (["nDCG@10", "P"], 50, 50),
    (["nDCG(ideal=run)@10"], None, None),  # re-sorts every retrieved label
    (["Rprec"], None, None),
    (["NumRel"], None, None),
    (["NumRel", "P@20"], None, 20),
])
def test_ranking_depth(measures, depth, expected):
    assert ranking_depth(parse_all(measures), depth) == expected


def test_a_depth_above_32_uses_the_window():
    con = sqlrank.connect()
    con.execute("CREATE TABLE q AS SELECT 'q1' AS query_id, 'a' AS doc_id, 1 AS relevance")
    con.execute("CREATE TABLE r AS SELECT 'q1' AS query_id, 'a' AS doc_id, 1.0 AS score")
    plan = con.execute("EXPLAIN SELECT * FROM sqlrank.judged_ranking('q', 'r', depth := 33)").fetchall()[0][1]
    assert "WINDOW" in plan.upper()


# ---------------------------------------------------------------- leaving the label-0 judgments out

EVERY_MEASURE_BUT_BPREF = ["nDCG", "nDCG@3", "DCG@2", "CG", "IDCG@2", "AP", "AP@3", "RR", "P", "P@2", "R@3", "Rprec",
                           "Success@2", "NumRet", "NumRel", "NumRelRet", "nDCG(ideal=run)", "AP(rel=2)", "P(rel=0.5)"]


@settings(SETTINGS, max_examples=3)  # six plans of the whole catalogue an example (docs/testing.md)
@given(batches(3), st.sampled_from([None, 3, 40]))
# here nDCGrel once differed in its last bit with and without the label-0 rows
@example(({"q1": {"9": 2.0, "x2": -1.0, "c": 2.0, "d": -1.0, "a": 3.0, "b": -1.0, "x3": -1.0, "e": 0.0, "é": 2.0,
                  "x1": 3.0}},
          [{"q1": {"b": -0.5, "e": -2.00001, "x1": 584.3471167596558, "é": -790.0150969930783, "a": 2.0,
                   "9": 705.0655337728981, "c": 1.0, "B": 3.686636831880654e-39, "10": 1.0,
                   "x3": 2.2668002254664236e-282, "x2": 2.0, "d": -0.5}}]), None)
def test_leaving_out_label_0_judgments_changes_no_number_that_does_not_read_them(collection, depth):
    con = connection(*collection)
    judged = {}
    for zero_labels in ("true", "false"):
        con.execute(f"CREATE OR REPLACE TABLE judged_{zero_labels} AS SELECT * FROM sqlrank.judged_ranking("
                    f"'qrels_frame', 'run_frame', depth := {'NULL' if depth is None else depth}, "
                    f"zero_labels := {zero_labels})")
        judged[zero_labels] = [con.execute(every_measure(f"sqlrank.rankings('qrels_frame', 'judged_{zero_labels}')", k=k)
                                           + " ORDER BY ALL").fetchall() for k in ("NULL", "1", "3")]
        # rank 1 stays for every ranking; no label-0 row survives without the zeros
        assert con.execute(f"SELECT count(*) FROM judged_{zero_labels} WHERE rank = 1").fetchall() == \
            con.execute("SELECT count(DISTINCT (run_id, query_id)) FROM run_frame").fetchall()
    assert con.execute("SELECT count(*) FROM judged_false WHERE relevance = 0").fetchall() == [(0,)]
    names = [row[0] for row in con.execute("DESCRIBE " + every_measure("sqlrank.rankings('qrels_frame', 'judged_true')"))
             .fetchall()]
    # every measure but those that read the judged non-relevant documents (bpref, ...)
    reading_zeros = {m.macro for m in sqlrank.REGISTRY.values() if "judged_nonrelevant" in m.needs}
    keep = [i for i, name in enumerate(names) if name not in reading_zeros]
    assert [[tuple(row[i] for i in keep) for row in rows] for rows in judged["false"]] == \
        [[tuple(row[i] for i in keep) for row in rows] for rows in judged["true"]]


@pytest.mark.parametrize(("measures", "expected"), [
    (EVERY_MEASURE_BUT_BPREF, False),
    (["nDCG@10", "bpref"], True),      # judged non-relevant documents, label 0 among them
    (["AP(rel=0)"], True),             # label 0 is relevant
    (["P@5"], False),
])
def test_which_measures_read_label_0_judgments(measures, expected):
    assert reads_zero_labels(parse_all(measures)) is expected


def test_evaluate_gives_the_same_numbers_with_or_without_the_zeros():
    qrels = {"q1": {"a": 0, "b": 2, "c": 0, "d": 1}, "q2": {"x": 0}}
    run = {"q1": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}, "q2": {"x": 1.0, "y": 0.5}}
    without = sqlrank.evaluate(qrels, run, EVERY_MEASURE_BUT_BPREF).to_arrow().to_pylist()
    with_bpref = sqlrank.evaluate(qrels, run, EVERY_MEASURE_BUT_BPREF + ["bpref"]).to_arrow().to_pylist()
    assert without == [row for row in with_bpref if row["measure"] != "bpref"]
    # q1: labels by rank [0, 2, 0, 1]; AP = (1/2 + 2/4) / 2
    assert {r["measure"]: r["value"] for r in without if r["query_id"] == "q1"}["AP"] == 0.5
