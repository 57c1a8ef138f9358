"""The macro library kept as a DuckDB database file, copied into each new in-memory database instead of installed.

Installing the library makes DuckDB parse (and, for table macros, bind) its SQL in every new process; copying the
same catalog out of a database file that holds it (ATTACH, COPY FROM DATABASE) takes a fifth of the time
(docs/performance.md, "Everyday sizes, round six"). The file is made by the first process that needs it, named by a
fingerprint of the SQL and DuckDB's version (so a change in either makes a new one), written under a temporary name
and renamed into place (no process ever reads a half-written file), and only ever read after that. Where it cannot
be written or read, the library is installed from its SQL, as without it.

The folder: $SQLRANK_CACHE_DIR, else the user's cache folder ($XDG_CACHE_HOME or ~/.cache on Linux and macOS,
%LOCALAPPDATA% on Windows) + sqlrank; SQLRANK_CACHE_DIR=off keeps no file (every database installs from SQL).
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

import duckdb

from .sqlgen import literal

FOLDER_VARIABLE = "SQLRANK_CACHE_DIR"
KEPT = 8  # library files kept in the folder: two a version of sqlrank (with and without the shell's table macros)
_ALIAS = "sqlrank_library_file"


def folder() -> Path | None:
    """Where the library files are kept, or None when SQLRANK_CACHE_DIR says off."""
    configured = os.environ.get(FOLDER_VARIABLE)
    if configured is not None:
        return None if configured.strip().lower() in ("", "off") else Path(configured)
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "sqlrank" / "cache"
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "sqlrank"
    try:
        return Path.home() / ".cache" / "sqlrank"
    except (RuntimeError, KeyError):  # no home folder to be found (a service account): no file
        return None


def path_for(script: str) -> Path | None:
    """The file holding what `script` installs, for this DuckDB version (None when files are off)."""
    where = folder()
    if where is None:
        return None
    fingerprint = hashlib.sha256(script.encode()).hexdigest()[:20]
    return where / f"library-duckdb{duckdb.__version__}-{fingerprint}.duckdb"


def copy_into(con: duckdb.DuckDBPyConnection, script: str) -> bool:
    """Copy what `script` (CREATE statements only) installs into con's current database, which must hold none of it,
    from its file, made first if missing; False, with nothing copied that matters, where no file could serve: the
    caller then installs from the SQL, whose CREATE OR REPLACE puts right whatever a failed copy left."""
    path = path_for(script)
    if path is None or not (path.exists() or _write(path, script)):
        return False
    database = con.execute("SELECT current_database()").fetchone()[0]
    try:
        con.execute(f"ATTACH {literal(str(path))} AS {_ALIAS} (READ_ONLY)")
    except duckdb.Error:  # unreadable (damaged, another DuckDB's format): made again by the next process
        _remove(path)
        return False
    try:
        con.execute(f'COPY FROM DATABASE {_ALIAS} TO "{database}"')
        return True
    except duckdb.Error:
        _remove(path)
        return False
    finally:
        con.execute(f"DETACH {_ALIAS}")


def _write(path: Path, script: str) -> bool:
    """Make the file: the script run into a new database under a name of its own, then renamed to `path`."""
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
        os.close(handle)
        os.unlink(temporary)  # DuckDB makes the file itself: an empty file is not a database
        with duckdb.connect(temporary) as builder:
            builder.execute(script)
            builder.execute("CHECKPOINT")
        os.replace(temporary, path)  # atomic: a reader opens the whole file or none
    except BaseException as error:  # also Ctrl-C: never leave a half-written temporary file (as export.write_bytes)
        if temporary is not None:
            _remove(Path(temporary))
            _remove(Path(temporary + ".wal"))
        if isinstance(error, (OSError, duckdb.Error)):  # a read-only or full disk: install from SQL instead
            return False
        raise
    _prune(path.parent)
    return True


def _prune(where: Path) -> None:
    """Remove all but the newest KEPT library files: each edit of the SQL (and each release) makes a new one. A process
    that meets its file gone installs from SQL and makes it again."""
    try:
        files = sorted(where.glob("library-*.duckdb"), key=lambda path: path.stat().st_mtime, reverse=True)
    except OSError:  # a file removed while looked at: the next writer prunes
        return
    for stale in files[KEPT:]:
        _remove(stale)


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError:  # held open elsewhere (Windows) or not ours to remove: the next writer replaces it
        pass
