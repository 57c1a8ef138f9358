"""What every input reader shares: the record of a loaded input, SQL quoting, opening files, message pieces."""

from __future__ import annotations

import gzip
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from . import sqlgen
from .errors import InputError, ResourceError

# the canonical columns of each kind of input
RUN_COLUMNS = ("query_id", "doc_id", "score")
QRELS_COLUMNS = ("query_id", "doc_id", "relevance")


# the quoting lives in sqlgen, the one module that writes SQL; these names are its until the readers move
quote_identifier = sqlgen.identifier


def quote_literal(text) -> str:
    return sqlgen.literal(str(text))


duckdb_path = sqlgen.file_path


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


def open_text(path: Path, compression: str):
    """The file as text, universal newlines (\\n, \\r\\n, \\r: DuckDB's line ends), bad bytes replaced."""
    if compression == "gzip":
        return gzip.open(path, "rt", encoding="utf-8", errors="replace", newline=None)
    return open(path, encoding="utf-8", errors="replace", newline=None)


READ_ERRORS = (OSError, EOFError, zlib.error, ValueError)  # gzip.BadGzipFile is an OSError


def corrupt_gzip(label: str, error: Exception) -> InputError:
    return InputError(f"{label}: the gzip data is truncated or corrupt ({first_line(error)}); "
                      "re-create or re-download the file (`gzip -t` checks it)")


def trec_example(kind: str) -> str:
    return "'301 Q0 FBIS3-10082 1 12.5 myrun' (qid Q0 docno rank score tag)" if kind == "run" \
        else "'301 0 FBIS3-10082 1' (qid iter docno relevance)"


def shorten(text, width: int = 80) -> str:
    """User text for a one-line message: control characters escaped (\\t, \\x1f), cut at `width`."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))
    return text if len(text) <= width else text[: width - 3] + "..."


def first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def out_of_memory(error: Exception) -> ResourceError | None:
    """DuckDB's out-of-memory error in the user's words (never "a corrupt file"), or None for any other error."""
    if not isinstance(error, duckdb.OutOfMemoryException):
        return None
    return ResourceError(f"DuckDB ran out of memory ({first_line(error)}); raise the memory limit "
                         "(--memory-limit, memory_limit=) or give DuckDB a folder to spill to "
                         "(--temp-directory, temp_directory=)")
