"""The list of readers, and load(): which reader reads an input, chosen from the list in order."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import InputError
from . import delimited, feather, files, frames, jsonl, mapping, parquet, trec
from .base import Loaded, Reader

# Files: first by their magic bytes, then by their extension, then by their first line, in this
# order (TREC, which takes any first line, comes last). Objects: by Reader.accepts.
READERS: list[Reader] = [
    parquet.READER,
    feather.READER,
    jsonl.READER,
    delimited.TSV,
    delimited.CSV,
    trec.READER,
    mapping.READER,
    frames.READER,
]


def load(con, source, table: str, kind: str, columns: dict[str, str | None] | None = None) -> Loaded:
    """Create table/view `table` with the canonical columns of `kind` ('run' or 'qrels'), checked."""
    columns = columns or {}
    if isinstance(source, (str, os.PathLike)):
        if os.fspath(source) == "":  # Path("") would be the current folder
            raise InputError(f"the {kind} path is empty (''); give a file path")
        file = files.open_file(Path(source), kind)
        reader = recognise(file)
        if reader not in (trec.READER, delimited.CSV, delimited.TSV) and not files.decompressed_head(file, 1):
            # TREC and CSV say so in their own words; JSON and Parquet would say "missing columns"
            unpacked = " once decompressed" if file.compression == "gzip" else ""
            raise InputError(f"{file.path}: is empty (no bytes{unpacked}); expected the {kind}'s rows; check that "
                             "the file was written completely")
        loaded = reader.read(con, file, table, kind, columns)
        loaded.identity = file.identity  # as it was before it was read (files.check_unchanged)
        return loaded
    if isinstance(source, Loaded):
        return source
    for reader in READERS:
        if reader.accepts and reader.accepts(source):
            return reader.read(con, source, table, kind, columns)
    raise InputError(
        f"{frames.label_of(source)}: cannot use a {type(source).__name__} as the {kind}; pass a file path, a "
        "pandas or polars DataFrame, a pyarrow Table, a DuckDB relation or a dict {query_id: {doc_id: value}}"
    )


def recognise(file: files.File) -> Reader:
    """The reader of a file: by its magic bytes, then its extension, then its first data line."""
    for reader in READERS:
        if reader.magic and file.head.startswith(reader.magic):
            return reader
    for reader in READERS:
        if file.extension in reader.extensions:
            if reader.magic and file.head == b"":
                return reader  # an empty file: load() says it is empty
            if reader.magic and file.compression == "gzip" and files.decompressed_head(file).startswith(reader.magic):
                raise InputError(f"{file.path}: is a gzip-compressed {reader.title or reader.name} file; "
                                 f"{reader.title or reader.name} compresses its own columns and is read uncompressed: "
                                 "decompress it (gunzip)")
            if reader.magic:  # the name says a format whose bytes say otherwise
                raise InputError(
                    f"{file.path}: has a {file.extension} name but is not a {reader.title or reader.name} file "
                    f"(no {reader.magic.decode()} magic bytes); rename it after its real format (.csv, .tsv, "
                    ".jsonl or a TREC file)")
            return reader
    line = files.first_data_line(file) or ""  # an empty file: its reader (TREC) says so
    return next(reader for reader in READERS if reader.first_line and reader.first_line(line))


def run_name_suffixes() -> list[str]:
    """What is taken off a file's name to name its run: .gz, then every reader's extensions."""
    return [".gz"] + [suffix for reader in READERS for suffix in reader.extensions + reader.usual_extensions]
