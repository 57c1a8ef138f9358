"""sqlrank.fuse and sqlrank.optimize_fusion against ranx.fuse and ranx.optimize_fusion, score by score to 1e-9.

Runs generated once per module (ranx runs interpreted: tests/ranx_reference.py): three runs over six queries,
each missing documents the others retrieved, once with distinct scores and once with tied scores.
Methods that read positions are compared on the runs without ties inside a run (ranx orders equal
scores by numpy's unstable argsort, sqlrank by doc id); after the borda norm ranx positions the
documents it added in its set's hash order, so the positional methods are not compared there.
"""

from __future__ import annotations

import itertools
import random
import warnings
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

import sqlrank
from sqlrank.fusion import METHODS, NORMS

from ranx_reference import ranx

RANX_DATA = Path(__file__).parent / "data" / "ranx"
WEIGHTS = [0.2, 0.45, 0.35]  # no two sums of weights equal: weighted condorcet has no drawn duels
PARAMETERS = {"gmnz": {"gamma": 0.4}, "rbc": {"phi": 0.8}, "logn_isr": {"sigma": 0.1}, "rrf": {"k": 20}}
POSITIONAL = {"isr", "log_isr", "logn_isr", "rrf", "rbc", "bordafuse", "w_bordafuse", "condorcet", "w_condorcet",
              "posfuse", "mapfuse", "probfuse", "segfuse", "slidefuse", "bayesfuse"}
TRAINED = {"posfuse", "mapfuse", "probfuse", "segfuse", "slidefuse", "bayesfuse"}  # tested below, with their training
CONDORCET = {"condorcet", "w_condorcet"}


def parameters(method: str) -> dict:
    return {"weights": WEIGHTS} if method.startswith("w") or method == "mixed" else PARAMETERS.get(method, {})


def generated(seed: int, tied: bool) -> dict:
    """{name: {query: {doc: score}}}: three runs of 4 to 12 of 20 documents per query, negative scores too."""
    rng = random.Random(seed)
    runs = {}
    for number in range(3):
        runs[f"r{number}"] = {
            f"q{query}": {doc: (float(rng.randint(0, 3)) if tied else rng.uniform(-2, 8))
                          for doc in rng.sample([f"d{i}" for i in range(20)], rng.randint(4, 12))}
            for query in range(6)}
    return runs


def arrow(run: dict) -> pa.Table:
    rows = [(query, doc, score) for query, docs in run.items() for doc, score in docs.items()]
    return pa.table({"query_id": [r[0] for r in rows], "doc_id": [r[1] for r in rows], "score": [r[2] for r in rows]})


def as_dict(table: pa.Table) -> dict:
    fused: dict = {}
    for row in table.to_pylist():
        fused.setdefault(row["query_id"], {})[row["doc_id"]] = row["score"]
    return fused


def ranx_fuse(runs: dict, method: str, norm: str) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba's type-safety warnings
        fused = ranx.fuse([ranx.Run(run, name=name) for name, run in runs.items()],
                          norm=None if norm == "none" else norm, method=method, params=parameters(method))
    return fused.to_dict()


def ranx_optimized(runs: dict, judged: dict, method: str) -> tuple[dict, dict]:
    """ranx.optimize_fusion's parameters over min-max normalized runs, and ranx.fuse's fusion with them."""
    ranx_runs = [ranx.Run(run, name=name) for name, run in runs.items()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parameters = ranx.optimize_fusion(ranx.Qrels(judged), ranx_runs, norm="min-max", method=method)
        return parameters, ranx.fuse(ranx_runs, norm="min-max", method=method, params=parameters).to_dict()


def sql_tables(runs: dict, judged: dict):
    """A connection holding the runs as one table `runs` (run_id, query_id, doc_id, score) and the judgments as
    `qrels`: the SQL door's inputs."""
    con = sqlrank.connect()
    con.execute("CREATE TABLE runs AS SELECT * FROM (VALUES " + ", ".join(
        f"('{name}', '{query}', '{doc}', {score!r})" for name, run in runs.items()
        for query, docs in run.items() for doc, score in docs.items()) + ") AS t(run_id, query_id, doc_id, score)")
    con.execute("CREATE TABLE qrels AS SELECT * FROM (VALUES " + ", ".join(
        f"('{query}', '{doc}', {label})" for query, docs in judged.items() for doc, label in docs.items())
        + ") AS t(query_id, doc_id, relevance)")
    return con


def assert_same(got: dict, want: dict, where: str) -> None:
    assert sorted(got) == sorted(want), where
    for query in want:
        assert sorted(got[query]) == sorted(want[query]), f"{where} {query}: other documents"
        for doc, score in want[query].items():
            assert got[query][doc] == pytest.approx(score, abs=1e-9, rel=0), f"{where} {query} {doc}"


def acyclic_queries(runs: dict, weights: list[float]) -> list[str]:
    """The queries whose majority duels order every document (no cycle, no draw): condorcet's one answer."""
    kept = []
    for query in next(iter(runs.values())):
        docs = sorted({doc for run in runs.values() for doc in run[query]})

        def beats(x, y):
            votes = [sum(w for w, run in zip(weights, runs.values()) if run[query][a] > run[query][b])
                     for a, b in ((x, y), (y, x))]
            return votes[0] > votes[1]

        wins = sorted(sum(beats(x, y) for y in docs if y != x) for x in docs)
        if wins == list(range(len(docs))):
            kept.append(query)
    return kept


@pytest.fixture(scope="module")
def distinct():
    return generated(1, tied=False)


@pytest.fixture(scope="module")
def tied():
    return generated(2, tied=True)


def test_every_method_equals_ranx_on_runs_missing_documents(distinct):
    sources = {name: arrow(run) for name, run in distinct.items()}
    for method in sorted(set(METHODS) - CONDORCET - TRAINED):
        got = as_dict(sqlrank.fuse(sources, method=method, norm="min-max", **parameters(method)))
        assert_same(got, ranx_fuse(distinct, method, "min-max"), method)


def test_every_norm_equals_ranx(distinct):
    sources = {name: arrow(run) for name, run in distinct.items()}
    for norm in NORMS:
        for method in ("mnz", "wsum") if norm == "borda" else ("mnz", "rrf"):
            got = as_dict(sqlrank.fuse(sources, method=method, norm=norm, **parameters(method)))
            assert_same(got, ranx_fuse(distinct, method, norm), f"{method}/{norm}")


def test_score_methods_equal_ranx_on_tied_scores(tied):
    sources = {name: arrow(run) for name, run in tied.items()}
    for method in sorted(set(METHODS) - POSITIONAL):
        norm = "zmuv" if method in ("wsum", "sum") else "none"
        got = as_dict(sqlrank.fuse(sources, method=method, norm=norm, **parameters(method)))
        assert_same(got, ranx_fuse(tied, method, norm), f"{method}/{norm}")


@pytest.mark.parametrize("method", sorted(CONDORCET))
def test_condorcet_equals_ranx_where_the_duels_order_the_documents(method):
    rng = random.Random(5)
    runs = {f"r{n}": {f"q{q}": {f"d{i}": rng.random() for i in range(6)} for q in range(30)} for n in range(3)}
    weights = WEIGHTS if method == "w_condorcet" else [1, 1, 1]
    queries = acyclic_queries(runs, weights)
    assert len(queries) >= 5
    got = as_dict(sqlrank.fuse({name: arrow(run) for name, run in runs.items()}, method=method, norm="none",
                               **parameters(method)))
    want = ranx_fuse(runs, method, "none")
    assert_same({q: got[q] for q in queries}, {q: want[q] for q in queries}, method)


def test_ranx_own_files(tmp_path):
    """ranx's test run fused with its qrels read as a run (labels as scores), from the TREC files."""
    run, qrels_as_run = RANX_DATA / "run.trec", tmp_path / "qrels_as_run.trec"
    qrels_as_run.write_text("".join(f"{q} Q0 {d} 0 {label} judged\n" for q, _, d, label in
                                    (line.split() for line in (RANX_DATA / "qrels.trec").read_text().splitlines())))
    runs = {"run": ranx.Run.from_file(str(run), kind="trec").to_dict(),
            "judged": ranx.Run.from_file(str(qrels_as_run), kind="trec").to_dict()}
    for method, norm in (("wsum", "min-max"), ("rrf", "none"), ("mnz", "zmuv"), ("bordafuse", "none")):
        params = {"weights": WEIGHTS[:2]} if method == "wsum" else {}
        got = as_dict(sqlrank.fuse({"run": run, "judged": qrels_as_run}, method=method, norm=norm, **params))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = ranx.fuse([ranx.Run(r) for r in runs.values()], norm=None if norm == "none" else norm,
                             method=method, params=params).to_dict()
        assert_same(got, want, f"{method}/{norm}")


@pytest.fixture(scope="module")
def overlapping():
    """Two runs scoring the same 15 documents of each query: no fused ties, so ranx's order and sqlrank's agree."""
    rng = random.Random(11)
    return {name: {f"q{query}": {f"d{i}": rng.uniform(0, 5) for i in range(15)} for query in range(8)}
            for name in ("bm25", "dense")}


@pytest.fixture(scope="module")
def qrels(overlapping):
    rng = random.Random(7)
    return {query: {f"d{i}": rng.randint(0, 2) for i in rng.sample(range(15), 6)} for query in overlapping["bm25"]}


# gmnz: every document is in both runs, so every gamma scales the scores alike and ties: ranx's `>=`
# keeps the last point of its grid (gamma 1.0), and so must sqlrank; its grid by 0.1, not 0.01, to stay quick
@pytest.mark.parametrize("method, metric, step", [("wsum", "ndcg@10", 0.1), ("gmnz", "map", 0.1)])
def test_optimize_fusion_chooses_ranx_parameters(overlapping, qrels, method, metric, step):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want, report = ranx.optimize_fusion(ranx.Qrels(qrels), [ranx.Run(run, name=n) for n, run in overlapping.items()],
                                            norm="min-max", method=method, metric=metric,
                                            return_optimization_report=True, show_progress=False, step=step)
    best, points = sqlrank.optimize_fusion(qrels, {name: arrow(run) for name, run in overlapping.items()},
                                           "nDCG@10" if metric == "ndcg@10" else "AP", method=method, norm="min-max",
                                           step=step)
    assert best == {name: (list(value) if isinstance(value, tuple) else value) for name, value in want.items()}
    assert points.num_rows == len(report.results) > 5
    assert method != "gmnz" or best == {"gamma": 1.0}
    assert points.column("value").to_pylist() == pytest.approx(report.results, abs=1e-9)


@pytest.mark.parametrize("method, trained", [("posfuse", "probs"), ("mapfuse", "map_scores")])
def test_supervised_methods_train_and_fuse_as_ranx(distinct, method, trained):
    rng = random.Random(3)
    judged = {query: {f"d{i}": rng.randint(0, 2) for i in rng.sample(range(20), 8)} for query in distinct["r0"]}
    want_parameters, want = ranx_optimized(distinct, judged, method)
    sources = {name: arrow(run) for name, run in distinct.items()}
    parameters_, _ = sqlrank.optimize_fusion(judged, sources, method=method)
    for got_run, want_run in zip(parameters_[trained], want_parameters[trained]):
        assert list(np.atleast_1d(got_run)) == pytest.approx(list(np.atleast_1d(want_run)), abs=1e-12)
    assert_same(as_dict(sqlrank.fuse(sources, method=method, **parameters_)), want, method)


@pytest.mark.parametrize("n_segments", [1, 3, 7])
def test_probfuse_trains_and_fuses_as_ranx(distinct, n_segments):
    """ProbFuse for one segment count: the SQL's probabilities equal ranx's probfuse_train, the fused scores its."""
    probfuse_train, norm_switch = ranx.fusion.probfuse_train, ranx.normalization.norm_switch
    rng = random.Random(3)
    judged = {query: {f"d{i}": rng.randint(0, 2) for i in rng.sample(range(20), 8)} for query in distinct["r0"]}
    runs = [ranx.Run(run, name=name) for name, run in distinct.items()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want_probs = probfuse_train(ranx.Qrels(judged), [norm_switch("min-max")(run) for run in runs], n_segments)
        want = ranx.fuse(runs, norm="min-max", method="probfuse", params={"probs": want_probs}).to_dict()
    con = sql_tables(distinct, judged)
    got_probs = [[0.0] * n_segments for _ in runs]
    for run_number, segment, probability in con.execute(
            f"SELECT * FROM sqlrank.fusion_segment_probabilities('qrels', 'runs', {n_segments})").fetchall():
        got_probs[run_number - 1][segment - 1] = probability
    for got_run, want_run in zip(got_probs, want_probs):
        assert got_run == pytest.approx(list(want_run), abs=1e-12)
    got = as_dict(sqlrank.fuse({name: arrow(run) for name, run in distinct.items()}, method="probfuse", probs=got_probs))
    assert_same(got, want, f"probfuse {n_segments}")


# ---------------------------------------------------------------- SegFuse, SlideFuse, BayesFuse

@pytest.fixture(scope="module")
def long_runs():
    """Three runs of 3 to 45 documents per query (SegFuse's segments end at 5, 15, 35; BayesFuse's at 5 ... 30,
    100), distinct scores, and qrels judging 25 of the 60 documents of each query."""
    rng = random.Random(13)
    runs = {f"r{n}": {f"q{q}": {f"d{i}": rng.uniform(-2, 8) for i in rng.sample(range(60), rng.randint(3, 45))}
                      for q in range(6)} for n in range(3)}
    judged = {f"q{q}": {f"d{i}": rng.randint(0, 2) for i in rng.sample(range(60), 25)} for q in range(6)}
    return runs, judged


@pytest.mark.parametrize("method, trained", [("segfuse", "probs"), ("bayesfuse", "log_odds")])
def test_segfuse_and_bayesfuse_train_and_fuse_as_ranx(long_runs, method, trained):
    runs, judged = long_runs
    want_parameters, want = ranx_optimized(runs, judged, method)
    sources = {name: arrow(run) for name, run in runs.items()}
    parameters_, table = sqlrank.optimize_fusion(judged, sources, method=method)
    assert [len(values) for values in parameters_[trained]] == [10 if method == "segfuse" else 1000] * 3
    for got_run, want_run in zip(parameters_[trained], want_parameters[trained]):
        assert got_run == pytest.approx(list(want_run), abs=1e-12)
    assert table.num_rows == sum(len(values) for values in parameters_[trained])
    assert_same(as_dict(sqlrank.fuse(sources, method=method, **parameters_)), want, method)
    # ranx's own trained parameters (numpy arrays) are taken as they are
    assert_same(as_dict(sqlrank.fuse(sources, method=method, **want_parameters)), want, f"{method}, ranx's parameters")


def test_the_sql_door_trains_and_fuses_bayesfuse_and_slidefuse(long_runs):
    """The DuckDB macros alone: training tables turned into the probs lists by a subquery, as docs/fusion.md shows."""
    slidefuse_train, norm_switch = ranx.fusion.slidefuse_train, ranx.normalization.norm_switch
    runs, judged = long_runs
    ranx_runs = [ranx.Run(run, name=name) for name, run in runs.items()]
    con = sql_tables(runs, judged)
    # trained once into a variable (a subquery given as probs := would be run wherever the macro reads probs)
    lists = ("SET VARIABLE trained = (SELECT list(trained ORDER BY run_number) FROM (SELECT run_number, "
             "list({value} ORDER BY {index}) AS trained FROM sqlrank.{macro}('qrels', 'runs') GROUP BY run_number))")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        log_odds = ranx.optimize_fusion(ranx.Qrels(judged), ranx_runs, method="bayesfuse")
        want = ranx.fuse(ranx_runs, method="bayesfuse", params=log_odds).to_dict()
        probs = slidefuse_train(ranx.Qrels(judged), [norm_switch("min-max")(run) for run in ranx_runs])
    con.execute(lists.format(value="log_odds", index="position", macro="fusion_bayesfuse_log_odds"))
    got = con.sql("SELECT * FROM sqlrank.fuse('runs', method := 'bayesfuse', probs := getvariable('trained'))").to_arrow_table()
    assert_same(as_dict(got), want, "bayesfuse in SQL")
    con.execute(lists.format(value="probability", index="position", macro="fusion_position_probabilities"))
    for w in (2, 60):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = ranx.fuse(ranx_runs, method="slidefuse", params={"probs": probs, "w": w}).to_dict()
        got = con.sql(f"SELECT * FROM sqlrank.fuse('runs', method := 'slidefuse', w := {w}, "
                      "probs := getvariable('trained'))").to_arrow_table()
        assert_same(as_dict(got), want, f"slidefuse w={w} in SQL")


def test_slidefuse_chooses_ranx_window_over_its_grid():
    """optimize_fusion's 100 windows against ranx's report. A query's relevant documents are those retrieved by one
    set of runs, the unjudged ones by other sets: the fused scores that tie (every w past a list's length ties
    the documents of the same runs) are then those of documents with the same label, whose order AP does not see."""
    rng = random.Random(17)
    run_sets = [subset for size in (1, 2, 3) for subset in itertools.combinations(range(3), size)]
    runs = {f"r{n}": {} for n in range(3)}
    judged = {}
    for query in (f"q{q}" for q in range(8)):
        relevant_runs = rng.choice(run_sets[:6])
        placed = [(f"d{i}", relevant_runs if rng.random() < 0.3 else rng.choice([s for s in run_sets if s != relevant_runs]))
                  for i in range(30)]
        for number, run in enumerate(runs.values()):
            run[query] = {doc: rng.uniform(0, 10) for doc, subset in placed if number in subset}
        judged[query] = {doc: 1 for doc, subset in placed if subset == relevant_runs}
    ranx_runs = [ranx.Run(run, name=name) for name, run in runs.items()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want, report = ranx.optimize_fusion(ranx.Qrels(judged), ranx_runs, norm="min-max", method="slidefuse",
                                            metric="map", return_optimization_report=True, show_progress=False)
    best, points = sqlrank.optimize_fusion(judged, {name: arrow(run) for name, run in runs.items()}, "AP",
                                           method="slidefuse")
    assert points.num_rows == len(report.results) == 100 and best["w"] == want["w"]
    # the windows whose fused run ties a relevant document with an unjudged one (small w: equal window sums)
    # are ordered by ranx's argsort and by sqlrank's doc ids apart: compared everywhere else
    con = sqlrank.connect()
    con.register("runs", pa.table({"run_id": [n for n, run in runs.items() for docs in run.values() for _ in docs],
                                   "query_id": [q for run in runs.values() for q, docs in run.items() for _ in docs],
                                   "doc_id": [d for run in runs.values() for docs in run.values() for d in docs],
                                   "score": [s for run in runs.values() for docs in run.values() for s in docs.values()]}))
    con.register("relevant", pa.table({"query_id": [q for q, docs in judged.items() for _ in docs],
                                       "doc_id": [d for docs in judged.values() for d in docs]}))
    tied = {w for (w,) in con.execute(
        "SELECT DISTINCT w FROM sqlrank.fusion_slidefuse_windows('runs', $probs, range(1, 101)) AS fused "
        "LEFT JOIN (SELECT *, true AS judged FROM relevant) USING (query_id, doc_id) "
        "GROUP BY w, query_id, score HAVING count(DISTINCT coalesce(judged, false)) > 1",
        {"probs": best["probs"]}).fetchall()}
    assert len(tied) < 10
    untied = [w for w in range(1, 101) if w not in tied]
    values = points.column("value").to_pylist()
    assert [values[w - 1] for w in untied] == pytest.approx([report.results[w - 1] for w in untied], abs=1e-9)
    assert len({round(values[w - 1], 9) for w in untied}) > 10
    for got_run, want_run in zip(best["probs"], want["probs"]):
        assert got_run == pytest.approx(list(want_run), abs=1e-12)
