"""One bucket of queries, evaluated by sqlrank's own engine in a Spark Python worker.

applyInArrow calls bucket_evaluator's function with a bucket's run and qrels rows as Arrow tables; it gives
back the bucket's per-query values and one report row per input (what the policies did, what the whole
job's checks need), or the engine's error. Everything here runs on the executors, which import this module
by its name (its functions travel pickled by reference): sqlrank must be installed there as on the driver.
"""

from __future__ import annotations

import json

from .. import engine, sqlgen
from ..errors import ResourceError, SqlrankError
from ..lists import ListMeasure, list_weights_sql
from ..macros import evaluation_connection
from ..readers import QRELS_TABLE
from ..result import Report, RunReport
from .readers import LABEL_CUT, ORDER

BUCKET = "sqlrank_bucket"
PLACEHOLDER = "sqlrank-spark-placeholder"
OUTPUT_FIELDS = (("kind", "string"), ("run_id", "string"), ("query_id", "string"), ("measure", "string"),
                 ("value", "double"), ("detail", "string"))


def bucket_evaluator(options: dict):
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
        return pa.table(list(zip(*rows)) if rows else [[] for _ in OUTPUT_FIELDS],
                        schema=_arrow_schema())

    return evaluate_bucket


def _evaluate_bucket(run, qrels, options: dict):
    """The engine on one bucket: value rows and one report row per run plus one for the qrels."""
    import pyarrow as pa
    import pyarrow.compute as pc

    import sqlrank

    sqlrank.defined.redefine(options["defined"])  # the driver's definitions: this worker's process has none
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
    # over the whole job (checks.whole_job_checks), from what each bucket says of its part (_coverage)
    settings["allow_disjoint"] = True
    # the worker process's database, kept for its next bucket (Spark reuses Python workers), as evaluate() uses it
    with evaluation_connection(options["threads"], options["memory_limit"], options["temp_directory"]) as con:
        try:
            result = sqlrank.evaluate(qrels, runs, options["measures"], connection=con, train=options.get("train"),
                                      features=options.get("features"), **settings)
        except ResourceError:
            raise _BucketError(ResourceError(_too_large(run, qrels)), None) from None
        except SqlrankError as error:
            raise _BucketError(error, _culprit(qrels, runs, placeholder, options["measures"], settings)) from None
        coverage = _coverage(con, result.report, placeholder, options["judged_only"])
        weights = _weights(con, result, options["missing"])
    values = result.to_arrow()
    # the bucket's own `all` rows are left out: Spark aggregates over every bucket
    values = values.filter(pc.invert(pc.is_in(values["query_id"], pa.array([placeholder, "all"]))))
    weights = weights.filter(pc.not_equal(weights["query_id"], placeholder))
    if options["labels"]:  # names='asked': the measure column as the user wrote each measure
        values, weights = (_asked_names(table, options) for table in (values, weights))
    report = result.report
    examples = {}  # qrels query and document ids, for a disjoint or unjudged run's message, only when needed
    if any(not seen["shared"] or not seen["matched"] for seen in coverage.values()):
        real = qrels.filter(pc.not_equal(qrels["query_id"], placeholder))
        examples = {"query": pc.min(real["query_id"]).as_py(), "doc": pc.min(real["doc_id"]).as_py()}
    notes = [("qrels", None, None, None, None, json.dumps({
        "queries": report.qrels_queries - 1, "dropped": report.qrels_duplicates_dropped,
        "notes": report.input_notes, "label_cut": label_cut, "examples": examples,
        "empty": [query for query in report.empty_queries if query != placeholder],
        "empty_level": report.empty_level}))]
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
    weight_rows = pa.table({"kind": pa.array(["weight"] * weights.num_rows, pa.string()),
                            "run_id": weights["run_id"], "query_id": weights["query_id"],
                            "measure": weights["measure"], "value": weights["weight"].cast(pa.float64()),
                            "detail": pa.nulls(weights.num_rows, pa.string())}, schema=_arrow_schema())
    note_rows = pa.table(list(zip(*notes)), schema=_arrow_schema())
    return pa.concat_tables([value_rows, weight_rows, note_rows])


def _weights(con, result, missing: str):
    """(run_id, query_id, measure, weight) of the measures with a weighted mean (GAUC), from the bucket's
    judged table: the driver weighs the values by them (result.py); no row when none was asked."""
    import pyarrow as pa

    weighted = [m for m in result.parsed_measures if m.definition.aggregate == "weighted"]
    listed = [m for m in result.parsed_measures if isinstance(m, ListMeasure)]
    parts = [con.sql(engine.weights_sql(weighted, missing)).to_arrow_table()] if weighted else []
    list_weights = list_weights_sql(listed, [str(m) for m in listed])  # the list measures', read from their tables
    if list_weights:
        parts.append(con.sql(f"SELECT run_id, query_id, measure, CAST(weight AS DOUBLE) AS weight "
                             f"FROM ({list_weights})").to_arrow_table())
    if not parts:
        return pa.table({"run_id": pa.array([], pa.string()), "query_id": pa.array([], pa.string()),
                         "measure": pa.array([], pa.string()), "weight": pa.array([], pa.float64())})
    return pa.concat_tables([part.select(["run_id", "query_id", "measure", "weight"]) for part in parts],
                            promote_options="permissive")


def _asked_names(table, options: dict):
    """The measure column as the user wrote each measure (names='asked'), from the canonical names."""
    import pyarrow as pa
    import pyarrow.compute as pc

    measure = pc.take(pa.array(options["labels"], pa.string()),
                      pc.index_in(table["measure"], value_set=pa.array(options["measures"], pa.string())))
    return table.set_column(table.schema.get_field_index("measure"), "measure", measure)


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

    return pa.schema([(name, pa.string() if kind == "string" else pa.float64()) for name, kind in OUTPUT_FIELDS])
