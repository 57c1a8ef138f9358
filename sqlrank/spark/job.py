"""sqlrank.spark.evaluate: the inputs read on the driver, co-grouped by a bucket of query_id, each bucket
evaluated in a Python worker (buckets.py), the buckets' reports merged and checked over the whole job."""

from __future__ import annotations

import warnings

from .. import engine
from ..defined import defined_keywords
from ..errors import EvaluationError, MeasureError
from ..lists import FEATURES_TABLE, TRAIN_TABLE, ListMeasure, check_list_inputs, load_list_inputs
from ..limits import MAX_THREADS, whole_number
from ..measures import parse_labelled
from .buckets import BUCKET, OUTPUT_FIELDS, bucket_evaluator
from .checks import check_options, whole_job_checks
from .readers import canonical, input_of, read_runs, names_by_source, read_source, list_run_names
from .refusals import empty_run_id
from .report import collect_notes, merge_reports
from .result import SparkResult
from .runtime import import_pyspark, session

BUCKET_BYTES = 16 * 2**20  # run bytes per bucket as Spark sizes the input (default_buckets): ~1.3M Parquet rows


def default_buckets(spark, run_frame) -> int:
    """One bucket per BUCKET_BYTES of the run as Spark's planner sizes it, and at least one per core.

    Too few buckets and one does not fit in a worker; too many and each pays a Python call and a
    DuckDB connection (~10 ms) for little work. Without a size (a plan Spark cannot size), the
    session's spark.sql.shuffle.partitions.
    """
    cores = spark.sparkContext.defaultParallelism
    try:
        size = int(str(run_frame._jdf.queryExecution().optimizedPlan().stats().sizeInBytes()))
    except Exception:  # not a classic session (Spark Connect), or a plan without statistics
        size = None
    if size is None or size >= 2**62:  # Spark's "unknown" is Long.MaxValue
        return max(cores, int(spark.conf.get("spark.sql.shuffle.partitions")))
    return max(cores, -(-size // BUCKET_BYTES))


def refuse_list_measures(measures) -> None:
    """The list measures of the whole run (coverage, Gini, Personalization) read every user's list at once, which
    no bucket of users holds: refused by name. The per-user ones are computed in the buckets."""
    listed = [str(measure) for measure in measures if isinstance(measure, ListMeasure) and measure.definition.whole_run]
    if listed:
        raise MeasureError(f"{', '.join(listed)}: a list measure of the whole run reads every user's list at once, "
                           "which Spark's buckets of users do not hold: it is not computed on Spark; evaluate it "
                           "with sqlrank.evaluate (CLI: --engine duckdb)")


def read_list_inputs(measures, train, features, mapping: dict) -> tuple:
    """The training interactions and the items' features, read on the driver as sqlrank.evaluate reads them
    (a Spark DataFrame collected first) and sent whole to every bucket: each user's measures read all of them
    (popularity, co-occurrence). (None, None) when no list measure is asked."""
    import duckdb

    if not any(isinstance(measure, ListMeasure) for measure in measures):
        return None, None
    train, features = (given.toArrow() if hasattr(given, "toArrow") else given for given in (train, features))
    ids = {name: column for name, column in mapping.items() if column and name in ("query_id", "doc_id")}
    with duckdb.connect() as con:
        load_list_inputs(con, train, None, ids, features)
        return (con.sql(f"FROM {TRAIN_TABLE}").to_arrow_table() if train is not None else None,
                con.sql(f"FROM {FEATURES_TABLE}").to_arrow_table() if features is not None else None)


def _check_arguments(qrels, run, spark, threads) -> None:
    """What the job cannot start from, said before Spark is asked for anything."""
    for name, source in (("qrels", qrels), ("run", run)):
        if source is None:
            raise EvaluationError(f"{name} is None: give a Spark DataFrame, a table name or a path")
    if spark is not None and not (hasattr(spark, "read") and hasattr(spark, "sparkContext")):
        raise EvaluationError(f"spark must be a SparkSession (sqlrank.spark.session()), got {type(spark).__name__}")
    whole_number("threads", threads, 1, MAX_THREADS)


def evaluate(qrels, run, measures, *, spark=None, buckets: int | None = None, rel: float | None = None,
             interpolation: str | None = None, missing: str = "zero", duplicates: str = "error", depth: int | None = None,
             score_precision: str = "double", judged_only: bool = False, aggregates=(), names: str = "asked",
             ties: str = "trec", query_col: str | None = None, doc_col: str | None = None,
             score_col: str | None = None, relevance_col: str | None = None, run_col: str | None = None,
             qrels_columns: dict[str, str] | None = None, run_columns: dict[str, str] | None = None,
             allow_disjoint: bool = False, threads: int = 1, memory_limit: str | None = None,
             temp_directory: str | None = None, zscores=None, train=None, features=None) -> SparkResult:
    """sqlrank.evaluate on Spark: the same measures, options, values and notices.

    qrels, run: Spark DataFrames, or table names or paths read through the session (Parquet,
        CSV/TSV with a header, JSON lines, TREC text). `run` may be a dict {name: source} or a
        list of paths to evaluate several runs in one job, or one DataFrame with a run_id column.
    spark: the SparkSession (default: the active one, else a new local one).
    buckets: how many groups of queries the work is cut into (default: default_buckets). A
        bucket's rows are held in one worker's memory: more buckets, smaller groups.
    threads, memory_limit, temp_directory: DuckDB's settings for each bucket's evaluation (threads=1:
        Spark already runs one task per core).
    ties: as on one machine, except 'input', which needs a rank column in the run: a Spark
        DataFrame has no row order to fall back on.
    The other options are sqlrank.evaluate's; allow_disjoint and the unjudged-run warning look at
    the whole job, not at a bucket. zscores (trec_eval -Z) is not computed on Spark yet: refused.
    train, features: the per-user list measures' inputs, as sqlrank.evaluate takes them (or Spark
        DataFrames), read on the driver and sent whole to every bucket; the list measures of the whole
        run are refused by name.
    """
    if zscores is not None:  # refused rather than ignored, which would print raw values as if they were z-scores
        raise EvaluationError("zscores (trec_eval -Z) is not computed by the Spark engine yet; evaluate with "
                              "sqlrank.evaluate(..., zscores=path) on one machine")
    _check_arguments(qrels, run, spark, threads)
    engine._check_choice("names", names, engine.NAMES)
    labelled = parse_labelled(measures, rel=rel, interpolation=interpolation)
    refuse_list_measures([measure for _, measure in labelled])
    parsed = [measure for _, measure in labelled]
    check_list_inputs([m for m in parsed if isinstance(m, ListMeasure)], train, None, ties, "zero", features)
    labels = [label if names == "asked" else str(measure) for label, measure in labelled]
    aggregates = check_options(missing, duplicates, depth, score_precision, buckets, ties, judged_only, aggregates,
                               [measure for measure in parsed if not isinstance(measure, ListMeasure)])
    spark = spark or session()
    functions = import_pyspark().sql.functions
    shared = {"query_id": query_col, "doc_id": doc_col, "score": score_col, "relevance": relevance_col}
    # as the single-machine loader maps them: one input's own names win over the shared ones
    qrels_mapping = {k: v for k, v in shared.items() if k != "score"} | engine.column_mapping("qrels", qrels_columns)
    run_mapping = ({k: v for k, v in shared.items() if k != "relevance"} | ({"run_id": run_col} if run_col else {})
                   | engine.column_mapping("run", run_columns))

    list_train, list_features = read_list_inputs(parsed, train, features, qrels_mapping)
    qrels_frame, qrels_label, qrels_text = read_source(spark, qrels, "qrels")
    qrels_input = input_of(qrels_frame, qrels_label, "qrels", qrels_mapping, qrels_text)
    qrels_frame = canonical(qrels_frame, qrels_label, "qrels", qrels_mapping, duplicates)
    runs = read_runs(spark, run, run_mapping, duplicates, ties)  # [(run_id or None, frame, label, named, Input)]
    run_names = list_run_names(runs)
    if None in run_names:
        raise empty_run_id(runs)
    run_frame = runs[0][1]
    for _, frame, _, _, _ in runs[1:]:
        run_frame = run_frame.unionByName(frame)
    buckets = buckets or default_buckets(spark, run_frame)

    def bucketed(frame):
        # one partition a bucket, both sides alike: the cogroup then shuffles into `buckets` tasks, not into the
        # session's spark.sql.shuffle.partitions (200 by default: mostly empty tasks, docs/performance.md)
        return (frame.withColumn(BUCKET, functions.pmod(functions.xxhash64("query_id"), functions.lit(buckets)))
                .repartition(buckets, BUCKET))

    options = {"measures": [str(m) for m in parsed], "labels": labels if names == "asked" else None,
               "run_names": run_names, "rel": rel, "missing": "skip" if missing == "error" else missing,
               "duplicates": duplicates, "depth": depth, "score_precision": score_precision, "ties": ties,
               "judged_only": judged_only, "threads": threads, "memory_limit": memory_limit,
               "temp_directory": temp_directory, "train": list_train, "features": list_features,
               # the measures defined in this process, defined again in each worker's (buckets.py)
               "defined": defined_keywords(parsed)}
    schema = ", ".join(f"{name} {kind}" for name, kind in OUTPUT_FIELDS)
    with warnings.catch_warnings():
        # pyspark 4 warns about pandas 3 on every Arrow function; this one hands Arrow tables, never pandas
        warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas", FutureWarning)
        evaluated = (bucketed(run_frame).groupBy(BUCKET)
                     .cogroup(bucketed(qrels_frame).groupBy(BUCKET))
                     .applyInArrow(bucket_evaluator(options), schema)
                     .persist())
    notes = collect_notes(evaluated, buckets)  # the job runs here
    sources = [(name if named else None, label) for name, _, label, named, _ in runs]
    inputs = [(None, qrels_input)] + [(names_, found) for names_, (_, _, _, _, found)
                                      in zip(names_by_source(sources, run_names), runs)]
    report = merge_reports(notes, qrels_label, sources, run_names, missing, duplicates, depth, buckets, inputs)
    whole_job_checks(notes, report, inputs, sources, run_names, ties, judged_only, depth, allow_disjoint)
    if missing == "error":
        engine._refuse_missing(report)
    return SparkResult(evaluated, parsed, report, run_names, buckets, labels, aggregates)
