"""The same evaluation on Apache Spark: Spark moves the rows, sqlrank's own engine computes.

    from sqlrank import spark as sqlrank_spark
    result = sqlrank_spark.evaluate(qrels_df, run_df, ["nDCG@10", "AP"])
    result.dataframe            # Spark DataFrame (run_id, query_id, measure, value), `all` rows included
    result.notices()            # the same notices as sqlrank.evaluate

How: the run and the qrels are co-grouped by a bucket of query_id (many queries per
bucket, `buckets` of them), and every bucket is evaluated by `sqlrank.evaluate` on its
two Arrow tables in a Python worker. A query's rows all land in one bucket, so its
values are the single-machine ones by construction: no metric is written twice. The
`all` rows are aggregated in Spark, each measure by the aggregate the registry declares.

Every bucket evaluates every run: each run and the qrels get one placeholder query in
every bucket, so that a run with no rows in a bucket still has its qrels queries filled,
skipped or refused by the engine's missing policy; the placeholder is taken out of the
values and of the report. The evaluation job runs when evaluate() is called, as on one
machine, so that bad input raises the engine's own error there and the notices are
known; its per-query output is persisted, and `result.dataframe` aggregates it lazily.

pyspark is an optional extra (`pip install 'sqlrank[spark]'`): this module imports
without it and says what to install when it is used.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
import re
import shutil
import sys
import warnings
from pathlib import Path

from .. import checks, engine, sqlgen
from ..checks import DUPLICATE_POLICIES, duplicates_error
from ..errors import EvaluationError, InputError, ResourceError, SqlrankError
from ..limits import MAX_BUCKETS, whole_number
from ..readers.evaluation import check_distinct, named_runs, named_twice
from ..readers import QRELS_TABLE
from ..readers.base import Loaded
from ..readers.tables import bad_row_message, canonical_select, describe, explainer, rank_column
from ..readers.trec import bad_line_message, bad_lines, label_cut_note, trec_fields
from ..measures import Measure, parse_labelled
from ..result import Report, Result, RunReport

INSTALL_HINT = "pip install 'sqlrank[spark]'"
BUCKET = "sqlrank_bucket"
ORDER = "sqlrank_input_order"  # the input's row order, kept through the shuffle for duplicates='first'
PLACEHOLDER = "sqlrank-spark-placeholder"
LABEL_CUT = "sqlrank_label_cut"  # TREC qrels read by Spark: whether the label was cut to its leading integer
UNIT_SEPARATOR = "\x1f"  # refused in a TREC line, as the single-machine reader refuses it
BUCKET_BYTES = 16 * 2**20  # run bytes per bucket as Spark sizes the input (default_buckets): ~1.3M Parquet rows
GMEAN_FLOOR = 1e-5  # trec_eval's gm_map: exp(mean(log(max(v, 1e-5))))
_OUTPUT_FIELDS = (("kind", "string"), ("run_id", "string"), ("query_id", "string"), ("measure", "string"),
                  ("value", "double"), ("detail", "string"))
_ERRORS = {error.__name__: error for error in (InputError, EvaluationError, ResourceError, SqlrankError)}


def aggregate_of(measure: Measure) -> str:
    """How a measure's `all` row is made from its per-query values: 'mean', 'sum' or 'gm' (geometric).

    The one place that reads it from the registry.
    """
    return measure.definition.aggregate


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


def session(master: str | None = None, app_name: str = "sqlrank"):
    """A SparkSession: the active one, or a new one (`master`, default local[*]) when there is none.

    Python workers run this interpreter unless the user's configuration names another one, so
    that they find sqlrank, duckdb and pyarrow in a virtual environment.
    """
    SparkSession = _pyspark().sql.SparkSession
    active = SparkSession.getActiveSession()
    if active is not None and master is None:
        return active
    _require_java()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.appName(app_name)
    if master is not None:  # otherwise spark-submit's master, or pyspark's default local[*]
        builder = builder.master(master)
    created = builder.config("spark.ui.showConsoleProgress", "false").getOrCreate()
    created.sparkContext.setLogLevel("ERROR")  # a failed bucket is reported by sqlrank, not by pages of log
    return created


def evaluate(qrels, run, measures, *, spark=None, buckets: int | None = None, rel: float | None = None,
             missing: str = "zero", duplicates: str = "error", depth: int | None = None,
             score_precision: str = "double", judged_only: bool = False, aggregates=(), names: str = "asked",
             ties: str = "trec", query_col: str | None = None, doc_col: str | None = None,
             score_col: str | None = None, relevance_col: str | None = None, run_col: str | None = None,
             qrels_columns: dict[str, str] | None = None, run_columns: dict[str, str] | None = None,
             allow_disjoint: bool = False, threads: int = 1, memory_limit: str | None = None,
             temp_directory: str | None = None) -> SparkResult:
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
    the whole job, not at a bucket.
    """
    engine._check_choice("names", names, engine.NAMES)
    labelled = parse_labelled(measures, rel=rel)
    parsed = [measure for _, measure in labelled]
    labels = [label if names == "asked" else str(measure) for label, measure in labelled]
    aggregates = _check_options(missing, duplicates, depth, score_precision, buckets, ties, judged_only, aggregates,
                                parsed)
    spark = spark or session()
    functions = _pyspark().sql.functions
    shared = {"query_id": query_col, "doc_id": doc_col, "score": score_col, "relevance": relevance_col}
    # as the single-machine loader maps them: one input's own names win over the shared ones
    qrels_mapping = {k: v for k, v in shared.items() if k != "score"} | engine.column_mapping("qrels", qrels_columns)
    run_mapping = ({k: v for k, v in shared.items() if k != "relevance"} | ({"run_id": run_col} if run_col else {})
                   | engine.column_mapping("run", run_columns))

    qrels_frame, qrels_label, qrels_text = _read(spark, qrels, "qrels")
    qrels_input = _input(qrels_frame, qrels_label, "qrels", qrels_mapping, qrels_text)
    qrels_frame = _canonical(qrels_frame, qrels_label, "qrels", qrels_mapping, duplicates)
    runs = _named_runs(spark, run, run_mapping, duplicates, ties)  # [(run_id or None, frame, label, named, _Input)]
    run_names = _run_names(runs)
    run_frame = runs[0][1]
    for _, frame, _, _, _ in runs[1:]:
        run_frame = run_frame.unionByName(frame)
    buckets = buckets or default_buckets(spark, run_frame)

    def bucketed(frame):
        return frame.withColumn(BUCKET, functions.pmod(functions.xxhash64("query_id"), functions.lit(buckets)))

    options = {"measures": [str(m) for m in parsed], "labels": labels if names == "asked" else None,
               "run_names": run_names, "rel": rel, "missing": "skip" if missing == "error" else missing,
               "duplicates": duplicates, "depth": depth, "score_precision": score_precision, "ties": ties,
               "judged_only": judged_only, "threads": threads, "memory_limit": memory_limit,
               "temp_directory": temp_directory}
    schema = ", ".join(f"{name} {kind}" for name, kind in _OUTPUT_FIELDS)
    with warnings.catch_warnings():
        # pyspark 4 warns about pandas 3 on every Arrow function; this one hands Arrow tables, never pandas
        warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas", FutureWarning)
        evaluated = (bucketed(run_frame).groupBy(BUCKET)
                     .cogroup(bucketed(qrels_frame).groupBy(BUCKET))
                     .applyInArrow(_bucket_evaluator(options), schema)
                     .persist())
    notes = _collect_notes(evaluated, buckets)  # the job runs here
    sources = [(name if named else None, label) for name, _, label, named, _ in runs]
    inputs = [(None, qrels_input)] + [(names_, found) for names_, (_, _, _, _, found)
                                      in zip(_names_by_source(sources, run_names), runs)]
    report = _merge_reports(notes, qrels_label, sources, run_names, missing, duplicates, depth, buckets, inputs)
    _whole_job_checks(notes, report, inputs, sources, run_names, ties, judged_only, depth, allow_disjoint)
    if missing == "error":
        engine._refuse_missing(report)
    return SparkResult(evaluated, parsed, report, run_names, buckets, labels, aggregates)


class SparkResult:
    """The result of sqlrank.spark.evaluate: a Spark DataFrame and the report of what the policies did."""

    def __init__(self, evaluated, measures: list[Measure], report: Report, run_names: list[str], buckets: int,
                 names: list[str] | None = None, aggregates: list[str] | None = None):
        self._evaluated = evaluated
        self.buckets = buckets  # how many groups of queries the job was cut into
        self.parsed_measures = list(measures)
        # the names of the measure column: as asked (names="asked") or canonical
        self.measures = list(names) if names is not None else [str(m) for m in measures]
        self._aggregates = {name: aggregate_of(m) for name, m in zip(self.measures, measures)}
        self.spreads = list(aggregates or [])  # evaluate's aggregates: std, stderr, median, std_population
        self.report = report
        self.runs = [name for name in run_names if name in report.runs and
                     (report.missing_policy != "skip" or report.runs[name].queries > report.runs[name].run_only_queries)]

    @property
    def per_query_dataframe(self):
        return self._evaluated.filter(self._evaluated["kind"] == "value").select("run_id", "query_id", "measure", "value")

    @property
    def dataframe(self):
        """(run_id, query_id, measure, value): the per-query rows and each run's `all` rows, aggregated in Spark."""
        functions = _pyspark().sql.functions
        per_query = self.per_query_dataframe
        chosen = functions.create_map(*[functions.lit(text) for pair in self._aggregates.items() for text in pair])
        value = functions.col("value")
        totals = per_query.groupBy("run_id", "measure").agg(
            functions.sum(value).alias("total"), functions.count(value).alias("queries"),
            functions.avg(functions.log(functions.greatest(value, functions.lit(GMEAN_FLOOR)))).alias("mean_log"))
        rule = chosen[functions.col("measure")]
        summary = totals.select(
            "run_id", functions.lit("all").alias("query_id"), "measure",
            functions.when(rule == "sum", functions.col("total"))
            .when(rule == "gm", functions.exp(functions.col("mean_log")))
            .otherwise(functions.col("total") / functions.col("queries")).alias("value"))
        return per_query.unionByName(summary)

    @property
    def aggregates_dataframe(self):
        """(run_id, measure, aggregate, value): evaluate's aggregates of each run's per-query values, in Spark
        (sqlrank.spread's definitions: the sample and population standard deviations, the standard error of
        the mean, the median); None when none was asked for."""
        if not self.spreads:
            return None
        functions = _pyspark().sql.functions
        value = functions.col("value")
        found = {"std": functions.stddev_samp(value),
                 "stderr": functions.stddev_samp(value) / functions.sqrt(functions.count(value)),
                 "median": functions.median(value), "std_population": functions.stddev_pop(value)}
        spread = self.per_query_dataframe.groupBy("run_id", "measure").agg(
            *[found[name].alias(name) for name in self.spreads])
        return spread.select("run_id", "measure", functions.explode(functions.array(*[
            functions.struct(functions.lit(name).alias("aggregate"), functions.col(name).cast("double").alias("value"))
            for name in self.spreads])).alias("spread")).select("run_id", "measure", "spread.aggregate", "spread.value")

    def notices(self) -> list[str]:
        return self.report.notices()

    def to_result(self) -> Result:
        """Collected to the driver as a sqlrank.Result, its rows (and aggregates) in sqlrank.evaluate's order."""
        import duckdb

        runs, measures = sqlgen.literal(self.runs), sqlgen.literal(self.measures)
        spread = None
        with duckdb.connect() as con:
            con.register("spark_rows", self.dataframe.toArrow())
            table = con.sql(f"SELECT run_id, query_id, measure, value FROM spark_rows ORDER BY "
                            f"list_position({runs}, run_id), query_id = 'all', query_id, "
                            f"list_position({measures}, measure)").to_arrow_table()
            if self.spreads:
                con.register("spark_spread", self.aggregates_dataframe.toArrow())
                spread = con.sql(f"SELECT run_id, measure, aggregate, value FROM spark_spread ORDER BY "
                                 f"list_position({runs}, run_id), list_position({measures}, measure), "
                                 f"list_position({sqlgen.literal(self.spreads)}, aggregate)").to_arrow_table()
        return Result(table, self.parsed_measures, self.report, aggregates=spread, names=self.measures)

    def to_arrow(self):
        return self.to_result().to_arrow()

    def unpersist(self) -> None:
        """Free the per-query rows Spark keeps for this result."""
        self._evaluated.unpersist()


# ---------------------------------------------------------------- one bucket, in a Python worker

def _bucket_evaluator(options: dict):
    """The function applyInArrow calls with one bucket's run and qrels rows."""

    def evaluate_bucket(key, run, qrels):
        import pyarrow as pa

        bucket = key[0].as_py() if hasattr(key[0], "as_py") else key[0]
        try:
            rows = _evaluate_bucket(run, qrels, options)
        except _BucketError as failure:
            rows = [("error", failure.source, None, None, None, json.dumps({
                "type": type(failure.error).__name__, "bucket": bucket, "message": str(failure.error)}))]
        except MemoryError:
            rows = [("error", None, None, None, None, json.dumps({"type": "ResourceError", "bucket": bucket,
                                                                   "message": _too_large(run, qrels)}))]
        if isinstance(rows, pa.Table):
            return rows
        return pa.table(list(zip(*rows)) if rows else [[] for _ in _OUTPUT_FIELDS],
                        schema=_arrow_schema())

    return evaluate_bucket


def _evaluate_bucket(run, qrels, options: dict):
    """The engine on one bucket: value rows and one report row per run plus one for the qrels."""
    import pyarrow as pa
    import pyarrow.compute as pc

    import sqlrank

    placeholder = _free_id(PLACEHOLDER, run, qrels)
    qrels = _in_input_order(qrels).drop_columns([BUCKET])
    label_cut = 0
    if LABEL_CUT in qrels.column_names:  # TREC qrels: the labels cut to their leading integer, for the notice
        label_cut = pc.sum(qrels[LABEL_CUT].cast(pa.int64())).as_py() or 0
        qrels = qrels.drop_columns([LABEL_CUT])
    qrels = _with_placeholder(qrels, placeholder, "relevance")
    run = _in_input_order(run).drop_columns([BUCKET])
    runs = {}
    for name in options["run_names"]:  # every run, also those without a row here: the missing policy fills them
        rows = run.filter(pc.equal(run["run_id"], name)).drop_columns(["run_id"])
        runs[name] = _with_placeholder(rows, placeholder, "score")
    settings = {key: options[key] for key in ("rel", "missing", "duplicates", "depth", "score_precision", "ties",
                                              "judged_only", "threads", "memory_limit", "temp_directory")}
    # the placeholder query makes no bucket disjoint: that check, as the unjudged-run warning, is the driver's
    # over the whole job (_whole_job_checks), from what each bucket says of its part (_coverage)
    settings["allow_disjoint"] = True
    with sqlrank.connect(threads=options["threads"], memory_limit=options["memory_limit"],
                         temp_directory=options["temp_directory"]) as con:
        try:
            result = sqlrank.evaluate(qrels, runs, options["measures"], connection=con, **settings)
        except ResourceError:
            raise _BucketError(ResourceError(_too_large(run, qrels)), None) from None
        except SqlrankError as error:
            raise _BucketError(error, _culprit(qrels, runs, placeholder, options["measures"], settings)) from None
        coverage = _coverage(con, result.report, placeholder, options["judged_only"])
    values = result.to_arrow()
    # the bucket's own `all` rows are left out: Spark aggregates over every bucket
    values = values.filter(pc.invert(pc.is_in(values["query_id"], pa.array([placeholder, "all"]))))
    if options["labels"]:  # names='asked': the measure column as the user wrote each measure
        measure = pc.take(pa.array(options["labels"], pa.string()),
                          pc.index_in(values["measure"], value_set=pa.array(options["measures"], pa.string())))
        values = values.set_column(values.schema.get_field_index("measure"), "measure", measure)
    report = result.report
    examples = {}  # qrels query and document ids, for a disjoint or unjudged run's message, only when needed
    if any(not seen["shared"] or not seen["matched"] for seen in coverage.values()):
        real = qrels.filter(pc.not_equal(qrels["query_id"], placeholder))
        examples = {"query": pc.min(real["query_id"]).as_py(), "doc": pc.min(real["doc_id"]).as_py()}
    notes = [("qrels", None, None, None, None, json.dumps({
        "queries": report.qrels_queries - 1, "dropped": report.qrels_duplicates_dropped,
        "notes": report.input_notes, "label_cut": label_cut, "examples": examples}))]
    for name, _, dropped in report.run_sources:
        seen = report.runs.get(name, RunReport())
        notes.append(("run", name, None, None, None, json.dumps({
            "queries": seen.queries - 1, "missing": seen.missing_queries, "run_only": seen.run_only_queries,
            "dropped": dropped, "tie_groups": report.tie_groups.get(name), **coverage[name]})))
    count = values.num_rows
    value_rows = pa.table({"kind": pa.array(["value"] * count, pa.string()), "run_id": values["run_id"],
                           "query_id": values["query_id"], "measure": values["measure"],
                           "value": values["value"].cast(pa.float64()),
                           "detail": pa.nulls(count, pa.string())}, schema=_arrow_schema())
    note_rows = pa.table(list(zip(*notes)), schema=_arrow_schema())
    return pa.concat_tables([value_rows, note_rows])


def _coverage(con, report: Report, placeholder: str, judged_only: bool) -> dict[str, dict]:
    """Per run of a bucket, what the whole job's checks need (the placeholder query left out): whether it shares
    a query with the qrels (else its smallest query id); whether a retrieved document is judged (else its
    smallest document id), as the engine's unjudged-run warning asks; under judged_only, how many judged
    documents it kept. Read from the bucket's connection after the engine ran, in the engine's own tables.

    The cheap count first, over the judged documents the ranking pass kept; only a run with none there
    is joined with the qrels whole, as the engine does.
    """
    runs = {run_id: table for run_id, table in report.run_tables}
    other = f"query_id <> {sqlgen.literal(placeholder)}"
    kept = dict(con.execute(f"SELECT run_id, count(relevance) FILTER (WHERE {other}) FROM {engine.JUDGED_TABLE} "
                            "GROUP BY run_id").fetchall())
    found = {}
    for run_id, table in runs.items():
        seen = report.runs.get(run_id, RunReport())
        rows = sqlgen.identifier(table)
        shared = seen.queries - 1 > seen.run_only_queries
        matched = bool(kept.get(run_id)) or judged_only or bool(con.execute(
            f"SELECT EXISTS (SELECT 1 FROM {rows} JOIN {QRELS_TABLE} USING (query_id, doc_id) WHERE {other})"
        ).fetchall()[0][0])
        entry = {"shared": shared, "matched": matched}
        if judged_only:  # the run's table is its judged documents (within depth)
            entry["judged_kept"] = con.execute(f"SELECT count(*) FROM {rows} WHERE {other}").fetchall()[0][0]
        if not shared or not matched:
            entry["query"], entry["doc"] = con.execute(f"SELECT min(query_id), min(doc_id) FROM {rows} "
                                                       f"WHERE {other}").fetchall()[0]
        found[run_id] = entry
    return found


class _BucketError(Exception):
    """The engine's error in a bucket, and which input it is about (None: the qrels, else a run's name)."""

    def __init__(self, error: SqlrankError, source: str | None):
        super().__init__(str(error))
        self.error, self.source = error, source


def _culprit(qrels, runs: dict, placeholder: str, measures, settings) -> str | None:
    """Which input an error is about (every input of a bucket is labelled '<pyarrow Table run>' or '... qrels>'): the first
    input that fails alone, the qrels with a placeholder run, then each run with the qrels, as the engine
    loads them. Only on the error path."""
    import pyarrow as pa

    import sqlrank

    lone = pa.table({"query_id": [placeholder], "doc_id": [placeholder], "score": [0.0]})
    for name, run in [(None, lone), *runs.items()]:
        try:
            sqlrank.evaluate(qrels, {name or "run": run}, measures, **settings)
        except SqlrankError:
            return name
    return None


def _in_input_order(table):
    """Sorted by the input's row order when it was kept (duplicates='first'), without that column."""
    if ORDER not in table.column_names:
        return table
    return table.sort_by(ORDER).drop_columns([ORDER])


def _with_placeholder(table, placeholder: str, value_column: str):
    """One more row, of a query no input has, so that the engine sees this input in every bucket."""
    import pyarrow as pa

    extra = {name: pa.array([placeholder if name in ("query_id", "doc_id") else 0]).cast(table.schema.field(name).type)
             for name in table.column_names}
    return pa.concat_tables([table, pa.table(extra, schema=table.schema)])


def _free_id(base: str, *tables) -> str:
    """`base`, or `base-1`, `base-2` ...: the first that no table has as a query_id."""
    import pyarrow.compute as pc

    name, number = base, 0
    while any(pc.any(pc.equal(table["query_id"], name)).as_py() for table in tables):
        number += 1
        name = f"{base}-{number}"
    return name


def _too_large(run, qrels) -> str:
    return (f"a bucket of {run.num_rows} run rows and {qrels.num_rows} qrels rows does not fit in a worker's memory; "
            "pass more buckets (buckets=..., CLI: --spark-buckets) or give the executors more memory")


def _arrow_schema():
    import pyarrow as pa

    return pa.schema([(name, pa.string() if kind == "string" else pa.float64()) for name, kind in _OUTPUT_FIELDS])


# ---------------------------------------------------------------- the driver: inputs and the report

def unfolded(path) -> str:
    """A URL that a Path folded (hdfs://host/x became hdfs:/host/x), as it was typed; other paths as they are."""
    text = str(path)
    scheme = re.match(r"^([A-Za-z][A-Za-z0-9+.-]+):/(?!/)", text)
    return text if scheme is None or scheme.group(1).lower() == "file" else text.replace(":/", "://", 1)


def _check_options(missing, duplicates, depth, score_precision, buckets, ties, judged_only, aggregates,
                   measures) -> list[str]:
    """The single-machine checks of the options, before any Spark job; the aggregates asked for, once each."""
    _, aggregates = engine.check_options(measures, missing, score_precision, depth, ties, judged_only, aggregates)
    if duplicates not in DUPLICATE_POLICIES:
        raise InputError(f"unknown duplicates policy '{duplicates}' (expected one of: {', '.join(DUPLICATE_POLICIES)})")
    if buckets is not None:
        whole_number("buckets", buckets, 1, MAX_BUCKETS)
    return aggregates


def _read(spark, source, kind: str):
    """(DataFrame, label, the path if it is TREC text): a DataFrame as it is; a name of the session's catalog;
    else a path."""
    DataFrame = _pyspark().sql.DataFrame
    if isinstance(source, DataFrame):
        return source, f"<Spark DataFrame {kind}>", None  # which argument, as the single-machine labels say
    if isinstance(source, Path):
        source = str(source)
    if not isinstance(source, str):
        raise InputError(f"cannot use a {type(source).__name__} as the {kind} on Spark; pass a Spark DataFrame, "
                         "a table name or a path")
    if "/" not in source and "\\" not in source and _is_table(spark, source):
        return spark.table(source), source, None
    return _read_path(spark, source, kind), source, source if _format_of(source) == "trec" else None


def _is_table(spark, name: str) -> bool:
    try:
        return spark.catalog.tableExists(name)
    except Exception:  # a file name that is no table name (Spark's parser refuses it): a path
        return False


def _read_path(spark, path: str, kind: str):
    """A path Spark reads: Parquet (file or folder), CSV/TSV with a header, JSON lines, else TREC text."""
    fmt = _format_of(path)
    try:
        if fmt == "parquet":
            return spark.read.parquet(path)
        if fmt in ("csv", "tsv"):
            return spark.read.csv(path, header=True, sep="\t" if fmt == "tsv" else ",")
        if fmt == "json":
            return spark.read.json(path)
        return _trec_frame(spark, path, kind)
    except Exception as error:  # Spark's AnalysisException: no such path, not that format
        raise InputError(f"{path}: cannot be read by Spark as the {kind}: {str(error).splitlines()[0]}") from None


def _format_of(path: str) -> str:
    """parquet (also a folder: a name without a dot), csv, tsv, json (JSON lines) or trec, from the name."""
    lowered = path.lower().removesuffix(".gz")
    if lowered.endswith(".parquet") or "." not in lowered.rsplit("/", 1)[-1]:
        return "parquet"
    for fmt, endings in (("csv", (".csv",)), ("tsv", (".tsv",)), ("json", (".jsonl", ".json"))):
        if lowered.endswith(endings):
            return fmt
    return "trec"


def _trec_frame(spark, path: str, kind: str):
    """TREC text (`qid Q0 docno rank score tag` / `qid iter docno rel`) split as the single-machine reader splits it.

    A line that reader refuses (too few or too many fields, the byte 0x1F) gets a NULL query_id, which the
    bucket's checks refuse and the driver explains by its line number (_first_bad_line). Scores and labels stay
    text for the bucket's DuckDB to read as numbers, as on one machine; a qrels line says whether its label was
    cut to its leading integer (trec_eval's atol), for the notice.
    """
    functions = _pyspark().sql.functions
    blank = r"[ \t\r\x0b\x0c\x{feff}]"
    lines = spark.read.text(path).select(
        functions.regexp_replace("value", f"^{blank}+|{blank}+$", "").alias("line"),
        functions.col("value").contains(UNIT_SEPARATOR).alias("separator"))
    lines = lines.filter((functions.col("line") != "") & ~functions.col("line").startswith("#"))
    fields = functions.split("line", r"[ \t\r\x0b\x0c]+")
    count = functions.size(fields)
    whole = ~functions.col("separator") & (count >= 6 if kind == "run" else count == 4)
    query_id, doc_id = functions.when(whole, functions.get(fields, 0)), functions.get(fields, 2)
    if kind == "run":
        score = functions.get(fields, 4)
        # atof would read 1_000 as 1; DuckDB reads it as 1000: refused, as on one machine
        return lines.select(query_id.alias("query_id"), doc_id.alias("doc_id"),
                            functions.when(~score.contains("_"), score).alias("score"))
    text = functions.get(fields, 3)
    label = functions.regexp_extract(text, r"^[+-]?[0-9]+", 0)
    return lines.select(query_id.alias("query_id"), doc_id.alias("doc_id"),
                        functions.when(label != "", label).alias("relevance"),
                        (~text.rlike(r"^[+-]?[0-9]+$")).alias(LABEL_CUT))


def _canonical(frame, label: str, kind: str, mapping: dict, duplicates: str, ties: str = "trec"):
    """The input's columns under the canonical names, ids as text, resolved as sqlrank.evaluate resolves them;
    a run's rank column too under ties='input'."""
    functions = _pyspark().sql.functions
    columns = _resolve_columns(frame, label, kind, mapping)
    if kind == "run" and ties == "input":
        columns["rank"] = _rank_column(frame, label, mapping)
    selected = [frame[columns[c]].cast("string").alias(c) for c in ("query_id", "doc_id")]
    value = "score" if kind == "run" else "relevance"
    selected.append(frame[columns[value]].alias(value))
    for name in ("run_id", "rank"):
        if name in columns:
            column = frame[columns[name]]  # a rank as it is: the engine reads and checks it
            selected.append((column.cast("string") if name == "run_id" else column).alias(name))
    if LABEL_CUT in frame.columns:
        selected.append(frame[LABEL_CUT])
    if duplicates == "first":
        selected.append(functions.monotonically_increasing_id().alias(ORDER))
    return frame.select(*selected)


def _rank_column(frame, label: str, mapping: dict) -> str:
    """ties='input' orders tied documents by the run's own ranks; on one machine a run without a rank column
    falls back to its row order, which a Spark DataFrame does not have (a shuffle, a union or a join reorders it)."""
    wanted = mapping.get("rank")
    found = (wanted if wanted in frame.columns else None) if wanted else rank_column(frame.columns)
    if found is None:
        raise EvaluationError(
            f"{label}: ties='input' orders equally scored documents by the run's rank column, and this run has "
            f"{'no column ' + repr(wanted) if wanted else 'none'} (found {', '.join(frame.columns) or 'no columns'}); "
            "on Spark a DataFrame has no row order to use instead: add a rank column (or map one: "
            "run_columns={'rank': <name>}), or use another ties policy (trec, docid_asc, optimistic, pessimistic, "
            "average)")
    return found


def _resolve_columns(frame, label: str, kind: str, mapping: dict) -> dict[str, str]:
    """{canonical: the input's column}, by sqlrank's own rules on an empty Arrow table of the frame's schema.

    The errors (a missing column, a column of the wrong type) are the single-machine ones.
    """
    from pyspark.sql.pandas.types import to_arrow_schema

    import duckdb

    wanted = {k: v for k, v in mapping.items() if k != "rank"}  # the mapping of this input (kind)
    empty = to_arrow_schema(frame.schema).empty_table()
    with duckdb.connect() as con:
        con.register("spark_schema", empty)
        loaded = Loaded("spark_columns", label, explainer())
        canonical_select(describe(con, "spark_schema"), kind, wanted, loaded)
    return loaded.columns


def _named_runs(spark, run, mapping, duplicates, ties):
    """[(run name or None, canonical frame with run_id, label, named by the user)], as sqlrank.evaluate names runs."""
    functions = _pyspark().sql.functions
    runs = []
    for name, source, named in named_runs(run):
        frame, label, text = _read(spark, source, "run")
        found = _input(frame, label, "run", mapping, text)
        frame = _canonical(frame, label, "run", mapping, duplicates, ties)
        if "run_id" in frame.columns:
            if named:
                raise named_twice(label, name)
            runs.append((None, frame, label, False, found))
        else:
            runs.append((name or "run", frame.withColumn("run_id", functions.lit(name or "run")), label, named,
                         found))
    return runs


def _run_names(runs) -> list[str]:
    """Every run's name, in the order given; a table's own run ids (one scan of its run_id column) by run_id."""
    names = []
    for name, frame, _, _, _ in runs:
        if name is not None:
            names.append(name)
        else:
            names += sorted(row[0] for row in frame.select("run_id").distinct().collect())
    check_distinct(names)
    return names


def _collect_notes(evaluated, buckets: int) -> list[dict]:
    """The buckets' report and error rows; a worker that died for want of memory said as sqlrank says it."""
    try:
        return [row.asDict() for row in evaluated.filter(evaluated["kind"] != "value").collect()]
    except Exception as error:  # Py4JJavaError or PySparkException: a task failed in Spark itself
        text = str(error)
        if not any(sign in text for sign in ("OutOfMemory", "Python worker exited unexpectedly", "MemoryError")):
            raise
        evaluated.unpersist()
        raise ResourceError(f"a bucket of queries did not fit in a worker's memory ({buckets} buckets): pass more "
                            "buckets (buckets=..., CLI: --spark-buckets) or give the executors more memory") from None


def _merge_reports(rows: list[dict], qrels_label: str, sources, run_names, missing, duplicates, depth,
                   buckets: int, inputs) -> Report:
    """One Report from the buckets' report rows; a bucket's error raised as the engine raises it (_refusal)."""
    errors = sorted(((json.loads(row["detail"]), row["run_id"]) for row in rows if row["kind"] == "error"),
                    key=lambda error: error[0]["bucket"])
    if errors:
        raise _refusal(errors, inputs, duplicates,
                       lambda error: _bucket_error(error, qrels_label, sources, run_names, buckets))
    report = Report(qrels_label=qrels_label, missing_policy=missing, depth=depth, duplicates_policy=duplicates)
    label_cut = 0
    dropped = {name: 0 for name in run_names}
    seen = {name: RunReport() for name in run_names}
    tied = {name: [0, 0] for name in run_names}
    for row in rows:
        detail = json.loads(row["detail"])
        if row["kind"] == "qrels":
            report.qrels_queries += detail["queries"]
            report.qrels_duplicates_dropped += detail["dropped"]
            # once each: a bucket says a note of one input once per run it holds
            report.input_notes += [note for note in dict.fromkeys(detail["notes"]) if note not in report.input_notes]
            label_cut += detail["label_cut"]
        elif row["kind"] == "run":
            run = seen[row["run_id"]]
            run.queries += detail["queries"]
            run.missing_queries += detail["missing"]
            run.run_only_queries += detail["run_only"]
            dropped[row["run_id"]] += detail["dropped"]
            groups, documents = detail.get("tie_groups") or (0, 0)
            tied[row["run_id"]][0] += groups
            tied[row["run_id"]][1] += documents
    if label_cut:  # the qrels' note comes first, as the single-machine reader makes it while loading them
        report.input_notes.insert(0, label_cut_note(qrels_label, label_cut))
    for run in seen.values():
        run.missing_queries.sort()
    names_by_source = _names_by_source(sources, run_names)
    report.run_sources = [(name, label, sum(dropped[n] for n in names)) for (name, label), names
                          in zip(sources, names_by_source)]
    report.runs = {name: run for name, run in seen.items() if run.queries or run.missing_queries}
    # the tie notice of each run with tie groups, in the engine's order: input by input, a table's runs by run_id
    report.tie_groups = {name: tuple(tied[name]) for names in names_by_source for name in names if tied[name][0]}
    if not report.runs:
        raise EvaluationError(f"the run has no rows: nothing to evaluate ({', '.join(l for _, l in sources)})")
    return report


def _whole_job_checks(rows: list[dict], report: Report, inputs, sources, run_names, ties: str, judged_only: bool,
                      depth: int | None, allow_disjoint: bool) -> None:
    """What the engine checks over a whole run, over the whole job, in the engine's order: judged_only leaving a
    run with nothing, a run sharing no query with the qrels (allow_disjoint), a run with no judged document
    (a warning). Each bucket says what it saw of its part (_coverage); the examples are the smallest ids, as
    the engine gives them."""
    if ties != "trec":  # the notice of tie groups comes with a chosen policy, as on one machine
        report.ties = ties
    coverage = {name: {"shared": False, "matched": False, "judged_kept": 0, "query": None, "doc": None}
                for name in run_names}
    examples = {"query": None, "doc": None}
    for row in rows:
        detail = json.loads(row["detail"])
        if row["kind"] == "qrels":
            _smallest(examples, detail["examples"])
        elif row["kind"] == "run":
            seen = coverage[row["run_id"]]
            seen["shared"] |= detail["shared"]
            seen["matched"] |= detail["matched"]
            seen["judged_kept"] += detail.get("judged_kept", 0)
            _smallest(seen, detail)
    if judged_only:
        for (_, label), names in zip(sources, _names_by_source(sources, run_names)):
            if not sum(coverage[name]["judged_kept"] for name in names):
                raise engine.nothing_judged(label, depth)
    if not allow_disjoint:
        for name, run in report.runs.items():
            if run.queries and not coverage[name]["shared"]:
                raise engine.disjoint_error(name, run.queries, coverage[name]["query"], examples["query"])
    columns = {name: None if found.trec_path else found.columns.get("doc_id")
               for names, found in inputs[1:] for name in names}
    for name, run in report.runs.items():
        if coverage[name]["shared"] and not coverage[name]["matched"] and not judged_only:
            report.warnings.append(engine.unjudged_warning(name, coverage[name]["doc"], examples["doc"], columns[name]))


def _smallest(found: dict, seen: dict) -> None:
    """found's query and doc examples lowered to seen's where those are smaller (None: none seen)."""
    for key in ("query", "doc"):
        if seen.get(key) is not None and (found[key] is None or seen[key] < found[key]):
            found[key] = seen[key]


def _bucket_error(error, qrels_label: str, sources, run_names, buckets: int) -> SqlrankError:
    """A bucket's error as the engine raised it there, its input named and the bucket (its row numbers count
    within the bucket): for what no check of the whole input explains (_refusal)."""
    detail, source = error
    label = qrels_label if source is None else _label_of(source, sources, run_names)
    message = re.sub(r"<pyarrow Table( run| qrels)?>", lambda _: f"{label} (query bucket {detail['bucket']} of {buckets})",
                     detail["message"])
    return _ERRORS.get(detail["type"], SqlrankError)(message)


def _label_of(run_name: str, sources, run_names) -> str:
    for (_, label), names in zip(sources, _names_by_source(sources, run_names)):
        if run_name in names:
            return label
    return "<Spark DataFrame run>"


def _names_by_source(sources, run_names) -> list[list[str]]:
    """Which run names each source brought: a named source its name, a run_id table the rest."""
    named = {name for name, _ in sources if name is not None}
    return [[name] if name is not None else [n for n in run_names if n not in named] for name, _ in sources]


# ---------------------------------------------------------------- a refusal, explained over the whole input

@dataclass
class _Input:
    """An input as the driver read it, to find a refused row by its place in the input, not in a bucket."""

    kind: str  # qrels or run
    label: str
    frame: object  # the input's columns under the canonical names, in the input's order
    columns: dict = field(default_factory=dict)  # canonical name -> the input's column (for messages)
    trec_path: str | None = None  # TREC text: rows are lines, numbered as the file's lines


def _input(frame, label: str, kind: str, mapping: dict, trec_path: str | None) -> _Input:
    columns = _resolve_columns(frame, label, kind, mapping)
    names = [name for name in ("query_id", "doc_id", "run_id", checks.value_column(kind)) if name in columns]
    return _Input(kind, label, frame.select(*[frame[columns[name]].alias(name) for name in names]), columns,
                  trec_path)


def _refusal(errors, inputs, duplicates: str, as_in_bucket) -> SqlrankError:
    """The error sqlrank.evaluate raises on the same inputs.

    Of the inputs a bucket refused, the first in the order the engine loads them (the qrels, then the runs)
    is searched in Spark for its first bad row, numbered in the whole input (its row, or its line in a TREC
    file), then for its duplicates (the first three pairs in key order), and the single-machine reader words
    what was found. A refusal no such search explains (a query named 'all', a bucket too large) is the
    bucket's own (as_in_bucket). Only on the error path: one or two more passes over that input.
    """
    for names, found in inputs:
        about = [error for error in errors if error[1] is None] if names is None else \
            [error for error in errors if error[1] in names]
        if not about:
            continue
        if about[0][0]["type"] == "InputError":
            error = _first_bad_line(found) if found.trec_path else _first_bad_row(found)
            if error is None and duplicates == "error":
                error = _duplicates(found)
            if error is not None:
                return error
        return as_in_bucket(about[0])
    return as_in_bucket(errors[0])


_FOUND_SCHEMA = "partition int, rows long, position long, found string"


def _first_bad_row(found: _Input) -> SqlrankError | None:
    """The first row sqlrank's checks refuse (an empty id, a value that is no number or NaN), by its row number."""
    value = checks.value_column(found.kind)
    names = found.frame.columns

    def find(con) -> str:
        raw = ", ".join(f"CAST({sqlgen.identifier(name)} AS VARCHAR) AS {sqlgen.identifier(name)}" for name in names)
        bad = checks.bad_row([name for name in names if name != value], "number")
        return (f"SELECT * FROM (SELECT row_number() OVER () AS position, {raw}, "
                f"TRY_CAST({sqlgen.identifier(value)} AS DOUBLE) AS number FROM part) WHERE {bad} LIMIT 1")

    hit = _first_in_partitions(found.frame, find)
    if hit is None:
        return None
    number, row = hit
    return bad_row_message(found.label, {"row_number": number, **dict(zip([*names, "number"], row))},
                           found.columns, found.kind)


def _first_bad_line(found: _Input) -> SqlrankError | None:
    """The first line of a TREC file the single-machine reader refuses, by its line number in the file."""
    lines = found.frame.sparkSession.read.text(found.trec_path)
    separator, kind = sqlgen.literal(UNIT_SEPARATOR), found.kind  # what the workers' function takes along

    def find(con) -> str:
        # the single-machine reader reads a line up to a 0x1F and says the rest is there
        part = (f"(SELECT row_number() OVER () AS position, split_part(value, {separator}, 1) AS line, "
                f"CASE WHEN contains(value, {separator}) THEN '' END AS rest FROM part)")
        return (f"SELECT position, * EXCLUDE (position) FROM ({bad_lines(trec_fields(part), kind, 'position')}) "
                "ORDER BY position LIMIT 1")

    hit = _first_in_partitions(lines, find)
    if hit is None:
        return None
    number, (line, rest, count, text, nan, infinite) = hit
    return bad_line_message(f"{found.label}:{number}", found.kind, line.lstrip("\ufeff") if number == 1 else line,
                            rest, count, text, nan, infinite)


def _first_in_partitions(frame, query) -> tuple[int, list] | None:
    """(number in the whole frame, 1-based; the row's other columns) of the first row `query` finds, or None.

    Each partition is searched by DuckDB (`query(con)`: SQL over table `part` giving position within the
    partition first): one pass, a row per partition back. Partitions are in the input's order (a file's
    splits by offset), so the rows of the partitions before plus the position is the row's number.
    """
    def search(batches):
        import duckdb
        import pyarrow as pa
        from pyspark import TaskContext

        rows, first = 0, None
        with duckdb.connect(config={"threads": 1}) as con:
            for batch in batches:
                if first is None:
                    con.register("part", pa.Table.from_batches([batch]))
                    hits = con.execute(query(con)).fetchall()
                    con.unregister("part")
                    if hits:
                        first = (rows + hits[0][0], json.dumps(list(hits[0][1:]), default=str))
                rows += batch.num_rows
        yield pa.RecordBatch.from_pylist(
            [{"partition": TaskContext.get().partitionId(), "rows": rows, "position": first and first[0],
              "found": first and first[1]}], schema=pa.schema([("partition", pa.int32()), ("rows", pa.int64()),
                                                               ("position", pa.int64()), ("found", pa.string())]))

    before = 0
    for part in sorted(frame.mapInArrow(search, _FOUND_SCHEMA).collect(), key=lambda row: row["partition"]):
        if part["position"] is not None:
            return before + part["position"], json.loads(part["found"])
        before += part["rows"]
    return None


def _duplicates(found: _Input) -> SqlrankError | None:
    """The single-machine refusal of duplicate rows, its examples the first three pairs of the whole input."""
    functions = _pyspark().sql.functions
    key = [name for name in ("run_id", "query_id", "doc_id") if name in found.frame.columns]
    frame = found.frame.select(*[functions.col(name).cast("string") for name in key])
    copies = (frame.groupBy(*key).count().filter(functions.col("count") > 1).orderBy(*key).limit(3).collect())
    if not copies:
        return None
    return duplicates_error(found.label, [(row["query_id"], row["doc_id"], row["count"]) for row in copies])


# ---------------------------------------------------------------- what must be installed

def _pyspark():
    """pyspark, or an error saying how to install it."""
    try:
        import pyspark.sql
        import pyspark.sql.functions  # noqa: F401
    except ImportError:
        raise EvaluationError(f"the Spark engine needs pyspark 4 (not installed): {INSTALL_HINT}") from None
    return pyspark


def _require_java() -> None:
    """Spark runs on a JVM: say so before pyspark fails with a gateway error."""
    java_home = os.environ.get("JAVA_HOME")
    if shutil.which("java") is None and not (java_home and Path(java_home, "bin", "java").exists()):
        raise EvaluationError("the Spark engine needs Java 17 or newer (no `java` on the PATH and no JAVA_HOME): "
                              "install a JDK (e.g. apt-get install openjdk-17-jre-headless) or set JAVA_HOME")


__all__ = ["evaluate", "session", "default_buckets", "aggregate_of", "SparkResult", "INSTALL_HINT"]
