"""JSON lines (one object a line, `{"query_id": "q1", "doc_id": "d1", "score": 2.5}`) or a JSON array of them.

Recognised by a .json/.jsonl/.ndjson name or a first line starting with `{` or `[`;
DuckDB's read_json finds the columns and their types. A file holding one dict
{query_id: {doc_id: value}} (ranx, pytrec_eval) is read as that dict (json_dict.py).
"""

from __future__ import annotations

from .. import sqlgen
from . import files, json_dict, tables
from .base import Loaded, Reader

EXPLAIN = tables.explainer()


def read(con, file: files.File, table: str, kind: str, columns: dict) -> Loaded:
    found = json_dict.document(file)  # ranx's and pytrec_eval's {query_id: {doc_id: value}}
    if found is not None:
        return json_dict.read(con, file, table, kind, columns, found)
    loaded = Loaded(table, str(file.path), EXPLAIN, file.path, compression=file.compression, fmt="json")
    relation = (f"read_json({sqlgen.file_path(file.path)}, format = 'auto', compression = '{file.compression}', "
                "hive_partitioning = false)")
    return tables.load_relation(con, loaded, relation, kind, columns, materialize=True)


READER = Reader("json", read, extensions=(".jsonl", ".json", ".ndjson"),
                first_line=lambda line: line.startswith(("{", "[")))
