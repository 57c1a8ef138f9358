"""A recommender's tables as they come: a list column of items per user, truth without a label, a run with a
rank and no score.

reshape() rewrites a table's relation before its columns are mapped (tables.load_described), so that
every reader of named columns (DataFrames, Arrow, Parquet, CSV, JSON lines) takes these shapes:

* a list column of ids (`items`, as `model.recommend()` returns) becomes one row per item; a run gets the
  item's place in its list as its `rank` (from 1) when it has no rank column, and list columns of scores
  or labels beside it are read item by item;
* a run with a rank column and no score column is ranked by its rank: its score is the rank negated, so
  every tie policy that needs only the order (trec, input...) ranks it as given;
* truth with no label column (the items each user interacted with) is relevance 1 for every listed item,
  which a notice says once; only a table of the two id columns (and a timestamp) is read so, since any
  other column could be the labels under a name not recognised.
"""

from __future__ import annotations

from .. import sqlgen
from .base import Loaded

SCORE_FROM_RANK = "score_from_rank"
UNLABELLED = "relevance"


def is_list(duck_type: str) -> bool:
    """A DuckDB list or array type: INTEGER[], VARCHAR[3]."""
    return duck_type.endswith("]")


# columns a recommender's test set often carries beside its ids, which are no labels
_NOT_LABELS = ("timestamp", "time", "ts", "date", "datetime", "unix_time", "event_time")


def _unlabelled(found: list[tuple[str, str]], mapped: dict) -> bool:
    """Whether a table is truth without labels: its two id columns, and beside them only columns that are no
    labels (a timestamp). Any other column could hold the labels under a name not recognised (`points`, or a
    CSV's text): then the missing column stays an error, since every item relevant would drop the grades."""
    ids = {mapped["query_id"], mapped["doc_id"]}
    return None not in ids and all(name in ids or name.lower() in _NOT_LABELS for name, _ in found)


def reshape(con, loaded: Loaded, relation: str, found: list[tuple[str, str]], kind: str,
            columns: dict) -> tuple[str, list[tuple[str, str]], dict]:
    """(relation, its columns, the column mapping) with list columns unnested and the missing columns made."""
    from .tables import _guess, describe, rank_column  # tables calls reshape: imported when it runs

    given = relation
    names = [name for name, _ in found]
    types = dict(found)
    value = "score" if kind == "run" else "relevance"
    mapped = {canonical: str(columns[canonical]) if columns.get(canonical) is not None else _guess(names, canonical)
              for canonical in ("query_id", "doc_id", value)}
    rank = rank_column(names)
    doc = mapped["doc_id"]
    if doc is not None and doc in types and is_list(types[doc]):
        lists = [column for column in (doc, mapped[value], rank)
                 if column is not None and column in types and is_list(types[column])]
        unnested = ", ".join(f"unnest({sqlgen.identifier(c)}) AS {sqlgen.identifier(c)}" for c in lists)
        position = ""
        if kind == "run" and rank is None:  # the list's own order is the ranking
            position = f", unnest(range(1, len({sqlgen.identifier(doc)}) + 1)) AS {sqlgen.identifier('rank')}"
            rank = "rank"
        excluded = ", ".join(sqlgen.identifier(c) for c in lists)
        relation = f"(SELECT * EXCLUDE ({excluded}), {unnested}{position} FROM {relation})"
    if kind == "run" and mapped["score"] is None and rank is not None:
        relation = f"(SELECT *, -CAST({sqlgen.identifier(rank)} AS DOUBLE) AS {SCORE_FROM_RANK} FROM {relation})"
        columns = columns | {"score": SCORE_FROM_RANK}
    if kind == "qrels" and mapped["relevance"] is None and _unlabelled(found, mapped):
        relation = f"(SELECT *, 1.0 AS {UNLABELLED} FROM {relation})"
        columns = columns | {"relevance": UNLABELLED}
        loaded.notes.append(f"{loaded.label}: no label column: every listed item is relevant with label 1 (graded "
                            "labels: pass relevance_col=<name>, CLI: --relevance-col <name>)")
    if relation != given:
        found = describe(con, relation)
    return relation, found, columns
