"""Turn paths, DataFrames, Arrow tables, DuckDB relations and dicts into canonical tables.

    run   (query_id VARCHAR, doc_id VARCHAR, score DOUBLE)
    qrels (query_id VARCHAR, doc_id VARCHAR, relevance DOUBLE)

Files are read by DuckDB itself (no round trip through Python objects). Text
formats (TREC, CSV, JSON lines) are parsed once into a temporary table;
Parquet files and in-memory tables are wrapped in views and scanned in place.
Column mapping happens here and only here: the macros never learn the user's
column names. Every way an input can be wrong ends in an InputError naming the
file (and the line, row or column); Python looks at the file again only on
that error path, so a good input is read once, by DuckDB.

This module finds the format and maps the columns; TREC text is read by
trec_text.py, every input is checked by input_checks.py, and what they share
(the Loaded record, quoting, opening files) is in sources.py.

Decisions (written down for the next engineer; docs/bad_input.md is the table):
* The format is recognised by content, then by name: Parquet by its magic
  bytes, gzip by its magic bytes (a `.gz` name is neither needed nor trusted),
  `.csv`/`.tsv`/`.json`/`.jsonl` by extension, JSON lines by a leading `{`,
  CSV/TSV by a header line (commas, or tabs and no number in it); anything
  else is TREC, whose lines then say what is wrong with them.
* TREC: fields split on ASCII whitespace (spaces, tabs, CR, VT, FF, mixed);
  blank lines and lines whose first non-blank character is `#` are skipped
  (trec_eval 10); CRLF/CR line ends and a UTF-8 BOM are fine; run fields after
  the 6th are ignored (trec_eval); a run line needs at least 6 fields, a qrels
  line exactly 4. The byte 0x1F (ASCII unit separator), which the line reader
  uses internally, is refused rather than silently splitting a line.
* Scores must be numbers (`5e-1`, `inf`, `1e400` -> inf are fine). trec_eval's
  atof would read `3abc` as 3 and `abc` or `1_000` as 0 or 1; we refuse
  instead, since a silently wrong score is a silently wrong ranking. NaN is
  refused too (it has no order).
* TREC qrels labels are read like trec_eval's atol: the leading integer
  (`1.9` -> 1, `+2` -> 2); the result notes how many labels were cut.
  Labels without a leading integer are refused. CSV, Parquet and DataFrame
  labels are real numbers (seed 002 uses 0.5, 0.9, ...).
* CSV/TSV columns are read as text, so ids keep their exact spelling (`007`,
  `1.50`); header names are taken as written, `#` is data, not a comment.
* Ids are strings compared byte for byte; integer id columns become their
  decimal text, so `1` matches "1" but `01` does not match `1` (trec_eval).
  Floating-point id columns are refused (1.0 would never match "1"), and so
  are empty ids.
* Text must be UTF-8. Paths are taken literally: `*`, `?`, `[` in a file name
  are not DuckDB glob patterns.
"""

from __future__ import annotations

import csv
import numbers
import os
from pathlib import Path

import duckdb

from . import trec_text
from .errors import InputError
from .input_checks import create, read_error, validate
from .sources import (QRELS_COLUMNS, READ_ERRORS, RUN_COLUMNS, Loaded, corrupt_gzip, duckdb_path, first_line,
                      open_text, quote_identifier, quote_literal, shorten)
from .trec_text import BLANKS

# common spellings of the canonical columns in the wild (ir_measures, ranx, pandas users)
_COLUMN_SYNONYMS = {
    "query_id": ("query_id", "qid", "query", "q_id", "user_id", "user"),
    "doc_id": ("doc_id", "docid", "docno", "doc", "item_id", "item", "pid"),
    "score": ("score", "sim", "similarity", "prediction", "rating"),
    "relevance": ("relevance", "rel", "label", "grade", "judgment", "judgement"),
}
_OPTION = {"query_id": "query_col", "doc_id": "doc_col", "score": "score_col", "relevance": "relevance_col"}
_INTEGER_TYPES = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT",
                  "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"}
_ID_TYPES = _INTEGER_TYPES | {"VARCHAR", "UUID", '"NULL"', "NULL"}
_VALUE_TYPES = _INTEGER_TYPES | {"FLOAT", "DOUBLE", "BOOLEAN", "VARCHAR", '"NULL"', "NULL"}

_GZIP_MAGIC = b"\x1f\x8b"


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
    head = _read_head(path, kind)
    compression = "gzip" if head.startswith(_GZIP_MAGIC) else "none"
    fmt = sniff_format(path, head, compression)
    if fmt == "trec":
        return trec_text.load(con, path, compression, table, kind)
    loaded = Loaded(table, str(path), path, compression=compression, fmt=fmt)
    if fmt == "parquet":
        relation = f"read_parquet({duckdb_path(path)}, hive_partitioning = false)"
    elif fmt == "json":
        relation = (f"read_json({duckdb_path(path)}, format = 'auto', compression = '{compression}', "
                    "hive_partitioning = false)")
    else:
        relation = _csv_relation(path, compression, "\t" if fmt == "tsv" else ",", loaded.label)
    try:
        found = _describe(con, relation)
    except duckdb.Error as error:
        raise read_error(loaded, fmt, error) from None
    loaded.source = relation
    select = _canonical_select(found, kind, columns, loaded)
    # Parquet is scanned in place (columnar, typed); text is parsed once
    create(con, loaded, kind, f"SELECT {select} FROM {relation}", materialize=fmt != "parquet")
    validate(con, loaded, kind)
    return loaded


def _read_head(path: Path, kind: str) -> bytes:
    """The first bytes of the file, after checking that it is a readable file."""
    label = str(path)
    try:
        exists, is_dir, is_file = path.exists(), path.is_dir(), path.is_file()
    except (OSError, ValueError) as error:  # e.g. a NUL byte or a name too long for the OS
        raise InputError(f"{label}: not a usable file name ({error}); check the path") from None
    if not exists:
        order = "first" if kind == "qrels" else "second"
        raise InputError(f"{label}: no such file; check the path (the {kind} comes {order}: "
                         "sqlrank eval QRELS RUN)")
    if is_dir:
        raise InputError(f"{label}: is a directory, expected a {kind} file; name a file inside it")
    if not is_file:
        # a pipe (/dev/stdin, <(zcat ...)) gives its bytes once, and an input is read more than once
        # (its first bytes for the format, a TREC file's bytes checked before DuckDB parses them): the
        # second read would find nothing and the file would seem empty
        raise InputError(f"{label}: is a pipe or a device, not a file, and sqlrank reads its inputs more "
                         f"than once; save it to a file first (e.g. zcat {kind}.gz > {kind}.txt; a .gz file "
                         "can also be given as it is)")
    try:
        with open(path, "rb") as handle:
            return handle.read(4)
    except PermissionError:
        raise InputError(f"{label}: cannot be read (permission denied); check the file's permissions "
                         "(e.g. chmod +r)") from None
    except OSError as error:
        raise InputError(f"{label}: cannot be read ({error.strerror or error}); check the file") from None


def sniff_format(path: Path, head: bytes = b"", compression: str = "none") -> str:
    """'parquet', 'csv', 'tsv', 'json' or 'trec', from the magic bytes, then the extension, then the content."""
    if head.startswith(b"PAR1"):
        return "parquet"
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    ext = suffixes[-1] if suffixes else ""
    if ext == ".parquet":
        raise InputError(f"{path}: has a .parquet name but is not a Parquet file (no PAR1 magic bytes); "
                         "rename it after its real format (.csv, .tsv, .jsonl or a TREC file)")
    if ext in (".csv", ".tsv", ".json", ".jsonl", ".ndjson"):
        return {".csv": "csv", ".tsv": "tsv"}.get(ext, "json")
    first = _first_data_line(path, compression)
    if first is None:
        return "trec"  # empty file: reported as such by the TREC reader
    if first.startswith(("{", "[")):
        return "json"
    fields = first.split()
    numbers = any(_is_number(f) for f in fields)
    if "\t" in first and not numbers:
        return "tsv"  # a header line such as `qid<TAB>docno<TAB>score`
    if "," in first and (not numbers or len(fields) < 4):
        return "csv"
    return "trec"


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _first_data_line(path: Path, compression: str) -> str | None:
    """The first line that is not blank or a comment, from the first 64 KiB."""
    try:
        with open_text(path, compression) as handle:
            text = handle.read(65536)
    except READ_ERRORS as error:
        raise _unreadable(str(path), error, compression) from None
    for line in text.splitlines():
        stripped = line.strip(BLANKS)
        if stripped and not stripped.startswith("#"):
            return stripped
    return None


def _unreadable(label: str, error: Exception, compression: str) -> InputError:
    """A failure of Python's own reading (sniffing, header, error paths) as an InputError."""
    if compression == "gzip":
        return corrupt_gzip(label, error)
    return InputError(f"{label}: cannot be read ({first_line(error)}); check the file")


# ---------------------------------------------------------------- CSV / TSV

def _csv_relation(path: Path, compression: str, delim: str, label: str) -> str:
    """read_csv with the header taken as written and every column read as text.

    Text columns keep ids exactly as written (`007`, `1.50`) and let a bad
    number be reported with its row; no dialect sniffing, so a ragged row is
    an error on its line instead of a sniffing failure.
    """
    names = _csv_header(path, compression, delim, label)
    types = "{" + ", ".join(f"{quote_literal(name)}: 'VARCHAR'" for name in names) + "}"
    return (f"read_csv({duckdb_path(path)}, header = true, delim = {quote_literal(delim)}, quote = '\"', "
            f"escape = '\"', comment = '', auto_detect = false, columns = {types}, "
            f"compression = '{compression}', hive_partitioning = false)")


def _csv_header(path: Path, compression: str, delim: str, label: str) -> list[str]:
    try:
        with open_text(path, compression) as handle:
            first = handle.readline()
    except READ_ERRORS as error:
        raise _unreadable(label, error, compression) from None
    row = next(csv.reader([first.lstrip("\ufeff").rstrip("\r\n")], delimiter=delim), [])
    if not any(name.strip() for name in row):
        kind = "TSV" if delim == "\t" else "CSV"
        raise InputError(f"{label}: the first line is empty; a {kind} file starts with a header line, "
                         f"e.g. query_id{delim}doc_id{delim}score")
    names: list[str] = []
    for number, name in enumerate(row):
        name = name or f"column{number}"
        while name in names:  # a repeated header name: keep both columns, as DuckDB would
            name += "_1"
        names.append(name)
    return names


# ---------------------------------------------------------------- in-memory objects

def _load_dict(con, source: dict, table: str, kind: str) -> Loaded:
    """pytrec_eval shape: {query_id: {doc_id: score_or_label}}."""
    import pyarrow as pa

    label = f"<dict {kind}>"
    value_name = "score" if kind == "run" else "relevance"
    qids, dids, values = [], [], []
    for qid, docs in source.items():
        if not isinstance(docs, dict):
            raise InputError(f"{label}: expected {{query_id: {{doc_id: {value_name}}}}}, "
                             f"found {type(docs).__name__} for query {qid!r}")
        for did, value in docs.items():
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise InputError(f"{label}: query {qid!r} doc {did!r}: the {value_name} must be a number, "
                                 f"found {value!r}; fix the value")
            qids.append(str(qid))
            dids.append(str(did))
            values.append(float(value))
    arrow = pa.table({"query_id": pa.array(qids, pa.string()), "doc_id": pa.array(dids, pa.string()),
                      value_name: pa.array(values, pa.float64())})
    return _load_object(con, arrow, table, kind, {}, label=label)


def _load_object(con, source, table: str, kind: str, columns, label: str | None = None) -> Loaded:
    label = label or f"<{type(source).__module__.split('.')[0]} {type(source).__name__}>"
    data_name = table + "_data"
    try:
        if isinstance(source, duckdb.DuckDBPyRelation):
            source = source.to_arrow_table() if hasattr(source, "to_arrow_table") else source.arrow()
        elif type(source).__module__.startswith("polars"):
            source = source.to_arrow()
        elif not _is_tabular(source):
            raise InputError(
                f"{label}: cannot use a {type(source).__name__} as the {kind}; pass a file path, a pandas or "
                "polars DataFrame, a pyarrow Table, a DuckDB relation or a dict {query_id: {doc_id: value}}"
            )
        con.register(data_name, source)
        found = _describe(con, quote_identifier(data_name))
    except InputError:
        raise
    except Exception as error:  # pandas, pyarrow, polars and DuckDB each have their own: all mean "unreadable"
        raise InputError(f"{label}: cannot be read as a table: {first_line(error)}") from None
    loaded = Loaded(table, label, source=quote_identifier(data_name))
    select = _canonical_select(found, kind, columns, loaded)
    create(con, loaded, kind, f"SELECT {select} FROM {quote_identifier(data_name)}", materialize=False)
    validate(con, loaded, kind)
    return loaded


def _is_tabular(source) -> bool:
    module = type(source).__module__
    return module.startswith(("pandas", "pyarrow"))


# ---------------------------------------------------------------- column mapping

def _describe(con, relation: str) -> list[tuple[str, str]]:
    return [(row[0], row[1]) for row in con.execute(f"DESCRIBE SELECT * FROM {relation}").fetchall()]


def _canonical_select(found: list[tuple[str, str]], kind: str, columns: dict, loaded: Loaded) -> str:
    """SELECT list casting the mapped columns to the canonical names and types."""
    wanted = RUN_COLUMNS if kind == "run" else QRELS_COLUMNS
    types = dict(found)
    names = [name for name, _ in found]
    label = loaded.label
    parts = []
    for canonical in wanted:
        given = columns.get(canonical)
        column = str(given) if given is not None else _guess(names, canonical)
        if column is None or column not in types:
            option = _OPTION[canonical]
            raise InputError(
                f"{label}: missing column '{shorten(column or canonical)}' "
                f"(found {shorten(', '.join(names), 200) or 'no columns'}); "
                f"pass {option}=<name> (CLI: --{option.replace('_', '-')} <name>)"
            )
        _check_type(label, canonical, column, types[column])
        loaded.columns[canonical] = column
        target = "VARCHAR" if canonical in ("query_id", "doc_id") else "DOUBLE"
        parts.append(f"CAST({quote_identifier(column)} AS {target}) AS {canonical}")
    if kind == "run" and "run_id" in types:
        loaded.columns["run_id"] = "run_id"
        parts.append("CAST(run_id AS VARCHAR) AS run_id")
    return ", ".join(parts)


def _check_type(label: str, canonical: str, column: str, duck_type: str) -> None:
    """Ids must be text or whole numbers, values numbers (or text holding numbers): refuse the rest by name."""
    base = duck_type.split("(")[0].upper()
    mixed = " (a JSON column holds mixed or nested values)" if base == "JSON" else ""
    if canonical in ("query_id", "doc_id"):
        if base in _ID_TYPES or base == "ENUM":
            return
        why = ("floating-point ids never match text ids (1.0 is not '1'); convert the column to int or str"
               if base in ("FLOAT", "DOUBLE", "DECIMAL")
               else "convert the column to str (or int)")
        raise InputError(f"{label}: column '{shorten(column)}' ({canonical}) has type {duck_type}{mixed}, "
                         f"expected text or whole numbers: {why}")
    if base in _VALUE_TYPES or base == "DECIMAL":
        return
    raise InputError(f"{label}: column '{shorten(column)}' ({canonical}) has type {duck_type}{mixed}, "
                     "expected numbers; convert the column to float")


def _guess(found: list[str], canonical: str) -> str | None:
    lowered = {name.lower(): name for name in found}
    for synonym in _COLUMN_SYNONYMS[canonical]:
        if synonym in lowered:
            return lowered[synonym]
    return None
