"""TREC text: runs (`qid Q0 docno rank score tag`) and qrels (`qid iter docno rel`).

The format of any file no other reader recognises. Two readers make the same
table. The fast one lets DuckDB split lines at single spaces or at single tabs
(most files); the general one splits at any ASCII whitespace and is the one
that explains a bad line. The rules both follow (trec_eval 10's, except where it would silently
read a wrong number):

* Fields split on ASCII whitespace (spaces, tabs, CR, VT, FF, mixed); blank
  lines and lines whose first non-blank character is `#` are skipped; CRLF/CR
  line ends and a UTF-8 BOM are fine; run fields after the 6th are ignored; a
  run line needs at least 6 fields, a qrels line exactly 4. The byte 0x1F
  (ASCII unit separator), which the line reader uses internally, is refused
  rather than silently splitting a line.
* Scores must be numbers (`5e-1`, `inf`, `1e400` -> inf are fine). trec_eval's
  atof would read `3abc` as 3 and `abc` or `1_000` as 0 or 1; we refuse
  instead, since a silently wrong score is a silently wrong ranking. NaN is
  refused too (it has no order).
* Qrels labels are read like trec_eval's atol: the leading integer (`1.9` ->
  1, `+2` -> 2); the result notes how many labels were cut. Labels without a
  leading integer are refused. (CSV, Parquet and DataFrame labels are real
  numbers.)
* Ids are strings compared byte for byte. Text must be UTF-8.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import duckdb

from .. import checks, sqlgen
from ..checks import messages
from ..errors import InputError, SqlrankError, shorten
from .base import INPUT_RANK, Loaded, Reader, canonical_columns, create, keeps_order
from .files import BLANKS, READ_ERRORS, File, first_data_line, is_number, open_text, read_error

_FIELD_SPLIT = r"[ \t\n\r\x0b\x0c]+"
# a line with something other than blanks on it, not starting with `#` (blank and comment lines are skipped)
_DATA_LINE = r"^[ \t\r\x0b\x0c\x{feff}]*[^ \t\r\x0b\x0c\x{feff}#]"
_UNIT_SEPARATOR = "\x1f"  # the TREC line reader's column delimiter: no real line contains it


def _trec_lines(path: Path, compression: str) -> str:
    """SQL: the data lines of a TREC file as (line, rest, fields), blank and comment lines left out.

    Each line is read whole as one VARCHAR (delimiter 0x1F, no quoting). What
    DuckDB's read_csv does here (checked with DuckDB 2.0): it drops empty lines
    (so line numbers come from Python, on the error path), strips a leading
    UTF-8 BOM, ends lines at \\n, \\r\\n or \\r (with new_line = '\\n' every \\r and \\n
    ends a line, a \\r\\n giving an empty line between, skipped; left to detect the line
    end, it takes \\r\\n from the first line and then drops the character after a lone
    \\r), refuses bytes that are not UTF-8,
    and keeps NUL bytes. A line holding 0x1F would be cut there silently: the
    second column `rest` (null_padding) catches it, and the line is refused.
    """
    reader = (f"read_csv({sqlgen.file_path(path)}, columns = {{'line': 'VARCHAR', 'rest': 'VARCHAR'}}, "
              f"header = false, delim = {sqlgen.literal(_UNIT_SEPARATOR)}, quote = '', escape = '', comment = '', "
              "new_line = '\\n', "
              f"auto_detect = false, strict_mode = false, null_padding = true, compression = '{compression}', "
              "hive_partitioning = false)")
    return trec_fields(reader)


def trec_fields(relation: str) -> str:
    """SQL: the data lines of `relation` (columns line and rest, maybe more) with their `fields` added."""
    # the filter looks at the raw line (one anchored regex): filtering on the trimmed text instead
    # would make DuckDB trim and split every line twice. Most TREC files separate fields by single
    # spaces: for such a line a plain split gives the regex split's fields at a fraction of its cost
    single_spaced = (r"NOT contains(line, '  ') AND NOT regexp_matches(line, '[\t\r\x0b\x0c\x{feff}]') "
                     "AND NOT starts_with(line, ' ') AND NOT ends_with(line, ' ')")
    return (
        f"SELECT *, CASE WHEN {single_spaced} THEN string_split(line, ' ') "
        f"ELSE string_split_regex(trim(coalesce(line, ''), {sqlgen.literal(BLANKS)}), "
        f"{sqlgen.literal(_FIELD_SPLIT)}) END AS fields FROM {relation} "
        f"WHERE rest IS NOT NULL OR regexp_matches(line, {sqlgen.literal(_DATA_LINE)})"
    )


# which field holds the score (run) or the label (qrels), counting from 1
_TREC_VALUE_FIELD = {"run": 5, "qrels": 4, "subtopic_qrels": 4}
# fields of a line: a run line has at least 6 (later ones are ignored), a qrels line exactly 4
_TREC_FIELDS = {"run": 6, "qrels": 4, "subtopic_qrels": 4}


def _trec_value(kind: str, field: str) -> str:
    """SQL for the score (run: a number, but not `1_000`, which atof reads as 1) or the label (qrels: atol).

    `field` is the SQL of the value's text.
    """
    if kind == "run":
        return f"CASE WHEN NOT contains({field}, '_') THEN TRY_CAST({field} AS DOUBLE) END"
    return f"TRY_CAST(regexp_extract({field}, '^[+-]?[0-9]+') AS DOUBLE)"


def _trec_select(kind: str, query_id: str, fields: list[str], order: bool = False) -> str:
    """The columns both TREC readers make from a line's fields (SQL texts), so that they give the same table.

    query_id, doc_id, then score (run) or relevance and label_cut (qrels: whether the label was more than
    a whole number, which _trec_value cut). order (ties='input'): the run's rank field too, as input_rank
    (NULL when it is no number: the order check names it).
    """
    value = fields[_TREC_VALUE_FIELD[kind] - 1]
    # subtopic qrels (ndeval's `qid subtopic docno rel`) are qrels lines whose second field is read
    subtopic = f"{fields[1]} AS subtopic_id, " if kind == "subtopic_qrels" else ""
    select = f"{query_id} AS query_id, {subtopic}{fields[2]} AS doc_id, {_trec_value(kind, value)} AS "
    if kind == "run":
        rank = f", {_trec_value(kind, fields[3])} AS {INPUT_RANK}" if order else ""
        return select + "score" + rank
    return select + f"relevance, NOT regexp_full_match({value}, '[+-]?[0-9]+') AS label_cut"


def _trec_fields_ok(kind: str) -> str:
    return f"rest IS NULL AND len(fields) {'>=' if kind == 'run' else '='} {_TREC_FIELDS[kind]}"


def example(kind: str) -> str:
    """A line of a TREC run or qrels, for messages."""
    return {"run": messages.TREC_RUN_EXAMPLE, "subtopic_qrels": messages.TREC_SUBTOPIC_QRELS_EXAMPLE}.get(
        kind, messages.TREC_QRELS_EXAMPLE)


def explain(con, loaded: Loaded, kind: str, error: Exception | None) -> SqlrankError:
    """Loaded.explain for TREC text: a bad line by its number (line_error), a failed read by files.read_error."""
    return line_error(con, loaded, kind) if error is None else read_error(loaded, error, con=con)


def _loaded(table: str, path: Path, compression: str, kind: str) -> Loaded:
    return Loaded(table, str(path), explain, path, compression=compression, fmt="trec",
                  empty=f"no {kind} lines (the file is empty or only comments); expected {example(kind)}")


def read(con, file: File, table: str, kind: str, columns: dict) -> Loaded:
    """TREC run (`qid Q0 docno rank score tag`) or qrels (`qid iter docno rel`) text, any whitespace.

    The columns are the format's own: `columns` (the user's names for a table's columns) does not apply,
    except its request to keep the run's order (base.keeps_order: the rank field).
    """
    path, compression = file.path, file.compression
    loaded = _loaded(table, path, compression, kind)
    raw = table + "_lines"
    order = kind == "run" and keeps_order(columns)  # ties='input': the rank field is the order
    if not load_fast(con, path, compression, raw, kind, order):
        load_general(con, path, compression, raw, kind, order)
    kept = canonical_columns(kind) + ((INPUT_RANK,) if order else ())
    if order:
        loaded.order = "its rank field (the 4th of a TREC run line)"
    con.execute(sqlgen.create_temp_view(table, f"SELECT {', '.join(kept)} FROM {sqlgen.identifier(raw)}"))
    checks.validate(con, loaded, kind)
    if kind != "run":
        cut = con.execute(f"SELECT count(*) FILTER (WHERE label_cut) FROM {sqlgen.identifier(raw)}").fetchone()[0]
        if cut:
            loaded.notes.append(label_cut_note(loaded.label, cut))
    return loaded


def run_tag(path: Path, compression: str) -> str | None:
    """The tag (sixth field) of a TREC run's first line: trec_eval's `runid`, which it takes from that line."""
    line = first_data_line(File(path, b"", compression))
    fields = line.split() if line else []
    return fields[5] if len(fields) >= 6 else None


def label_cut_note(label: str, cut: int) -> str:
    """The notice for `cut` qrels labels read as their leading integer (also said by sqlrank.spark)."""
    return (f"{label}: {cut} relevance label(s) are not whole numbers; read as their leading integer, "
            "as trec_eval does (1.9 -> 1); give real-valued labels in a CSV or Parquet qrels")


def load_general(con, path: Path, compression: str, raw: str, kind: str, order: bool = False) -> None:
    """Table `raw` (query_id, doc_id, score | relevance, label_cut) from TREC text with any whitespace.

    order: keep the run's rank field too (_trec_select)."""
    # a malformed line gets a NULL query_id: the checks see it and line_error() explains it
    fields = [f"fields[{number}]" for number in range(1, 7)]
    select = _trec_select(kind, f"CASE WHEN {_trec_fields_ok(kind)} THEN fields[1] END", fields, order)
    create(con, _loaded(raw, path, compression, kind), kind,
           f"SELECT {select} FROM ({_trec_lines(path, compression)})", materialize=True)


def load_fast(con, path: Path, compression: str, raw: str, kind: str, order: bool = False) -> bool:
    """The table of load_general, for a file whose fields are separated by single spaces or by single tabs.

    DuckDB splits such lines itself (read_csv, delimiter ' ' or tab, strict field count; strict mode also stops at
    a lone CR among CRLF line ends, which the general reader reads as a line end), an order of magnitude
    faster than the general reader's regex split. Whenever the two readers could differ this gives up (returns False,
    having created nothing) and the general reader reads the file and explains what is wrong with it:
    a wrong number of fields, an empty field (double, leading or trailing separators: DuckDB reads it as
    NULL), a comment line, a BOM anywhere but at the file's start, bytes that split or refuse lines
    there, spaces and tabs in one file (all found by plain_bytes), text that is not UTF-8, anything DuckDB fails on.
    """
    if _in_transaction(con):
        return False
    delimiter = plain_bytes(path, compression)
    if delimiter is None:
        return False
    names = [f"f{number}" for number in range(1, _TREC_FIELDS[kind] + 1)]
    columns = ", ".join(f"'{name}': 'VARCHAR'" for name in names)
    reader = (f"read_csv({sqlgen.file_path(path)}, columns = {{{columns}}}, header = false, "
              f"delim = {sqlgen.literal(delimiter)}, quote = '', "
              f"escape = '', comment = '', auto_detect = false, strict_mode = true, "
              f"compression = '{compression}', hive_partitioning = false)")
    # the general reader skips `#` lines (a BOM, which it trims off both ends of a line, stopped
    # this reader before it began: plain_bytes() finds it faster than SQL could)
    ok = " AND ".join(f"{name} IS NOT NULL" for name in names) + " AND NOT starts_with(f1, '#')"
    select = _trec_select(kind, f"CASE WHEN {ok} THEN f1 ELSE error('not a plain TREC line') END", names, order)
    try:
        con.execute(sqlgen.create_temp_table(raw, f"SELECT {select} FROM {reader}"))
    except (duckdb.InterruptException, duckdb.OutOfMemoryException):
        raise  # not the file's doing: the general reader would fail the same way, only slower
    except duckdb.Error:
        return False
    return True


# Bytes a single-space or single-tab split would keep inside a field: the general reader splits fields at
# VT and FF too, and refuses 0x1F; NUL is left to it too, to be safe
_TREC_SPLIT_BYTES = (b"\x0b", b"\x0c", b"\x1f", b"\x00")
# A BOM (U+FEFF): both readers drop one at the file's start; elsewhere the general reader trims it off
# the ends of a line and the split would keep it, so any other BOM leaves the file to the general reader
_BOM = "\ufeff".encode()


def plain_bytes(path: Path, compression: str) -> str | None:
    """The one separator of the file's fields, ' ' or a tab, if it holds none of _TREC_SPLIT_BYTES, not both
    separators, and a BOM at most at its start (memchr, 16 MiB chunks); None otherwise.

    The file is read twice (here, then by DuckDB), yet memchr over the bytes costs less than the same
    test in the reader's SQL (docs/performance.md); a gzip file, decompressed twice, is the exception,
    not worth a second way to make one check.
    """
    opener = gzip.open if compression == "gzip" else open
    tabs = spaces = False
    try:
        with opener(path, "rb") as handle:
            chunk = handle.read(1 << 24)
            if chunk.startswith(_BOM):
                chunk = chunk[len(_BOM):]
            tail = b""  # the end of the chunk before, for a BOM split between two chunks
            while chunk:
                if any(byte in chunk for byte in _TREC_SPLIT_BYTES) or _BOM in tail + chunk[:2]:
                    return None
                # a space-separated file finds its first space at once; a tab-separated one scans for it
                spaces = spaces or b" " in chunk
                tabs = tabs or b"\t" in chunk
                if spaces and tabs:  # the general reader splits at either: a field may hold the other
                    return None
                # memchr for the BOM's first byte, rare in most runs: a search for all three bytes
                # runs at a fraction of memchr's speed
                if _BOM[:1] in chunk and _BOM in chunk:
                    return None
                tail = chunk[-2:]
                chunk = handle.read(1 << 24)
    except READ_ERRORS:
        return None  # the general reader says what is wrong
    return "\t" if tabs else " "


def _in_transaction(con) -> bool:
    """Whether the caller has opened a transaction, which any failed statement would abort."""
    # without one, every statement runs in a transaction of its own, with a new id
    ids = [con.execute("SELECT txid_current()").fetchone()[0] for _ in range(2)]
    return ids[0] == ids[1]


def bad_lines(lines: str, kind: str, *extra: str) -> str:
    """SQL: the lines of `lines` (trec_fields' SQL) the reader refuses, as bad_line_message takes them, then `extra`."""
    field = f"fields[{_TREC_VALUE_FIELD[kind]}]"
    value = _trec_value(kind, field)
    # a label must be finite (a score may be infinite): the checks' condition, checks.bad_row
    infinite = f" OR isinf({value})" if kind != "run" else ""
    columns = ", ".join(["coalesce(line, '')", "rest IS NOT NULL", "len(fields)", field, f"isnan({value})",
                         f"isinf({value})", *extra])
    return (f"SELECT {columns} FROM ({lines}) "
            f"WHERE NOT ({_trec_fields_ok(kind)}) OR {value} IS NULL OR isnan({value}){infinite}")


def line_error(con, loaded: Loaded, kind: str) -> InputError:
    """Describe the first bad line: DuckDB finds it (same rules as the load), Python finds its number."""
    row = con.execute(f"SELECT * FROM ({bad_lines(_trec_lines(loaded.path, loaded.compression), kind)}) "
                      "LIMIT 1").fetchone()
    if row is None:  # cannot happen: the checks saw a bad row
        return InputError(f"{loaded.label}: malformed {kind} file (expected lines like {example(kind)})")
    line, separator, count, text, nan, infinite = row
    number = _line_number(loaded.path, loaded.compression, line, separator)
    return bad_line_message(f"{loaded.label}:{number}" if number else loaded.label, kind, line, separator, count,
                            text, nan, infinite)


def bad_line_message(where: str, kind: str, line: str, separator: bool, count: int, text: str | None,
                     nan: bool, infinite: bool = False) -> InputError:
    """The error for one bad line (`where` is file:line): its fields, unit separator, score or label."""
    shown = shorten(line)
    expected = _TREC_FIELDS[kind]
    if separator:
        return InputError(f"{where}: contains the control character 0x1F (unit separator), which cannot be part "
                          f"of a TREC line: '{shown}'; remove it")
    if (kind == "run" and count < expected) or (kind != "run" and count != expected):
        hint = ""
        if kind == "run" and count == _TREC_FIELDS["qrels"]:
            hint = messages.TREC_LOOKS_LIKE_QRELS
        elif kind != "run" and count >= _TREC_FIELDS["run"]:
            hint = messages.TREC_LOOKS_LIKE_RUN
        elif count <= 3:
            hint = messages.TREC_NEEDS_HEADER
        return InputError(messages.render(messages.TREC_FIELDS, where=where, expected=expected,
                                          example=example(kind), count=count, line=shown, hint=hint))
    if nan:
        return InputError(messages.render(messages.TREC_NAN_SCORE, where=where, line=shown))
    if infinite and kind != "run":
        return InputError(f"{where}: column 4 (relevance) is beyond the largest number a double holds "
                          f"('{shorten(text, 30)}' is infinite): '{shown}'; fix the label")
    template = messages.TREC_BAD_SCORE if kind == "run" else messages.TREC_BAD_LABEL
    return InputError(messages.render(template, where=where, found=shorten(text, 30), line=shown))


def _line_number(path: Path, compression: str, line: str, separator: bool) -> int | None:
    """The 1-based number of the first physical line whose text DuckDB returned as `line`."""
    try:
        with open_text(path, compression) as handle:
            for number, text in enumerate(handle, start=1):
                text = text.rstrip("\n")
                if number == 1:
                    text = text.lstrip("\ufeff")  # DuckDB drops the BOM
                if text.split(_UNIT_SEPARATOR)[0] == line and (not separator or _UNIT_SEPARATOR in text):
                    return number
    except READ_ERRORS:
        return None
    return None


def headerless(line: str, kind: str | None) -> bool:
    """Whether a first data line is a TREC line of `kind` (either kind for None): its value fields numbers.

    A header line (query_id, doc_id, score) never is, so a .tsv/.csv file starting with one is a TREC file.
    """
    fields = line.split()
    qrels = len(fields) == 4 and _leading_integer(fields[3])
    run = len(fields) >= 6 and _leading_integer(fields[3]) and is_number(fields[4])
    return {"qrels": qrels, "run": run}.get(kind, qrels or run)


def _leading_integer(text: str) -> bool:
    return bool(re.match(r"[+-]?[0-9]", text))


READER = Reader("trec", read, first_line=lambda line: True, usual_extensions=(".trec", ".txt", ".run"))
