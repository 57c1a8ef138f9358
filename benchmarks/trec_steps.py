"""Where the TREC path's CPU time goes, step by step: sqlrank, floor-trec-checked and pytrec_eval.

  python benchmarks/trec_steps.py benchmarks/.data/10M [--repeat 3] [--threads N] [--memory-limit 4GB]

Each repetition runs, as fresh processes taking turns, (1) `sqlrank.evaluate` on the TREC files,
its steps measured by cProfile with the process's CPU clock (user + system of every thread, so
DuckDB's worker threads count too), (2) floor-trec-checked's three statements (read the text
into tables, sqlrank's checks, floor.sql) and (3) the pytrec_eval contender's steps (the text read
into dicts in Python, then its C++ evaluation), each timed with the same clock. The machine may run
other work meanwhile, so CPU time is the measure; medians over the repetitions are printed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

# (step, the functions whose cumulative CPU time it is): the steps sqlrank.evaluate takes on TREC text
SQLRANK_STEPS = {
    "byte scan (plain_bytes, both files)": ["plain_bytes"],
    "read the text into tables (load_fast)": ["load_fast"],
    "checks (ids, numbers, duplicate screen)": ["validate"],
    "connect, install the macros": ["connect"],
    "measures and the all rows": ["to_arrow_table"],
}


def sqlrank_child(args) -> dict:
    """sqlrank.evaluate on the TREC files under cProfile (CPU clock); the CPU seconds of each step."""
    import cProfile
    import pstats

    cpu0 = time.process_time()
    import pyarrow.csv as pacsv

    import sqlrank

    imports = time.process_time() - cpu0
    profile = cProfile.Profile(time.process_time)
    cpu1 = time.process_time()
    profile.enable()
    result = sqlrank.evaluate(args.qrels, args.run, ["nDCG@10", "AP", "RR", "P@10", "R@100"],
                              threads=args.threads, memory_limit=args.memory_limit)
    table = result.to_arrow()
    profile.disable()
    evaluate = time.process_time() - cpu1
    cpu2 = time.process_time()
    pacsv.write_csv(table, args.out)
    write = time.process_time() - cpu2
    stats = pstats.Stats(profile).stats  # {(file, line, name): (calls, ncalls, tottime, cumtime, callers)}
    steps = {}
    for step, names in SQLRANK_STEPS.items():
        steps[step] = sum(value[3] for key, value in stats.items() if key[2] in names)
    # the statements of the pass are the ones engine._evaluate executes itself: cProfile does not see
    # DuckDB's C methods, so their time is _evaluate's own
    steps["rank and judge (one pass over the run)"] = sum(value[2] for key, value in stats.items()
                                                          if key[2] == "_evaluate")
    steps["other (coverage, Result)"] = evaluate - sum(steps.values())
    return {"imports": imports, **steps, "write CSV": write, "total": imports + evaluate + write}


def floor_child(args) -> dict:
    """floor-trec-checked (contenders.py) with each of its statements timed on the CPU clock."""
    cpu0 = time.process_time()
    import contenders

    con = contenders.duckdb_connect(args)
    imports = time.process_time() - cpu0
    con.execute("SET VARIABLE qrels = ?", [args.qrels])
    con.execute("SET VARIABLE run = ?", [args.run])
    sql = contenders.floor_sql(contenders.CHECKED_TABLES)
    steps = {"imports, connect": imports, "read the text into tables": 0.0, "checks (ids, numbers, duplicate screen)": 0.0}
    for parquet, table in contenders.CHECKED_TABLES.items():
        cpu = time.process_time()
        con.execute(f"CREATE TEMP TABLE {table} AS SELECT * FROM {contenders.TREC_READERS[parquet]}")
        steps["read the text into tables"] += time.process_time() - cpu
        cpu = time.process_time()
        rows, bad, equal_hashes = contenders.check_table(con, table, contenders.CHECKED_VALUES[parquet])
        steps["checks (ids, numbers, duplicate screen)"] += time.process_time() - cpu
        if rows == 0 or bad or equal_hashes:
            raise SystemExit(f"{table}: {rows} rows, {bad} bad, {equal_hashes} equal pair hashes")
    cpu = time.process_time()
    con.execute(f"COPY ({sql}) TO '{args.out}' (FORMAT csv, HEADER true)")
    steps["floor.sql (rank, judge, measures, write CSV)"] = time.process_time() - cpu
    steps["total"] = sum(steps.values())
    return steps


def pytrec_eval_child(args) -> dict:
    """The pytrec_eval contender (contenders.py) with each of its steps timed on the CPU clock."""
    cpu0 = time.process_time()
    import contenders
    import pytrec_eval

    steps = {"imports": time.process_time() - cpu0}
    cpu = time.process_time()
    qrels = contenders.read_trec_qrels(args.qrels)
    steps["read the qrels text into dicts"] = time.process_time() - cpu
    cpu = time.process_time()
    run = contenders.read_trec_run(args.run)
    steps["read the run text into dicts"] = time.process_time() - cpu
    cpu = time.process_time()
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(contenders.PYTREC))
    results = evaluator.evaluate(run)
    steps["RelevanceEvaluator and evaluate"] = time.process_time() - cpu
    cpu = time.process_time()
    contenders.write_long(args.out, {q: {contenders.PYTREC[k]: v for k, v in r.items()} for q, r in results.items()})
    steps["write CSV"] = time.process_time() - cpu
    steps["total"] = sum(steps.values())
    return steps


CHILDREN = {"floor": floor_child, "sqlrank": sqlrank_child, "pytrec_eval": pytrec_eval_child}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", type=Path, help="a generated size's folder (qrels.trec, run.trec)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int)
    ap.add_argument("--memory-limit")
    ap.add_argument("--child", choices=CHILDREN, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        args.qrels, args.run = str(args.data / "qrels.trec"), str(args.data / "run.trec")
        args.out, args.temp_directory = str(args.data / f"steps-{args.child}.csv"), None
        print(json.dumps(CHILDREN[args.child](args)))
        return
    runs: dict[str, list[dict]] = {child: [] for child in CHILDREN}
    for _ in range(args.repeat):
        for child in runs:
            argv = [sys.executable, __file__, str(args.data), "--child", child]
            for key in ("threads", "memory_limit"):
                if getattr(args, key):
                    argv += [f"--{key.replace('_', '-')}", str(getattr(args, key))]
            out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
            runs[child].append(json.loads(out.strip().splitlines()[-1]))
    for child, samples in runs.items():
        print(f"{child} (CPU s, medians of {len(samples)}):")
        for step in samples[0]:
            print(f"  {step:50s} {statistics.median(s[step] for s in samples):7.2f}")


if __name__ == "__main__":
    main()
