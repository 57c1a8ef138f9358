"""The DuckDB shell's door: reading TREC files, mapping columns, and checking inputs and parameters in SQL.

A shell user has no Python in front of the macros, so the macros themselves
hold the checks the Python door makes (sqlrank.checks, sqlrank.measures), with
the same wording: every message here is a template of sqlrank.checks.messages,
turned into SQL by sqlgen.template(). The SQL is generated (shell_sql()) and
loaded before sql/10_ranked.sql, so that sqlrank.run_rankings and the measures'
table macros can call it:

* sqlrank.read_trec_run(path), sqlrank.read_trec_qrels(path): TREC text (any
  whitespace, `#` comments, blank lines, .gz) as the canonical columns;
* sqlrank.run_input_sql / qrels_input_sql(name, columns): the SQL that reads an
  input named by a macro's argument (run with query()): a TREC file by its path,
  anything else (a table, a view, a CTE, a CSV or Parquet path) with
  query_table, its columns renamed by `columns` (a struct such as
  {'query_id': 'qid'}); run_columns_sql / qrels_columns_sql, a one-row probe
  of the columns it lacks;
* sqlrank.run_problem / sqlrank.qrels_problem(input, name, columns): one row,
  the first thing wrong with a canonical input (a missing column, an empty id
  or value, a NaN value, duplicate pairs) or NULL;
* sqlrank.number_ok, valid_cutoff, valid_depth: true or a parameter's value,
  or an error; the measures' table macros check each parameter as
  registry.PARAMETERS declares it (sqlrank/macros.py), whether the measure
  reads it or not (nDCG's base under the log2 discount).
"""

from __future__ import annotations

from . import sqlgen
from .checks import messages
from .limits import MAX_TRIALS, SEEDS
from .measures import MAX_CUTOFF
from .readers import shapes
from .readers.tables import INTEGER_TYPES

# the types of a list column's items taken as ids (readers/tables.py's _ID_TYPES)
_LISTED_ID_TYPES = INTEGER_TYPES | {"VARCHAR", "UUID", "ENUM", '"NULL"', "NULL"}

# (kind, the canonical value column, the macro option that maps the input's columns)
KINDS = (("run", "score", "run_columns"), ("qrels", "relevance", "qrels_columns"))
# names the shell reads as TREC files rather than with query_table (which knows CSV, Parquet, JSON)
TREC_PATH = r"\.(run|trec|txt|qrels|res|test|treceval)(\.gz)?$"
TREC_NAMING = r"\.[A-Za-z_]*[0-9][A-Za-z0-9_]*$"  # qrels.robust03, input.uic0301: TREC's track and run names
DUCKDB_PATH = r"\.(csv|tsv|parquet|json|jsonl|ndjson|arrow|feather)(\.gz|\.zst)?$"
_BLANKS = r"[ \t\n\r\x0b\x0c\x{feff}]"


def _text(expression: str) -> str:
    """An SQL value as message text: NULL shown as NULL."""
    return f"coalesce(CAST({expression} AS VARCHAR), 'NULL')"


def _error(template: str, **parts: str) -> str:
    return f"error('sqlrank: ' || {sqlgen.template(template, **parts)})"


# a gain map's entries ('1:3'), their labels (as text, trimmed) and their gains (the text after the first ':')
_ENTRIES = "string_split(trim(gain)[2:-2], ',')"
_bad_entries = (f"list_filter({_ENTRIES}, lambda e: NOT contains(e, ':') "
                "OR NOT regexp_full_match(split_part(e, ':', 1), '\\s*[0-9]+\\s*') "
                "OR coalesce(TRY_CAST(trim(split_part(e, ':', 1)) AS HUGEINT) < 0, true))")
_labels = f"list_transform({_ENTRIES}, lambda e: CAST(CAST(trim(split_part(e, ':', 1)) AS HUGEINT) AS VARCHAR))"
_twice = f"list_filter({_labels}, lambda label, i: list_position({_labels}, label) < i)"
_gains = f"list_transform({_ENTRIES}, lambda e: trim(e[strpos(e, ':') + 1:]))"


def _not_whole(name: str) -> str:
    """SQL true when the parameter `name` is not a finite whole number (NULL, text, 1.5, inf)."""
    number = f"TRY_CAST({name} AS DOUBLE)"
    return f"({number} IS NULL OR NOT isfinite({number}) OR {number} <> floor({number}))"


def parameter_sql() -> str:
    """sqlrank.number_ok, valid_cutoff, gain_map_ok and valid_depth: the measures' parameter checks (measures.py's)."""
    said = {"measure": "measure", "parameter": "parameter", "value": _text("value")}
    number = "TRY_CAST(value AS DOUBLE)"
    whole = f"{number} IS NULL OR NOT isfinite({number}) OR {number} <> floor({number}) OR {number} < 1"
    return f"""
-- true for a good number parameter of a measure (registry.PARAMETERS): finite, above its minimum, from low
-- to high (NULL: no bound); NULL only where its default is NULL (nullable). Anything else is an error
CREATE OR REPLACE MACRO sqlrank.number_ok(value, parameter, measure, minimum_exclusive, nullable, low, high) AS
    CASE
        WHEN value IS NULL AND nullable THEN true
        WHEN {number} IS NULL THEN {_error(messages.NOT_A_NUMBER, **said)}
        WHEN NOT isfinite({number}) THEN {_error(messages.NOT_FINITE, **said)}
        WHEN {number} <= minimum_exclusive THEN {_error(messages.NOT_GREATER, **said, minimum="minimum_exclusive")}
        WHEN {number} < low OR {number} > high THEN {_error(messages.NOT_WITHIN, **said, low="low", high="high")}
        ELSE true
    END;

-- a cutoff k: NULL (the whole list) or a whole number from 1 to {MAX_CUTOFF}, as a BIGINT (1.5 is refused, not
-- bound as a DECIMAL)
CREATE OR REPLACE MACRO sqlrank.valid_cutoff(value, measure) AS
    CASE
        WHEN value IS NULL THEN CAST(NULL AS BIGINT)
        WHEN {whole} THEN {_error(messages.BAD_CUTOFF, measure="measure", value=_text("value"))}
        WHEN {number} > {MAX_CUTOFF} THEN {_error(messages.CUTOFF_TOO_LARGE, measure="measure",
                                                  maximum=str(MAX_CUTOFF), value=_text("value"))}
        ELSE CAST(value AS BIGINT)
    END;

-- true for a gain map the parser would take (measures.gain_map): '{{label:gain,...}}', whole-number labels >= 0
-- each named once, finite gains; anything else is an error in the parser's words
CREATE OR REPLACE MACRO sqlrank.gain_map_ok(gain, measure) AS
    CASE
        WHEN NOT (starts_with(trim(gain), '{{') AND ends_with(trim(gain), '}}')) OR trim(trim(gain)[2:-2]) = ''
            THEN {_error(messages.GAIN_MAP_FORM, measure="measure", value=_text("gain"))}
        WHEN len({_bad_entries}) > 0
            THEN {_error(messages.GAIN_MAP_ENTRY, measure="measure", entry=f"trim(({_bad_entries})[1])")}
        WHEN len({_twice}) > 0
            THEN {_error(messages.GAIN_MAP_TWICE, measure="measure", label=f"({_twice})[1]")}
        WHEN len(list_filter({_gains}, lambda g: TRY_CAST(g AS DOUBLE) IS NULL)) > 0
            THEN {_error(messages.NOT_A_NUMBER, measure="measure", parameter="'gain'",
                         value="list_filter(" + _gains + ", lambda g: TRY_CAST(g AS DOUBLE) IS NULL)[1]")}
        WHEN len(list_filter({_gains}, lambda g: NOT isfinite(CAST(g AS DOUBLE)))) > 0
            THEN {_error(messages.NOT_FINITE, measure="measure", parameter="'gain'",
                         value="list_filter(" + _gains + ", lambda g: NOT isfinite(CAST(g AS DOUBLE)))[1]")}
        ELSE true
    END;

-- the resampling tests' trials, seed and confidence, checked as compare() checks them: `trials` as a BIGINT
-- when all three are good (the macros draw range(sqlrank.resampling_trials(...)), which DuckDB folds before
-- reading any row, so an empty input is refused too), else an error
CREATE OR REPLACE MACRO sqlrank.resampling_trials(trials, seed, confidence) AS
    CASE
        WHEN {_not_whole("trials")} OR CAST(trials AS DOUBLE) < 1
            THEN {_error(messages.WHOLE_NUMBER, name="'trials'", low="1", value=_text("trials"))}
        WHEN CAST(trials AS DOUBLE) > {MAX_TRIALS}
            THEN {_error(messages.AT_MOST, name="'trials'", high=str(MAX_TRIALS), value=_text("trials"))}
        WHEN {_not_whole("seed")} OR CAST(seed AS DOUBLE) < {SEEDS[0]} OR CAST(seed AS DOUBLE) > {SEEDS[1]}
            THEN {_error(messages.WHOLE_NUMBER, name="'seed'", low=str(SEEDS[0]), value=_text("seed"))}
        WHEN TRY_CAST(confidence AS DOUBLE) IS NULL OR NOT (CAST(confidence AS DOUBLE) > 0 AND CAST(confidence AS DOUBLE) < 1)
            THEN {_error(messages.CONFIDENCE, value=_text("confidence"))}
        ELSE CAST(trials AS BIGINT)
    END;

-- the ranking depth: NULL (all) or a whole number >= 1
CREATE OR REPLACE MACRO sqlrank.valid_depth(value) AS
    CASE
        WHEN value IS NULL THEN CAST(NULL AS BIGINT)
        WHEN {whole} THEN {_error(messages.BAD_DEPTH, value=_text("value"))}
        ELSE CAST(value AS BIGINT)
    END;
"""


def trec_sql() -> str:
    """sqlrank.read_trec_run(path) and read_trec_qrels(path): TREC text as the canonical columns."""
    fields = f"string_split_regex(regexp_replace(line, '^{_BLANKS}+|{_BLANKS}+$', '', 'g'), '{_BLANKS}+')"
    data_line = f"regexp_matches(line, '^{_BLANKS}*[^ \\t\\r\\x0b\\x0c\\x{{feff}}#]')"
    shown = "CASE WHEN length(line) > 80 THEN left(line, 77) || '...' ELSE line END"
    return f"""
-- the data lines of a TREC file (blank lines and `#` comments left out) and their fields, split on any
-- ASCII whitespace; a .gz name is read through gzip
CREATE OR REPLACE MACRO sqlrank.trec_lines(path) AS TABLE
    SELECT line, {fields} AS fields, {shown} AS shown
    FROM read_csv(path, columns = {{'line': 'VARCHAR'}}, header = false, delim = chr(31), quote = '', escape = '',
                  comment = '', new_line = '\\n', auto_detect = false, strict_mode = false, null_padding = true,
                  compression = 'auto')
    WHERE {data_line};

-- a TREC run (qid Q0 docno rank score tag) -> (query_id, doc_id, score, rank); a line that is not one is an error
CREATE OR REPLACE MACRO sqlrank.read_trec_run(path) AS TABLE
    SELECT
        fields[1] AS query_id,
        fields[3] AS doc_id,
        CASE
            WHEN len(fields) < 6 THEN {_error(messages.TREC_FIELDS, where="path", expected="6",
                                              example=sqlgen.literal(messages.TREC_RUN_EXAMPLE),
                                              count="len(fields)", line="shown",
                                              hint="CASE len(fields) WHEN 4 THEN "
                                                   + sqlgen.literal(messages.TREC_LOOKS_LIKE_QRELS)
                                                   + " WHEN 1 THEN " + sqlgen.literal(messages.TREC_NEEDS_HEADER)
                                                   + " WHEN 2 THEN " + sqlgen.literal(messages.TREC_NEEDS_HEADER)
                                                   + " WHEN 3 THEN " + sqlgen.literal(messages.TREC_NEEDS_HEADER)
                                                   + " ELSE '' END")}
            WHEN contains(fields[5], '_') OR TRY_CAST(fields[5] AS DOUBLE) IS NULL
                THEN {_error(messages.TREC_BAD_SCORE, where="path", found="left(fields[5], 30)", line="shown")}
            WHEN isnan(TRY_CAST(fields[5] AS DOUBLE)) THEN {_error(messages.TREC_NAN_SCORE, where="path",
                                                                  line="shown")}
            ELSE TRY_CAST(fields[5] AS DOUBLE)
        END AS score,
        -- the rank field, which only ties := 'input' reads (NULL when it is no number: that policy says so)
        CASE WHEN NOT contains(fields[4], '_') THEN TRY_CAST(fields[4] AS DOUBLE) END AS rank
    FROM sqlrank.trec_lines(path);

-- TREC qrels (qid iter docno relevance) -> (query_id, doc_id, relevance); labels read as trec_eval's atol
CREATE OR REPLACE MACRO sqlrank.read_trec_qrels(path) AS TABLE
    SELECT
        fields[1] AS query_id,
        fields[3] AS doc_id,
        CASE
            WHEN len(fields) <> 4 THEN {_error(messages.TREC_FIELDS, where="path", expected="4",
                                               example=sqlgen.literal(messages.TREC_QRELS_EXAMPLE),
                                               count="len(fields)", line="shown",
                                               hint="CASE WHEN len(fields) >= 6 THEN "
                                                    + sqlgen.literal(messages.TREC_LOOKS_LIKE_RUN)
                                                    + " WHEN len(fields) <= 3 THEN "
                                                    + sqlgen.literal(messages.TREC_NEEDS_HEADER) + " ELSE '' END")}
            WHEN TRY_CAST(regexp_extract(fields[4], '^[+-]?[0-9]+') AS DOUBLE) IS NULL
                THEN {_error(messages.TREC_BAD_LABEL, where="path", found="left(fields[4], 30)", line="shown")}
            ELSE TRY_CAST(regexp_extract(fields[4], '^[+-]?[0-9]+') AS DOUBLE)
        END AS relevance
    FROM sqlrank.trec_lines(path);
"""


def _name_of(canonical: str) -> str:
    """Inside the probe's SQL text: the input's column holding `canonical`, as an SQL literal."""
    return f"' || sqlrank.sql_literal(sqlrank.column_name(columns, '{canonical}')) || '"


def _quoted_name(canonical: str) -> str:
    """The input's column holding `canonical`, as a quoted identifier: a made column of that name goes after the
    input's own, which DuckDB renames (score_1) when the input has one, so the input's own is the one picked."""
    return f"'\"' || replace(sqlrank.column_name(columns, '{canonical}'), '\"', '\"\"') || '\"'"


def _score_from_rank(column: str) -> str:
    """Inside the SQL text: a run's rank column negated, its score when it has none (readers/shapes.py)."""
    return "-CAST(' || " + column.format(canonical="'rank'") + " || ' AS DOUBLE)"


def _is_list(column: str) -> str:
    """Inside the SQL text: whether the input's doc_id column is a list (typeof() folds to a constant)."""
    return "ends_with(typeof(' || " + column.format(canonical="'doc_id'") + " || '), '']'')"


def _rows(made: str = "") -> str:
    """The SQL text's FROM of a table input's rows, the all-NULL column sqlrank_absent added, and `made` columns."""
    rows = "(SELECT *, NULL AS sqlrank_absent FROM query_table(' || sqlrank.sql_literal(name) || '))"
    if made:
        rows = f"(SELECT *, {made} FROM {rows} AS sqlrank_input)"
    return f"' FROM {rows} AS sqlrank_row'"


# when the probe does not ask for the value column: a run of item lists is ranked by list position, a run with a
# rank column by its rank, truth of only the two id columns (and a timestamp) is relevance 1 for every item, as the
# Python door reads them (readers/shapes.py)
_VALUE_NOT_NEEDED = {
    "run": "(sqlrank_listed OR list_contains(found, " + _name_of("rank") + "))",
    "qrels": ("len(list_filter(found, lambda sqlrank_name: NOT list_contains([" + _name_of("query_id") + ", "
              + _name_of("doc_id") + "], sqlrank_name) AND NOT list_contains("
              + sqlgen.literal(list(shapes._NOT_LABELS)).replace("'", "''") + ", lower(sqlrank_name)))) = 0"),
}


def listed_sql() -> str:
    """sqlrank.listed_items(items, name, column_name): a doc_id value as the list of its items, as text."""
    element = "regexp_replace(typeof(items), '\\[[0-9]*\\]$', '')"
    base = f"split_part({element}, '(', 1)"
    fix = (f"CASE WHEN {base} IN ('FLOAT', 'DOUBLE', 'DECIMAL') THEN {sqlgen.literal(messages.ID_TYPE_FLOAT_FIX)} "
           f"ELSE {sqlgen.literal(messages.ID_TYPE_FIX)} END")
    refused = _error(messages.ID_TYPE, input="name", column="column_name", canonical="'doc_id'", type=element,
                     mixed="''", fix=fix)
    return f"""
-- a doc_id value as a list of text items: a list column's items in their order (each must be text or a whole
-- number, as the Python door's readers/tables.py asks), any other value a list of itself; DuckDB binds a macro
-- before it sees a column's type, so the type is read row by row with typeof(), which it folds to a constant
CREATE OR REPLACE MACRO sqlrank.listed_items(items, name, column_name) AS
    CASE
        WHEN NOT ends_with(typeof(items), ']') THEN [CAST(items AS VARCHAR)]
        WHEN NOT list_contains({sqlgen.literal(sorted(_LISTED_ID_TYPES))}, {base}) THEN {refused}
        ELSE CAST(CAST(to_json(items) AS JSON) AS VARCHAR[])
    END;
"""


def listed_table_sql(kind: str, value: str, column: str, run_id: str) -> str:
    """The SQL text reading a table input: its doc_id column unnested when it is a list, a missing value made.

    A run's list is ranked by its order (score = minus the place, as readers/shapes.py); truth has relevance 1.
    The made value is a column named as the value column, after the input's own: DuckDB renames a second
    column of one name (score_1), so the value column picked is the input's when it has one, in its own type.
    The probe ({kind}_columns_sql) refuses a missing value column the input's shape does not explain.
    """
    def pick(canonical, name):
        return column.format(canonical=sqlgen.literal(canonical)) + f" || ' AS {name}'"

    items = ("'sqlrank.listed_items(' || " + column.format(canonical="'doc_id'") + " || ', ' || "
             "sqlrank.sql_literal(name) || ', ' || sqlrank.sql_literal(sqlrank.column_name(columns, 'doc_id')) || ')'")
    made = ("CASE WHEN ends_with(typeof(sqlrank_listed), '']'') THEN -CAST(sqlrank_position AS DOUBLE) END"
            if kind == "run" else "1.0")
    value_name = _quoted_name(value)
    doc = column.format(canonical="'doc_id'")
    # *COLUMNS cannot stand in a WHERE clause: whether the id column is a list is a column of its own
    source = _rows(f"{_is_list(column)} AS sqlrank_is_list")
    listed = ("'SELECT *, unnest(sqlrank_items) AS sqlrank_item, unnest(range(1, len(sqlrank_items) + 1)) "
              "AS sqlrank_position FROM (SELECT *, ' || " + items + " || ' AS sqlrank_items, ' || "
              + doc + " || ' AS sqlrank_listed' || " + source + " || ' WHERE sqlrank_is_list)'")
    # an id column that is no list is read as it is, without a list a row: typeof() folds, so DuckDB runs
    # one of the two branches only
    # a run's own score when it has one (the made column is then renamed), else its rank negated
    scalar_made = _score_from_rank(column) if kind == "run" else "1.0"
    scalar = (f"'SELECT ' || {run_id}" + pick("query_id", "query_id") + " || ', CAST(' || " + doc
              + " || ' AS VARCHAR) AS doc_id, ' || " + pick(value, value) + f" || ' FROM (SELECT *, {scalar_made} AS ' "
              f"|| {value_name} || ' FROM (SELECT *' || {source} || ' WHERE NOT sqlrank_is_list) AS sqlrank_scalar) AS sqlrank_row'")
    listed = (f"'SELECT ' || {run_id}" + pick("query_id", "query_id") + " || ', sqlrank_item AS doc_id, ' || "
              + pick(value, value) + f" || ' FROM (SELECT *, {made} AS ' || {value_name} || ' FROM (' || {listed} "
              "|| ') AS sqlrank_items) AS sqlrank_row'")
    return f"{scalar} || ' UNION ALL BY NAME ' || {listed}"


def input_sql() -> str:
    """sqlrank.<kind>_input_sql and <kind>_columns_sql: the SQL text that reads a macro's input, and probes its columns."""
    # a column of the input by the user's name (or the canonical one), bound even when it is missing: the
    # input gets an all-NULL column sqlrank_absent, and coalesce() takes the named column when there is one
    column = ("'coalesce(*COLUMNS(lambda sqlrank_name: sqlrank_name = ' || sqlrank.sql_literal("
              "sqlrank.column_name(columns, {canonical})) || ' OR sqlrank_name = ''sqlrank_absent''))'")
    pick = column[:-1] + " AS {name}'"
    source = _rows()
    # the probe: 1 when the named column is missing (only sqlrank_absent matched)
    count = ("'len(list_value(*COLUMNS(lambda sqlrank_name: sqlrank_name = ' || sqlrank.sql_literal("
             "sqlrank.column_name(columns, {canonical})) || ' OR sqlrank_name = ''sqlrank_absent''))) = 1'")
    statements = ["""
-- text as an SQL string literal
CREATE OR REPLACE MACRO sqlrank.sql_literal(text) AS '''' || replace(text, '''', '''''') || '''';

-- the input's column holding `canonical`: as mapped by `columns` ({'query_id': 'qid', ...}), else its own name
CREATE OR REPLACE MACRO sqlrank.column_name(columns, canonical) AS
    coalesce(json_extract_string(to_json(columns), '$.' || canonical), canonical);

-- true for a column map (NULL, or a struct whose keys are canonical columns of the input); else an error
CREATE OR REPLACE MACRO sqlrank.column_map_ok(columns, option, allowed) AS
    CASE
        WHEN columns IS NULL THEN true
        WHEN NOT starts_with(typeof(columns), 'STRUCT') THEN """ + _error(
            messages.COLUMN_MAP_NOT_STRUCT, option="option",
            found="typeof(columns) || ' ' || " + _text("columns")) + """
        WHEN len(list_filter(json_keys(to_json(columns)), lambda k: NOT list_contains(allowed, k))) > 0 THEN """ + _error(
            messages.COLUMN_MAP_UNKNOWN, option="option",
            key="list_filter(json_keys(to_json(columns)), lambda k: NOT list_contains(allowed, k))[1]",
            expected="array_to_string(allowed, ', ')") + """
        ELSE true
    END;

-- whether a macro's input name is a TREC file (read by read_trec_*) rather than a table or a file DuckDB reads:
-- a TREC extension, a path, or TREC's own naming, an extension with a digit (qrels.robust03, input.uic0301,
-- qrels.trec8), which DuckDB has no reader for (a table in a schema, main.run, stays a table)
CREATE OR REPLACE MACRO sqlrank.trec_path(name) AS
    NOT regexp_matches(name, '""" + DUCKDB_PATH + """', 'i')
    AND (regexp_matches(name, '""" + TREC_PATH + """', 'i') OR contains(name, '/') OR contains(name, '\\')
         OR regexp_matches(name, '""" + TREC_NAMING + """'));
"""]
    statements.append(ordered_run_sql(pick, column))
    for kind, value, option in KINDS:
        allowed = ["query_id", "doc_id", value] + (["rank"] if kind == "run" else [])
        # a run keeps its run_id column, if any (sqlrank_absent stands in, so that the pattern always matches)
        run_id = "'COLUMNS(''^((?i:run_id)|sqlrank_absent)$''), ' || " if kind == "run" else ""
        absent = ", NULL AS sqlrank_absent" if kind == "run" else ""
        counts = " || ', ' || ".join(f"{count.format(canonical=sqlgen.literal(c))} || ' AS {c}'"
                                     for c in ("query_id", "doc_id", value))
        missing = " ".join(f"WHEN {c} THEN ''{c}''" for c in ("query_id", "doc_id"))
        missing += f" WHEN {value} AND NOT {_VALUE_NOT_NEEDED[kind]} THEN ''{value}''"
        listed = f"', {_is_list(column)} AS sqlrank_listed'"
        reader = f"'SELECT *{absent} FROM sqlrank.read_trec_{kind}(' || sqlrank.sql_literal(name) || ')'"
        table = listed_table_sql(kind, value, column, run_id)
        parameters = "name, columns"
        if kind == "run":  # the rank field is read under ties := 'input' only (sqlrank.ordered_run_sql)
            reader = "CASE WHEN ties = 'input' THEN sqlrank.ordered_run_sql(name, columns) ELSE " + \
                     reader.replace("SELECT *", "SELECT * EXCLUDE (rank)") + " END"
            table = "CASE WHEN ties = 'input' THEN sqlrank.ordered_run_sql(name, columns) ELSE " + table + " END"
            parameters = "name, columns, ties := 'trec'"
        statements.append(f"""
-- the SQL reading a {kind} named `name` as ([run_id,] query_id, doc_id, {value})
CREATE OR REPLACE MACRO sqlrank.{kind}_input_sql({parameters}) AS
    CASE WHEN sqlrank.trec_path(name) THEN {reader}
         ELSE {table} END;

-- the SQL of one row: the first canonical column the {kind} lacks (NULL: none) and the columns it has
CREATE OR REPLACE MACRO sqlrank.{kind}_columns_sql(name, columns) AS
    CASE WHEN NOT sqlrank.column_map_ok(columns, {sqlgen.literal(option)}, {sqlgen.literal(allowed)}) THEN NULL
         WHEN sqlrank.trec_path(name) THEN 'SELECT CAST(NULL AS VARCHAR) AS missing, CAST(NULL AS VARCHAR[]) AS found'
         ELSE 'SELECT CASE {missing} END AS missing, found FROM (SELECT ' || {counts} || ', '
              || 'list_filter(json_keys(to_json(sqlrank_row)), lambda sqlrank_name: sqlrank_name <> ''sqlrank_absent'') '
              || 'AS found' || {listed} || {source} || ' LIMIT 1)' END;
""")
    return "".join(statements)


def ordered_run_sql(pick: str, column: str) -> str:
    """sqlrank.ordered_run_sql(name, columns): the SQL reading a run under ties := 'input', its order checked.

    The order is the rank a run gives each document, as input_rank: a TREC file's rank field, else the
    table's column `rank` (or the one `columns` maps to rank). A SQL table has no row order, so there is
    no other; a row without a finite rank, or two documents of a query at one rank, stop the query with
    the Python door's words (checks/order.py). A run without a score column has its rank negated as its score, as
    under the other policies (listed_table_sql). A list run is refused: its list's order is what every other
    policy gives it (reading its places here as well made every call of the shell's macros twice as slow to
    bind, docs/performance.md).
    """
    said = {"input": "name", "policy": sqlgen.literal("ties := 'input'"),
            "order": sqlgen.literal("its rank (a TREC run's 4th field, or the column 'rank' or the one run_columns "
                                    "maps to rank: a SQL table has no row order)"),
            "run": "''", "query_id": "query_id", "doc_id": "doc_id"}
    found = "CASE WHEN input_rank IS NULL THEN 'no number' ELSE 'the rank ' || CAST(input_rank AS VARCHAR) END"
    columns = " || ', ' || ".join(pick.format(canonical=sqlgen.literal(c), name=c)
                                  for c in ("query_id", "doc_id", "score"))
    rank = pick.format(canonical="'rank'", name="input_rank")
    source = _rows(f"{_score_from_rank(column)} AS ' || {_quoted_name('score')} || '")
    table = f"'SELECT COLUMNS(''^((?i:run_id)|sqlrank_absent)$''), ' || {columns} || ', ' || {rank} || {source}"
    reader = ("'SELECT * EXCLUDE (rank), rank AS input_rank, NULL AS sqlrank_absent FROM sqlrank.read_trec_run(' "
              "|| sqlrank.sql_literal(name) || ')'")
    # the documents of one query (of one run) at one rank
    copies = "count(*) OVER (PARTITION BY sqlrank_run_key, query_id, input_rank)"
    run_key = "concat_ws(chr(0), *COLUMNS(''^((?i:run_id)|sqlrank_absent)$'')) AS sqlrank_run_key"
    return f"""
-- true for a row of a run under ties := 'input' with a rank of its own; an error otherwise
CREATE OR REPLACE MACRO sqlrank.input_rank_ok(input_rank, copies, query_id, doc_id, name) AS
    CASE
        WHEN ends_with(typeof(doc_id), ']')
            THEN error('sqlrank: ' || name || ': ties := ''input'' orders a run by its rank column, and its items '
                       || 'are lists, ranked in their list''s order by every other tie policy: leave ties out')
        WHEN input_rank IS NULL OR NOT isfinite(input_rank)
            THEN {_error(messages.INPUT_RANK_MISSING, **said, found=found)}
        WHEN copies > 1 THEN {_error(messages.INPUT_RANK_SHARED, **said, rank="input_rank", count="copies")}
        ELSE true
    END;

-- the SQL reading a run named `name` in its own order (ties := 'input'), as ([run_id,] query_id, doc_id, score,
-- input_rank), each row's rank checked
CREATE OR REPLACE MACRO sqlrank.ordered_run_sql(name, columns) AS
    'SELECT * EXCLUDE (sqlrank_run_key) FROM (SELECT *, {run_key} FROM ('
    || CASE WHEN sqlrank.trec_path(name) THEN {reader} ELSE {table} END
    || ') AS sqlrank_read) AS sqlrank_ordered QUALIFY sqlrank.input_rank_ok(input_rank, {copies}, query_id, doc_id, '
    || sqlrank.sql_literal(name) || ')';
"""


def problem_sql() -> str:
    """sqlrank.run_problem and sqlrank.qrels_problem: the Python door's checks of an input, in one row."""
    from .readers.tables import _COLUMN_SYNONYMS  # the Python door's usual names, offered as the likely mapping

    statements = []
    for kind, value, option in KINDS:
        where = {"input": "name", "row": "first.input_row", "value": sqlgen.literal(value)}
        checks = []
        for canonical in ("query_id", "doc_id"):
            empty = _error(messages.EMPTY_ID, **where, canonical=sqlgen.literal(canonical),
                           column=f"sqlrank.column_name(columns, {sqlgen.literal(canonical)})")
            checks.append(f"WHEN first.{canonical} IS NULL OR first.{canonical} = '' THEN {empty}")
        column = f"sqlrank.column_name(columns, {sqlgen.literal(value)})"
        checks.append(f"WHEN first.value IS NULL THEN {_error(messages.EMPTY_VALUE, **where, column=column)}")
        checks.append(f"ELSE {_error(messages.NAN_VALUE, **where, column=column)}")
        usual = "CASE probe.missing " + " ".join(f"WHEN {sqlgen.literal(c)} THEN {sqlgen.literal(list(names))}"
                                                 for c, names in _COLUMN_SYNONYMS.items()) + " END"
        guess = f"list_filter(probe.found, lambda sqlrank_name: list_contains({usual}, lower(sqlrank_name)))"
        # the found column with a usual name for the missing one (as the Python door would guess it)
        guess = f"coalesce({guess}[1], '<name>')"
        fix = sqlgen.template(messages.MISSING_COLUMN_FIX_SHELL, columns_option=sqlgen.literal(option),
                              canonical="probe.missing", name=guess)
        missing = _error(messages.MISSING_COLUMN, input="name", column="sqlrank.column_name(columns, probe.missing)",
                         found="coalesce(array_to_string(probe.found, ', '), 'no columns')", fix=fix)
        # a run table holding several runs has each document once per run
        run_key = "concat_ws(chr(0), *COLUMNS('^((?i:run_id)|sqlrank_absent)$'))" if kind == "run" else "''"
        example = sqlgen.template(messages.DUPLICATE_EXAMPLE, query_id="query_id", doc_id="doc_id", copies="copies")
        duplicates = _error(messages.DUPLICATES, input="name", examples="duplicated.examples",
                            fix=sqlgen.literal(messages.DUPLICATES_FIX_SHELL.format(value=value)))
        # empty qrels are refused (nothing can be evaluated); an empty run retrieved nothing
        empty = "" if kind == "run" else f"\n        WHEN bad.input_rows = 0 THEN {_error(messages.EMPTY_QRELS, input='name')}"
        statements.append(f"""
-- the first thing wrong with the canonical {kind} `input` (sqlrank.{kind}_input_sql of `name`), as an error;
-- NULL when nothing is: a missing column, then the first row with an empty id or {value} or a NaN {value}
-- (rows numbered in the input's order), then duplicate (query_id, doc_id) pairs
CREATE OR REPLACE MACRO sqlrank.{kind}_problem(input, name, columns) AS TABLE
    WITH probe AS (
        SELECT * FROM query(sqlrank.{kind}_columns_sql(name, columns))
    ),
    numbered AS (
        SELECT row_number() OVER () AS input_row, CAST(query_id AS VARCHAR) AS query_id,
               CAST(doc_id AS VARCHAR) AS doc_id, CAST({value} AS DOUBLE) AS value
        FROM query_table(input)
    ),
    bad AS (
        SELECT arg_min(struct_pack(input_row := input_row, query_id := query_id, doc_id := doc_id, value := value), input_row)
                   FILTER (WHERE coalesce(query_id IS NULL OR query_id = '' OR doc_id IS NULL OR doc_id = ''
                                          OR value IS NULL OR isnan(value), true)) AS first,
               count(*) AS input_rows
        FROM numbered
    ),
    duplicated AS (
        SELECT string_agg({example}, ', ' ORDER BY run_key, query_id, doc_id) AS examples
        FROM (
            SELECT {run_key} AS run_key, CAST(query_id AS VARCHAR) AS query_id,
                   CAST(doc_id AS VARCHAR) AS doc_id, count(*) AS copies
            FROM query_table(input)
            GROUP BY ALL
            HAVING count(*) > 1
            ORDER BY ALL
            LIMIT 3
        ) AS pairs
    )
    SELECT CASE
        WHEN probe.missing IS NOT NULL THEN {missing}{empty}
        WHEN bad.first IS NOT NULL THEN CASE {' '.join(checks).replace('first.', 'bad.first.')} END
        WHEN duplicated.examples IS NOT NULL THEN {duplicates}
    END AS problem
    FROM bad CROSS JOIN duplicated LEFT JOIN probe ON true;
""")
    return "".join(statements)


def pair_sql() -> str:
    """sqlrank.pair_problem(qrels_input, run_input, name): a run sharing no query with the qrels, as the Python
    door refuses it (engine.disjoint_error), in one row."""
    run_id = "coalesce(CAST(COLUMNS('^((?i:run_id)|sqlrank_absent)$') AS VARCHAR), name)"
    count = "queries || CASE WHEN queries = 1 THEN ' query' ELSE ' queries' END"
    disjoint = _error(messages.DISJOINT, run_id="run_id", count=count, run_query="run_query",
                      qrels_query="(SELECT min(query_id) FROM query_table(qrels_input))",
                      fix=sqlgen.literal(messages.DISJOINT_FIX_SHELL))
    return f"""
-- the first run of `run_input` none of whose queries the qrels have (NULL: none), as an error
CREATE OR REPLACE MACRO sqlrank.pair_problem(qrels_input, run_input, name) AS TABLE
    -- empty qrels are qrels_problem's to say (both problems are computed, so this one keeps out of its way)
    SELECT CASE WHEN run_id IS NOT NULL AND EXISTS (FROM query_table(qrels_input)) THEN {disjoint} END AS problem
    FROM (SELECT 1) AS one
    LEFT JOIN (
        SELECT run_id, count(DISTINCT query_id) AS queries, min(query_id) AS run_query
        FROM (SELECT {run_id} AS run_id, CAST(query_id AS VARCHAR) AS query_id FROM query_table(run_input))
        GROUP BY run_id
        HAVING NOT bool_or(query_id IN (SELECT CAST(query_id AS VARCHAR) FROM query_table(qrels_input)))
        ORDER BY run_id LIMIT 1
    ) AS disjoint ON true;
"""


def shell_sql() -> str:
    """All of the above, in the order DuckDB binds them."""
    return parameter_sql() + trec_sql() + listed_sql() + input_sql() + problem_sql() + pair_sql()
