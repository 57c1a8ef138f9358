"""Find the SQL macro files and install them into a DuckDB connection.

The .sql files live in the top-level `sql/` folder of the source tree and are
shipped inside the wheel as `sqlrank/sql/`; they are loaded in name order.
"""

from __future__ import annotations

import hashlib
import weakref
from functools import cache
from pathlib import Path

import duckdb

from . import sqlgen

_PACKAGE = Path(__file__).resolve().parent


def sql_dir() -> Path:
    """The folder holding the macro files (installed wheel first, then source tree)."""
    for candidate in (_PACKAGE / "sql", _PACKAGE.parent / "sql"):
        if any(candidate.glob("*.sql")):
            return candidate
    raise FileNotFoundError("sqlrank: the SQL macro files are missing from the installation")


def sql_files() -> list[Path]:
    return sorted(sql_dir().glob("*.sql"))


@cache
def sql_script() -> str:
    """The whole macro library as one script, ready for the DuckDB shell's `.read`."""
    parts = [f"-- ===== {path.name} =====\n{path.read_text(encoding='utf-8').strip()}\n" for path in sql_files()]
    return "\n".join(parts)


@cache
def _fingerprint() -> str:
    return hashlib.sha256(sql_script().encode()).hexdigest()[:16]


# a macro whose text names the library installed, so that a second install can be skipped
_MARKER = "installed_library"
# The connections connect() made: the library went in as they opened, committed (no transaction of
# the caller's could roll it back), so install() need not look for it in the catalog (duckdb_functions()
# lists every function DuckDB has: 17 ms a look, which the command line would pay on every evaluation).
_INSTALLED_AT_CONNECT = weakref.WeakSet()


def install(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """Install the macros into `con`, unless this very library is installed there already.

    Installing costs ~30 ms, which a caller evaluating run after run on one
    connection (evaluate(connection=...)) would pay every time. A marker macro
    holds a fingerprint of the library's SQL: the same fingerprint means
    nothing to do, another (or none) means (re-)install, every statement being
    CREATE OR REPLACE. The marker is read from DuckDB's catalog, not called:
    a failed call would abort a transaction the caller has open. A connection
    made by connect() has the library already.
    """
    if con in _INSTALLED_AT_CONNECT:
        return con
    definitions = con.execute(
        "SELECT macro_definition FROM duckdb_functions() WHERE schema_name = 'sqlrank' AND function_name = ?",
        [_MARKER],
    ).fetchall()
    if any(_fingerprint() in str(definition) for (definition,) in definitions):
        return con
    return _install_library(con)


def _install_library(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    con.execute(sql_script())
    con.execute(f"CREATE OR REPLACE MACRO sqlrank.{_MARKER}() AS '{_fingerprint()}'")
    return con


def connect(
    database: str = ":memory:",
    *,
    threads: int | None = None,
    memory_limit: str | None = None,
    temp_directory: str | None = None,
    progress_bar: bool | None = None,
) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with the sqlrank macros installed and the resource settings applied.

    progress_bar: whether DuckDB draws its bar on stderr for a statement that runs past two
    seconds (None: DuckDB's default); a person at a terminal wants it, a log file does not.
    """
    config: dict[str, str] = {}
    if threads is not None:
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            from .errors import SqlrankError

            raise SqlrankError(f"threads must be a whole number >= 1, got {threads!r}")
        config["threads"] = str(threads)
    if memory_limit is not None:
        config["memory_limit"] = str(memory_limit)
    if temp_directory is not None:
        config["temp_directory"] = str(temp_directory)
    try:
        con = duckdb.connect(database, config=config)
    except duckdb.Error as error:
        from .errors import SqlrankError

        raise SqlrankError(f"cannot open DuckDB with {config or 'default settings'}: {error}") from None
    if progress_bar is not None:  # a session setting: DuckDB refuses it in the connect-time config
        con.execute(sqlgen.set_option("enable_progress_bar", bool(progress_bar)))
    # opened here, most often in memory and empty: installing outright costs less than looking first
    _INSTALLED_AT_CONNECT.add(_install_library(con))
    return con
