"""sqlrank on Spark against Spark's own ranking tools and single-machine `sqlrank eval` (not run in CI).

Contenders, each in its own process, on the Parquet files of benchmarks/generate.py:

* sqlrank-spark   sqlrank.spark.evaluate: run and qrels co-grouped by a bucket of query_id, each
                  bucket evaluated by sqlrank's DuckDB engine in a Python worker, the means in Spark
* mllib           pyspark.mllib.evaluation.RankingMetrics, given the arrays it needs (each query's
                  documents sorted by score, its judged documents and their labels), built in Spark
                  and timed with it
* recommenders    Microsoft recommenders' SparkRankingEvaluation (when importable; it is installed
                  apart, see --recommenders-path)
* sqlrank-duckdb  sqlrank.evaluate on one machine (DuckDB, the engine of `sqlrank eval`), no Spark

Measured: the wall time of the process (Spark's start included), the time after the session
is up ("work"), the CPU time (user + system) of the process and every descendant it waited for
(the JVM, which the contender stops and waits for, and the Python workers: the fair number on a
shared machine; from getrusage, or from /proc sampled every 0.2 s, whichever is larger), and the
peak memory of the process and all its children, sampled from /proc every 0.2 s. The four measures are those the MLlib API
has: nDCG@10, AP@10, P@10, R@10; their values are printed next to sqlrank's (MLlib's MAP@10
divides by min(R, 10), its nDCG ignores ties; the numbers are the tools', not made equal).

    python benchmarks/generate.py --rows 10M
    python benchmarks/spark.py --rows 10M --master 'local[2]'
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

MEASURES = ["nDCG@10", "AP@10", "P@10", "R@10"]
CONTENDERS = ("sqlrank-spark", "mllib", "recommenders", "sqlrank-duckdb")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------- one contender, in its own process

def spark_session(master: str, memory: str):
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master(master).appName("sqlrank-bench")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .config("spark.driver.memory", memory).getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    return session


def run_sqlrank_spark(spark, qrels: str, run: str, buckets: int | None) -> dict:
    from sqlrank import spark as sqlrank_spark

    result = sqlrank_spark.evaluate(qrels, run, MEASURES, spark=spark, buckets=buckets)
    means = {row.measure: row.value for row in result.dataframe.filter("query_id = 'all'").collect()}
    return {"values": means, "buckets": result.buckets}


def run_mllib(spark, qrels: str, run: str) -> dict:
    from pyspark.mllib.evaluation import RankingMetrics
    from pyspark.sql import functions as F

    ranked = (spark.read.parquet(run).groupBy("query_id")
              .agg(F.expr("transform(array_sort(collect_list(struct(-score AS s, doc_id AS d))), x -> x.d)")
                   .alias("predicted")))
    judged = (spark.read.parquet(qrels).filter("relevance > 0").groupBy("query_id")
              .agg(F.collect_list("doc_id").alias("labels"),
                   F.collect_list(F.col("relevance").cast("double")).alias("gains")))
    triples = ranked.join(judged, "query_id").select("predicted", "labels", "gains").rdd.map(tuple).cache()
    metrics = RankingMetrics(triples)
    values = {"nDCG@10": metrics.ndcgAt(10), "AP@10": metrics.meanAveragePrecisionAt(10),
              "P@10": metrics.precisionAt(10), "R@10": metrics.recallAt(10)}
    return {"values": values}


def run_recommenders(spark, qrels, run) -> dict:
    """qrels, run: Parquet paths or DataFrames (the qrels' relevant rows are its ground truth)."""
    from recommenders.evaluation.spark_evaluation import SparkRankingEvaluation

    truth = (spark.read.parquet(qrels) if isinstance(qrels, str) else qrels).filter("relevance > 0")
    predicted = spark.read.parquet(run) if isinstance(run, str) else run
    evaluation = SparkRankingEvaluation(truth, predicted, k=10, col_user="query_id", col_item="doc_id",
                                        col_rating="relevance", col_prediction="score", relevancy_method="top_k")
    values = {"nDCG@10": evaluation.ndcg_at_k(), "AP@10": evaluation.map_at_k(),
              "P@10": evaluation.precision_at_k(), "R@10": evaluation.recall_at_k()}
    return {"values": values}


# recommenders' numbers against sqlrank's matching options (binary gains, AP over min(R, k), the queries of
# both inputs only), on a run without tied scores: its top k comes from row_number() with no tie-breaker
RECOMMENDERS_MATCH = {"nDCG@10": "nDCG(gains={2:1,3:1})@10", "AP@10": "AP(denominator=min_R_k)@10",
                      "P@10": "P@10", "R@10": "R@10"}


def check_recommenders(spark, queries: int = 20_000, per_query: int = 50) -> dict:
    """recommenders' SparkRankingEvaluation and sqlrank.spark on one tie-free data set: the four means, which
    must agree to 1e-12 relative once sqlrank is given recommenders' definitions (RECOMMENDERS_MATCH)."""
    import tempfile

    import duckdb

    from sqlrank import spark as sqlrank_spark

    folder = Path(tempfile.mkdtemp(prefix="sqlrank-rec-check-"))
    with duckdb.connect() as con:  # distinct scores per query (a permutation), labels 0-3 on about 1 in 5
        con.execute(f"COPY (SELECT q::VARCHAR AS query_id, 'd' || d AS doc_id, "
                    f"(hash(q, d) % 1000003)::DOUBLE + d / {per_query + 1} AS score "
                    f"FROM range({queries}) r(q), range({per_query}) s(d)) TO '{folder}/run.parquet'")
        con.execute(f"COPY (SELECT q::VARCHAR AS query_id, 'd' || d AS doc_id, (hash(d, q) % 4)::INTEGER AS relevance "
                    f"FROM range({queries + 100}) r(q), range({per_query + 20}) s(d) WHERE hash(q, d, 7) % 5 = 0) "
                    f"TO '{folder}/qrels.parquet'")
        ties = con.execute(f"SELECT count(*) FROM (SELECT query_id, score FROM '{folder}/run.parquet' "
                           "GROUP BY ALL HAVING count(*) > 1)").fetchone()[0]
    assert ties == 0, "the check needs a run without tied scores"
    relevant = spark.read.parquet(f"{folder}/qrels.parquet").filter("relevance > 0")
    theirs = run_recommenders(spark, relevant, spark.read.parquet(f"{folder}/run.parquet"))["values"]
    result = sqlrank_spark.evaluate(relevant, spark.read.parquet(f"{folder}/run.parquet"),
                                    list(RECOMMENDERS_MATCH.values()), spark=spark, missing="skip")
    ours = {row.measure: row.value for row in result.dataframe.filter("query_id = 'all'").collect()}
    compared = {name: (theirs[name], ours[RECOMMENDERS_MATCH[name]]) for name in RECOMMENDERS_MATCH}
    return {"compared": compared, "queries": queries, "run_rows": queries * per_query,
            "max_relative_difference": max(abs(a - b) / max(abs(a), abs(b)) for a, b in compared.values())}


def run_one(args) -> None:
    """The contender's own process: prints one JSON line (work seconds, values)."""
    started = time.perf_counter()
    if args.one == "sqlrank-duckdb":
        import sqlrank

        result = sqlrank.evaluate(args.qrels, args.run, MEASURES, threads=args.threads)
        outcome = {"values": dict(result.summary)}
        session_seconds = 0.0
    else:
        spark = spark_session(args.master, args.driver_memory)
        session_seconds = time.perf_counter() - started
        started = time.perf_counter()
        if args.one == "sqlrank-spark":
            outcome = run_sqlrank_spark(spark, args.qrels, args.run, args.buckets)
        elif args.one == "mllib":
            outcome = run_mllib(spark, args.qrels, args.run)
        else:
            outcome = run_recommenders(spark, args.qrels, args.run)
    outcome.update(work=time.perf_counter() - started, session=session_seconds)
    print("RESULT " + json.dumps(outcome), flush=True)
    if args.one != "sqlrank-duckdb":
        stop_and_reap(spark)


def stop_and_reap(spark) -> None:
    """Stop Spark and wait for its JVM, so that the JVM's CPU time (and that of the Python workers it
    waited for) is counted in this process's children rather than lost to an orphan."""
    from pyspark import SparkContext

    gateway_process = getattr(SparkContext._gateway, "proc", None)
    spark.stop()
    if gateway_process is not None:
        gateway_process.stdin.close()  # the gateway JVM exits when its stdin closes
        gateway_process.wait()


# ---------------------------------------------------------------- the parent: time and memory

def tree_sample(pid: int, cpu: dict) -> float:
    """Resident memory (MB) of a process and all its descendants, from /proc; records each one's CPU seconds
    so far (user + system) in `cpu`, keyed by (pid, start time)."""
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            # after the name: state is field 3, utime 14, stime 15, starttime 22 (1-based, man proc)
            cpu[(current, fields[19])] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
            with open(f"/proc/{current}/status") as status:
                total += next((int(line.split()[1]) for line in status if line.startswith("VmRSS:")), 0)
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    stack += [int(child) for child in children.read().split()]
        except (FileNotFoundError, ProcessLookupError, ValueError, IndexError):
            continue
    return total / 1024


def children_cpu_seconds() -> float:
    """User + system CPU time of this process's finished children and the descendants they waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(argv: list[str], env: dict) -> dict:
    started, cpu_before = time.perf_counter(), children_cpu_seconds()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    peak, sampled_cpu = [0.0], {}

    def sample():
        while process.poll() is None:
            peak[0] = max(peak[0], tree_sample(process.pid, sampled_cpu))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = process.communicate()
    seconds, cpu = time.perf_counter() - started, children_cpu_seconds() - cpu_before
    sampler.join()
    lines = [line for line in out.splitlines() if line.startswith("RESULT ")]
    if process.returncode != 0 or not lines:
        return {"error": (err.strip().splitlines() or ["no output"])[-1], "seconds": seconds}
    outcome = json.loads(lines[-1][len("RESULT "):])
    # the larger of the two: rusage misses a descendant nobody waited for, sampling the last 0.2 s of each
    outcome.update(seconds=seconds, cpu=max(cpu, sum(sampled_cpu.values())), rusage_cpu=cpu,
                   sampled_cpu=sum(sampled_cpu.values()), peak_mb=peak[0])
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", default="10M", help="a size written by benchmarks/generate.py")
    parser.add_argument("--workdir", default="benchmarks/.data", type=Path)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--driver-memory", default="6g", help="local mode: the driver JVM is the whole cluster")
    parser.add_argument("--buckets", type=int, help="sqlrank.spark's bucket count (default: from the run's size)")
    parser.add_argument("--threads", type=int, default=2, help="DuckDB threads of sqlrank-cli")
    parser.add_argument("--contenders", default=",".join(CONTENDERS))
    parser.add_argument("--recommenders-path", help="a folder holding the recommenders package (pip --target)")
    parser.add_argument("--check-recommenders", action="store_true",
                        help="compare recommenders' four means with sqlrank's matching options on a tie-free run")
    parser.add_argument("--one", choices=CONTENDERS, help=argparse.SUPPRESS)
    parser.add_argument("--qrels", help=argparse.SUPPRESS)
    parser.add_argument("--run", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        return run_one(args)
    if args.check_recommenders:
        if args.recommenders_path:
            sys.path.insert(0, args.recommenders_path)
        spark = spark_session(args.master, args.driver_memory)
        print(json.dumps(check_recommenders(spark), indent=1))
        return stop_and_reap(spark)
    folder = args.workdir / args.rows
    qrels, run = str(folder / "qrels.parquet"), str(folder / "run.parquet")
    results = {}
    for name in args.contenders.split(","):
        env = dict(os.environ)
        if name == "recommenders" and args.recommenders_path:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [args.recommenders_path, env.get("PYTHONPATH")]))
        argv = [sys.executable, __file__, "--one", name, "--qrels", qrels, "--run", run, "--master", args.master,
                "--driver-memory", args.driver_memory, "--threads", str(args.threads)]
        if args.buckets:
            argv += ["--buckets", str(args.buckets)]
        results[name] = measure(argv, env)
        print(name, json.dumps(results[name]), flush=True)
    print(f"\n{args.rows} run rows, master {args.master}, load average {os.getloadavg()[0]:.1f}")
    print(f"| contender | wall s | work s | CPU s | peak memory MB | {' | '.join(MEASURES)} |")
    print("|---|---:|---:|---:|---:|" + "---:|" * len(MEASURES))
    for name, outcome in results.items():
        if "error" in outcome:
            print(f"| {name} | failed: {outcome['error'][:120]} |")
            continue
        values = " | ".join(f"{outcome['values'].get(m, float('nan')):.4f}" for m in MEASURES)
        print(f"| {name} | {outcome['seconds']:.1f} | {outcome['work']:.1f} | {outcome['cpu']:.1f} "
              f"| {outcome['peak_mb']:.0f} | {values} |")


if __name__ == "__main__":
    main()
