"""The choices and options that several commands declare alike, read from the library's own lists."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated, Optional

import typer

import sqlrank
from sqlrank.errors import SqlrankError

DEFAULT_MEASURES = sqlrank.DEFAULT_MEASURES

# choices as enums: Typer shows them in --help and refuses anything else (exit 2)
Format = enum.Enum("Format", {name: name for name in sqlrank.export.FORMATS}, type=str)
Missing = enum.Enum("Missing", {name: name for name in sqlrank.MISSING_POLICIES}, type=str)
Empty = enum.Enum("Empty", {name: name for name in sqlrank.EMPTY_POLICIES}, type=str)
Duplicates = enum.Enum("Duplicates", {name: name for name in sqlrank.DUPLICATE_POLICIES}, type=str)
ScorePrecision = enum.Enum("ScorePrecision", {name: name for name in sqlrank.SCORE_PRECISIONS}, type=str)
Ties = enum.Enum("Ties", {name: name for name in sqlrank.TIE_POLICIES}, type=str)
Names = enum.Enum("Names", {name: name for name in sqlrank.NAMES}, type=str)
Engine = enum.Enum("Engine", {name: name for name in ("duckdb", "spark")}, type=str)

# options shared by `eval` and `query`
FormatOption = Annotated[Optional[Format], typer.Option(
    "-f", "--format", case_sensitive=False, show_default=False,
    help="output format [default: table, or from the -o file's extension]")]
OutputOption = Annotated[Optional[Path], typer.Option(
    "-o", "--output", metavar="FILE", dir_okay=False,
    help="write to FILE (atomically) instead of stdout; refuses to overwrite an input")]
DuplicatesOption = Annotated[Duplicates, typer.Option(
    "--duplicates", case_sensitive=False, help="a repeated (query, doc) row: refuse, keep the first or the highest")]
QueryColOption = Annotated[Optional[str], typer.Option(
    "--query-col", metavar="NAME", help="column of the query ids [default: query_id, qid, query, ...]")]
DocColOption = Annotated[Optional[str], typer.Option(
    "--doc-col", metavar="NAME", help="column of the document ids [default: doc_id, docno, docid, ...]")]
ScoreColOption = Annotated[Optional[str], typer.Option(
    "--score-col", metavar="NAME", help="run column of the scores [default: score, sim, ...]")]
RelevanceColOption = Annotated[Optional[str], typer.Option(
    "--relevance-col", metavar="NAME", help="qrels column of the labels [default: relevance, rel, label, ...]")]
ThreadsOption = Annotated[Optional[int], typer.Option(
    "--threads", metavar="N", min=1, max=sqlrank.limits.MAX_THREADS, help="DuckDB worker threads")]


def _memory_size(text: str | None) -> str | None:
    """--memory-limit checked as it is parsed: a usage error (exit 2), not DuckDB's default in silence."""
    try:
        return None if text is None else sqlrank.limits.memory_size(text)
    except SqlrankError as error:
        raise typer.BadParameter(str(error)) from None


MemoryOption = Annotated[Optional[str], typer.Option(
    "--memory-limit", metavar="SIZE", callback=_memory_size, help="DuckDB memory limit, e.g. 4GB")]
TempOption = Annotated[Optional[Path], typer.Option(
    "--temp-directory", metavar="DIR", file_okay=False, help="where DuckDB spills when memory runs out")]
