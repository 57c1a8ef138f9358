"""Iterables of named tuples, ir_measures' own input: Qrel(query_id, doc_id, relevance) and
ScoredDoc(query_id, doc_id, score), and ir_datasets' `qrels_iter()` / `scoreddocs_iter()`.

Accepted: a list or tuple whose first item is a named tuple, or an iterator (a generator). The items
are read once, in their order, into a pyarrow Table of their fields and read as one (frames.py), so
the fields are mapped as a table's columns are (query_id, doc_id, relevance or score, ...).
"""

from __future__ import annotations

from itertools import chain

from ..errors import InputError, shorten
from . import frames
from .base import Loaded, Reader


def accepts(source) -> bool:
    if isinstance(source, (list, tuple)) and not hasattr(source, "_fields"):
        return bool(source) and hasattr(source[0], "_fields")
    return hasattr(source, "__next__")  # an iterator: a generator, map(), ir_datasets' iterators


def read(con, source, table: str, kind: str, columns: dict) -> Loaded:
    import pyarrow as pa

    label = f"<{'ir_datasets' if type(source).__module__.startswith('ir_datasets') else 'iterable'} {kind}>"
    items = iter(source)
    first = next(items, None)
    if first is None:
        raise InputError(f"{label}: the iterable has no items; expected ir_measures' "
                         f"{'Qrel' if kind == 'qrels' else 'ScoredDoc'} named tuples")
    fields = getattr(first, "_fields", None)
    if not fields:
        raise InputError(f"{label}: expected named tuples such as ir_measures' Qrel(query_id, doc_id, relevance) "
                         f"or ScoredDoc(query_id, doc_id, score), found a {type(first).__name__} "
                         f"{shorten(repr(first))}; give the items field names (a namedtuple) or pass a DataFrame")
    values: list[list] = [[] for _ in fields]
    for number, item in enumerate(chain([first], items), start=1):
        if getattr(item, "_fields", None) != fields:
            raise InputError(f"{label}: item {number} is {shorten(repr(item))}, unlike the first item's fields "
                             f"({', '.join(fields)}); give every item the same fields")
        for column, value in zip(values, item):
            column.append(value)
    try:
        arrow = pa.table(dict(zip(fields, values)))
    except (pa.ArrowException, TypeError, ValueError) as error:
        raise InputError(f"{label}: a field holds values of mixed types ({shorten(str(error))}); give each field "
                         "one type (ids text, values numbers)") from None
    return frames.read(con, arrow, table, kind, columns, label=label)


READER = Reader("table", read, accepts=accepts)
