"""JSON files holding one dict {query_id: {doc_id: value}}, as ranx's `save()` and pytrec_eval users write them.

Recognised inside the JSON reader (jsonl.py): a first line that is such a dict, or a first line that
is no whole JSON value (a document over many lines, ranx's indented files) whose document is one.
The dict is read by Python's json and then as a dict in memory (mapping.py), under the file's name.
"""

from __future__ import annotations

import json

from ..errors import InputError
from . import files, mapping
from .base import Loaded


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


def read(con, file: files.File, table: str, kind: str, columns: dict, found: dict) -> Loaded:
    """The dict `found` (document()) read as the dict reader reads one, named after the file."""
    loaded = mapping.read(con, found, table, kind, columns, label=str(file.path))
    loaded.path, loaded.fmt = file.path, "dict"
    return loaded
