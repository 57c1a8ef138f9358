"""A refusal explained over the whole input: the row or line sqlrank.evaluate would name, found again in Spark.

A bucket numbers its rows within the bucket, which means nothing to the user, so a bucket only detects; the
driver searches the refused input in its own order, each partition by DuckDB with the single-machine checks,
and the single-machine reader words what was found. Only on the error path.
"""

from __future__ import annotations

import json
import re

from .. import checks, sqlgen
from ..checks import duplicates_error
from ..errors import EvaluationError, InputError, ResourceError, SqlrankError
from ..readers.tables import bad_row_message
from ..readers.trec import bad_line_message, bad_lines, trec_fields
from .readers import UNIT_SEPARATOR, Input, names_by_source
from .runtime import import_pyspark

_ERRORS = {error.__name__: error for error in (InputError, EvaluationError, ResourceError, SqlrankError)}


def explain_refusal(errors, inputs, duplicates: str, as_in_bucket) -> SqlrankError:
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


def empty_run_id(runs) -> SqlrankError:
    """A table of runs with an empty run_id: the row sqlrank.evaluate names, in its words."""
    return next(error for name, _, _, _, found in runs if name is None
                for error in [_first_bad_row(found)] if error is not None)


_FOUND_SCHEMA = "partition int, rows long, position long, found string"


def _first_bad_row(found: Input) -> SqlrankError | None:
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


def _first_bad_line(found: Input) -> SqlrankError | None:
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


def _duplicates(found: Input) -> SqlrankError | None:
    """The single-machine refusal of duplicate rows, its examples the first three pairs of the whole input."""
    functions = import_pyspark().sql.functions
    key = [name for name in ("run_id", "query_id", "doc_id") if name in found.frame.columns]
    frame = found.frame.select(*[functions.col(name).cast("string") for name in key])
    copies = (frame.groupBy(*key).count().filter(functions.col("count") > 1).orderBy(*key).limit(3).collect())
    if not copies:
        return None
    return duplicates_error(found.label, [(row["query_id"], row["doc_id"], row["count"]) for row in copies])


def bucket_error(error, qrels_label: str, sources, run_names, buckets: int) -> SqlrankError:
    """A bucket's error as the engine raised it there, its input named and the bucket (its row numbers count
    within the bucket): for what no check of the whole input explains (explain_refusal)."""
    detail, source = error
    label = qrels_label if source is None else _label_of(source, sources, run_names)
    message = re.sub(r"<pyarrow Table( run| qrels)?>", lambda _: f"{label} (query bucket {detail['bucket']} of {buckets})",
                     detail["message"])
    return _ERRORS.get(detail["type"], SqlrankError)(message)


def _label_of(run_name: str, sources, run_names) -> str:
    for (_, label), names in zip(sources, names_by_source(sources, run_names)):
        if run_name in names:
            return label
    return "<Spark DataFrame run>"
