"""Preferences, the judgments of trec_eval's preference measures (`-R prefs`, `-R qrels_prefs`).

load_prefs() leaves them in PREFS_TABLE as (query_id, jg, jsg, doc_id, rel_level) and the qrels the
ranking pass reads, each document with its highest level, in QRELS_OF_PREFS. A TREC file is read as
trec_eval reads it: `qid jg jsg docno rel_level` (prefs), or a qrels file `qid jg docno rel_level`
whose second field is the judgment group, in one sub-group (qrels_prefs); rel_level is a number
(trec_eval's atof, not cut to a whole number). A table (CSV, Parquet, a DataFrame, an Arrow table, a
DuckDB relation) has the columns query_id, jg, jsg, doc_id, rel_level (from_qrels: query_id, doc_id,
relevance and an optional jg).
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from .. import sqlgen
from ..errors import InputError
from ..macros import install_parts

PREFS_TABLE = "sqlrank_prefs"
QRELS_OF_PREFS = "sqlrank_qrels_of_prefs"
PREFS_COLUMNS = ("query_id", "jg", "jsg", "doc_id", "rel_level")
_TABLE_SUFFIXES = (".csv", ".tsv", ".parquet", ".pq", ".json", ".jsonl")
_PREFS_EXAMPLE = "'301 user1 a FBIS4-41839 2' (qid jg jsg docno rel_level)"
_QRELS_EXAMPLE = "'301 0 FBIS4-41839 1' (qid jg docno rel_level)"


def load_prefs(con: duckdb.DuckDBPyConnection, source, from_qrels: bool = False) -> str:
    """Load the preferences into PREFS_TABLE and their qrels into QRELS_OF_PREFS; returns the input's label."""
    label = str(source) if isinstance(source, (str, Path)) else f"<{type(source).__name__}>"
    if isinstance(source, (str, Path)) and not str(source).lower().endswith(_TABLE_SUFFIXES):
        select = _trec_select(con, Path(source), from_qrels)
    else:
        select = _table_select(con, source, label, from_qrels)
    if from_qrels:  # a negative label: judged but unusable, as sqlrank reads qrels everywhere
        select = f"SELECT * FROM ({select}) AS judgments WHERE rel_level IS NULL OR NOT rel_level < 0"
    con.execute(sqlgen.create_temp_table(PREFS_TABLE, select))
    if not con.execute(f"SELECT count(*) FROM {PREFS_TABLE}").fetchall()[0][0]:
        raise InputError(f"{label}: no preferences; expected rows of query_id, jg, jsg, doc_id, rel_level")
    _check(con, label, from_qrels)
    con.execute(sqlgen.create_temp_table(
        QRELS_OF_PREFS, f"SELECT query_id, doc_id, max(rel_level) AS relevance FROM {PREFS_TABLE} "
                        "GROUP BY query_id, doc_id"))
    return label


def prefs_from_table(con: duckdb.DuckDBPyConnection, select: str, label: str) -> None:
    """PREFS_TABLE made by a query (the qrels read as preferences), checked as a file of them is."""
    con.execute(sqlgen.create_temp_table(PREFS_TABLE, select))
    _check(con, label, True)


def _trec_select(con, path: Path, from_qrels: bool) -> str:
    """A TREC file's lines split on blanks; a line with another number of fields, or a level that is no
    number, is an error naming its line."""
    if not path.is_file():
        raise InputError(f"{path}: no such file (the preferences{' read from qrels' if from_qrels else ''})")
    fields = 4 if from_qrels else 5
    example = _QRELS_EXAMPLE if from_qrels else _PREFS_EXAMPLE
    con.execute(sqlgen.create_temp_table(
        PREFS_TABLE + "_lines",
        f"SELECT line_number, string_split_regex(trim(line), '\\s+') AS fields FROM ("
        f"SELECT unnest(lines) AS line, unnest(range(1, len(lines) + 1)) AS line_number FROM ("
        f"SELECT string_split(replace(content, chr(13), ''), chr(10)) AS lines "
        f"FROM read_text({sqlgen.literal(str(path))}))) "
        # a blank line, or a comment line, as trec_eval 10 skips them
        f"WHERE trim(coalesce(line, '')) <> '' AND NOT starts_with(ltrim(line), '#')"))
    bad = con.execute(
        f"SELECT line_number, array_to_string(fields, ' ') FROM {PREFS_TABLE}_lines WHERE len(fields) <> {fields} "
        f"OR TRY_CAST(fields[{fields}] AS DOUBLE) IS NULL ORDER BY line_number LIMIT 1").fetchall()
    if bad:
        number, text = bad[0]
        raise InputError(f"{path}, line {number}: expected {fields} fields, a line such as {example} with a number "
                         f"last; found '{text}'. Fix that line (or pass the file as "
                         f"{'qrels' if not from_qrels else 'preferences'} if it is one)")
    jsg = "'0'" if from_qrels else "fields[3]"
    return (f"SELECT fields[1] AS query_id, fields[2] AS jg, {jsg} AS jsg, fields[{fields - 1}] AS doc_id, "
            f"CAST(fields[{fields}] AS DOUBLE) AS rel_level FROM {PREFS_TABLE}_lines")


def _table_select(con, source, label: str, from_qrels: bool) -> str:
    """A table's columns, by name; a missing one is an error naming the columns found."""
    if isinstance(source, (str, Path)):
        source = con.sql(f"SELECT * FROM {sqlgen.literal(str(source))}")
    try:
        con.register(PREFS_TABLE + "_source", source)  # a relation, or a frame or Arrow table DuckDB scans
    except (duckdb.Error, TypeError, ValueError):
        raise InputError(f"{label}: cannot read preferences from a {type(source).__name__}; pass a TREC file, a "
                         "CSV or Parquet path, a DataFrame, an Arrow table or a DuckDB relation") from None
    columns = [row[0] for row in con.execute(f"DESCRIBE {PREFS_TABLE}_source").fetchall()]
    found = [column.lower() for column in columns]
    needed = ("query_id", "doc_id", "relevance") if from_qrels else PREFS_COLUMNS
    missing = [column for column in needed if column not in found]
    if missing:
        raise InputError(f"{label}: the preferences need the columns {', '.join(needed)}; "
                         f"{', '.join(missing)} not found (found {', '.join(columns)}). Rename them")
    if from_qrels:
        jg = "CAST(jg AS VARCHAR)" if "jg" in found else "'0'"
        return (f"SELECT CAST(query_id AS VARCHAR) AS query_id, {jg} AS jg, '0' AS jsg, "
                f"CAST(doc_id AS VARCHAR) AS doc_id, CAST(relevance AS DOUBLE) AS rel_level "
                f"FROM {PREFS_TABLE}_source")
    return (f"SELECT CAST(query_id AS VARCHAR) AS query_id, CAST(jg AS VARCHAR) AS jg, CAST(jsg AS VARCHAR) AS jsg, "
            f"CAST(doc_id AS VARCHAR) AS doc_id, CAST(rel_level AS DOUBLE) AS rel_level FROM {PREFS_TABLE}_source")


def _check(con, label: str, from_qrels: bool) -> None:
    """The problems trec_eval stops on, each named: an empty id, a level that is not a non-negative
    number, a document judged twice in one sub-group, a document both relevant and not in one group."""
    table = PREFS_TABLE
    checks = [
        ("coalesce(query_id, '') = '' OR coalesce(jg, '') = '' OR coalesce(jsg, '') = '' OR coalesce(doc_id, '') = ''",
         "an empty query_id, jg, jsg or doc_id"),
        ("rel_level IS NULL OR isnan(rel_level) OR rel_level < 0 OR isinf(rel_level)",
         "a rel_level that is not a non-negative number (0: not relevant)"),
    ]
    for condition, what in checks:
        row = con.execute(f"SELECT query_id, jg, jsg, doc_id, rel_level FROM {table} WHERE {condition} "
                          "LIMIT 1").fetchall()
        if row:
            raise InputError(f"{label}: {what}: {_row(row[0])}. Fix that row")
    twice = con.execute(f"SELECT query_id, jg, jsg, doc_id, count(*) FROM {table} GROUP BY ALL HAVING count(*) > 1 "
                        "ORDER BY ALL LIMIT 1").fetchall()
    if twice:
        query_id, jg, jsg, doc_id, copies = twice[0]
        group = f"judgment group {jg}" if from_qrels else f"judgment group {jg}, sub-group {jsg}"
        raise InputError(f"{label}: query {query_id}, {group}: document {doc_id} is judged {copies} times; "
                         "keep one line for it")
    mixed = con.execute(f"SELECT query_id, jg, doc_id FROM {table} GROUP BY query_id, jg, doc_id "
                        "HAVING min(rel_level) = 0 AND max(rel_level) > 0 ORDER BY ALL LIMIT 1").fetchall()
    if mixed:
        query_id, jg, doc_id = mixed[0]
        raise InputError(f"{label}: query {query_id}, judgment group {jg}: document {doc_id} has both rel_level 0 "
                         "and a positive one (trec_eval refuses this); give it one or the other")
    # a group's sub-groups that contradict each other (A > B in one, B > A through others): trec_eval aborts
    # (only the groups of several sub-groups can: the others' pairs, often most, are not made here)
    con.execute(sqlgen.create_temp_table(
        table + "_partial", f"SELECT * FROM {table} WHERE (query_id, jg) IN (SELECT (query_id, jg) FROM {table} "
                            "GROUP BY query_id, jg HAVING count(DISTINCT jsg) > 1)"))
    install_parts(con, ["preferences"])
    cycle = con.execute(f"SELECT query_id, jg, better FROM sqlrank.preference_pairs({sqlgen.literal(table + '_partial')}) "
                        "WHERE better = worse ORDER BY ALL LIMIT 1").fetchall()
    if cycle:
        query_id, jg, doc_id = cycle[0]
        raise InputError(f"{label}: query {query_id}, judgment group {jg}: its sub-groups contradict each other "
                         f"(document {doc_id} ends up preferred to itself); put contradicting judgments in "
                         "different judgment groups")


def _row(values) -> str:
    return "(" + ", ".join(f"{name} {value!r}" for name, value in zip(PREFS_COLUMNS, values)) + ")"
