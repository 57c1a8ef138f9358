"""The shape of an input format (Reader) and of what it makes (Loaded).

A reader turns one kind of input into a canonical table or view in the
connection:

    run   (query_id VARCHAR, doc_id VARCHAR, score DOUBLE [, run_id VARCHAR] [, input_rank DOUBLE])
    qrels (query_id VARCHAR, doc_id VARCHAR, relevance DOUBLE)
    subtopic_qrels (query_id VARCHAR, subtopic_id VARCHAR, doc_id VARCHAR, relevance DOUBLE)

and hands it, as a Loaded record, to the checks (sqlrank.checks.validate),
telling them how to explain a bad row or a failed read in the user's words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

import duckdb

from .. import sqlgen
from ..errors import SqlrankError

# the canonical columns of each kind of input
RUN_COLUMNS = ("query_id", "doc_id", "score")
QRELS_COLUMNS = ("query_id", "doc_id", "relevance")
# the diversity measures' judgments, one per (query, subtopic, document): ndeval's `qid subtopic docno rel`
SUBTOPIC_QRELS_COLUMNS = ("query_id", "subtopic_id", "doc_id", "relevance")


def canonical_columns(kind: str) -> tuple[str, ...]:
    return {"run": RUN_COLUMNS, "subtopic_qrels": SUBTOPIC_QRELS_COLUMNS}.get(kind, QRELS_COLUMNS)


# ties='input': the run's own order, read only when asked for (the key present in a reader's `columns`):
# a column input_rank, lowest first, from a TREC file's rank field or a table's `rank` column (any case),
# else the row's place in the input's row order (its row number, from 1)
INPUT_RANK = "input_rank"


# a reader chosen by the user (format='trec', --qrels-format trec), carried with the columns like INPUT_RANK:
# the key is taken out by registry.load() before any reader sees the columns
FORMAT = "format"


def keeps_order(columns: dict) -> bool:
    """Whether a reader is asked to keep the run's order (ties='input') as an input_rank column."""
    return INPUT_RANK in columns


@dataclass(frozen=True)
class Reader:
    """One input format: how it is recognised, and the function that reads it.

    read(con, source, table, kind, columns) -> Loaded makes `table` with the canonical columns of
    `kind` ('run' or 'qrels') from `source`: a files.File for a file format, the object itself for an
    in-memory one. `columns` maps canonical names to the user's column names (None: guess).

    A file is recognised by its first bytes (`magic`), then by its name (`extensions`, after any
    .gz), then by its first line that is not blank or a comment (`first_line`), in the order the
    readers are registered (readers/__init__.py). An in-memory object by `accepts`.
    """

    name: str  # the format's name in messages and Loaded.fmt: 'csv', 'parquet', 'trec', 'table'...
    read: Callable[..., "Loaded"]
    magic: bytes = b""
    extensions: tuple[str, ...] = ()  # lower case, with the dot: ('.csv',)
    first_line: Optional[Callable[[str], bool]] = None
    accepts: Optional[Callable[[object], bool]] = None
    # names files of this format often have without their deciding it (a .txt may hold CSV): they are
    # taken off a run's file name to name the run, like `extensions`
    usual_extensions: tuple[str, ...] = ()
    title: str = ""  # the format's name in a sentence ("Parquet"), when not its `name`


# explain(con, loaded, kind, error) -> the error to raise: `error` is DuckDB's failure to read or cast
# the input, or None when the checks found a bad row (an empty id, a value that is no number or NaN)
Explain = Callable[[duckdb.DuckDBPyConnection, "Loaded", str, Optional[Exception]], SqlrankError]


@dataclass
class Loaded:
    """A canonical table in the connection, where it came from (for messages), and how to explain it."""

    table: str
    label: str  # file path or "<pandas DataFrame>" ...
    explain: Explain
    path: Path | None = None
    compression: str = "none"
    fmt: str = "table"  # the reader's name: trec, csv, tsv, json, parquet, table
    source: str | None = None  # SQL of the raw input, re-read only to explain a bad row
    columns: dict[str, str] = field(default_factory=dict)  # canonical name -> the input's column
    notes: list[str] = field(default_factory=list)  # things the user should be told (Report.notices)
    empty: str | None = None  # what an input without rows is told, when not "no rows; expected ..."
    other_columns: list[str] = field(default_factory=list)  # a table's columns that were not mapped
    no_rows: bool = False  # a run without rows (checks.validate): it retrieved nothing
    query_id_type: str | None = None  # the DuckDB type of the input's query id column, when it had one
    # False once the checks have seen every (query_id, doc_id) pair hash to a different value
    may_have_duplicates: bool = True
    # a view reading its input in place (Parquet, a DataFrame): each later read reads the input again
    in_place: bool = False
    # the file as it was before it was read (files.identity), to tell whether later reads read the same
    identity: tuple | None = None
    # ties='input': where the input_rank column came from, in a sentence ("its column 'rank'", "its row order")
    order: str | None = None


def create(con, loaded: Loaded, kind: str, select: str, materialize: bool) -> None:
    """Make loaded.table from `select`: a table (text is parsed once) or a view (read in place)."""
    statement = sqlgen.create_temp_table if materialize else sqlgen.create_temp_view
    loaded.in_place = not materialize
    try:
        con.execute(statement(loaded.table, select))
    except duckdb.Error as error:
        raise loaded.explain(con, loaded, kind, error) from None
