"""Writing a run (query_id, doc_id, score), e.g. a fused one: a TREC run file, or CSV/TSV/Parquet/JSON lines, atomically.

A TREC run line is `query_id Q0 doc_id rank score tag`, the rank counting from 1 in the table's
order (best first in each query, as sqlrank.fuse returns it) and the score in full (repr), so that
reading the file back ranks and evaluates exactly as the table does.
"""

from __future__ import annotations

import os
from typing import Iterator

from .errors import OutputError

RUN_FORMATS = ("trec", "csv", "tsv", "parquet", "jsonl")


def format_for(path: str | os.PathLike) -> str:
    """A run file's format from its name: .parquet, .csv, .tsv, .jsonl, anything else TREC (.trec, .run, .txt)."""
    name = os.fspath(path).lower()
    for fmt in ("parquet", "csv", "tsv", "jsonl"):
        if name.endswith("." + fmt):
            return fmt
    return "trec"


def trec_lines(table: pa.Table, tag: str) -> Iterator[bytes]:
    """The run as TREC lines, a batch of rows at a time."""
    if not tag or any(character.isspace() for character in tag):
        raise OutputError(f"run tag '{tag}': a TREC run's tag is one word without spaces; give another (--tag)")
    previous, rank = None, 0
    for batch in table.select(["query_id", "doc_id", "score"]).to_batches(max_chunksize=65536):
        lines = []
        for query_id, doc_id, score in zip(*(column.to_pylist() for column in batch.columns)):
            rank = rank + 1 if query_id == previous else 1
            previous = query_id
            lines.append(f"{query_id} Q0 {doc_id} {rank} {score!r} {tag}\n")
        yield "".join(lines).encode("utf-8")


def write(table: pa.Table, path: str | os.PathLike, fmt: str | None = None, tag: str = "fused",
          inputs: tuple = ()) -> None:
    """Write a run atomically (all of it or nothing); refuses to overwrite one of `inputs`."""
    from . import export

    fmt = fmt or format_for(path)
    if fmt not in RUN_FORMATS:
        raise OutputError(f"run format '{fmt}' is not one of: {', '.join(RUN_FORMATS)}")
    if fmt == "trec":
        export.write_bytes(trec_lines(table, tag), path, inputs)
    else:
        export.write_arrow(table, path, fmt, inputs)
