"""The list measures (beyond accuracy): their names parsed, their inputs read, their rows computed.

A list measure (registry.LIST_MEASURES) reads each evaluated user's top k items, not their relevance, and an
input beside the truth and the run: the training interactions (`train`) or the catalogue (`items`). Each is one
table macro, sql/lists/<macro>.sql's sqlrank.list_<macro>, over four canonical tables this module makes in the
evaluation's connection (sql/45_lists.sql says what they hold). Its rows join the other measures' in the result:
per user and in the `all` row, or in the `all` row alone for a measure of the whole run.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from . import sqlgen
from .errors import InputError, MeasureError
from .registry import LIST_INPUTS, LIST_MEASURES, LIST_PARAMETERS, ListMeasureDef

USERS_TABLE, LISTS_TABLE = "sqlrank_list_users", "sqlrank_lists"
TRAIN_TABLE, CATALOGUE_TABLE = "sqlrank_train", "sqlrank_catalogue"
FEATURES_TABLE, RELEVANT_TABLE = "sqlrank_features", "sqlrank_relevant"
# the catalogue's item column, by the names recommender data give it
ITEM_COLUMNS = ("item_id", "doc_id", "item", "itemid", "ItemId", "movie_id", "product_id", "docno")

# relevant as trec_eval's default relevance level says: a label of 1 or more
RELEVANT_SQL = ("SELECT DISTINCT CAST(query_id AS VARCHAR) AS query_id, CAST(doc_id AS VARCHAR) AS doc_id "
                "FROM {qrels} WHERE relevance >= 1")
_FORM = re.compile(r"^(?P<name>[A-Za-z_]+)(?:\((?P<params>[^)]*)\))?(?:@(?P<k>[^@]*))?$")
_NAMES = {spelling.lower(): m for m in LIST_MEASURES.values() for spelling in (m.name, *m.aliases)}


@dataclass(frozen=True)
class ListMeasure:
    definition: ListMeasureDef
    k: int | None = None
    params: tuple[tuple[str, object], ...] = ()

    def param(self, name: str):
        return dict(self.params).get(name, LIST_PARAMETERS[name].default)

    def input_groups(self) -> list[tuple[str, ...]]:
        """The inputs it reads, each group given by any one of its members: its definition's, and for a measure
        of item similarities the training interactions or the features, as its similarity parameter says."""
        groups = [self.definition.inputs] if self.definition.inputs else []
        if self.definition.similarities:
            source = ("features",) if self.param("similarity") == "features" else ("train",)
            groups += [] if source in groups else [source]
        return groups

    def __str__(self) -> str:
        shown = ",".join(f"{name}={value}" for name, value in self.params)
        return self.definition.name + (f"({shown})" if shown else "") + (f"@{self.k}" if self.k is not None else "")


def parse_list_measure(spelling: str) -> ListMeasure | None:
    """`Novelty@10`, `APLT(tail=0.2)@20`: a list measure, or None when the name is not one."""
    from .measures import MAX_CUTOFF, parse_parameter

    match = _FORM.match(spelling.strip())
    if not match or match.group("name").lower() not in _NAMES:
        return None
    definition = _NAMES[match.group("name").lower()]
    k = None
    if match.group("k") is not None:
        if not re.fullmatch(r"[0-9]+", match.group("k").strip()) or not 1 <= int(match.group("k")) <= MAX_CUTOFF:
            raise MeasureError(f"{spelling}: the cutoff k must be a whole number >= 1, got '{match.group('k')}'")
        k = int(match.group("k"))
    params = {}
    for item in (match.group("params") or "").split(",") if match.group("params") else []:
        key, sep, value = (part.strip() for part in item.partition("="))
        if not sep or key not in definition.params:
            allowed = ", ".join(definition.params) or "none"
            raise MeasureError(f"{spelling}: unknown parameter '{key}' of {definition.name} (its parameters: {allowed})")
        params[key] = parse_parameter(LIST_PARAMETERS[key], value, spelling)
    shown = tuple((name, value) for name, value in params.items() if value != LIST_PARAMETERS[name].default)
    return ListMeasure(definition, k, shown)


def check_list_inputs(measures: list[ListMeasure], train, items, ties: str = "trec", empty: str = "zero",
                      features=None) -> None:
    """A list measure without the input it reads: refused by name, with the keyword (CLI option) to give; so are
    the options they do not take yet (they read each user's top k in trec_eval's order, and no user scores 1)."""
    if measures and ties != "trec":
        raise MeasureError(f"{measures[0]}: the list measures read each user's top k in trec_eval's order (score, then "
                           f"doc id) and do not take ties={ties!r} yet; evaluate them in a call of their own without it")
    if measures and empty == "one":
        raise MeasureError(f"{measures[0]}: the list measures do not take empty='one' (a user without relevant items "
                           "scored 1) yet; use zero, skip or error, or evaluate them in a call of their own")
    given = {"train": train, "items": items, "features": features}
    for measure in measures:
        for needed in measure.input_groups():
            if all(given[name] is None for name in needed):
                options = " or ".join(f"{name}= (CLI: --{name})" for name in needed)
                raise MeasureError(f"{measure} reads {' or '.join(LIST_INPUTS[name].split(':')[0] for name in needed)}"
                                   f"; give {options}")


def load_list_inputs(con, train, items, columns: dict, features=None) -> None:
    """The training interactions, the catalogue and the items' features as sqlrank_train (query_id, doc_id),
    sqlrank_catalogue (doc_id) and sqlrank_features (doc_id, feature, weight), empty when not given (a measure
    that reads them was refused before). The training rows are read as truth without labels is, by the same
    readers (a user and an item column, any other column refused)."""
    from . import item_features, readers

    con.execute(sqlgen.create_temp_table(FEATURES_TABLE, item_features.features_sql(con, features)))

    if train is not None:
        try:  # the readers name the input they read as the qrels: say which one it is
            loaded = readers.load(con, train, "sqlrank_train_source", "qrels", columns)
        except InputError as error:
            raise InputError(f"train (the training interactions, read as truth without labels is): {error}") from None
        con.execute(sqlgen.create_temp_table(TRAIN_TABLE, f"SELECT CAST(query_id AS VARCHAR) AS query_id, "
                                             f"CAST(doc_id AS VARCHAR) AS doc_id FROM {sqlgen.identifier(loaded.table)}"))
    else:
        con.execute(sqlgen.create_temp_table(TRAIN_TABLE, "SELECT CAST(NULL AS VARCHAR) AS query_id, "
                                             "CAST(NULL AS VARCHAR) AS doc_id WHERE false"))
    if items is not None:
        con.execute(sqlgen.create_temp_table(CATALOGUE_TABLE, _catalogue_sql(con, items)))
    else:
        con.execute(sqlgen.create_temp_table(CATALOGUE_TABLE, f"SELECT DISTINCT doc_id FROM {TRAIN_TABLE}"))
    # an empty input would make every value 0 in silence
    for given, table, what in ((train, TRAIN_TABLE, "the training interactions (train)"),
                               (items, CATALOGUE_TABLE, "the catalogue (items)"),
                               (features, FEATURES_TABLE, "the items' features (features)")):
        if given is not None and not con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]:
            raise InputError(f"{what} has no rows: every list measure reading it would be 0; give the rows "
                             "(a user and an item column for train, the item ids for items)")


def _catalogue_sql(con, items) -> str:
    """The catalogue from a list of ids, a DataFrame or Arrow table, or a CSV/Parquet path: its item column."""
    import pyarrow as pa

    if isinstance(items, (list, tuple, set, frozenset)):
        items = pa.table({"item_id": pa.array([str(item) for item in items], pa.string())})
    if isinstance(items, str) or hasattr(items, "__fspath__"):
        source, label = sqlgen.literal(str(items)), str(items)
    else:
        con.register("sqlrank_items_source", items)
        source, label = "sqlrank_items_source", f"<{type(items).__name__} items>"
    try:
        names = [row[0] for row in con.execute(f"DESCRIBE SELECT * FROM {source}").fetchall()]
    except Exception as error:
        raise InputError(f"{label}: cannot be read as the catalogue (items): {str(error).splitlines()[0]}; "
                         "give a list of item ids, a DataFrame or a CSV/Parquet file with an item_id column") from None
    found = next((name for name in ITEM_COLUMNS if name in names), names[0] if len(names) == 1 else None)
    if found is None:
        close = difflib.get_close_matches("item_id", names, n=1)
        raise InputError(f"{label}: the catalogue (items) has no item column: expected one of "
                         f"{', '.join(ITEM_COLUMNS[:3])}, found {', '.join(names)}"
                         + (f"; did you mean '{close[0]}'?" if close else "") + "; rename it to item_id")
    return f"SELECT DISTINCT CAST({sqlgen.identifier(found)} AS VARCHAR) AS doc_id FROM {source}"


def list_rows_sql(measures: list[ListMeasure], labels: list[str]) -> str:
    """Every list measure's rows (run_id, query_id, measure, value), from the tables made for them."""
    parts = []
    for measure, label in zip(measures, labels):
        arguments = [sqlgen.literal(name) for name in (USERS_TABLE, LISTS_TABLE, TRAIN_TABLE, CATALOGUE_TABLE)]
        arguments += [sqlgen.literal(measure.k), sqlgen.literal(float(measure.param("tail")))]
        if measure.definition.similarities:
            arguments += [sqlgen.literal(FEATURES_TABLE), sqlgen.literal(RELEVANT_TABLE),
                          sqlgen.literal(measure.param("similarity"))]
        call = sqlgen.call(f"sqlrank.list_{measure.definition.macro}", *arguments)
        parts.append(f"SELECT run_id, query_id, {sqlgen.literal(label)} AS measure, CAST(value AS DOUBLE) AS value "
                     f"FROM {call}")
    return "\nUNION ALL\n".join(parts)


def list_weights_sql(measures: list[ListMeasure], labels: list[str]) -> str | None:
    """(run_id, query_id, measure, weight) of the list measures whose `all` row weighs the users
    (ListMeasureDef.all_weight), from the tables made for them; None when no such measure was asked."""
    parts = [f"SELECT run_id, query_id, {sqlgen.literal(label)} AS measure, {measure.definition.all_weight} AS weight "
             f"FROM " + sqlgen.call("sqlrank.list_weights", *(sqlgen.literal(name) for name in (
                 USERS_TABLE, LISTS_TABLE, TRAIN_TABLE)), sqlgen.literal(measure.k))
             for measure, label in zip(measures, labels) if measure.definition.all_weight]
    return "\nUNION ALL\n".join(parts) or None


def make_lists(con, run_tables: list[tuple[str | None, str]], rankings: str, measures: list[ListMeasure]) -> None:
    """sqlrank_list_users, the users each run is evaluated on (from `rankings`, the policies applied),
    sqlrank_lists, each run's ranked items within the largest cutoff asked (the whole list if one has none), and
    sqlrank_relevant, the items the truth judges relevant to each user (Serendipity)."""
    from .macros import install_parts  # macros imports this module (shell_sql)
    from .readers import QRELS_TABLE

    install_parts(con, ["lists"])

    con.execute(sqlgen.create_temp_table(USERS_TABLE, f"SELECT DISTINCT run_id, query_id FROM {rankings}"))
    con.execute(sqlgen.create_temp_table(RELEVANT_TABLE, RELEVANT_SQL.format(qrels=sqlgen.identifier(QRELS_TABLE))))
    cutoffs = [m.k for m in measures]
    depth = None if None in cutoffs else max(cutoffs)
    for number, (run_id, table) in enumerate(run_tables):
        name = "run_id" if run_id is None else f"{sqlgen.literal(run_id)} AS run_id"
        ranked = sqlgen.call("sqlrank.ranked", sqlgen.literal(table), one_run=run_id is not None)
        select = (f"SELECT {name}, CAST(query_id AS VARCHAR) AS query_id, CAST(doc_id AS VARCHAR) AS doc_id, rank "
                  f"FROM {ranked}" + (f" WHERE rank <= {depth}" if depth is not None else ""))
        con.execute(sqlgen.create_temp_table(LISTS_TABLE, select) if number == 0
                    else sqlgen.insert_by_name(LISTS_TABLE, select))


# the shell macro's tables of the item similarities: the features in their canonical long form (an item, a
# feature, a weight: docs/recommenders.md shows how a vector column becomes one) and the relevant items; the
# input the similarity reads is refused by name when it is NULL, since an empty one would give zero values in silence
_SIMILARITY_CTES = (
    "sqlrank_no_train AS (SELECT CAST(NULL AS VARCHAR) AS query_id, CAST(NULL AS VARCHAR) AS doc_id WHERE false),\n"
    "sqlrank_no_features AS (SELECT CAST(NULL AS VARCHAR) AS doc_id, CAST(NULL AS VARCHAR) AS feature, "
    "CAST(NULL AS DOUBLE) AS weight WHERE false),\n"
    "sqlrank_features AS (\n"
    "    SELECT CAST(COLUMNS('^(doc_id|item_id)$') AS VARCHAR) AS doc_id, CAST(feature AS VARCHAR) AS feature,\n"
    "           CAST(weight AS DOUBLE) AS weight\n"
    "    FROM query_table(coalesce(features, 'sqlrank_no_features'))\n"
    "),\n"
    "sqlrank_relevant AS (\n"
    "    SELECT DISTINCT CAST(query_id AS VARCHAR) AS query_id, CAST(doc_id AS VARCHAR) AS doc_id\n"
    "    FROM query(sqlrank.qrels_input_sql(qrels_table, NULL)) WHERE relevance >= 1\n"
    "),\n")
_SIMILARITY_CHECK = (
    "\nWHERE CASE WHEN similarity = 'features' AND features IS NULL THEN error('{measure} with similarity := "
    "''features'' reads the items'' features: give features := ''<table of item_id, feature, weight>''')\n"
    "           WHEN similarity = 'cooccurrence' AND train IS NULL THEN error('{measure} with similarity := "
    "''cooccurrence'' reads the training interactions: give train := ''<table of query_id, doc_id>''')\n"
    "           WHEN similarity NOT IN ('cooccurrence', 'features') THEN error('{measure}: unknown "
    "similarity ''' || similarity || ''' (expected one of: cooccurrence, features)')\n"
    "           ELSE true END")


def shell_sql() -> str:
    """The DuckDB shell's table macro of each list measure, made from the registry:
    `sqlrank.<macro>(qrels_table, run_table, [train := 'train',] [items := NULL,] k := NULL, <parameters>,
    missing := 'zero')` over canonical tables (load_qrels, load_run; the training interactions and the catalogue
    with query_id/doc_id or item_id columns), its rows (run_id, query_id, value) with the `all` row, which only
    the macro can make for a measure of the whole run. The four tables sqlrank.list_<macro> reads are its CTEs."""
    statements = []
    for definition in LIST_MEASURES.values():
        similarities = definition.similarities
        options = ([("train", "train")] if "train" in definition.inputs or similarities else []) + (
            [("items", None)] if "items" in definition.inputs else []) + (
            [("features", None)] if similarities else []) + [("k", None)] + [
            (name, LIST_PARAMETERS[name].default) for name in definition.params] + [("missing", "zero")]
        signature = ", ".join(["qrels_table", "run_table"] + [f"{name} := {sqlgen.literal(value)}"
                                                             for name, value in options])
        train = ("SELECT CAST(query_id AS VARCHAR) AS query_id, CAST(doc_id AS VARCHAR) AS doc_id "
                 "FROM query_table(train)") if "train" in definition.inputs else \
            "SELECT CAST(NULL AS VARCHAR) AS query_id, CAST(NULL AS VARCHAR) AS doc_id WHERE false"
        if similarities:  # train := NULL with similarity := 'features' reads no training table
            source = "coalesce(train, 'sqlrank_no_train')"
            if "train" not in definition.inputs:  # nor does the default: by features only the similarity reads it
                source = f"CASE WHEN similarity = 'features' THEN 'sqlrank_no_train' ELSE {source} END"
            train = ("SELECT CAST(query_id AS VARCHAR) AS query_id, CAST(doc_id AS VARCHAR) AS doc_id "
                     f"FROM query_table({source})")
        if "items" in definition.inputs:  # the items table's item column, else the training items
            catalogue = ("SELECT DISTINCT CAST(COLUMNS('^(doc_id|item_id)$') AS VARCHAR) AS doc_id "
                         "FROM query_table(coalesce(items, train))")
        else:
            catalogue = "SELECT DISTINCT doc_id FROM sqlrank_train"
        tail = "tail" if "tail" in definition.params else "0.1"
        # a run without a run_id column is one run, named 'run' as evaluate() names it
        no_run_id = "UNION ALL BY NAME SELECT CAST(NULL AS VARCHAR) AS run_id WHERE false"
        run_id = "coalesce(CAST(run_id AS VARCHAR), 'run') AS run_id"
        statements.append(
            f"CREATE OR REPLACE MACRO sqlrank.{definition.macro}({signature}) AS TABLE\n"
            f"WITH sqlrank_list_users AS (\n"
            f"    SELECT DISTINCT {run_id}, query_id FROM (FROM sqlrank.run_rankings(qrels_table, run_table, "
            f"missing := missing) {no_run_id})\n"
            f"),\n"
            # the run read as the measures' macros read it (sqlrank/shell_door.py): a list column of items too
            f"sqlrank_list_run AS NOT MATERIALIZED (SELECT * FROM query(sqlrank.run_input_sql(run_table, NULL))),\n"
            f"sqlrank_lists AS (\n"
            f"    SELECT {run_id}, CAST(query_id AS VARCHAR) AS query_id, CAST(doc_id AS VARCHAR) AS doc_id, rank\n"
            f"    FROM (FROM sqlrank.ranked('sqlrank_list_run') {no_run_id})\n"
            f"),\n"
            + (_SIMILARITY_CTES.replace("{measure}", definition.name) if similarities else "") +
            f"sqlrank_train AS ({train}),\n"
            f"sqlrank_catalogue AS ({catalogue})\n"
            f"SELECT run_id, query_id, value FROM sqlrank.list_{definition.macro}('sqlrank_list_users', "
            f"'sqlrank_lists', 'sqlrank_train', 'sqlrank_catalogue', k, {tail}"
            + (", 'sqlrank_features', 'sqlrank_relevant', similarity)"
               + _SIMILARITY_CHECK.replace("{measure}", definition.name) if similarities else ")") + ";")
    return "\n\n".join(statements) + "\n"
