"""CSV and TSV files with a header line: `query_id,doc_id,score` (any column names, see tables.py).

Recognised by a .csv/.tsv name, or by a first line that is a header: commas,
or tabs and no number in it. Columns are read as text, so ids keep their
exact spelling (`007`, `1.50`) and a bad number is reported with its row;
header names are taken as written, `#` is data, not a comment. No dialect
sniffing, so a ragged row is an error on its line instead of a sniffing
failure.
"""

from __future__ import annotations

import csv
from functools import partial

from .. import sqlgen
from ..errors import InputError
from . import files, tables
from .base import Loaded, Reader

EXPLAIN = tables.explainer(line_fix="every row needs as many fields as the header")


def read(con, file: files.File, table: str, kind: str, columns: dict, *, fmt: str, delim: str) -> Loaded:
    loaded = Loaded(table, str(file.path), EXPLAIN, file.path, compression=file.compression, fmt=fmt)
    names = _header(file, delim, loaded.label)
    types = "{" + ", ".join(f"{sqlgen.literal(name)}: 'VARCHAR'" for name in names) + "}"
    relation = (f"read_csv({sqlgen.file_path(file.path)}, header = true, delim = {sqlgen.literal(delim)}, "
                f"quote = '\"', escape = '\"', comment = '', auto_detect = false, columns = {types}, "
                f"compression = '{file.compression}', hive_partitioning = false)")
    return tables.load_relation(con, loaded, relation, kind, columns, materialize=True)


def _header(file: files.File, delim: str, label: str) -> list[str]:
    """The column names of the header line, taken as written; a name given twice is refused."""
    try:
        with files.open_text(file.path, file.compression) as handle:
            first = handle.readline()
    except files.READ_ERRORS as error:
        raise files.unreadable(label, error, file.compression) from None
    row = next(csv.reader([first.lstrip("\ufeff").rstrip("\r\n")], delimiter=delim), [])
    if not any(name.strip() for name in row):
        kind = "TSV" if delim == "\t" else "CSV"
        raise InputError(f"{label}: the first line is empty; a {kind} file starts with a header line, "
                         f"e.g. query_id{delim}doc_id{delim}score")
    tables.refuse_duplicate_names(label, row, "the header")
    names: list[str] = []
    for number, name in enumerate(row):
        name = name or f"column{number}"  # an unnamed column, never mapped: a made-up name kept apart
        while name.lower() in (taken.lower() for taken in names):
            name += "_1"
        names.append(name)
    return names


def _has_number(line: str) -> bool:
    return any(files.is_number(field) for field in line.split())


def _looks_like_tsv(line: str) -> bool:
    return "\t" in line and not _has_number(line)  # a header line such as `qid<TAB>docno<TAB>score`


def _looks_like_csv(line: str) -> bool:
    # a TREC line may hold a comma in a doc id, but then it has numbers and at least 4 fields
    return "," in line and (not _has_number(line) or len(line.split()) < 4)


TSV = Reader("tsv", partial(read, fmt="tsv", delim="\t"), extensions=(".tsv",), first_line=_looks_like_tsv)
CSV = Reader("csv", partial(read, fmt="csv", delim=","), extensions=(".csv",), first_line=_looks_like_csv)
