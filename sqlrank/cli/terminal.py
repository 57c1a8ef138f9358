"""What a command shows where: the result on stdout, sqlrank's progress line only for a person at a terminal."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import typer

import sqlrank


def connect(threads: int | None, memory_limit: str | None, temp_directory: Path | None, extensions: bool = False,
            table_macros: bool = True):
    """The DuckDB connection a command works in, without DuckDB's progress bar.

    DuckDB draws its bar on stdout, among the result (`sqlrank compare ... > t.csv` at a
    terminal put it in the file); the command's own progress line (status()) goes to stderr.
    """
    return sqlrank.connect(threads=threads, memory_limit=memory_limit, progress_bar=False,
                           temp_directory=None if temp_directory is None else str(temp_directory),
                           autoload_extensions=extensions, table_macros=table_macros)


def at_terminal(stream) -> bool:
    """Whether `stream` is a terminal; Python gives None for a descriptor closed at start-up (`2>&-`)."""
    return stream is not None and stream.isatty()


@contextmanager
def status(text: str):
    """A progress line on stderr, only for a person watching a terminal; erased when done."""
    shown = at_terminal(sys.stderr)
    if shown:
        sys.stderr.write(f"sqlrank: {text} ...\r")
        sys.stderr.flush()
    try:
        yield
    finally:
        if shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def show_notices(result) -> None:
    """A result's notices on stderr, each a warning or a note, on one line whatever the ids in it hold."""
    for notice in result.notices():
        level = "warning" if notice in result.report.warnings else "note"
        typer.echo(f"sqlrank: {level}: {sqlrank.escaping.notice(notice)}", err=True)


def emit(data: bytes) -> None:
    """The result on stdout, as bytes (Parquet is binary)."""
    typer.echo(data, nl=False)
