"""Tables with named columns (CSV, Parquet, JSON lines, DataFrames) mapped to the canonical columns.

Column mapping happens here and only here: the macros never learn the user's
column names. A column is the one the user named (query_col=...), else a
common spelling of the canonical name (qid, docno, label, ...). Ids must be
text or whole numbers: integer ids become their decimal text, so `1` matches
"1" but `01` does not match `1` (trec_eval); floating-point ids are refused
(1.0 would never match "1"). Values must be numbers, or text holding numbers.
"""

from __future__ import annotations

from typing import Optional

import duckdb

from .. import checks, sqlgen
from ..checks import messages
from ..errors import InputError, SqlrankError, first_line, shorten
from . import files
from .base import Explain, Loaded, canonical_columns, create

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


def load_relation(con, loaded: Loaded, relation: str, kind: str, columns: dict, materialize: bool) -> Loaded:
    """Make loaded.table from `relation` (SQL of a table function or a quoted name), mapped and checked.

    materialize: parse the input once into a table (text), or wrap it in a view scanned in place
    (Parquet, in-memory tables).
    """
    try:
        found = describe(con, relation)
    except duckdb.Error as error:
        raise loaded.explain(con, loaded, kind, error) from None
    return load_described(con, loaded, relation, found, kind, columns, materialize)


def load_described(con, loaded: Loaded, relation: str, found: list[tuple[str, str]], kind: str, columns: dict,
                   materialize: bool) -> Loaded:
    """load_relation() for a relation whose columns are known: `found`, as describe() gives them."""
    loaded.source = relation
    select = canonical_select(found, kind, columns, loaded)
    create(con, loaded, kind, f"SELECT {select} FROM {relation}", materialize)
    checks.validate(con, loaded, kind)
    return loaded


def describe(con, relation: str) -> list[tuple[str, str]]:
    """(name, DuckDB type) of each column of `relation`."""
    return [(row[0], row[1]) for row in con.execute(f"DESCRIBE SELECT * FROM {relation}").fetchall()]


def canonical_select(found: list[tuple[str, str]], kind: str, columns: dict, loaded: Loaded) -> str:
    """SELECT list casting the mapped columns to the canonical names and types; fills loaded.columns."""
    types = dict(found)
    names = [name for name, _ in found]
    label = loaded.label
    parts = []
    for canonical in canonical_columns(kind):
        given = columns.get(canonical)
        column = str(given) if given is not None else _guess(names, canonical)
        if column is None or column not in types:
            option = _OPTION[canonical]
            raise InputError(messages.render(
                messages.MISSING_COLUMN, input=label, column=shorten(column or canonical),
                found=shorten(', '.join(names), 200) or 'no columns',
                fix=f"pass {option}=<name> (CLI: --{option.replace('_', '-')} <name>)"))
        _check_type(label, canonical, column, types[column])
        loaded.columns[canonical] = column
        target = "VARCHAR" if canonical in ("query_id", "doc_id") else "DOUBLE"
        parts.append(f"CAST({sqlgen.identifier(column)} AS {target}) AS {canonical}")
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


# ---------------------------------------------------------------- explaining a bad row or a failed read

def explainer(*, text: bool = True, line_fix: str = "check the line", otherwise=None) -> Explain:
    """Loaded.explain for a table: a bad row is named by its row number, a failed read by files.read_error.

    text, line_fix: as in files.read_error. otherwise(loaded, error) -> the message when nothing more
    precise is known (default: cannot be read as FORMAT).
    """
    def explain(con, loaded: Loaded, kind: str, error: Optional[Exception]) -> SqlrankError:
        if error is None or (_is_conversion_error(error) and loaded.source):
            return bad_row_error(con, loaded, kind, error)
        return files.read_error(loaded, error, text=text, line_fix=line_fix,
                                otherwise=otherwise(loaded, error) if otherwise else None)
    return explain


def bad_row_error(con, loaded: Loaded, kind: str, error: Exception | None = None) -> InputError:
    """Find the first row of the raw input with an empty id or a value that is not a number, and name it."""
    value = checks.value_column(kind)
    names = [c for c in ("query_id", "doc_id", "run_id", value) if c in loaded.columns]
    raw = ", ".join(f"CAST({sqlgen.identifier(loaded.columns[c])} AS VARCHAR) AS {c}" for c in names)
    number = f"TRY_CAST({sqlgen.identifier(loaded.columns[value])} AS DOUBLE)"
    # the checks' condition (checks.bad_row), on the raw text: a value that is no number is a NULL number
    bad = checks.bad_row([c for c in names if c != value], "number")
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
    where = {"input": loaded.label, "row": found["row_number"], "value": value}
    for canonical in names:
        if canonical != value and found[canonical] in (None, ""):
            return InputError(messages.render(messages.EMPTY_ID, **where, canonical=canonical,
                                              column=loaded.columns[canonical]))
    column = loaded.columns[value]
    if found[value] is None:
        return InputError(messages.render(messages.EMPTY_VALUE, **where, column=column))
    if found["number"] is None:
        return InputError(f"{loaded.label}: row {found['row_number']}, column '{column}': expected a number ({value}), "
                          f"found '{shorten(found[value])}'; fix the value")
    return InputError(messages.render(messages.NAN_VALUE, **where, column=column))


def _is_conversion_error(error: Exception) -> bool:
    text = str(error)
    return isinstance(error, duckdb.ConversionException) or "Could not convert" in text or \
        "Conversion Error" in text
