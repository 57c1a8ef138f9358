"""Find the SQL macro files and install them into a DuckDB connection.

The .sql files live in the top-level `sql/` folder of the source tree and are
shipped inside the wheel as `sqlrank/sql/`; they are loaded in name order.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import duckdb

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


def install(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """Install (or re-install: every statement is CREATE OR REPLACE) the macros into `con`."""
    con.execute(sql_script())
    return con


def connect(
    database: str = ":memory:",
    *,
    threads: int | None = None,
    memory_limit: str | None = None,
    temp_directory: str | None = None,
) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with the sqlrank macros installed and the resource settings applied."""
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
    return install(con)
