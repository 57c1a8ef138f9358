"""Tables with named columns (CSV, Parquet, JSON lines, DataFrames) mapped to the canonical columns.

Column mapping happens here and only here: the macros never learn the user's
column names. A column is the one the user named (query_col=...), else a
common spelling of the canonical name (qid, docno, label, ...). Ids must be
text or whole numbers: integer ids become their decimal text, so `1` matches
"1" but `01` does not match `1` (trec_eval); floating-point ids are refused
(1.0 would never match "1"). Values must be numbers, or text holding numbers
(without a digit separator: `1_000` is refused, as in TREC files); integer scores
only up to 2^53, beyond which doubles would tie them (value_sql). A column name
given twice, or a recognised name in any case (qid, QID, RUN_ID), follows one rule.
"""

from __future__ import annotations

import math
import re
from typing import Optional

import duckdb

from .. import checks, sqlgen
from ..checks import messages
from ..errors import InputError, SqlrankError, at_command_line, first_line, option_hint, shorten
from . import files, shapes
from .base import INPUT_RANK, Explain, Loaded, canonical_columns, create, keeps_order

# common spellings of the canonical columns in the wild (ir_measures, ranx, BEIR, pandas users)
_COLUMN_SYNONYMS = {
    "query_id": ("query_id", "qid", "query", "q_id", "user_id", "user", "query-id"),
    # docno before docid: PyTerrier frames carry both, docno the collection's id and docid Terrier's internal number
    "doc_id": ("doc_id", "docno", "docid", "doc", "item_id", "item", "pid", "corpus-id", "items"),  # items: a list per user
    "score": ("score", "sim", "similarity", "prediction", "rating"),
    # iteration: ir_measures' name for the second qrels field, which holds the subtopic in diversity qrels
    "subtopic_id": ("subtopic_id", "subtopic", "iteration", "intent", "aspect", "subtopic_number",
                    # the judge of multi-judge qrels (trec_eval's qrels_jg), read in the subtopic's place
                    "judge_id", "judge", "jg"),
    # last, `score`: ranx's qrels (q_id, doc_id, score) and BEIR's (query-id, corpus-id, score) name the label so
    "relevance": ("relevance", "rel", "label", "grade", "judgment", "judgement", "rating", "target", "score"),
}
_OPTION = {"query_id": "query_col", "doc_id": "doc_col", "score": "score_col", "relevance": "relevance_col",
           "subtopic_id": "subtopic_col",
           "run_id": "run_col"}
INTEGER_TYPES = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT",
                  "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"}
_ID_TYPES = INTEGER_TYPES | {"VARCHAR", "UUID", '"NULL"', "NULL"}
_VALUE_TYPES = INTEGER_TYPES | {"FLOAT", "DOUBLE", "BOOLEAN", "VARCHAR", '"NULL"', "NULL"}


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
    relation, found, columns = shapes.reshape(con, loaded, relation, found, kind, columns)
    loaded.source = relation
    select = canonical_select(found, kind, columns, loaded)
    create(con, loaded, kind, f"SELECT {select} FROM {relation}", materialize)
    checks.validate(con, loaded, kind)
    if kind != "run" and columns.get("relevance") is None and loaded.columns["relevance"].lower() == "score":
        _refuse_run_scores(con, loaded)
    return loaded


def _refuse_run_scores(con, loaded: Loaded) -> None:
    """Qrels labels taken from a column `score` (ranx's and BEIR's name) must be whole numbers: fractions are a
    run's scores, given where the qrels go."""
    fraction = con.execute(f"SELECT min(relevance) FROM {sqlgen.identifier(loaded.table)} "
                           "WHERE relevance <> round(relevance)").fetchone()
    if fraction[0] is not None:
        option = "--qrels-map relevance=<name>" if at_command_line() else "qrels_columns={'relevance': <name>}"
        raise InputError(f"{loaded.label}: its column '{shorten(loaded.columns['relevance'])}' would be the labels (as "
                         f"ranx and BEIR name them), but it holds fractions ({fraction[0]}): this looks like a run; "
                         f"the qrels come first, then the run (labels in another column: {option})")


def describe(con, relation: str) -> list[tuple[str, str]]:
    """(name, DuckDB type) of each column of `relation`."""
    return [(row[0], row[1]) for row in con.execute(f"DESCRIBE SELECT * FROM {relation}").fetchall()]


def canonical_select(found: list[tuple[str, str]], kind: str, columns: dict, loaded: Loaded) -> str:
    """SELECT list casting the mapped columns to the canonical names and types; fills loaded.columns."""
    types = dict(found)
    names = [name for name, _ in found]
    label = loaded.label
    parts = []
    chosen = {canonical: str(columns[canonical]) if columns.get(canonical) is not None else _guess(names, canonical)
              for canonical in canonical_columns(kind)}
    missing = [canonical for canonical, column in chosen.items() if column is None or column not in types]
    if missing:
        raise missing_columns(label, kind, missing, chosen, names, columns)
    for canonical in canonical_columns(kind):
        column = chosen[canonical]
        _check_type(label, canonical, column, types[column])
        loaded.columns[canonical] = column
        if canonical == "query_id":
            loaded.query_id_type = types[column]
        if canonical in ("query_id", "doc_id", "subtopic_id"):
            parts.append(f"CAST({sqlgen.identifier(column)} AS VARCHAR) AS {canonical}")
        else:
            parts.append(f"{value_sql(sqlgen.identifier(column), types[column], canonical)} AS {canonical}")
    run_column = columns.get("run_id") if kind == "run" else None
    if run_column is not None and run_column not in types:
        raise InputError(f"{label}: missing column '{shorten(run_column)}' (found {shorten(', '.join(names), 200)}); "
                         f"pass {option_hint('run_col=<name>', '--run-col <name>')}")
    run_column = run_column or _matching(names, "run_id")  # recognised in any case, as the other columns are (_guess)
    if kind == "run" and run_column is not None:
        loaded.columns["run_id"] = run_column
        parts.append(f"CAST({sqlgen.identifier(run_column)} AS VARCHAR) AS run_id")
    if kind == "run" and keeps_order(columns):
        parts.append(_order_select(found, loaded))
    loaded.other_columns = [name for name in names if name not in loaded.columns.values()]
    return ", ".join(parts)


def rank_column(names: list[str]) -> str | None:
    """The run's own rank column (`rank` in any case), which gives its order under ties='input'."""
    return _matching(names, "rank")


def _order_select(found: list[tuple[str, str]], loaded: Loaded) -> str:
    """ties='input': input_rank from the table's rank column, else its row number in the input's row order.

    The row number is a window without an order, which DuckDB computes in the order the scan delivers the
    rows: a file's or an in-memory table's own order (the rule resolve_duplicates' 'first' reads too).
    """
    column = rank_column([name for name, _ in found])
    if column is None:
        loaded.order = "its row order (the first row of a query ranks first)"
        return f"CAST(row_number() OVER () AS DOUBLE) AS {INPUT_RANK}"
    _check_type(loaded.label, INPUT_RANK, column, dict(found)[column])
    loaded.columns[INPUT_RANK] = column
    loaded.order = f"its column '{shorten(column)}'"
    return f"{value_sql(sqlgen.identifier(column), dict(found)[column], INPUT_RANK)} AS {INPUT_RANK}"


# every whole number from -2^53 to 2^53 is a double of its own; past that, neighbours share one
EXACT_INTEGER_LIMIT = 2**53
_WIDE_INTEGER_TYPES = {"BIGINT", "UBIGINT", "HUGEINT", "UHUGEINT"}


def value_sql(column: str, duck_type: str, canonical: str) -> str:
    """SQL for a value column (`column`, quoted) as a DOUBLE, NULL where the value must be refused.

    Text: a number as DuckDB reads it, except with a digit separator (`1_000`, which DuckDB reads as
    1000 and C's atof, so trec_eval, as 1): refused in every format, as in TREC files. Scores of wide
    integer types: only up to 2^53, since larger ones could tie as doubles (2^62 + 1 and 2^62) and a
    ranking must not depend on the rounding. The checks refuse the NULLs; bad_row_error says why.
    """
    base = duck_type.split("(")[0].upper()
    if base == "VARCHAR":
        return f"TRY_CAST(CASE WHEN NOT contains({column}, '_') THEN {column} END AS DOUBLE)"
    if canonical == "score" and base in _WIDE_INTEGER_TYPES:
        return (f"CASE WHEN {column} BETWEEN -{EXACT_INTEGER_LIMIT} AND {EXACT_INTEGER_LIMIT} "
                f"THEN CAST({column} AS DOUBLE) END")
    return f"CAST({column} AS DOUBLE)"


def inexact_integer(where: str, value, value_name: str) -> InputError:
    """The error for a whole-number score beyond 2^53 (value_sql)."""
    return InputError(f"{where}: the {value_name} {value} is a whole number beyond 2^53 ({EXACT_INTEGER_LIMIT}), "
                      "which a double cannot hold exactly, so it could tie with another; rescale the scores (e.g. "
                      "subtract their minimum, or divide them) or give them as floating-point numbers")


# words that name a canonical column without being one of its spellings above, offered as "did you mean"
_LIKELY = {"query_id": ("topic", "topic_id", "qno", "question", "session"),
           "doc_id": ("document", "document_id", "passage", "product", "article"),
           "score": ("pred", "predicted", "logit", "value"), "relevance": ("qrel", "gain", "grades"),
           "subtopic_id": ("facet", "sub_topic", "interpretation", "assessor", "annotator", "rater")}


def missing_columns(label: str, kind: str, missing: list[str], chosen: dict, names: list[str],
                    columns: dict) -> InputError:
    """Every canonical column not found, in one message, with the input's likely columns for them and the
    option that maps them, worded for the door in use (errors.at_command_line)."""
    taken = {column for canonical, column in chosen.items() if canonical not in missing}
    likely: dict[str, str] = {}
    for canonical in missing:
        column = _likely(canonical, [name for name in names if name not in taken | set(likely.values())])
        if column is not None:
            likely[canonical] = column
    cli = at_command_line()
    wanted = ", ".join(f"'{shorten(chosen[canonical] or canonical)}'" for canonical in missing)
    if likely:
        # the command line maps the subtopic qrels' columns with the shared options alone (--subtopic-col ...)
        flag = {c: f"--{_OPTION[c].replace('_', '-')} " if kind == "subtopic_qrels" else f"--{kind}-map {c}="
                for c in likely}
        mapped = (" ".join(f"{flag[c]}{shorten(n)}" for c, n in likely.items()) if cli else
                  f"{kind}_columns={{{', '.join(f'{c!r}: {shorten(n)!r}' for c, n in likely.items())}}}")
        unsure = [c for c in missing if c not in likely]
        rest = f", and which column is the {' and the '.join(unsure)}" if unsure else ""
        fix = f"did you mean {mapped}{rest}?"
    else:
        fix = "pass " + option_hint(", ".join(f"{_OPTION[c]}=<name>" for c in missing),
                                    " ".join(f"--{_OPTION[c].replace('_', '-')} <name>" for c in missing))
    found = shorten(', '.join(names), 200) or 'no columns'
    if len(missing) == 1:
        message = messages.render(messages.MISSING_COLUMN, input=label, column=wanted[1:-1], found=found, fix=fix)
    else:
        message = f"{label}: missing columns {wanted} (found {found}); {fix}"
    return InputError(message + _swapped(names, kind, columns))


def _likely(canonical: str, names: list[str]) -> str | None:
    """The column most like `canonical`: a known word as a part of its name (relevance_score), or a near
    spelling (quer_id); None when none is close."""
    import difflib

    words = _COLUMN_SYNONYMS[canonical] + _LIKELY[canonical]
    best, best_score = None, 0.75
    for name in names:
        parts = [part for part in re.split(r"[^a-z0-9]+", name.lower()) if part]
        score = max(0.9 if word in parts else difflib.SequenceMatcher(None, name.lower(), word).ratio()
                    for word in words)
        if score > best_score:
            best, best_score = name, score
    return best


def _swapped(names: list[str], kind: str, columns: dict) -> str:
    """The hint for a run given as the qrels (or the other way round): its value column has the other's name."""
    if columns.get("score" if kind == "run" else "relevance") is not None:
        return ""  # the user named the column: it is not a guess gone wrong
    other, looks_like = ("relevance", "qrels") if kind == "run" else ("score", "a run")
    column = _guess(names, other)
    if column is None or column.lower() == "score":  # a run's own column (qrels name their labels so only at ranx)
        return ""
    return f"; this looks like {looks_like} (a {other} column '{shorten(column)}'): the qrels come first, then the run"


def _check_type(label: str, canonical: str, column: str, duck_type: str) -> None:
    """Ids must be text or whole numbers, values numbers (or text holding numbers): refuse the rest by name."""
    base = duck_type.split("(")[0].upper()
    mixed = " (a JSON column holds mixed or nested values)" if base == "JSON" else ""
    if canonical in ("query_id", "doc_id"):
        if base in _ID_TYPES or base == "ENUM":
            return
        fix = messages.ID_TYPE_FLOAT_FIX if base in ("FLOAT", "DOUBLE", "DECIMAL") else messages.ID_TYPE_FIX
        raise InputError(messages.ID_TYPE.format(input=label, column=shorten(column), canonical=canonical,
                                                 type=duck_type, mixed=mixed, fix=fix))
    if base in _VALUE_TYPES or base == "DECIMAL":
        return
    raise InputError(f"{label}: column '{shorten(column)}' ({canonical}) has type {duck_type}{mixed}, "
                     "expected numbers; convert the column to float")


def refuse_duplicate_names(label: str, names: list[str], where: str = "the table") -> None:
    """Two columns of one name would resolve to the first silently (DuckDB renames the second): refuse.

    Names are compared in any case, as DuckDB compares them (it renames `QID` next to `qid` too).
    """
    seen: dict[str, int] = {}
    for number, name in enumerate(names):
        if not name:  # an unnamed column (an empty header field) is never mapped
            continue
        first = seen.setdefault(str(name).lower(), number)
        if first == number:
            continue
        spelled = "" if names[first] == name else (f", as '{shorten(names[first])}' and '{shorten(name)}': column "
                                                  "names are compared in any case")
        raise InputError(f"{label}: {where} names the column '{shorten(names[first])}' twice (columns {first + 1} "
                         f"and {number + 1}{spelled}); give each column its own name: rename or remove one")


def _guess(found: list[str], canonical: str) -> str | None:
    for synonym in _COLUMN_SYNONYMS[canonical]:
        column = _matching(found, synonym)
        if column is not None:
            return column
    return None


def _matching(found: list[str], name: str) -> str | None:
    """The column of `found` spelled `name` in any case (qid, QID, Qid): the one rule for recognised names."""
    return next((column for column in found if column.lower() == name), None)


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
                                otherwise=otherwise(loaded, error) if otherwise else None, con=con)
    return explain


def bad_row_error(con, loaded: Loaded, kind: str, error: Exception | None = None) -> InputError:
    """Find the first row of the raw input with an empty id or a value that is not a number, and name it."""
    value = checks.value_column(kind)
    names = [c for c in ("query_id", "doc_id", "run_id", value) if c in loaded.columns]
    raw = ", ".join(f"CAST({sqlgen.identifier(loaded.columns[c])} AS VARCHAR) AS {c}" for c in names)
    value_type = dict(describe(con, loaded.source)).get(loaded.columns[value], "VARCHAR")
    number = value_sql(sqlgen.identifier(loaded.columns[value]), value_type, value)
    # the checks' condition (checks.bad_row), on the raw text: a value that is no number is a NULL number
    bad = checks.bad_row([c for c in names if c != value], "number", finite=kind == "qrels")
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
    return bad_row_message(loaded.label, found, loaded.columns, kind, value_type)


def bad_row_message(label: str, found: dict, columns: dict, kind: str, value_type: str = "VARCHAR") -> InputError:
    """The error for one bad row. found: row_number, the canonical columns' raw text (None for NULL) and
    `number` (the value read as a number, None when it is none); columns: canonical -> the input's column;
    value_type: the DuckDB type of the value column as given."""
    value = checks.value_column(kind)
    where = {"input": label, "row": found["row_number"], "value": value}
    for canonical in ("query_id", "doc_id", "run_id"):
        if canonical in found and found[canonical] in (None, ""):
            return InputError(messages.render(messages.EMPTY_ID, **where, canonical=canonical,
                                              column=columns[canonical]))
    column = columns[value]
    if found[value] is None:
        return InputError(messages.render(messages.EMPTY_VALUE, **where, column=column))
    at = f"{label}: row {found['row_number']}, column '{column}'"
    if found["number"] is None and value_type.split("(")[0].upper() in _WIDE_INTEGER_TYPES:
        return inexact_integer(at, found[value], value)
    if found["number"] is None:
        separator = " (a digit separator '_' is not part of a number, as in TREC files)" if "_" in found[value] else ""
        return InputError(f"{at}: expected a number ({value}), found '{shorten(found[value])}'; fix the value{separator}")
    if math.isinf(found["number"]):
        return InputError(f"{label}: row {found['row_number']} (query '{shorten(found['query_id'])}'), column "
                          f"'{column}': the {value} is infinite ('{shorten(found[value])}'); a label must be a finite "
                          "number: fix the label")
    return InputError(messages.render(messages.NAN_VALUE, **where, column=column))


def _is_conversion_error(error: Exception) -> bool:
    text = str(error)
    return isinstance(error, duckdb.ConversionException) or "Could not convert" in text or \
        "Conversion Error" in text
