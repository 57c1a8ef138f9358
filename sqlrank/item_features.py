"""The items' features, read for the item similarities of Diversity, IntraListSimilarity and Serendipity.

Whatever shape they come in, they become one canonical long table (doc_id, feature, weight), one row per
component of an item's vector, whose cosines sql/45_lists.sql computes:
- a vector per item: a list column of numbers (recommenders' item_feature_df `features`), the same list written as
  text in a CSV ("[0.0, 1.0]"), or one number column per component (an embedding's wide form);
- categories: a text column with one row per (item, category), or a list column of them, each of weight 1;
- the canonical form itself: item, feature, weight columns.
"""

from __future__ import annotations

import re

import pyarrow as pa

from . import sqlgen
from .errors import InputError

SOURCE = "sqlrank_features_source"
EMPTY_SQL = ("SELECT CAST(NULL AS VARCHAR) AS doc_id, CAST(NULL AS VARCHAR) AS feature, "
             "CAST(NULL AS DOUBLE) AS weight WHERE false")
_NUMBERS = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT",
            "FLOAT", "DOUBLE", "DECIMAL")
_WHAT_TO_GIVE = ("give an item_id column and either a list column of numbers (a vector), number columns (one per "
                 "component), a text column of categories, or feature and weight columns")


def features_sql(con, features) -> str:
    """The SELECT of the canonical (doc_id, feature, weight) rows of `features`: a dict {item: vector or
    categories}, a DataFrame or Arrow table, or a CSV/Parquet path; no rows when it is None."""
    from .lists import ITEM_COLUMNS

    if features is None:
        return EMPTY_SQL
    source, label = _source(con, features)
    try:
        described = con.execute(f"DESCRIBE SELECT * FROM {source}").fetchall()
    except Exception as error:
        raise InputError(f"{label}: cannot be read as the items' features: {str(error).splitlines()[0]}; "
                         f"{_WHAT_TO_GIVE}") from None
    types = {row[0]: str(row[1]).upper() for row in described}
    item = next((name for name in ITEM_COLUMNS if name in types), next(iter(types)))
    rest = [name for name in types if name != item]
    doc_id = f"CAST({sqlgen.identifier(item)} AS VARCHAR) AS doc_id"
    if {"feature", "weight"} <= set(rest) and len(rest) == 2:
        return (f"SELECT {doc_id}, CAST(feature AS VARCHAR) AS feature, CAST(weight AS DOUBLE) AS weight "
                f"FROM {source} WHERE weight IS NOT NULL")
    if rest and all(_is_number(types[name]) for name in rest):  # an embedding, one column per component
        return " UNION ALL ".join(f"SELECT {doc_id}, {sqlgen.literal(name)} AS feature, "
                                  f"CAST({sqlgen.identifier(name)} AS DOUBLE) AS weight FROM {source} "
                                  f"WHERE {sqlgen.identifier(name)} IS NOT NULL" for name in rest)
    if len(rest) != 1:
        raise InputError(f"{label}: the items' features have the columns {', '.join(types)}, not a shape sqlrank "
                         f"reads; {_WHAT_TO_GIVE}")
    column, kind = sqlgen.identifier(rest[0]), types[rest[0]]
    if kind == "VARCHAR" and _all_vectors(con, source, column):  # a CSV holds a vector as its text
        column, kind = f"TRY_CAST({column} AS DOUBLE[])", "DOUBLE[]"
    if _element(kind) and _is_number(_element(kind)):
        _check_vectors(con, source, item, column, label)
        return (f"SELECT doc_id, CAST(position AS VARCHAR) AS feature, CAST(vector[position] AS DOUBLE) AS weight "
                f"FROM (SELECT {doc_id}, {column} AS vector, unnest(range(1, len({column}) + 1)) AS position "
                f"FROM {source}) WHERE vector[position] IS NOT NULL")
    if _element(kind):  # a list of categories
        return (f"SELECT DISTINCT doc_id, feature, 1.0 AS weight FROM (SELECT {doc_id}, "
                f"CAST(unnest({column}) AS VARCHAR) AS feature FROM {source}) WHERE feature IS NOT NULL")
    if kind == "VARCHAR":
        return (f"SELECT DISTINCT {doc_id}, {column} AS feature, 1.0 AS weight FROM {source} "
                f"WHERE {column} IS NOT NULL")
    raise InputError(f"{label}: the items' features column '{rest[0]}' has type {kind}; {_WHAT_TO_GIVE}")


def _source(con, features) -> tuple[str, str]:
    """What a FROM reads the features from, and how messages name them."""
    if isinstance(features, dict):
        rows = [(str(item), value) for item, values in features.items() for value in _listed(values)]
        numbers = all(isinstance(value, (int, float)) and not isinstance(value, bool) for _, value in rows)
        if numbers:  # a vector per item: its components by position, as a list column gives them
            features = pa.table({"item_id": [str(item) for item in features],
                                 "features": [[float(v) for v in _listed(vs)] for vs in features.values()]})
        else:
            features = pa.table({"item_id": [item for item, _ in rows], "feature": [str(v) for _, v in rows]})
    if isinstance(features, str) or hasattr(features, "__fspath__"):
        return sqlgen.literal(str(features)), str(features)
    con.register(SOURCE, features)
    return SOURCE, f"<{type(features).__name__} features>"


def _listed(values) -> list:
    return list(values) if isinstance(values, (list, tuple)) or hasattr(values, "tolist") else [values]


def _is_number(kind: str) -> bool:
    return kind.startswith(_NUMBERS) and not kind.endswith("]")


def _element(kind: str) -> str | None:
    """The element type of a list (DOUBLE[]) or array (FLOAT[8]) type, None for any other."""
    found = re.fullmatch(r"(.*)\[[0-9]*\]", kind)
    return found.group(1) if found else None


def _all_vectors(con, source: str, column: str) -> bool:
    """Whether every value of a text column reads as a list of numbers ("[0.5, 1]")."""
    return con.execute(f"SELECT count(*) > 0 AND count(*) = count(TRY_CAST({column} AS DOUBLE[])) "
                       f"FROM {source} WHERE {column} IS NOT NULL").fetchall()[0][0]


def _check_vectors(con, source: str, item: str, column: str, label: str) -> None:
    """One vector per item, all of one length: else the cosines would compare what is not comparable."""
    repeated = next(iter(con.execute(f"SELECT {sqlgen.identifier(item)} FROM {source} GROUP BY ALL "
                                     "HAVING count(*) > 1 LIMIT 1").fetchall()), None)
    if repeated:
        raise InputError(f"{label}: item {repeated[0]!r} has more than one feature vector; give one row per item")
    lengths = con.execute(f"SELECT DISTINCT len({column}) FROM {source} WHERE {column} IS NOT NULL "
                          "ORDER BY 1 LIMIT 2").fetchall()
    if len(lengths) > 1:
        raise InputError(f"{label}: the feature vectors have different lengths ({lengths[0][0]} and "
                         f"{lengths[1][0]}, at least); give every item a vector of the same length")
