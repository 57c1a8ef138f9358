"""Turn paths, DataFrames, Arrow tables, DuckDB relations and dicts into canonical tables.

    run   (query_id VARCHAR, doc_id VARCHAR, score DOUBLE)
    qrels (query_id VARCHAR, doc_id VARCHAR, relevance DOUBLE)

Files are read by DuckDB itself (no round trip through Python objects). Text
formats (TREC, CSV, JSON lines) are parsed once into a temporary table;
Parquet files and in-memory tables are wrapped in views and scanned in place.
Column mapping happens here and only here: the macros never learn the user's
column names.

Decisions (written down for the next engineer):
* TREC files are recognised by content, not extension: the first data line has
  6 fields (run) or 4 (qrels). Fields split on any ASCII whitespace; blank
  lines and lines starting with `#` are skipped (trec_eval 10).
* Scores must be numbers (`5e-1`, `inf` are fine). trec_eval's atof would read
  `3abc` as 3 and `abc` as 0; we refuse instead, since a silently wrong score
  is a silently wrong ranking. NaN scores are refused too (they have no order).
* TREC qrels labels are read like trec_eval's atol: the leading integer
  (`1.9` -> 1). Labels without a leading integer are refused. CSV, Parquet and
  DataFrame labels are real numbers (seed 002 uses 0.5, 0.9, ...).
* Ids are strings compared byte for byte; integer id columns become their
  decimal text, so `1` matches "1" but `01` does not match `1` (trec_eval).
"""

from __future__ import annotations

import gzip
import os
import re
from dataclasses import dataclass
from pathlib import Path

import duckdb

from .errors import InputError

RUN_COLUMNS = ("query_id", "doc_id", "score")
QRELS_COLUMNS = ("query_id", "doc_id", "relevance")
# common spellings of the canonical columns in the wild (ir_measures, ranx, pandas users)
_COLUMN_SYNONYMS = {
    "query_id": ("query_id", "qid", "query", "q_id", "user_id", "user"),
    "doc_id": ("doc_id", "docid", "docno", "doc", "item_id", "item", "pid"),
    "score": ("score", "sim", "similarity", "prediction", "rating"),
    "relevance": ("relevance", "rel", "label", "grade", "judgment", "judgement"),
}
_WHITESPACE_SPLIT = r"'[ \t\n\r\x0b\x0c]+'"


def quote_identifier(name: str) -> str:
    return '"' + str(name).replace('"', '""') + '"'


def quote_literal(text: str) -> str:
    return "'" + str(text).replace("'", "''") + "'"


@dataclass
class Loaded:
    """A canonical table in the connection and where it came from (for messages)."""

    table: str
    label: str  # file path or "<pandas DataFrame>" ...
    path: Path | None = None
    trec: bool = False


def load(con, source, table: str, kind: str, columns: dict[str, str | None] | None = None) -> Loaded:
    """Create table/view `table` with the canonical columns of `kind` ('run' or 'qrels')."""
    columns = columns or {}
    if isinstance(source, (str, os.PathLike)):
        return _load_path(con, Path(source), table, kind, columns)
    if isinstance(source, Loaded):
        return source
    if isinstance(source, dict):
        return _load_dict(con, source, table, kind)
    return _load_object(con, source, table, kind, columns)


# ---------------------------------------------------------------- paths

def _load_path(con, path: Path, table: str, kind: str, columns) -> Loaded:
    label = str(path)
    if not path.exists():
        raise InputError(f"{label}: no such file; check the path (the {kind} comes "
                         f"{'first' if kind == 'qrels' else 'second'}: sqlrank eval QRELS RUN)")
    if path.is_dir():
        raise InputError(f"{label}: is a directory, expected a {kind} file")
    if not os.access(path, os.R_OK):
        raise InputError(f"{label}: cannot be read (permission denied)")
    fmt = sniff_format(path)
    source = quote_literal(str(path))
    try:
        if fmt == "trec":
            return _load_trec(con, path, table, kind)
        if fmt == "parquet":
            relation = f"read_parquet({source})"
            materialize = False
        elif fmt == "json":
            relation = f"read_json({source}, format = 'newline_delimited')"
            materialize = True
        else:
            delim = "\t" if fmt == "tsv" else ","
            relation = f"read_csv({source}, header = true, delim = {quote_literal(delim)})"
            materialize = True
        found = [row[0] for row in con.execute(f"DESCRIBE SELECT * FROM {relation}").fetchall()]
    except duckdb.Error as error:
        raise InputError(f"{label}: cannot be read as {fmt.upper()}: {_first_line(error)}") from None
    select = _canonical_select(found, kind, columns, label)
    _create(con, table, f"SELECT {select} FROM {relation}", materialize, label)
    loaded = Loaded(table, label, path)
    validate(con, loaded, kind)
    return loaded


def sniff_format(path: Path) -> str:
    """'parquet', 'csv', 'tsv', 'json' or 'trec', from the magic bytes, then the extension, then the content."""
    with open(path, "rb") as handle:
        head = handle.read(4)
    if head == b"PAR1":
        return "parquet"
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    ext = suffixes[-1] if suffixes else ""
    if ext == ".parquet":
        raise InputError(f"{path}: has a .parquet name but is not a Parquet file (no PAR1 magic bytes); "
                         "rename it after its real format")
    if ext in (".csv", ".tsv", ".json", ".jsonl", ".ndjson"):
        return {".csv": "csv", ".tsv": "tsv"}.get(ext, "json")
    first = _first_data_line(path)
    if first is None:
        return "trec"  # empty file: reported as such by the TREC reader
    if first.lstrip().startswith("{"):
        return "json"
    if len(first.split()) in (4, 6) or len(first.split()) > 6:
        return "trec"
    return "tsv" if "\t" in first else "csv"


def _open_text(path: Path):
    opener = gzip.open if path.suffix.lower() == ".gz" else open
    return opener(path, "rt", encoding="utf-8", errors="replace", newline="")


def _first_data_line(path: Path) -> str | None:
    try:
        with _open_text(path) as handle:
            for line in handle:
                stripped = line.strip().lstrip("\ufeff")
                if stripped and not stripped.startswith("#"):
                    return stripped
    except (OSError, EOFError) as error:
        raise InputError(f"{path}: cannot be read: {error}") from None
    return None


def _load_trec(con, path: Path, table: str, kind: str) -> Loaded:
    """TREC run (`qid Q0 docno rank score tag`) or qrels (`qid iter docno rel`) text, any whitespace."""
    label = str(path)
    lines = (
        f"read_csv({quote_literal(str(path))}, columns = {{'line': 'VARCHAR'}}, header = false, "
        "delim = '\x1f', quote = '', escape = '', auto_detect = false, strict_mode = false)"
    )
    # the BOM, if any, is part of the first line; trim it with the whitespace
    parts = f"string_split_regex(trim(ltrim(line, chr(65279)), ' \t\r\n\x0b\x0c'), {_WHITESPACE_SPLIT})"
    comment = "starts_with(ltrim(line, ' \t\r\n\x0b\x0c' || chr(65279)), '#')"
    blank = "trim(ltrim(line, chr(65279)), ' \t\r\n\x0b\x0c') = ''"
    if kind == "run":
        body = (
            f"SELECT fields[1] AS query_id, fields[3] AS doc_id, TRY_CAST(fields[5] AS DOUBLE) AS score, "
            f"len(fields) AS field_count, fields[5] AS score_text FROM "
            f"(SELECT {parts} AS fields FROM {lines} WHERE line IS NOT NULL AND NOT ({blank}) AND NOT ({comment}))"
        )
    else:
        body = (
            f"SELECT fields[1] AS query_id, fields[3] AS doc_id, "
            f"CAST(TRY_CAST(regexp_extract(fields[4], '^[+-]?[0-9]+') AS BIGINT) AS DOUBLE) AS relevance, "
            f"len(fields) AS field_count, fields[4] AS score_text FROM "
            f"(SELECT {parts} AS fields FROM {lines} WHERE line IS NOT NULL AND NOT ({blank}) AND NOT ({comment}))"
        )
    raw = table + "_raw"
    _create(con, raw, body, True, label)
    expected = 6 if kind == "run" else 4
    value = "score" if kind == "run" else "relevance"
    bad = con.execute(
        f"SELECT count(*) FILTER (WHERE field_count < {expected} OR ({expected} = 4 AND field_count <> 4)), "
        f"count(*) FILTER (WHERE {value} IS NULL), count(*) FROM {quote_identifier(raw)}"
    ).fetchone()
    if bad[2] == 0:
        con.execute(f"DROP TABLE {quote_identifier(raw)}")
        raise InputError(f"{label}: no {kind} lines found (the file is empty or only comments); "
                         f"expected lines like {_trec_example(kind)}")
    if bad[0] or bad[1]:
        con.execute(f"DROP TABLE {quote_identifier(raw)}")
        raise _trec_line_error(path, kind)
    canonical = ", ".join(RUN_COLUMNS if kind == "run" else QRELS_COLUMNS)
    con.execute(f"CREATE OR REPLACE TEMP VIEW {quote_identifier(table)} AS SELECT {canonical} FROM {quote_identifier(raw)}")
    loaded = Loaded(table, label, path, trec=True)
    validate(con, loaded, kind)
    return loaded


def _trec_example(kind: str) -> str:
    return "'301 Q0 FBIS3-10082 1 12.5 myrun' (qid Q0 docno rank score tag)" if kind == "run" \
        else "'301 0 FBIS3-10082 1' (qid iter docno relevance)"


def _trec_line_error(path: Path, kind: str) -> InputError:
    """Find the first offending line in Python (only on the error path) and describe it."""
    expected = 6 if kind == "run" else 4
    with _open_text(path) as handle:
        for number, line in enumerate(handle, start=1):
            text = line.lstrip("\ufeff").strip()
            if not text or text.startswith("#"):
                continue
            fields = text.split()
            shown = text if len(text) <= 80 else text[:77] + "..."
            if len(fields) < expected or (kind == "qrels" and len(fields) != 4):
                return InputError(
                    f"{path}:{number}: expected {expected} fields ({_trec_example(kind)}), "
                    f"found {len(fields)}: '{shown}'; fix or remove the line"
                )
            if kind == "run" and _parse_float(fields[4]) is None:
                return InputError(
                    f"{path}:{number}: column 5 (score) must be a number, found '{fields[4]}'; fix the score"
                )
            if kind == "qrels" and not re.match(r"^[+-]?[0-9]+", fields[3]):
                return InputError(
                    f"{path}:{number}: column 4 (relevance) must be an integer label, found '{fields[3]}'"
                )
    return InputError(f"{path}: malformed {kind} file (expected {_trec_example(kind)})")


def _parse_float(text: str):
    try:
        return float(text)
    except ValueError:
        return None


# ---------------------------------------------------------------- in-memory objects

def _load_dict(con, source: dict, table: str, kind: str) -> Loaded:
    """pytrec_eval shape: {query_id: {doc_id: score_or_label}}."""
    import pyarrow as pa

    value_name = "score" if kind == "run" else "relevance"
    qids, dids, values = [], [], []
    for qid, docs in source.items():
        if not isinstance(docs, dict):
            raise InputError(f"<dict {kind}>: expected {{query_id: {{doc_id: {value_name}}}}}, "
                             f"found {type(docs).__name__} for query {qid!r}")
        for did, value in docs.items():
            qids.append(str(qid))
            dids.append(str(did))
            values.append(value)
    try:
        arrow = pa.table({"query_id": pa.array(qids, pa.string()), "doc_id": pa.array(dids, pa.string()),
                          value_name: pa.array(values, pa.float64())})
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError) as error:
        raise InputError(f"<dict {kind}>: every {value_name} must be a number: {error}") from None
    return _load_object(con, arrow, table, kind, {}, label=f"<dict {kind}>")


def _load_object(con, source, table: str, kind: str, columns, label: str | None = None) -> Loaded:
    label = label or f"<{type(source).__module__.split('.')[0]} {type(source).__name__}>"
    if isinstance(source, duckdb.DuckDBPyRelation):
        source = source.to_arrow_table() if hasattr(source, "to_arrow_table") else source.arrow()
    elif type(source).__module__.startswith("polars"):
        source = source.to_arrow()
    elif not _is_tabular(source):
        raise InputError(
            f"{label}: cannot use a {type(source).__name__} as the {kind}; pass a file path, a pandas or "
            "polars DataFrame, a pyarrow Table, a DuckDB relation or a dict {query_id: {doc_id: value}}"
        )
    data_name = table + "_data"
    con.register(data_name, source)
    found = [row[0] for row in con.execute(f"DESCRIBE SELECT * FROM {quote_identifier(data_name)}").fetchall()]
    select = _canonical_select(found, kind, columns, label)
    _create(con, table, f"SELECT {select} FROM {quote_identifier(data_name)}", False, label)
    loaded = Loaded(table, label)
    validate(con, loaded, kind)
    return loaded


def _is_tabular(source) -> bool:
    module = type(source).__module__
    return module.startswith(("pandas", "pyarrow"))


# ---------------------------------------------------------------- mapping and checks

def _canonical_select(found: list[str], kind: str, columns: dict, label: str) -> str:
    """SELECT list casting the mapped columns to the canonical names and types."""
    wanted = RUN_COLUMNS if kind == "run" else QRELS_COLUMNS
    types = {"query_id": "VARCHAR", "doc_id": "VARCHAR", "score": "DOUBLE", "relevance": "DOUBLE"}
    option = {"query_id": "query_col", "doc_id": "doc_col", "score": "score_col", "relevance": "relevance_col"}
    parts = []
    for canonical in wanted:
        column = columns.get(canonical) or _guess(found, canonical)
        if column is None or column not in found:
            given = f"'{column}' " if column else f"'{canonical}' "
            raise InputError(
                f"{label}: missing column {given}(found {', '.join(found) or 'no columns'}); "
                f"pass {option[canonical]}=<name> (CLI: --{option[canonical].replace('_', '-')} <name>)"
            )
        parts.append(f"CAST({quote_identifier(column)} AS {types[canonical]}) AS {canonical}")
    if kind == "run" and "run_id" in found and "run_id" not in wanted:
        parts.append("CAST(run_id AS VARCHAR) AS run_id")
    return ", ".join(parts)


def _guess(found: list[str], canonical: str) -> str | None:
    lowered = {name.lower(): name for name in found}
    for synonym in _COLUMN_SYNONYMS[canonical]:
        if synonym in lowered:
            return lowered[synonym]
    return None


def _create(con, table: str, select: str, materialize: bool, label: str) -> None:
    kind = "TABLE" if materialize else "VIEW"
    try:
        con.execute(f"CREATE OR REPLACE TEMP {kind} {quote_identifier(table)} AS {select}")
    except duckdb.Error as error:
        raise InputError(f"{label}: cannot be read: {_first_line(error)}") from None


def validate(con, loaded: Loaded, kind: str) -> None:
    """One scan: no NULL ids, no missing or NaN values; cast failures become clear errors."""
    value = "score" if kind == "run" else "relevance"
    try:
        row = con.execute(
            f"SELECT count(*), count(*) FILTER (WHERE query_id IS NULL OR doc_id IS NULL), "
            f"count(*) FILTER (WHERE {value} IS NULL), count(*) FILTER (WHERE isnan({value})) "
            f"FROM {quote_identifier(loaded.table)}"
        ).fetchone()
    except duckdb.Error as error:
        raise InputError(f"{loaded.label}: {_describe_cast_error(error, kind)}") from None
    total, null_ids, null_values, nans = row
    if null_ids:
        raise InputError(f"{loaded.label}: {null_ids} row(s) have an empty query_id or doc_id; every row needs both")
    if null_values:
        raise InputError(f"{loaded.label}: {null_values} row(s) have no {value}; every row needs a numeric {value}")
    if nans:
        raise InputError(f"{loaded.label}: {nans} row(s) have a NaN {value}; NaN has no order, so it cannot be ranked "
                         f"or judged: replace it with a number")


def _describe_cast_error(error: duckdb.Error, kind: str) -> str:
    text = _first_line(error)
    if "Could not convert" in text or "Conversion Error" in text:
        value = "score" if kind == "run" else "relevance"
        return f"a {value} value is not a number ({text}); fix the column's values"
    return text


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


DUPLICATE_POLICIES = ("error", "first", "max")


def resolve_duplicates(con, loaded: Loaded, kind: str, policy: str) -> int:
    """Apply the duplicates policy to (query_id, doc_id) pairs; returns how many rows were dropped.

    'error' (default) refuses and names the first duplicates (trec_eval exits
    with "duplicate docs"); 'first' keeps the first row in input order; 'max'
    keeps the highest score (run) or label (qrels).
    """
    if policy not in DUPLICATE_POLICIES:
        raise InputError(f"unknown duplicates policy '{policy}' (expected one of: {', '.join(DUPLICATE_POLICIES)})")
    table = quote_identifier(loaded.table)
    # a table holding several runs (run_id column) has each document once per run, not once overall
    has_run_id = "run_id" in [row[0] for row in con.execute(f"DESCRIBE {table}").fetchall()]
    key = "run_id, query_id, doc_id" if has_run_id else "query_id, doc_id"
    examples = con.execute(
        f"SELECT query_id, doc_id, count(*) AS copies FROM {table} GROUP BY {key} "
        f"HAVING count(*) > 1 ORDER BY {key} LIMIT 3"
    ).fetchall()
    if not examples:
        return 0
    if policy == "error":
        shown = ", ".join(f"query {q!r} doc {d!r} ({n} rows)" for q, d, n in examples)
        raise InputError(
            f"{loaded.label}: duplicate (query_id, doc_id) rows, e.g. {shown}; each document may appear once "
            "per query. Remove them, or choose a policy: duplicates='first' or 'max' (CLI: --duplicates first|max)"
        )
    value = "score" if kind == "run" else "relevance"
    order = "input_order" if policy == "first" else f"{value} DESC"
    before = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    deduplicated = loaded.table + "_deduplicated"
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE {quote_identifier(deduplicated)} AS "
        f"SELECT * EXCLUDE (input_order) FROM (SELECT *, row_number() OVER () AS input_order FROM {table}) "
        f"QUALIFY row_number() OVER (PARTITION BY {key} ORDER BY {order}, input_order) = 1"
    )
    after = con.execute(f"SELECT count(*) FROM {quote_identifier(deduplicated)}").fetchone()[0]
    loaded.table = deduplicated
    return before - after
