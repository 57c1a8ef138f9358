"""The list of readers, and load(): which reader reads an input, chosen from the list in order."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import InputError, option_hint
from . import delimited, feather, files, frames, jsonl, lz4, mapping, parquet, records, trec
from .base import FORMAT, Loaded, Reader

# Files: first by their magic bytes, then by their extension, then by their first line, in this
# order (TREC, which takes any first line, comes last). Objects: by Reader.accepts.
READERS: list[Reader] = [
    parquet.READER,
    feather.READER,
    lz4.READER,
    jsonl.READER,
    delimited.TSV,
    delimited.CSV,
    trec.READER,
    mapping.READER,
    frames.READER,
    records.READER,
]


def load(con, source, table: str, kind: str, columns: dict[str, str | None] | None = None) -> Loaded:
    """Create table/view `table` with the canonical columns of `kind` ('run' or 'qrels'), checked.

    columns[FORMAT], when given, names the reader of a file (file_reader()) instead of recognising it.
    """
    columns = dict(columns or {})
    forced = columns.pop(FORMAT, None)
    if isinstance(source, (str, os.PathLike)):
        if os.fspath(source) == "":  # Path("") would be the current folder
            raise InputError(f"the {kind} path is empty (''); give a file path")
        reader = file_reader(forced, kind) if forced is not None else None
        file = files.open_file(Path(source), kind)
        reader = reader or recognise(file, kind)
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
    if forced is not None:
        raise InputError(f"{frames.label_of(source, kind)}: {kind}_format={forced!r} chooses the reader of a file, "
                         f"but the {kind} is a {type(source).__name__}; leave {kind}_format out for objects")
    for reader in READERS:
        if reader.accepts and reader.accepts(source):
            return reader.read(con, source, table, kind, columns)
    raise InputError(
        f"{frames.label_of(source)}: cannot use a {type(source).__name__} as the {kind}; pass a file path, a "
        "pandas or polars DataFrame, a pyarrow Table, a DuckDB relation, a dict {query_id: {doc_id: value}} or "
        "an iterable of ir_measures' Qrel / ScoredDoc named tuples"
    )


# the names a user may force a file's reader by (format=, --qrels-format), each to the reader's own name
FORMAT_NAMES = {"trec": "trec", "csv": "csv", "tsv": "tsv", "jsonl": "json", "json": "json", "parquet": "parquet",
                "feather": "feather", "lz4": "lz4"}


def file_reader(name, kind: str) -> Reader:
    """The reader a user named for a file (`--qrels-format trec`), refused by name when there is none."""
    wanted = FORMAT_NAMES.get(str(name).lower())
    reader = next((reader for reader in READERS if reader.name == wanted and not reader.accepts), None)
    if reader is None:
        raise InputError(f"{option_hint(f'{kind}_format={name!r}', f'--{kind}-format {name}')}: unknown format; "
                         f"expected one of {', '.join(FORMAT_NAMES)}")
    return reader


def recognise(file: files.File, kind: str | None = None) -> Reader:
    """The reader of a file: by its magic bytes, then its extension, then its first data line.

    A .csv/.tsv name whose first line is a TREC line of `kind` (MS MARCO's headerless qrels.dev.small.tsv)
    is TREC: a header line never ends in the numbers a TREC line has.
    """
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
            if reader in (delimited.CSV, delimited.TSV) and trec.headerless(files.first_data_line(file) or "", kind):
                return trec.READER
            return reader
    line = files.first_data_line(file) or ""  # an empty file: its reader (TREC) says so
    return next(reader for reader in READERS if reader.first_line and reader.first_line(line))


def run_name_suffixes() -> list[str]:
    """What is taken off a file's name to name its run: .gz, then every reader's extensions."""
    return [".gz"] + [suffix for reader in READERS for suffix in reader.extensions + reader.usual_extensions]
