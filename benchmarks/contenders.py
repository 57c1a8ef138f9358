"""One benchmark contender per invocation, run as its own process by run.py.

  python benchmarks/contenders.py NAME QRELS RUN -o OUT [--threads N] [--memory-limit 4GB]
      [--temp-directory DIR]

Every contender does what a user would do end to end (read the files,
evaluate, write the per-query results) and writes the long table
query_id,measure,value as CSV (query_id 'all' = the tool's own mean), so
run.py can check the numbers.  Anything else worth reporting (ranx's JIT
warm-up) is printed as one JSON line on stdout.

Names: floor, floor-checked, floor-cutoffs, floor-trec, floor-trec-checked, floor-trec-runs (RUN a folder of
runs), scan, window, sqlrank-api,
pytrec_eval, pytrec_eval-parse (its own parse_qrel / parse_run), pytrec_eval-all (the same with every measure it
has), pytrec_eval-runs (RUN a folder of runs), ir_measures, ranx, and the DataFrame contenders floor-polars, sqlrank-frame (--frame
pandas|polars|arrow|parquet), ranx-frame. A DataFrame contender reads the Parquet files into frames
first, then times only the evaluation (printed as JSON: frames_s, eval_s, and ranx's jit_s).
"""

from __future__ import annotations

import argparse
import csv
import functools
import importlib.util
import json
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MEASURES = ["nDCG@10", "AP", "RR", "P@10", "R@100"]
PYTREC = {"ndcg_cut_10": "nDCG@10", "map": "AP", "recip_rank": "RR", "P_10": "P@10", "recall_100": "R@100"}
RANX = {"ndcg@10": "nDCG@10", "map": "AP", "mrr": "RR", "precision@10": "P@10", "recall@100": "R@100"}


def duckdb_connect(args):
    import duckdb

    con = duckdb.connect()
    if args.threads:
        con.execute(f"SET threads = {int(args.threads)}")
    if args.memory_limit:
        con.execute(f"SET memory_limit = '{args.memory_limit}'")
    if args.temp_directory:
        con.execute(f"SET temp_directory = '{args.temp_directory}'")
    return con


def write_long(out: str, per_query: dict[str, dict[str, float]]) -> None:
    """per_query: {query_id: {measure: value}}; appends the plain mean as 'all'."""
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["query_id", "measure", "value"])
        totals: dict[str, float] = {}
        for qid, values in per_query.items():
            for m, v in values.items():
                w.writerow([qid, m, repr(float(v))])
                totals[m] = totals.get(m, 0.0) + float(v)
        for m, total in totals.items():
            w.writerow(["all", m, repr(total / max(len(per_query), 1))])


def floor(args, script: str = "floor.sql") -> None:
    run_floor(duckdb_connect(args), args, (HERE / script).read_text())


def run_floor(con, args, sql: str) -> None:
    """A floor's statement over args.qrels and args.run, its long table written to args.out."""
    con.execute("SET VARIABLE qrels = ?", [args.qrels])
    con.execute("SET VARIABLE run = ?", [args.run])
    con.execute(f"COPY ({sql}) TO '{args.out}' (FORMAT csv, HEADER true)")


# The readers a hand-written statement would use for TREC text: DuckDB's CSV reader splitting the
# fields at single spaces (as the benchmark's files are written), the columns named, nothing checked.
# floor.sql's two reads, which the other floors replace with their own sources
QRELS_READ, RUN_READ = "read_parquet(getvariable('qrels'))", "read_parquet(getvariable('run'))"
_TREC_TEXT = "header = false, delim = ' ', quote = '', escape = '', auto_detect = false"
TREC_READERS = {
    QRELS_READ:
        f"read_csv(getvariable('qrels'), {_TREC_TEXT}, columns = {{'query_id': 'VARCHAR', 'iteration': 'VARCHAR', "
        "'doc_id': 'VARCHAR', 'relevance': 'INTEGER'})",
    RUN_READ:
        f"read_csv(getvariable('run'), {_TREC_TEXT}, columns = {{'query_id': 'VARCHAR', 'q0': 'VARCHAR', "
        "'doc_id': 'VARCHAR', 'rank': 'VARCHAR', 'score': 'DOUBLE', 'tag': 'VARCHAR'})",
}


def floor_sql(sources: dict[str, str] = TREC_READERS) -> str:
    """floor.sql reading `sources` (QRELS_READ and RUN_READ each replaced; the TREC text readers unless told)."""
    sql = (HERE / "floor.sql").read_text()
    for parquet, source in sources.items():
        if parquet not in sql:  # floor.sql changed its reads: this floor would silently read Parquet
            raise SystemExit(f"floor.sql no longer reads {parquet}; update QRELS_READ / RUN_READ in contenders.py")
        sql = sql.replace(parquet, source)
    return sql


def floor_trec(args) -> None:
    """floor.sql reading the TREC text files instead of Parquet: the floor for every contender that reads TREC."""
    run_floor(duckdb_connect(args), args, floor_sql())


def floor_trec_runs(args) -> None:
    """floor-trec over a folder of runs (RUN, as pytrec_eval-runs) in one statement: the floor of one `sqlrank eval`
    of many runs. Each query id is prefixed with its run's name (the file's, without .trec) and the qrels are
    repeated for each run, so floor.sql's per-query work is per run and query; run_id,query_id,measure,value
    written, each run's mean as query_id 'all'."""
    files = sorted(Path(args.run).glob("*.trec"))
    paths = "[" + ", ".join("'" + str(path).replace("'", "''") + "'" for path in files) + "]"
    run_files = TREC_READERS[RUN_READ].replace("getvariable('run')", f"{paths}, filename = true")
    prefixed = {
        QRELS_READ: f"(SELECT run_id || chr(31) || query_id AS query_id, doc_id, relevance "
                    f"FROM {TREC_READERS[QRELS_READ]} "
                    f"CROSS JOIN (SELECT parse_filename(unnest({paths}), true) AS run_id))",
        RUN_READ: f"(SELECT parse_filename(filename, true) || chr(31) || query_id AS query_id, doc_id, score "
                  f"FROM {run_files})",
    }
    per_query = (f"SELECT split_part(query_id, chr(31), 1) AS run_id, split_part(query_id, chr(31), 2) AS query_id, "
                 f"measure, value FROM ({floor_sql(prefixed)}) WHERE query_id <> 'all'")
    con = duckdb_connect(args)
    con.execute("SET VARIABLE qrels = ?", [args.qrels])
    con.execute(f"COPY (WITH per_query AS ({per_query}) SELECT * FROM per_query UNION ALL "
                f"SELECT run_id, 'all', measure, avg(value) FROM per_query GROUP BY ALL) "
                f"TO '{args.out}' (FORMAT csv, HEADER true)")


@functools.cache
def sqlrank_pair_screen():
    """sqlrank's own duplicate screen, sqlrank/checks/pair_screen.py, loaded from its file.

    The checked floor then checks exactly as sqlrank does (one fetch or a stream of the pair
    hashes, numpy's sort), without importing the sqlrank package (its engine, its CLI, typer).
    """
    path = HERE.parent / "sqlrank" / "checks" / "pair_screen.py"
    spec = importlib.util.spec_from_file_location("sqlrank_pair_screen", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_file(con, path: str, value: str) -> tuple[int, int, int]:
    """(rows, bad rows, equal neighbouring pair hashes) of one Parquet file, by sqlrank's screen."""
    return check_table(con, "read_parquet('" + path.replace("'", "''") + "')", value)


def check_table(con, table: str, value: str) -> tuple[int, int, int]:
    """(rows, bad rows, equal neighbouring pair hashes) of a table (SQL), by sqlrank's screen.

    The bad rows are the ones sqlrank refuses (an empty id, a value that is no number or NaN). An equal
    pair of hashes sends sqlrank to an exact check; here it stops the benchmark.
    """
    pair_screen = sqlrank_pair_screen()
    ids = ["query_id", "doc_id"]
    return pair_screen.screen(con, table, ids, pair_screen.bad_row(ids, value))


def floor_checked(args) -> None:
    """floor.sql after sqlrank's input checks: what the floor costs when it may not trust its input."""
    con = duckdb_connect(args)
    # The checks read the whole run, and DuckDB would keep the file's bytes in its buffer pool
    # (the external file cache), leaving the window less of the memory limit: at 100M rows under
    # 4GB floor.sql then took 24.3 s after the checks instead of 13.0 s. sqlrank's own ranking
    # showed no such loss (26.4 s without the cache, 25.0 s with it), so only this floor turns it off.
    con.execute("SET enable_external_file_cache = false")
    for path, value in ((args.qrels, "relevance"), (args.run, "score")):
        rows, bad, equal_hashes = check_file(con, path, value)
        if rows == 0 or bad or equal_hashes:
            raise SystemExit(f"{path}: {rows} rows, {bad} bad, {equal_hashes} equal pair hashes")
    run_floor(con, args, (HERE / "floor.sql").read_text())


# floor-trec-checked's tables of the text (benchmarks/trec_steps.py times the same steps), and the value each checks
CHECKED_TABLES = {QRELS_READ: "qrels_text", RUN_READ: "run_text"}
CHECKED_VALUES = {QRELS_READ: "relevance", RUN_READ: "score"}


def floor_trec_checked(args) -> None:
    """floor-trec after sqlrank's input checks: the text read once into tables, checked, then floor.sql on them.

    The checks are floor-checked's (rows, ids, numbers, duplicate pairs); DuckDB's CSV reader refuses a
    line with the wrong number of fields itself. sqlrank's other TREC rules (its byte scan for tabs and
    other separators, comment lines, `1_000` scores) are its own cost, outside this floor.
    """
    con = duckdb_connect(args)
    con.execute("SET VARIABLE qrels = ?", [args.qrels])
    con.execute("SET VARIABLE run = ?", [args.run])
    sql = floor_sql(CHECKED_TABLES)
    for parquet, table in CHECKED_TABLES.items():
        con.execute(f"CREATE TEMP TABLE {table} AS SELECT * FROM {TREC_READERS[parquet]}")
        rows, bad, equal_hashes = check_table(con, table, CHECKED_VALUES[parquet])
        if rows == 0 or bad or equal_hashes:
            raise SystemExit(f"{table}: {rows} rows, {bad} bad, {equal_hashes} equal pair hashes")
    con.execute(f"COPY ({sql}) TO '{args.out}' (FORMAT csv, HEADER true)")


def floor_cutoffs(args) -> None:
    floor(args, "floor_cutoffs.sql")


def scan(args) -> None:
    # Just read the run: the cost of touching every row once.
    con = duckdb_connect(args)
    res = con.execute("SELECT count(*), sum(score) FROM read_parquet(?)", [args.run]).fetchall()
    Path(args.out).write_text(f"{res}\n")


def window(args) -> None:
    # Read the run and rank it; sum(rank) keeps the window from being pruned.
    con = duckdb_connect(args)
    res = con.execute(
        """SELECT count(*), sum(rank) FROM (
               SELECT row_number() OVER (PARTITION BY query_id ORDER BY score DESC, doc_id DESC) AS rank
               FROM read_parquet(?))""",
        [args.run],
    ).fetchall()
    Path(args.out).write_text(f"{res}\n")


def sqlrank_api(args) -> None:
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import sqlrank

    res = sqlrank.evaluate(
        args.qrels,
        args.run,
        MEASURES,
        score_precision=args.score_precision,
        threads=args.threads,
        memory_limit=args.memory_limit,
        temp_directory=args.temp_directory,
    )
    pacsv.write_csv(pa.Table.from_pandas(res.to_pandas(), preserve_index=False), args.out)


def read_trec_qrels(path: str) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with open(path) as f:
        for line in f:
            qid, _, doc, rel = line.split()
            qrels.setdefault(qid, {})[doc] = int(rel)
    return qrels


def read_trec_run(path: str) -> dict[str, dict[str, float]]:
    run: dict[str, dict[str, float]] = {}
    with open(path) as f:
        for line in f:
            qid, _, doc, _, score, _ = line.split()
            run.setdefault(qid, {})[doc] = float(score)
    return run


def pytrec_eval_(args) -> None:
    import pytrec_eval

    qrels = read_trec_qrels(args.qrels)
    run = read_trec_run(args.run)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(PYTREC))
    results = evaluator.evaluate(run)
    write_long(args.out, {q: {PYTREC[k]: v for k, v in r.items()} for q, r in results.items()})


def pytrec_eval_parse(args) -> None:
    """pytrec_eval as its README shows it: its own parsers, then evaluate (the everyday section's script)."""
    import pytrec_eval

    with open(args.qrels) as f:
        qrels = pytrec_eval.parse_qrel(f)
    with open(args.run) as f:
        run = pytrec_eval.parse_run(f)
    results = pytrec_eval.RelevanceEvaluator(qrels, set(PYTREC)).evaluate(run)
    write_long(args.out, {q: {PYTREC[k]: v for k, v in r.items()} for q, r in results.items()})


def pytrec_eval_all(args) -> None:
    """pytrec_eval_parse with every measure pytrec_eval has (`-m all_trec`'s contender), under trec_eval's names;
    its text values (runid, relstring) are left out, as they are no numbers to compare."""
    import pytrec_eval

    with open(args.qrels) as f:
        qrels = pytrec_eval.parse_qrel(f)
    with open(args.run) as f:
        run = pytrec_eval.parse_run(f)
    results = pytrec_eval.RelevanceEvaluator(qrels, pytrec_eval.supported_measures).evaluate(run)
    write_long(args.out, {q: {k: v for k, v in r.items() if isinstance(v, (int, float))} for q, r in results.items()})


def pytrec_eval_runs(args) -> None:
    """pytrec_eval's loop over many runs (RUN: a folder of .trec files): the qrels parsed once, each run parsed
    and evaluated; run_id,query_id,measure,value written, run_id the file's name without .trec."""
    import pytrec_eval

    with open(args.qrels) as f:
        evaluator = pytrec_eval.RelevanceEvaluator(pytrec_eval.parse_qrel(f), set(PYTREC))
    with open(args.out, "w", newline="") as out:
        w = csv.writer(out)
        w.writerow(["run_id", "query_id", "measure", "value"])
        for path in sorted(Path(args.run).glob("*.trec")):
            with open(path) as f:
                results = evaluator.evaluate(pytrec_eval.parse_run(f))
            w.writerows([path.stem, q, PYTREC[k], repr(v)] for q, r in results.items() for k, v in r.items())


def ir_measures_(args) -> None:
    import ir_measures

    measures = [ir_measures.parse_measure(m) for m in MEASURES]
    per_query: dict[str, dict[str, float]] = {}
    for m in ir_measures.iter_calc(
        measures, ir_measures.read_trec_qrels(args.qrels), ir_measures.read_trec_run(args.run)
    ):
        per_query.setdefault(m.query_id, {})[str(m.measure)] = m.value
    write_long(args.out, per_query)


def ranx_(args) -> None:
    from ranx import Qrels, Run, evaluate

    metrics = list(RANX)
    # numba compiles (or loads from its cache) on first use; pay that on a
    # toy input first so it can be reported apart from the real evaluation.
    t0 = time.perf_counter()
    evaluate(Qrels({"q": {"d1": 1}}), Run({"q": {"d1": 1.0, "d2": 0.5}}), metrics)
    jit_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    qrels = Qrels.from_file(args.qrels, kind="trec")
    run = Run.from_file(args.run, kind="trec")
    load_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    # make_comparable: judged queries without results score 0 and run-only
    # queries are dropped (trec_eval -c), instead of ranx refusing to evaluate.
    evaluate(qrels, run, metrics, make_comparable=True)
    eval_s = time.perf_counter() - t0

    per_query: dict[str, dict[str, float]] = {}
    for metric, scores in run.scores.items():
        for qid, v in scores.items():
            per_query.setdefault(qid, {})[RANX[metric]] = v
    write_long(args.out, per_query)
    print(json.dumps({"ranx_jit_s": jit_s, "ranx_load_s": load_s, "ranx_eval_s": eval_s}))


# The DataFrame contenders' measures: what a recommender team reports, and what floor-polars computes
FRAME_MEASURES = ["nDCG@10", "R@20"]


def read_frames(args, kind: str):
    """The Parquet inputs as DataFrames of `kind` (pandas, polars, arrow) and the seconds it took."""
    import pyarrow.parquet as pq

    t0 = time.perf_counter()
    frames = [pq.read_table(path) for path in (args.qrels, args.run)]
    if kind == "pandas":
        frames = [frame.to_pandas() for frame in frames]
    elif kind == "polars":
        import polars

        frames = [polars.from_arrow(frame) for frame in frames]
    return frames, time.perf_counter() - t0


def floor_polars(args) -> None:
    """nDCG@10 and R@20 as a hand-written polars pipeline on frames in memory: the DataFrame floor.

    trec_eval's semantics: ranked by score descending, ties by doc_id descending; linear gains, the
    ideal from every positive label; relevant = label >= 1; every qrels query scored (0 without hits).
    """
    import polars as pl

    (qrels, run), frames_s = read_frames(args, "polars")
    t0, cpu0 = time.perf_counter(), time.process_time()
    judged = qrels.filter(pl.col("relevance") >= 0).select("query_id", "doc_id", pl.col("relevance").alias("rel"))
    top = (run.sort(["query_id", "score", "doc_id"], descending=[False, True, True])
              .with_columns(rank=pl.int_range(1, pl.len() + 1).over("query_id"))
              .filter(pl.col("rank") <= 20)
              .join(judged, on=["query_id", "doc_id"]))
    gains = top.group_by("query_id").agg(
        dcg=(pl.col("rel").clip(lower_bound=0) / (pl.col("rank") + 1).log(2)).filter(pl.col("rank") <= 10).sum(),
        hits=(pl.col("rel") >= 1).sum())
    ideal = (judged.filter(pl.col("rel") > 0).sort(["query_id", "rel"], descending=[False, True])
                   .with_columns(irank=pl.int_range(1, pl.len() + 1).over("query_id"))
                   .group_by("query_id").agg(
                       idcg=(pl.col("rel") / (pl.col("irank") + 1).log(2)).filter(pl.col("irank") <= 10).sum(),
                       num_rel=(pl.col("rel") >= 1).sum()))
    scores = (qrels.select("query_id").unique().join(ideal, on="query_id", how="left")
                   .join(gains, on="query_id", how="left").fill_null(0)
                   .select("query_id",
                           pl.when(pl.col("idcg") > 0).then(pl.col("dcg") / pl.col("idcg")).otherwise(0.0).alias("nDCG@10"),
                           pl.when(pl.col("num_rel") > 0).then(pl.col("hits") / pl.col("num_rel")).otherwise(0.0)
                             .alias("R@20")))
    eval_s, eval_cpu_s = time.perf_counter() - t0, time.process_time() - cpu0
    write_long(args.out, {row[0]: {"nDCG@10": row[1], "R@20": row[2]} for row in scores.iter_rows()})
    print(json.dumps({"frames_s": frames_s, "eval_s": eval_s, "eval_cpu_s": eval_cpu_s}))


def sqlrank_frame(args) -> None:
    """sqlrank.evaluate on frames in memory (--frame pandas|polars|arrow) or on the Parquet paths (parquet)."""
    import pyarrow.csv as pacsv
    import sqlrank

    if args.frame == "parquet":
        (qrels, run), frames_s = (args.qrels, args.run), 0.0
    else:
        (qrels, run), frames_s = read_frames(args, args.frame)
    t0, cpu0 = time.perf_counter(), time.process_time()
    table = sqlrank.evaluate(qrels, run, FRAME_MEASURES, threads=args.threads).to_arrow()
    eval_s, eval_cpu_s = time.perf_counter() - t0, time.process_time() - cpu0
    pacsv.write_csv(table, args.out)
    print(json.dumps({"frames_s": frames_s, "eval_s": eval_s, "eval_cpu_s": eval_cpu_s}))


def ranx_frame(args) -> None:
    """ranx's Qrels.from_df / Run.from_df on pandas frames in memory, then evaluate; numba's warm-up apart."""
    from ranx import Qrels, Run, evaluate

    metrics = {"ndcg@10": "nDCG@10", "recall@20": "R@20"}
    t0 = time.perf_counter()
    evaluate(Qrels({"q": {"d1": 1}}), Run({"q": {"d1": 1.0, "d2": 0.5}}), list(metrics))
    jit_s = time.perf_counter() - t0
    (qrels_df, run_df), frames_s = read_frames(args, "pandas")
    t0, cpu0 = time.perf_counter(), time.process_time()
    # ranx wants object (not pandas' string) id columns and 64-bit labels: part of what using it on these
    # frames costs
    for frame in (qrels_df, run_df):
        frame["query_id"], frame["doc_id"] = frame["query_id"].astype(object), frame["doc_id"].astype(object)
    qrels_df["relevance"] = qrels_df["relevance"].astype("int64")
    qrels = Qrels.from_df(qrels_df, q_id_col="query_id", doc_id_col="doc_id", score_col="relevance")
    run = Run.from_df(run_df, q_id_col="query_id", doc_id_col="doc_id", score_col="score")
    evaluate(qrels, run, list(metrics), make_comparable=True)
    eval_s, eval_cpu_s = time.perf_counter() - t0, time.process_time() - cpu0
    per_query: dict[str, dict[str, float]] = {}
    for metric, scores in run.scores.items():
        for qid, v in scores.items():
            per_query.setdefault(qid, {})[metrics[metric]] = v
    write_long(args.out, per_query)
    print(json.dumps({"frames_s": frames_s, "eval_s": eval_s, "eval_cpu_s": eval_cpu_s, "ranx_jit_s": jit_s}))


CONTENDERS = {
    "floor": floor,
    "floor-cutoffs": floor_cutoffs,
    "floor-checked": floor_checked,
    "floor-trec": floor_trec,
    "floor-trec-checked": floor_trec_checked,
    "floor-trec-runs": floor_trec_runs,
    "floor-polars": floor_polars,
    "sqlrank-frame": sqlrank_frame,
    "ranx-frame": ranx_frame,
    "scan": scan,
    "window": window,
    "sqlrank-api": sqlrank_api,
    "pytrec_eval-parse": pytrec_eval_parse,
    "pytrec_eval-runs": pytrec_eval_runs,
    "pytrec_eval-all": pytrec_eval_all,
    "pytrec_eval": pytrec_eval_,
    "ir_measures": ir_measures_,
    "ranx": ranx_,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("name", choices=CONTENDERS)
    ap.add_argument("qrels")
    ap.add_argument("run")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--threads", type=int)
    ap.add_argument("--memory-limit")
    ap.add_argument("--temp-directory")
    ap.add_argument("--score-precision", default="double")
    ap.add_argument("--frame", choices=["pandas", "polars", "arrow", "parquet"], default="pandas")
    args = ap.parse_args()
    CONTENDERS[args.name](args)


if __name__ == "__main__":
    main()
