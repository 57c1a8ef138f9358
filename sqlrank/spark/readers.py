"""Spark's inputs read into the canonical columns, as sqlrank's single-machine readers would read them.

A Spark DataFrame as it is, a table of the session's catalog, or a path Spark reads (Parquet, CSV/TSV with
a header, JSON lines, TREC text split as the single-machine reader splits it). Columns are resolved by
sqlrank's own rules, so a missing or mistyped column gets the single-machine error before any job runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .. import checks
from ..errors import EvaluationError, InputError
from ..readers.base import Loaded
from ..readers.evaluation import check_distinct, named_runs, named_twice
from ..readers.tables import canonical_select, describe, explainer, rank_column
from ..readers.trec import headerless
from .runtime import import_pyspark

ORDER = "sqlrank_input_order"  # the input's row order, kept through the shuffle for duplicates='first'
LABEL_CUT = "sqlrank_label_cut"  # TREC qrels read by Spark: whether the label was cut to its leading integer
UNIT_SEPARATOR = "\x1f"  # refused in a TREC line, as the single-machine reader refuses it


def unfolded(path) -> str:
    """A URL that a Path folded (hdfs://host/x became hdfs:/host/x), as it was typed; other paths as they are."""
    text = str(path)
    scheme = re.match(r"^([A-Za-z][A-Za-z0-9+.-]+):/(?!/)", text)
    return text if scheme is None or scheme.group(1).lower() == "file" else text.replace(":/", "://", 1)


def read_source(spark, source, kind: str):
    """(DataFrame, label, the path if it is TREC text): a DataFrame as it is; a name of the session's catalog;
    else a path."""
    DataFrame = import_pyspark().sql.DataFrame
    if isinstance(source, DataFrame):
        return source, f"<Spark DataFrame {kind}>", None  # which argument, as the single-machine labels say
    if isinstance(source, Path):
        source = str(source)
    if not isinstance(source, str):
        raise InputError(f"cannot use a {type(source).__name__} as the {kind} on Spark; pass a Spark DataFrame, "
                         "a table name or a path")
    if "/" not in source and "\\" not in source and _is_table(spark, source):
        return spark.table(source), source, None
    fmt = _format_of(source)
    if fmt in ("csv", "tsv") and _headerless_trec(spark, source, kind):
        fmt = "trec"  # MS MARCO's qrels.dev.small.tsv, as the single-machine reader recognises it
    return _read_path(spark, source, kind, fmt), source, source if fmt == "trec" else None


def _is_table(spark, name: str) -> bool:
    try:
        return spark.catalog.tableExists(name)
    except Exception:  # a file name that is no table name (Spark's parser refuses it): a path
        return False


def _headerless_trec(spark, path: str, kind: str) -> bool:
    """Whether a .csv/.tsv file's first data line is a TREC line of `kind` (readers.trec.headerless)."""
    functions = import_pyspark().sql.functions
    try:
        line = spark.read.text(path).select(functions.trim("value").alias("line")).filter(
            (functions.col("line") != "") & ~functions.col("line").startswith("#")).first()
    except Exception:  # no such path: _read_path says so in its words
        return False
    return line is not None and headerless(line["line"], kind)


def _read_path(spark, path: str, kind: str, fmt: str):
    """A path Spark reads as `fmt`: Parquet (file or folder), CSV/TSV with a header, JSON lines, else TREC text."""
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
    bucket's checks refuse and the driver explains by its line number (refusals._first_bad_line). Scores and labels stay
    text for the bucket's DuckDB to read as numbers, as on one machine; a qrels line says whether its label was
    cut to its leading integer (trec_eval's atol), for the notice.
    """
    functions = import_pyspark().sql.functions
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


def canonical(frame, label: str, kind: str, mapping: dict, duplicates: str, ties: str = "trec"):
    """The input's columns under the canonical names, ids as text, resolved as sqlrank.evaluate resolves them;
    a run's rank column too under ties='input'."""
    functions = import_pyspark().sql.functions
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


@dataclass
class Input:
    """An input as the driver read it, to find a refused row by its place in the input, not in a bucket."""

    kind: str  # qrels or run
    label: str
    frame: object  # the input's columns under the canonical names, in the input's order
    columns: dict = field(default_factory=dict)  # canonical name -> the input's column (for messages)
    trec_path: str | None = None  # TREC text: rows are lines, numbered as the file's lines


def input_of(frame, label: str, kind: str, mapping: dict, trec_path: str | None) -> Input:
    columns = _resolve_columns(frame, label, kind, mapping)
    names = [name for name in ("query_id", "doc_id", "run_id", checks.value_column(kind)) if name in columns]
    return Input(kind, label, frame.select(*[frame[columns[name]].alias(name) for name in names]), columns,
                 trec_path)


def read_runs(spark, run, mapping, duplicates, ties):
    """[(run name or None, canonical frame with run_id, label, named by the user)], as sqlrank.evaluate names runs."""
    functions = import_pyspark().sql.functions
    runs = []
    for name, source, named in named_runs(run):
        frame, label, text = read_source(spark, source, "run")
        found = input_of(frame, label, "run", mapping, text)
        frame = canonical(frame, label, "run", mapping, duplicates, ties)
        if "run_id" in frame.columns:
            if named:
                raise named_twice(label, name)
            runs.append((None, frame, label, False, found))
        else:
            runs.append((name or "run", frame.withColumn("run_id", functions.lit(name or "run")), label, named,
                         found))
    return runs


def list_run_names(runs) -> list[str]:
    """Every run's name, in the order given; a table's own run ids (one scan of its run_id column) by run_id."""
    names = []
    for name, frame, _, _, _ in runs:
        if name is not None:
            names.append(name)
        else:
            # an empty run id sorts first and stays, for the job to refuse by its row (refusals.empty_run_id)
            names += sorted((row[0] for row in frame.select("run_id").distinct().collect()),
                            key=lambda name: (name is not None, name or ""))
    check_distinct(names)
    return names


def names_by_source(sources, run_names) -> list[list[str]]:
    """Which run names each source brought: a named source its name, a run_id table the rest."""
    named = {name for name, _ in sources if name is not None}
    return [[name] if name is not None else [n for n in run_names if n not in named] for name, _ in sources]
