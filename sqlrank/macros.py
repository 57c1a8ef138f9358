"""The macro library: the SQL files, the macros made from the registry, and installing them into DuckDB.

The .sql files live in the top-level `sql/` folder of the source tree and are
shipped inside the wheel as `sqlrank/sql/`. DuckDB binds a macro's calls when
the macro is created, so the library is loaded in this order:

1. `sql/00_*.sql` .. `sql/09_*.sql`, in name order: the vocabulary (gain,
   discount, relevance, input types);
   then the shell door's SQL made from the checks' message templates
   (`sqlrank/shell_door.py`: reading TREC files, mapping columns, checking
   inputs and parameters);
   then `sql/10_*.sql` .. `sql/49_*.sql`: the one ranking pass and the ranking
   struct every measure reads;
2. `sql/measures/*.sql`: one scalar macro per measure, `sqlrank.measure_<name>`; `sql/lists/*.sql`: one
   table macro per list measure (beyond accuracy), `sqlrank.list_<name>` (sqlrank/lists.py);
3. the macros made from the registry (`registry_sql()`): the DuckDB shell's
   table macro of each measure and `sqlrank.measure_aggregate`;
4. `sql/50_*.sql` .. `sql/99_*.sql`: what reads results (the `all` rows, ...).
"""

from __future__ import annotations

import hashlib
import os
import threading
import weakref
from functools import cache
from pathlib import Path

import duckdb

from . import defined, library_file, lists, shell_door, sqlgen
from .checks import messages
from .checks.empty_truth import EMPTY_POLICIES
from .registry import PARAMETERS, REGISTRY

_PACKAGE = Path(__file__).resolve().parent


def sql_dir() -> Path:
    """The folder holding the macro files (installed wheel first, then source tree)."""
    for candidate in (_PACKAGE / "sql", _PACKAGE.parent / "sql"):
        if any(candidate.glob("*.sql")):
            return candidate
    raise FileNotFoundError("sqlrank: the SQL macro files are missing from the installation")


# Shared files only some evaluations call, by the group an evaluation asks for: a database made without the measure
# files (connect(table_macros=False), the process's) installs a group when an evaluation first needs it (install_parts),
# which halves that database's install (docs/performance.md, "Everyday sizes, round five"). A folder name takes its files.
PARTS_ON_DEMAND = {
    "subtopics": ("23_subtopics.sql",),
    "judges": ("23_subtopics.sql", "24_judges.sql"),  # a file of two groups is installed once
    "preferences": ("23_subtopics.sql", "24_prefs.sql", "25_prefs_parts.sql"),
    "lists": ("45_lists.sql", "lists"),
    "comparison": ("60_paired_differences.sql", "61_randomization.sql", "62_bootstrap.sql", "63_tukey_hsd.sql"),
    "fusion": ("70_fusion.sql",),
}


@cache
def part_files(group: str) -> tuple[Path, ...]:
    """The files of one group of PARTS_ON_DEMAND, in load order (looked up once a process, not once an evaluation)."""
    folder = sql_dir()
    return tuple(path for name in PARTS_ON_DEMAND[group]
                 for path in (sorted((folder / name).glob("*.sql")) if (folder / name).is_dir() else [folder / name]))


def sql_files() -> list[Path]:
    """The library's files in load order, without the registry's part (which comes before the files from 50_ on)."""
    folder = sql_dir()
    return (sorted(p for p in folder.glob("*.sql") if p.name < "50")
            + sorted((folder / "measures").glob("*.sql"))
            + sorted((folder / "lists").glob("*.sql"))
            + sorted(p for p in folder.glob("*.sql") if p.name >= "50"))


@cache
def sql_script(table_macros: bool = True, measure_macros: bool = True) -> str:
    """The whole macro library as one script, ready for the DuckDB shell's `.read`.

    table_macros=False leaves out the shell's table macro of each measure (registry_sql), which
    evaluate() never calls and which take half the time of installing the library.
    measure_macros=False leaves out the measure files too (and so the table macros, which call them) and the
    shared files of PARTS_ON_DEMAND: evaluate() installs the ones it asks for (install_measures, install_parts).
    """
    def part(title: str, text: str) -> str:
        return f"-- ===== {title} =====\n{text.strip()}\n"

    on_demand = set() if measure_macros else {path for group in PARTS_ON_DEMAND for path in part_files(group)}
    files = [path for path in sql_files()
             if measure_macros or (path.parent.name != "measures" and path not in on_demand)]
    table_macros = table_macros and measure_macros
    results = [path for path in files if path.parent == sql_dir() and path.name >= "50"]
    parts = [part(path.relative_to(sql_dir()).as_posix(), path.read_text(encoding="utf-8"))
             for path in files if path not in results]
    vocabulary = sum(1 for path in files if path.parent == sql_dir() and path.name < "10")
    parts.insert(vocabulary, part("the shell door, made from the checks' messages (sqlrank/shell_door.py)",
                                  shell_door.shell_sql()))
    parts.append(part("made from the measure registry (sqlrank/registry.py)", registry_sql(table_macros)))
    if table_macros:
        parts.append(part("the list measures' table macros (sqlrank/lists.py)", lists.shell_sql()))
    parts.append(part("the measures users define (sqlrank/defined.py)", defined.library_sql()))
    parts += [part(path.name, path.read_text(encoding="utf-8")) for path in results]
    return "\n".join(parts)


# the options every shell table macro takes after the measure's own parameters: how the run is read and ordered,
# how the inputs' columns are named, and whether the inputs are checked (sql/20_rankings.sql)
RUN_OPTIONS = (("depth", None), ("missing", "zero"), ("score_precision", "double"), ("judged_only", False),
                ("ties", "trec"), ("qrels_columns", None), ("run_columns", None), ("validate", True))


# A table macro's first FROM item, one row: DuckDB binds a table macro's body when the macro is created unless it
# meets a parameter whose type it needs first, so a subquery reading one (ties, untyped until the call) puts off
# binding the long ranking pass to the first call, so that connect() does not bind what a session may never call
# (docs/performance.md, "Everyday sizes, round three"). A broken body is found by its first call instead (tests/test_install.py).
BOUND_AT_FIRST_CALL = "(SELECT ties AS ties_policy) AS bound_at_first_call"
# the tie groups' branch is bound only under ties := 'average' (query_table of a constant binds the one CTE it
# names): the other policies' calls do not pay for binding it; the ranked branch always runs, as it checks the inputs
_TIED_BRANCH = "CASE WHEN ties = 'average' THEN 'sqlrank_average_values' ELSE 'sqlrank_ranked_values' END"


def parameter_check(name: str, measure: str) -> str:
    """SQL that is true when parameter `name` of a table macro is good, as registry.PARAMETERS declares it,
    and an error otherwise (shell_door.py); a constant, which DuckDB folds before reading any row."""
    parameter = PARAMETERS[name]
    if isinstance(parameter.default, tuple):  # a list of numbers (levels): each one finite
        message = sqlgen.literal(f"sqlrank: {measure}: {name} must be a list of finite numbers")
        return (f"(coalesce(list_bool_and(list_transform(CAST({name} AS DOUBLE[]), lambda v: isfinite(v))), false) "
                f"OR error({message}))")
    if parameter.choices:
        choice = sqlgen.call("sqlrank.choice", name, sqlgen.literal(list(parameter.choices)),
                             sqlgen.literal(name)) + " IS NOT NULL"
        # a gain map ('{1:3,2:9}', trec_eval's ndcg.1=3,2=9) is checked as the parser checks it (shell_door.py)
        gain_map = sqlgen.call("sqlrank.gain_map_ok", name, sqlgen.literal(measure))
        return f"(CASE WHEN starts_with({name}, '{{') THEN {gain_map} ELSE {choice} END)" if name == "gain" else choice
    return sqlgen.call("sqlrank.number_ok", name, sqlgen.literal(name), sqlgen.literal(measure),
                       sqlgen.literal(parameter.minimum_exclusive), sqlgen.literal(parameter.default is None),
                       *(sqlgen.literal(bound) for bound in parameter.within or (None, None)))


def parameter_argument(name: str) -> str:
    """A parameter as the measure macro reads it: a number parameter as a DOUBLE (text such as 'two' would
    otherwise stop the binder before parameter_check could name it)."""
    if isinstance(PARAMETERS[name].default, tuple):
        return f"CAST({name} AS DOUBLE[])"
    return name if PARAMETERS[name].choices else f"TRY_CAST({name} AS DOUBLE)"


def registry_sql(table_macros: bool = True) -> str:
    """The macros made from the registry's declarations, so that no SQL file repeats them.

    * `sqlrank.<macro>(qrels_table, run_table, [k,] <parameters>, depth, missing, score_precision, judged_only,
      ties, qrels_columns, run_columns, validate)`: each measure's table macro for the DuckDB shell, one row
      per query, its parameters checked as the Python door checks them; ties := 'average' reads the
      tie groups (sqlrank.tied_run_rankings) and calls the measure's expectation, or stops with an error
      naming a measure that has none (the registry's ties_average); the branch of the other policies
      is empty then, and the other way round, each filtered by a constant;
    * a diversity measure's table macro takes subtopic qrels as its first table (sqlrank.subtopic_run_rankings);
    * `sqlrank.measure_aggregate(measure)`: how the `all` row summarises a measure named in a
      result table ('mean' or 'sum'), by any of its spellings.
    """
    statements = []
    for definition in REGISTRY.values() if table_macros else ():
        options = ([("k", None)] if definition.cutoff else []) + [
            (name, definition.default(name)) for name in definition.params] + list(RUN_OPTIONS)
        signature = ", ".join(["qrels_table", "run_table"] + [f"{name} := {sqlgen.literal(value)}"
                                                             for name, value in options])
        name = f"sqlrank.{definition.macro}"
        cutoff = sqlgen.call("sqlrank.valid_cutoff", "k", sqlgen.literal(name)) if definition.cutoff else "NULL"
        value = sqlgen.call(f"sqlrank.measure_{definition.macro}", "ranking", cutoff,
                            *(parameter_argument(parameter) for parameter in definition.params))
        checks = " AND ".join([f"(k IS NULL OR {cutoff} IS NOT NULL)"] * definition.cutoff
                              + [parameter_check(parameter, name) for parameter in definition.params]) or "true"
        # a measure that tells negative labels from unjudged documents has them kept by the pass
        negative = ["negative_labels := true"] if "negative_labels" in definition.needs else []
        rankings = sqlgen.call("sqlrank.run_rankings", "qrels_table", "run_table", "depth := depth",
                               "missing := missing", "score_precision := score_precision",
                               "judged_only := judged_only", "ties := ties", "qrels_columns := qrels_columns",
                               "run_columns := run_columns", "validate := validate", *negative)
        tied = sqlgen.call("sqlrank.tied_run_rankings", "qrels_table", "run_table", "missing := missing",
                           "score_precision := score_precision", "ties := ties", "qrels_columns := qrels_columns",
                           "run_columns := run_columns", "depth := depth", "judged_only := judged_only", *negative)
        if "judges" in definition.needs:  # the multi-judge measures: qrels_table names multi-judge qrels
            statements.append(_subtopic_macro(definition, signature, value, checks, "sqlrank.judge_run_rankings",
                                              "the multi-judge measures", "the multi-judge qrels need the columns "
                                              "query_id, judge_id, doc_id, relevance"))
            continue
        if "subtopics" in definition.needs:  # the diversity measures: qrels_table names subtopic qrels
            statements.append(_subtopic_macro(definition, signature, value, checks))
            continue
        if "preferences" in definition.needs:  # the preference measures: qrels_table names preferences
            statements.append(_subtopic_macro(definition, signature, value, checks, "sqlrank.prefs_run_rankings",
                                              "the preference measures", "the preferences need the columns "
                                              "query_id, jg, jsg, doc_id, rel_level"))
            continue
        # a weighted mean's weights go beside the values, for sqlrank.summary's `all` row (sql/90_summary.sql)
        weight = "" if definition.aggregate != "weighted" else ", " + sqlgen.call(
            f"sqlrank.weight_{definition.macro}", "ranking", cutoff,
            *(parameter_argument(parameter) for parameter in definition.params)) + " AS weight"
        top_label = ", ranking.labels[1] AS sqlrank_top_label"  # labels highest first: the empty policy's
        statements.append(
            f"CREATE OR REPLACE MACRO sqlrank.{definition.macro}({signature}, empty := 'zero') AS TABLE\n"
            f"    WITH sqlrank_ranked_values AS (\n"
            f"    SELECT COLUMNS('^((?i:run_id)|query_id)$'), {value} AS value{weight}{top_label}\n"
            f"    FROM {BOUND_AT_FIRST_CALL}, {rankings}\n"
            f"    WHERE {checks}),\n"
            f"    sqlrank_average_values AS (\n"
            f"    SELECT * FROM sqlrank_ranked_values\n"
            f"    UNION ALL BY NAME\n"
            f"    SELECT COLUMNS('^((?i:run_id)|query_id)$'), {_average_value(definition, cutoff)} AS value{weight}"
            f"{top_label}\n"
            f"    FROM {tied}\n"
            f"    WHERE {checks}\n"
            f"      AND (depth IS NULL OR {_average_depth(definition)})\n"
            f"      AND (depth IS NULL OR NOT judged_only\n"
            f"           OR error('sqlrank: ties := ''average'' does not take judged_only with a depth yet'))),\n"
            f"    sqlrank_values AS (\n"
            f"    SELECT * FROM query_table({_TIED_BRANCH}))\n"
            f"{_empty_policy(definition)};")
    by_aggregate: dict[str, list[str]] = {}
    for definition in REGISTRY.values():
        spellings = {definition.name, *definition.aliases, definition.trec_name, definition.trec_family} - {None}
        by_aggregate.setdefault(definition.aggregate, []).extend(sorted(s.lower() for s in spellings))
    # the measure's base name: what comes before its parameters, its @k or trec_eval's _k / .k
    base_name = r"lower(regexp_extract(measure, '^([A-Za-z_]+?)(_[0-9].*|[(@.].*)?$', 1))"
    cases = " ".join(f"WHEN {base_name} IN ({', '.join(sqlgen.literal(s) for s in names)}) THEN '{aggregate}'"
                     for aggregate, names in by_aggregate.items() if aggregate != "mean")
    statements.append(f"CREATE OR REPLACE MACRO sqlrank.measure_aggregate(measure) AS\n"
                      f"    CASE {cases} ELSE 'mean' END;")
    return "\n\n".join(statements) + "\n"


def _subtopic_macro(definition, signature: str, value: str, checks: str,
                    rankings_macro: str = "sqlrank.subtopic_run_rankings", family: str = "the diversity measures",
                    columns: str = "the subtopic qrels need the columns query_id, subtopic_id, doc_id, relevance") -> str:
    """A diversity measure's table macro: its first table holds subtopic qrels (sqlrank.subtopic_run_rankings);
    the options it cannot take yet (ties := 'average', judged_only, qrels_columns) refused by name, by a branch
    that is one row of the error when one is given (as sqlrank.run_rankings stops on a problem). The multi-judge
    measures' is the same with multi-judge qrels (sqlrank.judge_run_rankings), the preference measures' with
    preferences (sqlrank.prefs_run_rankings)."""
    refused = [("ties = 'average'", f"ties := 'average' is not defined yet for {family}; use another "
                                    "ties policy"),
               ("judged_only", f"judged_only is not taken yet by {family} in the shell; leave it out"),
               ("qrels_columns IS NOT NULL", f"{columns} (qrels_columns is not taken yet); rename them in a view")]
    message = "CASE " + " ".join(f"WHEN {condition} THEN {sqlgen.literal(f'sqlrank: {definition.name}: {reason}')}"
                                 for condition, reason in refused) + " END"
    rankings = sqlgen.call(rankings_macro, "qrels_table", "run_table", "depth := depth",
                           "missing := missing", "score_precision := score_precision", "ties := ties",
                           "run_columns := run_columns")
    return (f"CREATE OR REPLACE MACRO sqlrank.{definition.macro}({signature}) AS TABLE\n"
            f"    SELECT COLUMNS('^((?i:run_id)|query_id)$'), {value} AS value\n"
            f"    FROM {BOUND_AT_FIRST_CALL}, {rankings}\n"
            f"    WHERE {checks}\n"
            f"    UNION ALL BY NAME\n"
            f"    SELECT error({message}) AS query_id\n"
            f"    WHERE {' OR '.join(condition for condition, _ in refused)};")


def _empty_policy(definition) -> str:
    """A table macro's rows under `empty` (checks/empty_truth.py): the queries without a label >= rel (the
    measure's rel, else 1) scored 0 ('zero'), 1 ('one'), left out ('skip') or refused ('error'), as in Python;
    the counts the refusal names are windows over the values, which are read once."""
    level = f"coalesce({parameter_argument('rel')}, 1)" if "rel" in definition.params else "1"
    choice = sqlgen.call("sqlrank.choice", "empty", sqlgen.literal(list(EMPTY_POLICIES)), sqlgen.literal("empty"))
    one = "true"
    if definition.aggregate != "mean":
        one = "(empty <> 'one' OR error(" + sqlgen.literal("sqlrank: " + messages.EMPTY_ONE_REFUSED.format(
            assign=" := ", measures=definition.name, fix="choose empty := 'zero' or 'skip'")) + "))"
    empty = "FILTER (WHERE NOT sqlrank_relevant) OVER ()"
    shown = (f"array_to_string(list_sort(list_distinct(list(query_id) {empty}))[1:3], ', ') "
             f"|| CASE WHEN count(DISTINCT query_id) {empty} > 3 THEN ', ...' ELSE '' END")
    which = sqlgen.template(messages.EMPTY_QUERIES, input="qrels_table", count="empties", queries="queries",
                            level=f"regexp_replace(CAST({level} AS VARCHAR), '\\.0$', '')", shown="shown")
    refused = "error('sqlrank: ' || " + sqlgen.template(messages.EMPTY_REFUSED, which=which, assign="' := '",
                                                         fix=sqlgen.literal(messages.EMPTY_FIX_SHELL)) + ")"
    return (f"    SELECT * EXCLUDE (sqlrank_top_label, sqlrank_relevant, empties, queries, shown)\n"
            f"           REPLACE (CASE WHEN empty = 'one' AND NOT sqlrank_relevant THEN 1.0 ELSE value END AS value)\n"
            f"    FROM (SELECT *, count(DISTINCT query_id) {empty} AS empties,\n"
            f"                 count(DISTINCT query_id) OVER () AS queries, {shown} AS shown\n"
            f"          FROM (SELECT *, coalesce(sqlrank_top_label >= {level}, false) AS sqlrank_relevant\n"
            f"                FROM sqlrank_values))\n"
            f"    WHERE {choice} IS NOT NULL AND {one}\n"
            f"      AND (empty <> 'error' OR empties = 0 OR {refused})\n"
            f"      AND (empty <> 'skip' OR sqlrank_relevant)")


def _average_value(definition, cutoff: str) -> str:
    """The measure under ties := 'average': its expectation, its own macro, or an error naming it."""
    if definition.ties_average is None:
        supported = ", ".join(m.name for m in REGISTRY.values() if m.ties_average)
        message = (f"sqlrank: ties := 'average' is not defined yet for {definition.name}; use it with {supported}, "
                   "or another ties policy")
        return sqlgen.call("error", sqlgen.literal(message))
    prefix = "average" if definition.ties_average == "average" else "measure"
    return sqlgen.call(f"sqlrank.{prefix}_{definition.macro}", "ranking", cutoff,
                       *(parameter_argument(parameter) for parameter in definition.params))


def _average_depth(definition) -> str:
    """Whether ties := 'average' takes the depth for this measure: true, or an error naming it (and the values)."""
    message = (f"sqlrank: ties := 'average' with a depth is not defined yet for {definition.name}; leave depth out, "
               "or use another ties policy")
    if not definition.ties_average_depth:
        return sqlgen.call("error", sqlgen.literal(message))
    refused = [f"{parameter_argument(name)} = {sqlgen.literal(value)}" for name, value in definition.ties_average_depth_unless]
    if not refused:
        return "true"
    return f"(NOT ({' OR '.join(refused)}) OR {sqlgen.call('error', sqlgen.literal(message))})"


@cache
def _fingerprint() -> str:
    return hashlib.sha256(sql_script(True, True).encode()).hexdigest()[:16]


# a macro whose text names the library installed, so that a second install can be skipped
_MARKER = "installed_library"
# The connections connect() made, each with whether it holds the shell's table macros: the library went
# in as they opened, committed (no transaction of the caller's could roll it back), so neither install()
# nor ready_to_evaluate() need look for it in the catalog, a look through every function DuckDB has.
_MADE_BY_CONNECT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def install(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """Install the macros into `con`, unless this very library is installed there already.

    Installing parses the whole library, which a caller evaluating run after run
    on one connection (evaluate(connection=...)) would pay every time. A marker macro
    holds a fingerprint of the library's SQL: the same fingerprint means
    nothing to do, another (or none) means (re-)install, every statement being
    CREATE OR REPLACE. The marker is read from DuckDB's catalog, not called:
    a failed call would abort a transaction the caller has open. A connection
    made by connect() has the library already.
    """
    if _MADE_BY_CONNECT.get(con):
        return con
    definitions = con.execute(
        "SELECT macro_definition FROM duckdb_functions() WHERE schema_name = 'sqlrank' AND function_name = ?",
        [_MARKER],
    ).fetchall()
    if any(_fingerprint() in str(definition) for (definition,) in definitions):
        return con
    _install_library(con)
    return con


def ready_to_evaluate(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """`con` with every macro evaluate() calls: as connect() made it, or install()ed."""
    return con if con in _MADE_BY_CONNECT else install(con)


def _install_library(con: duckdb.DuckDBPyConnection, table_macros: bool = True, empty: bool = False) -> bool:
    """Install the library into con; whether every measure file and shared file is there (False: a database for
    evaluations installed from SQL, which gets them as evaluations ask, install_measures and install_parts).

    empty: con's database holds nothing yet, so the library may be copied from its file (library_file) instead: a
    fifth of the time, so a copy brings every measure file and shared file along rather than none (only the shell's
    table macros stay out under table_macros=False: they are a third of the copy, and evaluations never call them).
    """
    if empty and library_file.copy_into(con, library_sql(table_macros, measure_macros=True)):
        return True
    con.execute(library_sql(table_macros, measure_macros=table_macros))
    return table_macros


def library_sql(table_macros: bool, measure_macros: bool) -> str:
    """What installing the library runs: sql_script, and for the whole library its marker."""
    script = sql_script(table_macros, measure_macros)
    if table_macros and measure_macros:  # the marker names the whole library only
        script += f"\nCREATE OR REPLACE MACRO sqlrank.{_MARKER}() AS '{_fingerprint()}';\n"
    return script


def connect(
    database: str = ":memory:",
    *,
    threads: int | None = None,
    memory_limit: str | None = None,
    temp_directory: str | None = None,
    progress_bar: bool = False,
    autoload_extensions: bool = True,
    table_macros: bool = True,
) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with the sqlrank macros installed and the resource settings applied.

    progress_bar: whether DuckDB draws its bar for a statement that runs past two seconds; off
    unless asked for (a library prints nothing it was not asked for: DuckDB's bar goes to stdout,
    into the output redirected there).
    autoload_extensions: False turns off DuckDB's installing (from the network) and loading of
    an extension a statement needs (httpfs for an https:// table name); sqlrank itself needs none.
    table_macros: False leaves out the DuckDB shell's table macro of each measure
    (`sqlrank.ndcg(qrels, run, k := 10)`), half the library's install time: a connection made to be
    passed to evaluate() needs none of them. Where the library is installed from its SQL rather than copied from
    its file (library_file: a database other than ":memory:", or SQLRANK_CACHE_DIR=off), its measure macros
    (`sqlrank.measure_ndcg`, ...) and the shared files only some evaluations call (PARTS_ON_DEMAND: fusion, the
    comparison's tests, the list, diversity, multi-judge and preference parts) are installed as evaluate() asks for
    them, each once (install_measures, install_parts): for SQL of your own over the library, take connect() with
    the default.
    """
    config: dict[str, str] = {}
    if threads is not None:
        from .limits import MAX_THREADS, whole_number

        config["threads"] = str(whole_number("threads", threads, 1, MAX_THREADS))
    if memory_limit is not None:
        from .limits import memory_size

        config["memory_limit"] = memory_size(memory_limit)
    if not autoload_extensions:
        config.update(autoinstall_known_extensions="false", autoload_known_extensions="false")
    if temp_directory is not None:
        _check_temp_directory(str(temp_directory))
        config["temp_directory"] = str(temp_directory)
    try:
        con = duckdb.connect(database, config=config)
    except duckdb.Error as error:
        from .errors import SqlrankError

        raise SqlrankError(f"cannot open DuckDB with {config or 'default settings'}: {error}") from None
    # a session setting (DuckDB refuses it in the connect-time config); cursor() copies it
    con.execute(sqlgen.set_option("enable_progress_bar", bool(progress_bar)))
    # opened here, most often in memory and so empty: installing outright costs less than looking first
    if not _install_library(con, table_macros, empty=database == ":memory:"):
        _MEASURES_ON_DEMAND[con] = _MeasureMacros()
    _MADE_BY_CONNECT[con] = table_macros
    return con


class _MeasureMacros:
    """The measure macros a database made without them holds so far, and the lock its connections install under."""

    def __init__(self) -> None:
        self.installed: set[str] = set()
        self.parts: set[Path] = set()  # the files of PARTS_ON_DEMAND installed so far
        self.lock = threading.Lock()


# connection -> the _MeasureMacros of its database, for the databases made by connect(table_macros=False)
# (every cursor of the process's database shares one)
_MEASURES_ON_DEMAND: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


_NEEDS = {definition.macro: definition.needs for definition in REGISTRY.values()}  # by measure file


def install_measures(con: duckdb.DuckDBPyConnection, names) -> None:
    """The measure files `names` (registry macro names, `ndcg`) installed into con's database, each once.

    Only a database made without them (connect(table_macros=False): the process's database and
    `sqlrank eval`'s) lacks them: the measure files are a third of the library's install time, and an
    evaluation calls a few of them (docs/performance.md, "Everyday sizes, round two"). A measure file
    calls only the shared parts, never another measure's macro, so each can come alone.
    """
    held = _MEASURES_ON_DEMAND.get(con)
    if held is None:  # the whole library is there
        return
    install_parts(con, {need for name in names for need in _NEEDS[name] if need in PARTS_ON_DEMAND})
    with held.lock:  # the connections of one database, in threads, install each file once
        for name in sorted(set(names) - held.installed):
            con.execute(measure_file_sql(name))
            held.installed.add(name)


def install_parts(con: duckdb.DuckDBPyConnection, groups) -> None:
    """The groups of shared files `groups` (PARTS_ON_DEMAND's keys) installed into con's database, each once; nothing
    to do where the whole library is."""
    held = _MEASURES_ON_DEMAND.get(con)
    if held is None:
        return
    asked = set(groups)
    wanted = [path for group in PARTS_ON_DEMAND if group in asked for path in part_files(group)]
    with held.lock:
        for path in dict.fromkeys(wanted):
            if path not in held.parts:
                con.execute(path.read_text(encoding="utf-8"))
                held.parts.add(path)


def measure_file_sql(name: str) -> str:
    """The text of the measure file `sql/measures/<name>.sql`."""
    return (sql_dir() / "measures" / f"{name}.sql").read_text(encoding="utf-8")


# This process's in-memory database holding the library, made on first use: each evaluation that is handed
# no connection gets a connection of its own to it (cursor()), so the library is installed once per process.
_process_database: duckdb.DuckDBPyConnection | None = None
_PROCESS_DATABASE_LOCK = threading.Lock()


def library_connection() -> duckdb.DuckDBPyConnection:
    """A new connection to this process's database with the macros installed; close it when done.

    The connections share the catalog (the macros) and nothing else a call makes: temporary tables,
    registered frames, variables and session settings belong to one connection each, so calls, in
    turn or in threads, cannot see each other's inputs.
    """
    global _process_database
    with _PROCESS_DATABASE_LOCK:
        if _process_database is None:
            _process_database = connect(table_macros=False)
        cursor = _process_database.cursor()
        if _process_database in _MEASURES_ON_DEMAND:  # installed from SQL: its cursors install measures as asked
            _MEASURES_ON_DEMAND[cursor] = _MEASURES_ON_DEMAND[_process_database]
        return cursor


def evaluation_connection(threads: int | None = None, memory_limit: str | None = None,
                          temp_directory: str | None = None) -> duckdb.DuckDBPyConnection:
    """A connection for one evaluation: this process's database (library_connection), or, with a setting
    DuckDB holds for a whole database (threads, memory limit, temp directory), a database of its own."""
    if (threads, memory_limit, temp_directory) == (None, None, None):
        return library_connection()
    return connect(threads=threads, memory_limit=memory_limit, temp_directory=temp_directory, table_macros=False)


def _forget_process_database() -> None:
    """A forked child makes its own database: the parent's DuckDB threads and locks do not come along (nor is
    the parent's closed there, which would wait for those threads)."""
    global _process_database
    _FORKED_AWAY.append(_process_database)
    _process_database = None


_FORKED_AWAY: list = []


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_process_database)


def _check_temp_directory(folder: str) -> None:
    """A temp directory DuckDB could not write its spill files in, named now rather than when memory runs out."""
    import tempfile

    if not Path(folder).is_dir():
        return  # DuckDB makes it when it first spills
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        from .errors import ResourceError

        raise ResourceError(f"{folder}: DuckDB cannot spill its temporary files here ({error.strerror or error}); "
                            "give --temp-directory (temp_directory=) a folder you can write to") from None
