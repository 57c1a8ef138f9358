"""One in-memory database with the whole macro library per test process, lent to a test as a fresh cursor.

sqlrank.connect() installs the library, most of a second; the tests that only need a connection with
the macros take a cursor of this database instead (conftest.py's `con`). A cursor has its own temporary
objects and session settings, but shares the catalog: after each test, what it created is dropped, and
if it changed anything else (replaced or dropped a macro, changed a global setting, attached a database)
the database is thrown away, so that the next test starts from what connect() gives.
"""

from __future__ import annotations

import duckdb

import sqlrank

# what a test may change in the shared database: every object outside the temporary catalog, every
# global setting, every attached database
_STATE = """
SELECT 'table', database_name, schema_name, table_name, sql FROM duckdb_tables() WHERE NOT temporary
UNION ALL SELECT 'view', database_name, schema_name, view_name, sql FROM duckdb_views() WHERE NOT internal AND NOT temporary
UNION ALL SELECT function_type, database_name, schema_name, function_name,
    hash(list(macro_definition ORDER BY macro_definition))::VARCHAR
    FROM duckdb_functions() WHERE NOT internal AND database_name <> 'temp' GROUP BY ALL
UNION ALL SELECT 'sequence', database_name, schema_name, sequence_name, sql FROM duckdb_sequences() WHERE NOT temporary
UNION ALL SELECT 'type', database_name, schema_name, type_name, NULL FROM duckdb_types() WHERE NOT internal
UNION ALL SELECT 'schema', database_name, schema_name, NULL, NULL FROM duckdb_schemas() WHERE NOT internal
UNION ALL SELECT 'database', database_name, NULL, path, NULL FROM duckdb_databases() WHERE NOT internal
UNION ALL SELECT 'setting', name, NULL, NULL, value FROM duckdb_settings() WHERE scope = 'GLOBAL'
"""
_DROP = {"table": "TABLE", "view": "VIEW", "macro": "MACRO", "table_macro": "MACRO TABLE", "sequence": "SEQUENCE",
         "type": "TYPE"}

_database: duckdb.DuckDBPyConnection | None = None
_state: frozenset = frozenset()


def _snapshot(database: duckdb.DuckDBPyConnection) -> frozenset:
    with database.cursor() as cursor:
        return frozenset(cursor.execute(_STATE).fetchall())


def lend() -> duckdb.DuckDBPyConnection:
    """A new cursor of the process's library database (made on first use)."""
    global _database, _state
    if _database is None:
        _database = sqlrank.connect()
        _state = _snapshot(_database)
    return _database.cursor()


def give_back(cursor: duckdb.DuckDBPyConnection) -> None:
    """Close the test's cursor and drop what it created; throw the database away if it changed anything else."""
    global _database
    cursor.close()
    if _database is None:
        return
    added = _snapshot(_database) - _state
    droppable = all(kind in _DROP or kind == "schema" for kind, *_ in added)
    if droppable:
        with _database.cursor() as cleaner:
            for kind, database, schema, name, _ in sorted(added, key=lambda row: row[0] == "schema"):
                if kind == "schema":
                    cleaner.execute(f'DROP SCHEMA IF EXISTS "{database}"."{schema}" CASCADE')
                else:
                    cleaner.execute(f'DROP {_DROP[kind]} IF EXISTS "{database}"."{schema}"."{name}"')
    if not droppable or _snapshot(_database) != _state:
        _database.close()
        _database = None
