"""The checks every input passes before it is trusted, and the messages that name what is wrong.

create() makes an input's canonical table or view and explains a failure;
validate() scans it once (rows exist, no empty id, every value a number, not
NaN, and pair_screen's screen for duplicate pairs); resolve_duplicates()
applies the duplicates policy when that screen could not rule them out.
"""

from __future__ import annotations

import gzip
import re

import duckdb

from . import pair_screen
from .errors import InputError, SqlrankError
from .sources import (READ_ERRORS, Loaded, corrupt_gzip, first_line, out_of_memory, quote_identifier, shorten,
                      trec_example)


def create(con, loaded: Loaded, kind: str, select: str, materialize: bool) -> None:
    what = "TABLE" if materialize else "VIEW"
    try:
        con.execute(f"CREATE OR REPLACE TEMP {what} {quote_identifier(loaded.table)} AS {select}")
    except duckdb.Error as error:
        if _is_conversion_error(error) and loaded.source:
            raise _bad_row_error(con, loaded, kind, error) from None
        raise read_error(loaded, loaded.fmt, error) from None


def validate(con, loaded: Loaded, kind: str, explain_bad_rows=None) -> None:
    """One scan: rows exist; no empty ids; every value a number, not NaN. Otherwise say which row is wrong.

    The same scan screens for duplicate (query_id, doc_id) pairs (pair_screen):
    when all the pairs' hashes differ, all the pairs differ, and
    resolve_duplicates() need not group the table by its string keys.
    explain_bad_rows(con, loaded, kind) makes the error for bad rows; the TREC
    reader passes its own, which names the line (trec_text.line_error).
    """
    value = "score" if kind == "run" else "relevance"
    ids = ["query_id", "doc_id"] + (["run_id"] if "run_id" in loaded.columns else [])
    try:
        total, bad, equal_hashes = pair_screen.screen(
            con, quote_identifier(loaded.table), ids, pair_screen.bad_row(ids, value)
        )
    except duckdb.Error as error:  # a view: a cast or a read fails only now
        if _is_conversion_error(error) and loaded.source:
            raise _bad_row_error(con, loaded, kind, error) from None
        raise read_error(loaded, loaded.fmt, error) from None
    if total == 0:
        what = f"no {kind} lines (the file is empty or only comments)" if loaded.trec else "no rows"
        example = trec_example(kind) if loaded.trec else f"rows of query_id, doc_id, {value}"
        raise InputError(f"{loaded.label}: {what}; expected {example}")
    if bad:
        raise (explain_bad_rows or _bad_row_error)(con, loaded, kind)
    loaded.may_have_duplicates = equal_hashes > 0


def _bad_row_error(con, loaded: Loaded, kind: str, error: Exception | None = None) -> InputError:
    """Find the first row of the raw input with an empty id or a value that is not a number, and name it."""
    value = "score" if kind == "run" else "relevance"
    names = [c for c in ("query_id", "doc_id", "run_id", value) if c in loaded.columns]
    raw = ", ".join(f"CAST({quote_identifier(loaded.columns[c])} AS VARCHAR) AS {c}" for c in names)
    number = f"TRY_CAST({quote_identifier(loaded.columns[value])} AS DOUBLE)"
    # the screen's condition (pair_screen.bad_row), on the raw text: a value that is no number is a NULL number
    bad = pair_screen.bad_row([c for c in names if c != value], "number")
    try:
        row = con.execute(
            f"SELECT * FROM (SELECT row_number() OVER () AS row_number, {raw}, {number} AS number "
            f"FROM {loaded.source}) WHERE {bad} LIMIT 1"
        ).fetchone()
    except duckdb.Error as second:
        return InputError(f"{loaded.label}: cannot be read: {first_line(error or second)}")
    if row is None:
        return InputError(f"{loaded.label}: cannot be read: {first_line(error) if error else 'bad values'}")
    found = dict(zip(["row_number", *names, "number"], row))
    where = f"{loaded.label}: row {found['row_number']}"
    for canonical in names:
        if canonical != value and found[canonical] in (None, ""):
            return InputError(f"{where}: the {canonical} (column '{loaded.columns[canonical]}') is empty; "
                              f"every row needs a query_id, a doc_id and a {value}")
    column = loaded.columns[value]
    if found[value] is None:
        return InputError(f"{where}: the {value} (column '{column}') is empty; give every row a number")
    if found["number"] is None:
        return InputError(f"{where}, column '{column}': expected a number ({value}), found '{shorten(found[value])}'; "
                          "fix the value")
    return InputError(f"{where}, column '{column}': the {value} is NaN, which has no order; replace it with a number")


def _is_conversion_error(error: Exception) -> bool:
    text = str(error)
    return isinstance(error, duckdb.ConversionException) or "Could not convert" in text or \
        "Conversion Error" in text


def read_error(loaded: Loaded, fmt: str, error: Exception) -> SqlrankError:
    """A DuckDB read failure in the user's words: the file, the line if DuckDB gave one, and the fix."""
    memory = out_of_memory(error)
    if memory:
        return memory
    label = loaded.label
    # DuckDB's message names the file: take it out, so that a folder called `gzip` decides nothing
    text = str(error)
    for name in filter(None, (str(loaded.path.absolute()) if loaded.path else "", label)):
        text = text.replace(name, "<file>")
    lowered = text.lower()
    if "gzip" in lowered or "zlib" in lowered:
        return corrupt_gzip(label, error)
    if "invalid unicode" in lowered or "not utf-8 encoded" in lowered or "utf8" in lowered:
        found = _first_invalid_utf8(loaded) if loaded.path and fmt in ("trec", "csv", "tsv", "json") else None
        where = f"{label}:{found[0]}" if found else label
        shown = f" (found the bytes {found[1]!r})" if found else ""
        return InputError(f"{where}: is not UTF-8 text{shown}; convert the file to UTF-8 "
                          "(e.g. iconv -f latin1 -t utf-8); compressed files must be gzip")
    if "permission denied" in lowered:
        return InputError(f"{label}: cannot be read (permission denied); check the file's permissions")
    line = re.search(r"CSV Error on Line: (\d+)", text)
    if line:  # DuckDB counts physical lines, as an editor does
        detail = re.search(r"Expected Number of Columns: \d+ Found: \d+|Value with unterminated quote found"
                           r"|Maximum line size of \d+ bytes exceeded", text)
        fix = "every row needs as many fields as the header" if fmt in ("csv", "tsv") else "check the line"
        return InputError(f"{label}:{line.group(1)}: {detail.group(0) if detail else 'malformed line'}; "
                          f"fix the line ({fix})")
    if fmt == "parquet":
        return InputError(f"{label}: is not a readable Parquet file ({first_line(error)}); it may be truncated "
                          "or corrupt: write it again")
    return InputError(f"{label}: cannot be read as {fmt.upper()}: {first_line(error)}")


def _first_invalid_utf8(loaded: Loaded) -> tuple[int, bytes] | None:
    opener = gzip.open if loaded.compression == "gzip" else open
    try:
        with opener(loaded.path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                try:
                    raw.decode("utf-8")
                except UnicodeDecodeError as bad:
                    return number, raw[bad.start: bad.end]
    except READ_ERRORS:
        return None
    return None


DUPLICATE_POLICIES = ("error", "first", "max")


def resolve_duplicates(con, loaded: Loaded, kind: str, policy: str) -> int:
    """Apply the duplicates policy to (query_id, doc_id) pairs; returns how many rows were dropped.

    'error' (default) refuses and names the first duplicates (trec_eval exits
    with "duplicate docs"); 'first' keeps the first row in input order; 'max'
    keeps the highest score (run) or label (qrels).
    """
    if policy not in DUPLICATE_POLICIES:
        raise InputError(f"unknown duplicates policy '{policy}' (expected one of: {', '.join(DUPLICATE_POLICIES)})")
    if not loaded.may_have_duplicates:
        return 0
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
