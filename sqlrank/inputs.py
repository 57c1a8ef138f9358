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
import gzip
import numbers
import os
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from . import pair_screen
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
_OPTION = {"query_id": "query_col", "doc_id": "doc_col", "score": "score_col", "relevance": "relevance_col"}
_INTEGER_TYPES = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT",
                  "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"}
_ID_TYPES = _INTEGER_TYPES | {"VARCHAR", "UUID", '"NULL"', "NULL"}
_VALUE_TYPES = _INTEGER_TYPES | {"FLOAT", "DOUBLE", "BOOLEAN", "VARCHAR", '"NULL"', "NULL"}

# C isspace(), trec_eval's field separator; the BOM is trimmed with it
_BLANKS = " \t\n\r\x0b\x0c\ufeff"
_FIELD_SPLIT = r"[ \t\n\r\x0b\x0c]+"
# a line with something other than blanks on it, not starting with `#` (blank and comment lines are skipped)
_DATA_LINE = r"^[ \t\r\x0b\x0c\x{feff}]*[^ \t\r\x0b\x0c\x{feff}#]"
_UNIT_SEPARATOR = "\x1f"  # the TREC line reader's column delimiter: no real line contains it
_GZIP_MAGIC = b"\x1f\x8b"


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
    compression: str = "none"
    fmt: str = "table"  # how it was read, for messages: trec, csv, tsv, json, parquet, table
    source: str | None = None  # SQL of the raw input, re-read only to explain a bad row
    columns: dict[str, str] = field(default_factory=dict)  # canonical name -> the input's column
    notes: list[str] = field(default_factory=list)  # things the user should be told (Report.notices)
    # False once validate() has seen every (query_id, doc_id) pair hash to a different value
    may_have_duplicates: bool = True


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
        return _load_trec(con, path, compression, table, kind)
    loaded = Loaded(table, str(path), path, compression=compression, fmt=fmt)
    if fmt == "parquet":
        relation = f"read_parquet({_duckdb_path(path)}, hive_partitioning = false)"
    elif fmt == "json":
        relation = (f"read_json({_duckdb_path(path)}, format = 'auto', compression = '{compression}', "
                    "hive_partitioning = false)")
    else:
        relation = _csv_relation(path, compression, "\t" if fmt == "tsv" else ",", loaded.label)
    try:
        found = _describe(con, relation)
    except duckdb.Error as error:
        raise _read_error(loaded, fmt, error) from None
    loaded.source = relation
    select = _canonical_select(found, kind, columns, loaded)
    # Parquet is scanned in place (columnar, typed); text is parsed once
    _create(con, loaded, kind, f"SELECT {select} FROM {relation}", materialize=fmt != "parquet")
    validate(con, loaded, kind)
    return loaded


def _read_head(path: Path, kind: str) -> bytes:
    """The first bytes of the file, after checking that it is a readable file."""
    label = str(path)
    try:
        exists, is_dir = path.exists(), path.is_dir()
    except (OSError, ValueError) as error:  # e.g. a NUL byte or a name too long for the OS
        raise InputError(f"{label}: not a usable file name ({error}); check the path") from None
    if not exists:
        order = "first" if kind == "qrels" else "second"
        raise InputError(f"{label}: no such file; check the path (the {kind} comes {order}: "
                         "sqlrank eval QRELS RUN)")
    if is_dir:
        raise InputError(f"{label}: is a directory, expected a {kind} file; name a file inside it")
    try:
        with open(path, "rb") as handle:
            return handle.read(4)
    except PermissionError:
        raise InputError(f"{label}: cannot be read (permission denied); check the file's permissions "
                         "(e.g. chmod +r)") from None
    except OSError as error:
        raise InputError(f"{label}: cannot be read ({error.strerror or error}); check the file") from None


def _duckdb_path(path: Path) -> str:
    """The path as a DuckDB string literal naming exactly this file.

    DuckDB expands `*`, `?` and `[...]` in file names (globs) and treats
    `s3://`, `~` ... specially; an absolute path with the glob characters
    bracketed (`[*]`) names the one file the user gave.
    """
    text = str(path.absolute())
    return quote_literal("".join(f"[{c}]" if c in "*?[" else c for c in text))


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


def _open_text(path: Path, compression: str):
    """The file as text, universal newlines (\\n, \\r\\n, \\r: DuckDB's line ends), bad bytes replaced."""
    if compression == "gzip":
        return gzip.open(path, "rt", encoding="utf-8", errors="replace", newline=None)
    return open(path, encoding="utf-8", errors="replace", newline=None)


_READ_ERRORS = (OSError, EOFError, zlib.error, ValueError)  # gzip.BadGzipFile is an OSError


def _first_data_line(path: Path, compression: str) -> str | None:
    """The first line that is not blank or a comment, from the first 64 KiB."""
    try:
        with _open_text(path, compression) as handle:
            text = handle.read(65536)
    except _READ_ERRORS as error:
        raise _unreadable(str(path), error, compression) from None
    for line in text.splitlines():
        stripped = line.strip(_BLANKS)
        if stripped and not stripped.startswith("#"):
            return stripped
    return None


def _unreadable(label: str, error: Exception, compression: str) -> InputError:
    """A failure of Python's own reading (sniffing, header, error paths) as an InputError."""
    if compression == "gzip":
        return _corrupt_gzip(label, error)
    return InputError(f"{label}: cannot be read ({_first_line(error)}); check the file")


def _corrupt_gzip(label: str, error: Exception) -> InputError:
    return InputError(f"{label}: the gzip data is truncated or corrupt ({_first_line(error)}); "
                      "re-create or re-download the file (`gzip -t` checks it)")


# ---------------------------------------------------------------- CSV / TSV

def _csv_relation(path: Path, compression: str, delim: str, label: str) -> str:
    """read_csv with the header taken as written and every column read as text.

    Text columns keep ids exactly as written (`007`, `1.50`) and let a bad
    number be reported with its row; no dialect sniffing, so a ragged row is
    an error on its line instead of a sniffing failure.
    """
    names = _csv_header(path, compression, delim, label)
    types = "{" + ", ".join(f"{quote_literal(name)}: 'VARCHAR'" for name in names) + "}"
    return (f"read_csv({_duckdb_path(path)}, header = true, delim = {quote_literal(delim)}, quote = '\"', "
            f"escape = '\"', comment = '', auto_detect = false, columns = {types}, "
            f"compression = '{compression}', hive_partitioning = false)")


def _csv_header(path: Path, compression: str, delim: str, label: str) -> list[str]:
    try:
        with _open_text(path, compression) as handle:
            first = handle.readline()
    except _READ_ERRORS as error:
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


# ---------------------------------------------------------------- TREC

def _trec_lines(path: Path, compression: str) -> str:
    """SQL: the data lines of a TREC file as (line, rest, fields), blank and comment lines left out.

    Each line is read whole as one VARCHAR (delimiter 0x1F, no quoting). What
    DuckDB's read_csv does here (checked with DuckDB 2.0): it drops empty lines
    (so line numbers come from Python, on the error path), strips a leading
    UTF-8 BOM, ends lines at \\n, \\r\\n or \\r, refuses bytes that are not UTF-8,
    and keeps NUL bytes. A line holding 0x1F would be cut there silently: the
    second column `rest` (null_padding) catches it, and the line is refused.
    """
    reader = (f"read_csv({_duckdb_path(path)}, columns = {{'line': 'VARCHAR', 'rest': 'VARCHAR'}}, header = false, "
              f"delim = {quote_literal(_UNIT_SEPARATOR)}, quote = '', escape = '', comment = '', "
              f"auto_detect = false, strict_mode = false, null_padding = true, compression = '{compression}', "
              "hive_partitioning = false)")
    # the filter looks at the raw line (one anchored regex): filtering on the trimmed text instead
    # makes DuckDB trim and split every line twice (measured: 1.8x the CPU time)
    # Most TREC files separate fields by single spaces: for such a line a plain
    # split gives the same fields as the regex split at a quarter of the cost
    # (1M lines: 0.25 s instead of 1.1 s). Any other whitespace takes the regex.
    single_spaced = (r"NOT contains(line, '  ') AND NOT regexp_matches(line, '[\t\r\x0b\x0c\x{feff}]') "
                     "AND NOT starts_with(line, ' ') AND NOT ends_with(line, ' ')")
    return (
        f"SELECT line, rest, CASE WHEN {single_spaced} THEN string_split(line, ' ') "
        f"ELSE string_split_regex(trim(coalesce(line, ''), {quote_literal(_BLANKS)}), "
        f"{quote_literal(_FIELD_SPLIT)}) END AS fields FROM {reader} "
        f"WHERE rest IS NOT NULL OR regexp_matches(line, {quote_literal(_DATA_LINE)})"
    )


# which field holds the score (run) or the label (qrels), counting from 1
_TREC_VALUE_FIELD = {"run": 5, "qrels": 4}
# fields of a line: a run line has at least 6 (later ones are ignored), a qrels line exactly 4
_TREC_FIELDS = {"run": 6, "qrels": 4}


def _trec_value(kind: str, field: str) -> str:
    """SQL for the score (run: a number, but not `1_000`, which atof reads as 1) or the label (qrels: atol).

    `field` is the SQL of the value's text.
    """
    if kind == "run":
        return f"CASE WHEN NOT contains({field}, '_') THEN TRY_CAST({field} AS DOUBLE) END"
    return f"TRY_CAST(regexp_extract({field}, '^[+-]?[0-9]+') AS DOUBLE)"


def _trec_select(kind: str, query_id: str, fields: list[str]) -> str:
    """The columns both TREC readers make from a line's fields (SQL texts), so that they give the same table.

    query_id, doc_id, then score (run) or relevance and label_cut (qrels: whether the label was more than
    a whole number, which _trec_value cut).
    """
    value = fields[_TREC_VALUE_FIELD[kind] - 1]
    select = f"{query_id} AS query_id, {fields[2]} AS doc_id, {_trec_value(kind, value)} AS "
    if kind == "run":
        return select + "score"
    return select + f"relevance, NOT regexp_full_match({value}, '[+-]?[0-9]+') AS label_cut"


def _trec_fields_ok(kind: str) -> str:
    return f"rest IS NULL AND len(fields) {'>=' if kind == 'run' else '='} {_TREC_FIELDS[kind]}"


def _load_trec(con, path: Path, compression: str, table: str, kind: str) -> Loaded:
    """TREC run (`qid Q0 docno rank score tag`) or qrels (`qid iter docno rel`) text, any whitespace."""
    loaded = Loaded(table, str(path), path, trec=True, compression=compression, fmt="trec")
    raw = table + "_lines"
    if not _load_trec_fast(con, path, compression, raw, kind):
        _load_trec_general(con, path, compression, raw, kind)
    canonical = ", ".join(RUN_COLUMNS if kind == "run" else QRELS_COLUMNS)
    con.execute(f"CREATE OR REPLACE TEMP VIEW {quote_identifier(table)} AS "
                f"SELECT {canonical} FROM {quote_identifier(raw)}")
    validate(con, loaded, kind)
    if kind == "qrels":
        cut = con.execute(f"SELECT count(*) FILTER (WHERE label_cut) FROM {quote_identifier(raw)}").fetchone()[0]
        if cut:
            loaded.notes.append(
                f"{loaded.label}: {cut} relevance label(s) are not whole numbers; read as their leading integer, "
                "as trec_eval does (1.9 -> 1); give real-valued labels in a CSV or Parquet qrels"
            )
    return loaded


def _load_trec_general(con, path: Path, compression: str, raw: str, kind: str) -> None:
    """Table `raw` (query_id, doc_id, score | relevance, label_cut) from TREC text with any whitespace."""
    # a malformed line gets a NULL query_id: validate() sees it and _trec_line_error() explains it
    fields = [f"fields[{number}]" for number in range(1, 7)]
    select = _trec_select(kind, f"CASE WHEN {_trec_fields_ok(kind)} THEN fields[1] END", fields)
    _create(con, Loaded(raw, str(path), path, trec=True, compression=compression, fmt="trec"), kind,
            f"SELECT {select} FROM ({_trec_lines(path, compression)})", materialize=True)


def _load_trec_fast(con, path: Path, compression: str, raw: str, kind: str) -> bool:
    """The table of _load_trec_general, for a file whose fields are separated by single spaces.

    DuckDB splits such lines itself (read_csv, delimiter ' ', strict field count): 10M run lines load
    in ~1.2 s instead of ~17 s. Whenever the two readers could differ this gives up (returns False,
    having created nothing) and the general reader reads the file and explains what is wrong with it:
    a wrong number of fields, an empty field (double, leading or trailing spaces: DuckDB reads it as
    NULL), a comment line, a BOM anywhere but at the file's start, bytes that split or refuse lines
    there (both _trec_plain_bytes), text that is not UTF-8, anything DuckDB fails on.
    """
    if _in_transaction(con) or not _trec_plain_bytes(path, compression):
        return False
    names = [f"f{number}" for number in range(1, _TREC_FIELDS[kind] + 1)]
    columns = ", ".join(f"'{name}': 'VARCHAR'" for name in names)
    reader = (f"read_csv({_duckdb_path(path)}, columns = {{{columns}}}, header = false, delim = ' ', quote = '', "
              f"escape = '', comment = '', auto_detect = false, strict_mode = true, "
              f"compression = '{compression}', hive_partitioning = false)")
    # the general reader skips `#` lines (a BOM, which it trims off both ends of a line, stopped
    # this reader before it began: checking it here cost 0.1 s on 10M lines, in Python ~0)
    ok = " AND ".join(f"{name} IS NOT NULL" for name in names) + " AND NOT starts_with(f1, '#')"
    select = _trec_select(kind, f"CASE WHEN {ok} THEN f1 ELSE error('not a plain TREC line') END", names)
    try:
        con.execute(f"CREATE OR REPLACE TEMP TABLE {quote_identifier(raw)} AS SELECT {select} FROM {reader}")
    except duckdb.InterruptException:
        raise
    except duckdb.Error:
        return False
    return True


# Bytes the single-space split would keep inside a field: the general reader splits fields at
# tabs, VT and FF, and refuses 0x1F; NUL is left to it too, to be safe
_TREC_SPLIT_BYTES = (b"\t", b"\x0b", b"\x0c", b"\x1f", b"\x00")
# A BOM (U+FEFF): both readers drop one at the file's start; elsewhere the general reader trims it off
# the ends of a line and the split would keep it, so any other BOM leaves the file to the general reader
_BOM = "\ufeff".encode()


def _trec_plain_bytes(path: Path, compression: str) -> bool:
    """Whether the file holds none of _TREC_SPLIT_BYTES, and a BOM at most at its start (memchr, 16 MiB chunks).

    The file is read twice (here, then by DuckDB), yet for 10M lines (380 MB) this costs 0.11 s where the
    same test in the reader's SQL costs 0.45 s; gzip, decompressed twice, is the exception (0.85 s here
    against 0.39 s), not worth a second way to make one check.
    """
    opener = gzip.open if compression == "gzip" else open
    try:
        with opener(path, "rb") as handle:
            chunk = handle.read(1 << 24)
            if chunk.startswith(_BOM):
                chunk = chunk[len(_BOM):]
            tail = b""  # the end of the chunk before, for a BOM split between two chunks
            while chunk:
                if any(byte in chunk for byte in _TREC_SPLIT_BYTES) or _BOM in tail + chunk[:2]:
                    return False
                # memchr for the BOM's first byte, rare in most runs; a search for all three bytes
                # runs at a fraction of memchr's speed (0.1 s more on 10M lines)
                if _BOM[:1] in chunk and _BOM in chunk:
                    return False
                tail = chunk[-2:]
                chunk = handle.read(1 << 24)
    except _READ_ERRORS:
        return False  # the general reader says what is wrong
    return True


def _in_transaction(con) -> bool:
    """Whether the caller has opened a transaction, which any failed statement would abort."""
    # without one, every statement runs in a transaction of its own, with a new id
    ids = [con.execute("SELECT txid_current()").fetchone()[0] for _ in range(2)]
    return ids[0] == ids[1]


def _trec_example(kind: str) -> str:
    return "'301 Q0 FBIS3-10082 1 12.5 myrun' (qid Q0 docno rank score tag)" if kind == "run" \
        else "'301 0 FBIS3-10082 1' (qid iter docno relevance)"


def _trec_line_error(con, loaded: Loaded, kind: str) -> InputError:
    """Describe the first bad line: DuckDB finds it (same rules as the load), Python finds its number."""
    field = f"fields[{_TREC_VALUE_FIELD[kind]}]"
    value = _trec_value(kind, field)
    row = con.execute(
        f"SELECT coalesce(line, ''), rest IS NOT NULL, len(fields), {field}, "
        f"isnan({value}) FROM ({_trec_lines(loaded.path, loaded.compression)}) "
        f"WHERE NOT ({_trec_fields_ok(kind)}) OR {value} IS NULL OR isnan({value}) LIMIT 1"
    ).fetchone()
    if row is None:  # cannot happen: validate() saw a bad row
        return InputError(f"{loaded.label}: malformed {kind} file (expected lines like {_trec_example(kind)})")
    line, separator, count, text, nan = row
    number = _line_number(loaded.path, loaded.compression, line, separator)
    where = f"{loaded.label}:{number}" if number else loaded.label
    shown = _shorten(line)
    expected = _TREC_FIELDS[kind]
    if separator:
        return InputError(f"{where}: contains the control character 0x1F (unit separator), which cannot be part "
                          f"of a TREC line: '{shown}'; remove it")
    if (kind == "run" and count < expected) or (kind == "qrels" and count != expected):
        hint = ""
        if kind == "run" and count == _TREC_FIELDS["qrels"]:
            hint = " (this looks like a qrels line: the qrels come first, then the run)"
        elif kind == "qrels" and count >= _TREC_FIELDS["run"]:
            hint = " (this looks like a run line: the qrels come first, then the run)"
        elif count <= 3:
            hint = " (a CSV/TSV file needs a header line such as query_id,doc_id,score)"
        return InputError(f"{where}: expected {expected} fields ({_trec_example(kind)}), found {count}: "
                          f"'{shown}'{hint}; fix or remove the line")
    if nan:
        return InputError(f"{where}: the score is NaN, which has no order, so it cannot be ranked: '{shown}'; "
                          "replace it with a number")
    if kind == "run":
        return InputError(f"{where}: column 5 (score) must be a number, found '{_shorten(text, 30)}': "
                          f"'{shown}'; fix the score")
    return InputError(f"{where}: column 4 (relevance) must be an integer label, found '{_shorten(text, 30)}': "
                      f"'{shown}'; fix the label")


def _line_number(path: Path, compression: str, line: str, separator: bool) -> int | None:
    """The 1-based number of the first physical line whose text DuckDB returned as `line`."""
    try:
        with _open_text(path, compression) as handle:
            for number, text in enumerate(handle, start=1):
                text = text.rstrip("\n")
                if number == 1:
                    text = text.lstrip("\ufeff")  # DuckDB drops the BOM
                if text.split(_UNIT_SEPARATOR)[0] == line and (not separator or _UNIT_SEPARATOR in text):
                    return number
    except _READ_ERRORS:
        return None
    return None


def _shorten(text, width: int = 80) -> str:
    """User text for a one-line message: control characters escaped (\\t, \\x1f), cut at `width`."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))
    return text if len(text) <= width else text[: width - 3] + "..."


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
        raise InputError(f"{label}: cannot be read as a table: {_first_line(error)}") from None
    loaded = Loaded(table, label, source=quote_identifier(data_name))
    select = _canonical_select(found, kind, columns, loaded)
    _create(con, loaded, kind, f"SELECT {select} FROM {quote_identifier(data_name)}", materialize=False)
    validate(con, loaded, kind)
    return loaded


def _is_tabular(source) -> bool:
    module = type(source).__module__
    return module.startswith(("pandas", "pyarrow"))


# ---------------------------------------------------------------- mapping and checks

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
                f"{label}: missing column '{_shorten(column or canonical)}' "
                f"(found {_shorten(', '.join(names), 200) or 'no columns'}); "
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
        raise InputError(f"{label}: column '{_shorten(column)}' ({canonical}) has type {duck_type}{mixed}, "
                         f"expected text or whole numbers: {why}")
    if base in _VALUE_TYPES or base == "DECIMAL":
        return
    raise InputError(f"{label}: column '{_shorten(column)}' ({canonical}) has type {duck_type}{mixed}, "
                     "expected numbers; convert the column to float")


def _guess(found: list[str], canonical: str) -> str | None:
    lowered = {name.lower(): name for name in found}
    for synonym in _COLUMN_SYNONYMS[canonical]:
        if synonym in lowered:
            return lowered[synonym]
    return None


def _create(con, loaded: Loaded, kind: str, select: str, materialize: bool) -> None:
    what = "TABLE" if materialize else "VIEW"
    try:
        con.execute(f"CREATE OR REPLACE TEMP {what} {quote_identifier(loaded.table)} AS {select}")
    except duckdb.Error as error:
        if _is_conversion_error(error) and loaded.source:
            raise _bad_row_error(con, loaded, kind, error) from None
        raise _read_error(loaded, loaded.fmt, error) from None


def validate(con, loaded: Loaded, kind: str) -> None:
    """One scan: rows exist; no empty ids; every value a number, not NaN. Otherwise say which row is wrong.

    The same scan screens for duplicate (query_id, doc_id) pairs (pair_screen):
    when all the pairs' hashes differ, all the pairs differ, and
    resolve_duplicates() need not group the table by its string keys.
    """
    value = "score" if kind == "run" else "relevance"
    ids = ["query_id", "doc_id"] + (["run_id"] if "run_id" in loaded.columns else [])
    empty = " OR ".join(f"{c} IS NULL OR {c} = ''" for c in ids)
    try:
        total, bad, equal_hashes = pair_screen.screen(
            con, quote_identifier(loaded.table), ids, f"coalesce({empty} OR {value} IS NULL OR isnan({value}), true)"
        )
    except duckdb.Error as error:  # a view: a cast or a read fails only now
        if _is_conversion_error(error) and loaded.source:
            raise _bad_row_error(con, loaded, kind, error) from None
        raise _read_error(loaded, loaded.fmt, error) from None
    if total == 0:
        what = f"no {kind} lines (the file is empty or only comments)" if loaded.trec else "no rows"
        example = _trec_example(kind) if loaded.trec else f"rows of query_id, doc_id, {value}"
        raise InputError(f"{loaded.label}: {what}; expected {example}")
    if bad:
        if loaded.trec:
            raise _trec_line_error(con, loaded, kind)
        raise _bad_row_error(con, loaded, kind, None)
    loaded.may_have_duplicates = equal_hashes > 0


def _bad_row_error(con, loaded: Loaded, kind: str, error: Exception | None) -> InputError:
    """Find the first row of the raw input with an empty id or a value that is not a number, and name it."""
    value = "score" if kind == "run" else "relevance"
    names = [c for c in ("query_id", "doc_id", "run_id", value) if c in loaded.columns]
    raw = ", ".join(f"CAST({quote_identifier(loaded.columns[c])} AS VARCHAR) AS {c}" for c in names)
    number = f"TRY_CAST({quote_identifier(loaded.columns[value])} AS DOUBLE)"
    bad_ids = " OR ".join(f"{c} IS NULL OR {c} = ''" for c in names if c != value)
    try:
        row = con.execute(
            f"SELECT * FROM (SELECT row_number() OVER () AS row_number, {raw}, {number} AS number "
            f"FROM {loaded.source}) WHERE {bad_ids} OR number IS NULL OR isnan(number) LIMIT 1"
        ).fetchone()
    except duckdb.Error as second:
        return InputError(f"{loaded.label}: cannot be read: {_first_line(error or second)}")
    if row is None:
        return InputError(f"{loaded.label}: cannot be read: {_first_line(error) if error else 'bad values'}")
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
        return InputError(f"{where}, column '{column}': expected a number ({value}), found '{_shorten(found[value])}'; "
                          "fix the value")
    return InputError(f"{where}, column '{column}': the {value} is NaN, which has no order; replace it with a number")


def _is_conversion_error(error: Exception) -> bool:
    text = str(error)
    return isinstance(error, duckdb.ConversionException) or "Could not convert" in text or \
        "Conversion Error" in text


def _read_error(loaded: Loaded, fmt: str, error: Exception) -> InputError:
    """A DuckDB read failure in the user's words: the file, the line if DuckDB gave one, and the fix."""
    label = loaded.label
    # DuckDB's message names the file: take it out, so that a folder called `gzip` decides nothing
    text = str(error)
    for name in filter(None, (str(loaded.path.absolute()) if loaded.path else "", label)):
        text = text.replace(name, "<file>")
    lowered = text.lower()
    if "gzip" in lowered or "zlib" in lowered:
        return _corrupt_gzip(label, error)
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
        return InputError(f"{label}: is not a readable Parquet file ({_first_line(error)}); it may be truncated "
                          "or corrupt: write it again")
    return InputError(f"{label}: cannot be read as {fmt.upper()}: {_first_line(error)}")


def _first_invalid_utf8(loaded: Loaded) -> tuple[int, bytes] | None:
    opener = gzip.open if loaded.compression == "gzip" else open
    try:
        with opener(loaded.path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                try:
                    raw.decode("utf-8")
                except UnicodeDecodeError as bad:
                    return number, raw[bad.start: bad.end]
    except _READ_ERRORS:
        return None
    return None


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
