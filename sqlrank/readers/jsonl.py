"""JSON lines (one object a line, `{"query_id": "q1", "doc_id": "d1", "score": 2.5}`) or a JSON array of them.

Recognised by a .json/.jsonl/.ndjson name or a first line starting with `{` or `[`;
DuckDB's read_json finds the columns and their types. A file holding one dict
{query_id: {doc_id: value}} (ranx's save(), pytrec_eval users' json.dump) is read as that dict (mapping.py):
recognised by a first line that is such a dict, or a first line that is no whole JSON value (one
document over many lines, ranx's indented files) whose document is one.
"""

from __future__ import annotations

import json

from .. import sqlgen
from ..errors import InputError
from . import files, mapping, tables
from .base import Loaded, Reader

EXPLAIN = tables.explainer()


def read(con, file: files.File, table: str, kind: str, columns: dict) -> Loaded:
    found = document(file)  # ranx's and pytrec_eval's {query_id: {doc_id: value}}
    if found is not None:
        loaded = mapping.read(con, found, table, kind, columns, label=str(file.path))
        loaded.path, loaded.fmt = file.path, "dict"
        return loaded
    loaded = Loaded(table, str(file.path), EXPLAIN, file.path, compression=file.compression, fmt="json")
    relation = (f"read_json({sqlgen.file_path(file.path)}, format = 'auto', compression = '{file.compression}', "
                "hive_partitioning = false)")
    return tables.load_relation(con, loaded, relation, kind, columns, materialize=True)


def document(file: files.File) -> dict | None:
    """The file's dict of dicts, or None when the file is JSON lines (or a JSON array) instead."""
    first = files.first_data_line(file) or ""
    if not first.startswith("{"):
        return None
    try:
        value = json.loads(first)
    except json.JSONDecodeError:
        value = _whole(file)  # one document over many lines
    return value if is_dict_of_dicts(value) else None


def is_dict_of_dicts(value) -> bool:
    """{query_id: {doc_id: value}}: every value a dict (a JSON-lines record's values are text and numbers)."""
    return isinstance(value, dict) and bool(value) and all(isinstance(inner, dict) for inner in value.values())


def _whole(file: files.File):
    try:
        with files.open_text(file.path, file.compression) as handle:
            return json.load(handle)
    except json.JSONDecodeError as bad:
        raise InputError(f"{file.path}:{bad.lineno}: is not valid JSON ({bad.msg} at column {bad.colno}); fix the "
                         "file: one dict {query_id: {doc_id: value}}, or one JSON object a line") from None
    except files.READ_ERRORS as error:
        raise files.unreadable(str(file.path), error, file.compression) from None


READER = Reader("json", read, extensions=(".jsonl", ".json", ".ndjson"),
                first_line=lambda line: line.startswith(("{", "[")))
