"""pytrec_eval's dicts: {query_id: {doc_id: score}} (run) or {query_id: {doc_id: label}} (qrels).

Ids become their text (str()), values must be real numbers; the dict is turned
into a pyarrow Table and read as one (frames.py), under the label `<dict run>`.
"""

from __future__ import annotations

import numbers

from ..checks import value_column
from ..errors import InputError
from . import frames, tables
from .base import INPUT_RANK, Loaded, Reader, keeps_order


def read(con, source: dict, table: str, kind: str, columns: dict, label: str | None = None) -> Loaded:
    """The dict as a table; `label` names it in messages (a file's path, when it came from one)."""
    import pyarrow as pa

    label = label or f"<dict {kind}>"
    if source and all(isinstance(items, (list, tuple)) for items in source.values()):
        return _read_lists(con, source, table, kind, columns, label)
    value_name = value_column(kind)
    qids, dids, values = [], [], []
    for qid, docs in source.items():
        if isinstance(docs, numbers.Real):
            raise InputError(f"{label}: expected {{query_id: {{doc_id: {value_name}}}}}, found a number under {qid!r}: "
                             "a dict of numbers is one query's documents; give it under its query_id, "
                             f"e.g. {{'q1': {{{qid!r}: {docs!r}, ...}}}}")
        if not isinstance(docs, dict):
            raise InputError(f"{label}: expected {{query_id: {{doc_id: {value_name}}}}}, "
                             f"found {type(docs).__name__} for query {qid!r}")
        for did, value in docs.items():
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise InputError(f"{label}: query {qid!r} doc {did!r}: the {value_name} must be a number, "
                                 f"found {value!r}; fix the value")
            if kind == "run" and isinstance(value, numbers.Integral) and abs(value) > tables.EXACT_INTEGER_LIMIT:
                raise tables.inexact_integer(f"{label}: query {qid!r} doc {did!r}", value, value_name)
            qids.append(str(qid))
            dids.append(str(did))
            values.append(float(value))
    arrow = pa.table({"query_id": pa.array(qids, pa.string()), "doc_id": pa.array(dids, pa.string()),
                      value_name: pa.array(values, pa.float64())})
    # the dict's own order (insertion order, as ranx's Run keeps it) when ties='input' asks for it
    order = {INPUT_RANK: None} if keeps_order(columns) else {}
    return frames.read(con, arrow, table, kind, order, label=label)


def _read_lists(con, source: dict, table: str, kind: str, columns: dict, label: str) -> Loaded:
    """{user: [items]}: a run ranked in list order (its `rank`, from 1), or truth with every item relevant.

    Integer users keep their type (int64), as a DataFrame's would; the lists are read as a list column (shapes.py).
    """
    import pyarrow as pa

    users = list(source)
    whole = all(isinstance(user, numbers.Integral) and not isinstance(user, bool) for user in users)
    items = [[item if isinstance(item, numbers.Integral) and not isinstance(item, bool) else str(item)
              for item in listed] for listed in source.values()]
    try:
        arrow = pa.table({"query_id": pa.array(users if whole else [str(user) for user in users]),
                          "doc_id": pa.array(items)})
    except (pa.ArrowException, OverflowError):  # integers and text in one list: compare them as text
        arrow = pa.table({"query_id": pa.array([str(user) for user in users]),
                          "doc_id": pa.array([[str(item) for item in listed] for listed in source.values()],
                                             pa.list_(pa.string()))})
    order = {INPUT_RANK: None} if keeps_order(columns) else {}
    return frames.read(con, arrow, table, kind, order, label=label)


READER = Reader("table", read, accepts=lambda source: isinstance(source, dict))
