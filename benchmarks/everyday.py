"""The everyday sizes: a TREC-DL-sized run as a whole process, and the warm call of a notebook or a sweep.

  python benchmarks/everyday.py                    # every case, 5 interleaved rounds
  python benchmarks/everyday.py --rounds 9 --cases trec-dl,warm
  python benchmarks/everyday.py --cases connect    # what sqlrank.connect() costs
  python benchmarks/everyday.py --cases all-trec --all-trec QRELS RUN   # e.g. trectools' robust03 files

Cases (the sizes of issue 34):

* `trec-dl`: 43 queries x 1,000 documents, 200 judgments a query; five measures (nDCG@10, AP, RR,
  P@10, R@100), every per-query value written; whole processes (`/usr/bin/time -v`, run.py's
  run_once): `sqlrank eval -q -f csv` against pytrec_eval's script (its parse_qrel / parse_run,
  evaluate, write), ir_measures and ranx (numba's compilation included: a process pays it).
* `1M`: the same with 1,000 queries x 1,000 documents (no ranx: a minute a round).
* `100-runs`: 100 TREC-DL-sized runs (the run re-scored with 100 seeds) in one `sqlrank eval` against
  pytrec_eval's loop over them (the qrels parsed once, each run parsed and evaluated).
* in trec-dl, 1M and 100-runs, the floor: benchmarks/floor.sql, one hand-written DuckDB statement, on the same
  TREC text, nothing checked (contenders.py's floor-trec; for 100 runs floor-trec-runs, one statement over the
  folder); in warm, the same statement in a connection kept open, on the paths and on the same frames. What
  DuckDB alone takes at the size: no DuckDB engine comes under it.
* `all-trec`: `sqlrank eval -m all_trec -q -f csv` on a real TREC run given with `--all-trec QRELS RUN` (the
  issue's: trectools' test files robust03_cs_qrels.txt and input.uic0301, 100 queries x 1,000 documents, not
  shipped here) against pytrec_eval's script with every measure it has (`pytrec_eval.supported_measures`);
  the values of the measures both print are checked equal (1e-9) first.
* `warm`: the trec-dl case in one Python process after a first call: `sqlrank.evaluate(paths)` as the
  README shows it (no connection) against pytrec_eval's parse + evaluate, ir_measures' read + calc and
  ranx's from_file + evaluate (its compiled, warm path); then on data already in memory:
  `sqlrank.evaluate(DataFrames)` against pytrec_eval's evaluate on ready dicts and ranx's evaluate on
  ready Qrels / Run.
* `connect`: `sqlrank.connect()` (the whole library, as the DuckDB shell's users and every caller passing a
  connection get it) and `connect(table_macros=False)` (`sqlrank eval`'s), in one process after a first call.
* `recsys`: a recommender's validation loop, in one warm process: 10,000 users x 100 candidate items
  (int64 ids, float64 scores, 0/1 labels, every candidate judged), nDCG@10 + R@20; `sqlrank.evaluate` on
  pandas and on polars frames against torchmetrics' RetrievalNormalizedDCG and RetrievalRecall on CPU
  tensors (`indexes` = the user), update + compute. Needs torch and torchmetrics, which are not in any
  extra of sqlrank (a gigabyte for one benchmark row): install them beside sqlrank to run this case.

Every contender's per-query values are checked against pytrec_eval's first (1e-9). Rounds are
interleaved (each round runs every contender once), medians of CPU (user + system, all threads)
and wall time are reported. The section "Everyday sizes" of results.md is rewritten, the rest kept;
everyday.json keeps the rounds, and the results of the cases not run this time (as run.py's --keep).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import duckdb

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import contenders  # noqa: E402
import run as harness  # noqa: E402

MEASURES = contenders.MEASURES
PYTREC = contenders.PYTREC
TOLERANCE = 1e-9
# the hand-written DuckDB statement (benchmarks/floor.sql) on the same TREC text, nothing checked: what DuckDB
# alone takes at the size, a bound under any DuckDB engine's time (docs/performance.md, "round seven")
FLOORS = ("floor-trec", "floor-trec-runs")
# queries, documents a query, judgments a query
SHAPES = {"trec-dl": (43, 1000, 200), "1M": (1000, 1000, 200), "100-runs": (43, 1000, 200)}
USERS, CANDIDATES = 10_000, 100  # the recsys case
RECSYS_MEASURES = {"nDCG@10": ("RetrievalNormalizedDCG", 10), "R@20": ("RetrievalRecall", 20)}
RUNS = 100  # the runs of the 100-runs case
SECTION = harness.EVERYDAY_SECTION


def generate(workdir: Path, case: str) -> dict[str, Path]:
    """Deterministic TREC files of one shape (DuckDB's hash): graded labels 0-3, some relevant ones unretrieved."""
    queries, depth, judged = SHAPES[case]
    folder = workdir / f"everyday-{case}"
    files = {"qrels": folder / "qrels.trec", "run": folder / "run.trec"}
    if case == "100-runs":
        files["runs"] = folder / "runs"
    if all(path.exists() for path in files.values()):
        return files
    folder.mkdir(parents=True, exist_ok=True)
    doc = "'d' || ((q * 7919 + j * 104729) % 8841823)::VARCHAR"
    con = duckdb.connect()
    con.execute("SET preserve_insertion_order = true")
    run = (f"SELECT (1000 + q)::VARCHAR, 'Q0', {doc}, j + 1, round(30 - j * 0.025 + (hash(q, j) % 7) * 0.01, 4), "
           f"'everyday' FROM (SELECT i // {depth} AS q, i % {depth} AS j FROM range({queries * depth}) t(i))")
    # the pool's documents every sixth rank down to 6 x judged; higher labels near the top
    qrels = (f"SELECT (1000 + q)::VARCHAR, 0, {doc}, "
             f"CASE WHEN hash(q, j, 1) % 100 < 60 - j / 4 THEN hash(q, j, 2) % 3 + 1 ELSE 0 END "
             f"FROM (SELECT i // {judged} AS q, (i % {judged}) * 6 AS j FROM range({queries * judged}) t(i))")
    outputs = [(run, files["run"]), (qrels, files["qrels"])]
    if case == "100-runs":  # each run re-scored with its own seed: neighbours reordered differently
        files["runs"] = folder / "runs"
        files["runs"].mkdir(exist_ok=True)
        outputs = [(run.replace("(hash(q, j) % 7)", f"(hash(q, j, {seed}) % 97)"),
                    files["runs"] / f"run{seed:03d}.trec") for seed in range(1, RUNS + 1)] + outputs
    for select, path in outputs:
        con.execute(f"COPY ({select}) TO '{path}.tmp' (FORMAT csv, DELIMITER ' ', HEADER false, QUOTE '')")
        os.replace(f"{path}.tmp", path)
    return files


# ------------------------------------------------------------------ whole processes

def process_argv(name: str, files: dict, out: Path, measures: list[str] = MEASURES) -> list[str]:
    runs = sorted(map(str, files["runs"].glob("*.trec"))) if "runs" in files else [str(files["run"])]
    if name == "sqlrank":
        return [sys.executable, "-m", "sqlrank", "eval", str(files["qrels"]), *runs,
                *[arg for m in measures for arg in ("-m", m)], "-q", "-f", "csv", "-o", str(out)]
    run = str(files["runs"]) if "runs" in files else str(files["run"])
    return [sys.executable, str(HERE / "contenders.py"), name, str(files["qrels"]), run, "-o", str(out)]


def read_values(path: Path, runs: bool = False) -> dict[tuple, float]:
    """(query_id, measure), or (run_id, query_id, measure), -> value of a contender's CSV, the `all` rows left out."""
    key = "run_id, query_id, measure" if runs else "query_id, measure"
    rows = duckdb.sql(f"SELECT {key}, value FROM read_csv('{path}', all_varchar = true) "
                      "WHERE query_id <> 'all'").fetchall()
    return {tuple(row[:-1]): float(row[-1]) for row in rows}


# all_trec's measures whose per-query values pytrec_eval prints otherwise: gm_map and gm_bpref as their logs;
# iprec_at_recall (and 11pt_avg, their mean) on a few queries where a recall level is one a relevant document
# reaches exactly (query 320 of the robust03 run at 0.20). Not investigated further: sqlrank's values of these
# are held to trec_eval's own output (tests/test_conformance.py)
UNCOMPARED = ("gm_map", "gm_bpref", "iprec_at_recall_", "11pt_avg")


def largest_difference(reference: dict, other: dict, common: bool = False) -> float:
    """The largest difference of two contenders' values; common: over the rows both have (all_trec's measures)
    whose values both print the same way."""
    if common:
        reference = {key: value for key, value in reference.items()
                     if key in other and not key[-1].startswith(UNCOMPARED)}
        other = {key: value for key, value in other.items() if key in reference}
    if not reference or reference.keys() != other.keys():
        missing = sorted(reference.keys() ^ other.keys())[:3]
        raise SystemExit(f"the values differ in their rows, e.g. {missing}")
    return max(abs(reference[key] - other[key]) for key in reference)


def whole_processes(case: str, files: dict, outdir: Path, rounds: int) -> list[dict]:
    names = {"trec-dl": ["pytrec_eval-parse", "sqlrank", "ir_measures", "ranx", "floor-trec"],
             "1M": ["pytrec_eval-parse", "sqlrank", "ir_measures", "floor-trec"],
             "100-runs": ["pytrec_eval-runs", "sqlrank", "floor-trec-runs"],
             "all-trec": ["pytrec_eval-all", "sqlrank"]}[case]
    measures = ["all_trec"] if case == "all-trec" else MEASURES
    outputs = {name: outdir / f"{case}-{name}.csv" for name in names}
    samples: dict[str, list] = {name: [] for name in names}
    for number in range(rounds + 1):  # round 0 checks the values and warms the page cache, untimed
        for name in names:
            sample = harness.run_once(process_argv(name, files, outputs[name], measures))
            if number:
                samples[name].append(sample)
        if number == 0:
            runs = "runs" in files
            reference = read_values(outputs[names[0]], runs)
            for name in names[1:]:
                difference = largest_difference(reference, read_values(outputs[name], runs), case == "all-trec")
                if name in ("sqlrank", *FLOORS) and difference > TOLERANCE:
                    raise SystemExit(f"{case}: {name} differs from pytrec_eval by {difference:.3g}")
                print(f"[{case}] {name}: largest difference from pytrec_eval {difference:.3g}", flush=True)
    return [{"case": case, "contender": name, "kind": "whole process",
             "cpu": [s.cpu_seconds for s in samples[name]], "wall": [s.seconds for s in samples[name]],
             "rss_mb": max(s.rss_mb for s in samples[name])} for name in names]


# ------------------------------------------------------------------ warm calls, one process

def warm(files: dict, rounds: int) -> list[dict]:
    """The calls of a notebook: each contender once per round, after a first call; run in a child process."""
    import ir_measures
    import pandas as pd
    import pytrec_eval
    from ranx import Qrels, Run, evaluate as ranx_evaluate

    import sqlrank

    qrels_path, run_path = str(files["qrels"]), str(files["run"])
    qrels_frame = pd.read_csv(qrels_path, sep=" ", header=None, names=["query_id", "iter", "doc_id", "relevance"],
                              dtype={"query_id": str, "doc_id": str})[["query_id", "doc_id", "relevance"]]
    run_frame = pd.read_csv(run_path, sep=" ", header=None,
                            names=["query_id", "q0", "doc_id", "rank", "score", "tag"],
                            dtype={"query_id": str, "doc_id": str})[["query_id", "doc_id", "score"]]
    qrels_dict, run_dict = contenders.read_trec_qrels(qrels_path), contenders.read_trec_run(run_path)
    ir_names = [ir_measures.parse_measure(m) for m in MEASURES]
    ranx_metrics = list(contenders.RANX)
    ready_qrels, ready_run = Qrels(qrels_dict), Run(run_dict)
    # the floor's statement in a connection kept warm, over the paths and over the same frames
    floor_con = duckdb.connect()
    floor_con.execute("SET VARIABLE qrels = ?", [qrels_path])
    floor_con.execute("SET VARIABLE run = ?", [run_path])
    floor_con.register("qrels_frame", qrels_frame)
    floor_con.register("run_frame", run_frame)
    floor_paths = contenders.floor_sql()
    floor_frames = contenders.floor_sql({contenders.QRELS_READ: "qrels_frame", contenders.RUN_READ: "run_frame"})

    def pytrec_paths():
        with open(qrels_path) as f:
            qrels = pytrec_eval.parse_qrel(f)
        with open(run_path) as f:
            run = pytrec_eval.parse_run(f)
        return pytrec_eval.RelevanceEvaluator(qrels, set(PYTREC)).evaluate(run)

    calls = {
        "paths": {
            "sqlrank": lambda: sqlrank.evaluate(qrels_path, run_path, MEASURES),
            "pytrec_eval": pytrec_paths,
            "ir_measures": lambda: list(ir_measures.iter_calc(ir_names, ir_measures.read_trec_qrels(qrels_path),
                                                              ir_measures.read_trec_run(run_path))),
            "ranx (compiled, warm)": lambda: ranx_evaluate(Qrels.from_file(qrels_path, kind="trec"),
                                                           Run.from_file(run_path, kind="trec"), ranx_metrics,
                                                           make_comparable=True),
            "DuckDB floor": lambda: floor_con.execute(floor_paths).fetchall(),
        },
        "in memory": {
            "sqlrank": lambda: sqlrank.evaluate(qrels_frame, run_frame, MEASURES),
            "pytrec_eval": lambda: pytrec_eval.RelevanceEvaluator(qrels_dict, set(PYTREC)).evaluate(run_dict),
            "ranx (compiled, warm)": lambda: ranx_evaluate(ready_qrels, ready_run, ranx_metrics,
                                                           make_comparable=True),
            "DuckDB floor": lambda: floor_con.execute(floor_frames).fetchall(),
        },
    }
    reference = {(q, PYTREC[k]): v for q, values in pytrec_paths().items() for k, v in values.items()}
    for source in ("paths", "in memory"):
        result = calls[source]["sqlrank"]()
        mine = {(r["query_id"], r["measure"]): r["value"] for r in result.per_query.to_pylist()}
        floor = {(query, measure): value for query, measure, value in calls[source]["DuckDB floor"]()
                 if query != "all"}
        for name, values in (("sqlrank", mine), ("DuckDB floor", floor)):
            difference = largest_difference(reference, values)
            if difference > TOLERANCE:
                raise SystemExit(f"warm, {source}: {name} differs from pytrec_eval by {difference:.3g}")
        for call in calls[source].values():  # the first call of each: imports, compilation, caches
            call()
    samples = {(source, name): ([], []) for source, named in calls.items() for name in named}
    for _ in range(rounds):
        for source, named in calls.items():
            for name, call in named.items():
                cpu, wall = time.process_time(), time.perf_counter()
                call()
                samples[source, name][0].append(time.process_time() - cpu)
                samples[source, name][1].append(time.perf_counter() - wall)
    return [{"case": f"warm, {source}", "contender": name, "kind": "in process", "cpu": cpu, "wall": wall}
            for (source, name), (cpu, wall) in samples.items()]


def recsys(rounds: int) -> list[dict]:
    """A recommender's validation loop (the `recsys` case), run in a child process like `warm`."""
    import numpy as np
    import pandas as pd
    import polars as pl
    import torch
    import torchmetrics.retrieval

    import sqlrank

    generator = np.random.default_rng(34)
    users = np.repeat(np.arange(USERS, dtype=np.int64), CANDIDATES)
    items = generator.integers(0, 1_000_000, USERS * CANDIDATES, dtype=np.int64)
    items = items - items % CANDIDATES + np.tile(np.arange(CANDIDATES), USERS)  # distinct within a user
    scores = generator.random(USERS * CANDIDATES)
    labels = (generator.random(USERS * CANDIDATES) < 0.08).astype(np.int64)
    truth = pd.DataFrame({"query_id": users, "doc_id": items, "relevance": labels})
    ranked = pd.DataFrame({"query_id": users, "doc_id": items, "score": scores})
    frames = {"pandas": (truth, ranked), "polars": (pl.from_pandas(truth), pl.from_pandas(ranked))}
    indexes, preds, target = torch.from_numpy(users), torch.from_numpy(scores), torch.from_numpy(labels)
    metrics = {name: getattr(torchmetrics.retrieval, cls)(top_k=k) for name, (cls, k) in RECSYS_MEASURES.items()}

    def torchmetrics_loop():
        values = {}
        for name, metric in metrics.items():
            metric.update(preds, target, indexes=indexes)
            values[name] = float(metric.compute())
            metric.reset()
        return values

    calls = {f"sqlrank ({kind} frames)": (lambda q=q, r=r: sqlrank.evaluate(q, r, list(RECSYS_MEASURES)))
             for kind, (q, r) in frames.items()}
    calls["torchmetrics (CPU tensors)"] = torchmetrics_loop
    reference = torchmetrics_loop()
    for name, call in calls.items():  # the first call of each, and the check that the means agree
        if name.startswith("sqlrank"):
            means = call().summary
            difference = max(abs(means[m] - reference[m]) for m in RECSYS_MEASURES)
            if difference > 1e-6:  # torchmetrics sums in float32 on some paths
                raise SystemExit(f"recsys, {name}: the means differ from torchmetrics' by {difference:.3g}")
        call()
    samples = {name: ([], []) for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            cpu, wall = time.process_time(), time.perf_counter()
            call()
            samples[name][0].append(time.process_time() - cpu)
            samples[name][1].append(time.perf_counter() - wall)
    return [{"case": "recsys, 10k users x 100", "contender": name, "kind": "in process", "cpu": cpu, "wall": wall}
            for name, (cpu, wall) in samples.items()]


# ------------------------------------------------------------------ report

def connections(rounds: int) -> list[dict]:
    """The `connect` case: what `sqlrank.connect()` costs a DuckDB-shell user or a caller passing a connection
    (the whole library, the shell's table macros with it), and `connect(table_macros=False)`, the connection of
    `sqlrank eval` and of the process's own database; in a child process, after a first call (imports, the
    library's text read)."""
    import sqlrank

    sqlrank.connect().close()
    kinds = {"sqlrank.connect()": {}, "sqlrank.connect(table_macros=False)": {"table_macros": False}}
    samples = {name: ([], []) for name in kinds}
    for _ in range(rounds):
        for name, options in kinds.items():
            cpu, wall = time.process_time(), time.perf_counter()
            con = sqlrank.connect(**options)
            samples[name][0].append(time.process_time() - cpu)
            samples[name][1].append(time.perf_counter() - wall)
            con.close()
    return [{"case": "connect", "contender": name, "kind": "in process", "cpu": cpu, "wall": wall}
            for name, (cpu, wall) in samples.items()]


def median(values: list[float]) -> float:
    return statistics.median(values)


def section(results: list[dict]) -> str:
    """The table, and under it how each of the sessions that measured its rows ran."""
    lines = [SECTION, "",
             "Medians of interleaved rounds; the ratio is sqlrank's CPU time over the contender's (below 1: "
             "sqlrank is the cheaper). Every per-query value of sqlrank equals pytrec_eval's within 1e-9, "
             "checked before the timing (all-trec: the measures both print, less the few pytrec_eval prints "
             "otherwise, benchmarks/README.md).", "",
             "| case | contender | CPU s | wall s | sqlrank CPU / this | peak RSS MB |", "|---|---|---:|---:|---:|---:|"]
    for result in results:
        # the case's first sqlrank row (the recsys case has one per kind of frame) over each contender
        mine = next(r for r in results if r["case"] == result["case"] and r["contender"].startswith("sqlrank"))
        ratio = "" if result["contender"].startswith("sqlrank") else f"{median(mine['cpu']) / median(result['cpu']):.2f}"
        rss = f"{result['rss_mb']:,.0f}" if "rss_mb" in result else ""
        lines.append(f"| {result['case']} ({result['kind']}) | `{result['contender']}` | {median(result['cpu']):.3f} "
                     f"| {median(result['wall']):.3f} | {ratio} | {rss} |")
    lines.append("")
    for session in {json.dumps(result["session"], sort_keys=True): result["session"] for result in results}.values():
        cases = "; ".join(dict.fromkeys(r["case"] for r in results if r["session"] == session))
        lines.append(f"- {cases}: `{session['command']}`, {session['rounds']} rounds, on {session['machine']}; "
                     f"load average {session['load_before']} before, {session['load_after']} after")
    return "\n".join(lines) + "\n"


def write(results: list[dict]) -> None:
    """everyday.json and the section of results.md: these results, and the earlier ones of the cases not run now."""
    store = HERE / "everyday.json"
    earlier = json.loads(store.read_text())["results"] if store.exists() else []
    run_now = {result["case"] for result in results}
    results = [result for result in earlier if result["case"] not in run_now] + results
    store.write_text(json.dumps({"results": results}, indent=1) + "\n")
    path = HERE / "results.md"
    text = path.read_text() if path.exists() else ""
    kept, _, ours = text.partition(SECTION)
    kept = kept.rstrip("\n")
    after = ours[ours.find("\n## "):] if "\n## " in ours else ""  # the sections after ours (Fusion, ...) stay
    path.write_text((kept + "\n\n" if kept else "") + section(results) + after)


def load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cases", default="trec-dl,warm,1M,100-runs",
                    help="comma-separated: trec-dl, warm, 1M, 100-runs, connect, all-trec (needs --all-trec), "
                         "recsys (needs torch and torchmetrics)")
    ap.add_argument("--workdir", type=Path, default=HERE / ".data")
    ap.add_argument("--all-trec", nargs=2, type=Path, metavar=("QRELS", "RUN"),
                    help="the all-trec case's TREC files (e.g. trectools' robust03_cs_qrels.txt and input.uic0301)")
    ap.add_argument("--warm-child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--recsys-child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--connect-child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.warm_child:  # the warm calls' own process: its results as JSON on stdout
        print(json.dumps(warm(generate(args.workdir, "trec-dl"), args.rounds)))
        return
    if args.recsys_child:
        print(json.dumps(recsys(args.rounds)))
        return
    if args.connect_child:
        print(json.dumps(connections(args.rounds)))
        return
    cases = [case.strip() for case in args.cases.split(",") if case.strip()]
    session = {"command": "python benchmarks/everyday.py " + " ".join(sys.argv[1:]), "rounds": args.rounds,
               "machine": f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}, "
                          f"DuckDB {duckdb.__version__}",
               "load_before": load()}
    results = []
    for case in cases:
        if case in ("warm", "recsys", "connect"):  # in-process timings, each case in a fresh process of its own
            child = subprocess.run([sys.executable, __file__, f"--{case}-child", "--rounds", str(args.rounds),
                                    "--workdir", str(args.workdir)], capture_output=True, text=True)
            if child.returncode:
                raise SystemExit(child.stderr)
            results += json.loads(child.stdout.splitlines()[-1])
        else:
            outdir = args.workdir / "everyday-out"
            outdir.mkdir(parents=True, exist_ok=True)
            if case == "all-trec" and not args.all_trec:
                raise SystemExit("the all-trec case reads a real TREC run: give --all-trec QRELS RUN")
            files = ({"qrels": args.all_trec[0], "run": args.all_trec[1]} if case == "all-trec"
                     else generate(args.workdir, case))
            results += whole_processes(case, files, outdir, args.rounds)
        print(section([r | {"session": session | {"load_after": load()}} for r in results]), flush=True)
    session["load_after"] = load()
    write([result | {"session": session} for result in results])

if __name__ == "__main__":
    main()
