"""A user's own SQL, run in a connection that has the macros (and perhaps the canonical views).

The SQL runs with the user's permissions, like the `duckdb` shell: it may read and write any file
the user may. What sqlrank adds is that it does not overwrite an input where it can know one: the
string constants of the SQL that name existing files (`read_csv('a.csv')`, `FROM 'b.parquet'`) are
inputs for `-o`, and a `COPY ... TO` may not write over an input.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import duckdb

from .errors import OutputError, SqlrankError, first_line, out_of_memory

if TYPE_CHECKING:
    import pyarrow as pa

# what a "needs an extension" error gets added when sqlrank turned DuckDB's automatic loading off
EXTENSIONS_HINT = ("; sqlrank query installs and loads no DuckDB extension by itself: pass --allow-extensions "
                   "(which may download it), or INSTALL and LOAD it in the SQL")


def query(con: duckdb.DuckDBPyConnection, sql: str, inputs: tuple = ()) -> pa.Table | None:
    """What `sql` selects, as an Arrow table; None for a statement without a result (CREATE, SET, ...).

    inputs: files a `COPY ... TO` in `sql` must not write (an OutputError before anything runs).
    A DuckDB error becomes a SqlrankError of one line (a ResourceError when memory ran out).
    """
    from .export import same_file

    for target in copy_targets(sql):
        for source in inputs:
            if same_file(source, os.path.abspath(target)):
                raise OutputError(f"the SQL's COPY writes {target}, which is one of the inputs ({source}); "
                                  "refusing to overwrite it, copy to another file")
    try:
        relation = con.sql(sql)
        return None if relation is None else relation.to_arrow_table()
    except duckdb.Error as error:
        if out_of_memory(error):
            raise out_of_memory(error) from None
        hint = EXTENSIONS_HINT if "extension" in str(error) and not _autoloading(con) else ""
        raise SqlrankError(f"the SQL failed: {first_line(error)}{hint}") from None


def files_named(sql: str) -> list[str]:
    """The string constants of `sql` that name an existing file: what the statement may read (or write)."""
    return [text for text in _strings(sql) if os.path.isfile(text)]


def copy_targets(sql: str) -> list[str]:
    """The files the `COPY ... TO 'file'` statements of `sql` write."""
    targets = []
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error:
        return []  # not SQL DuckDB can parse: running it will say so
    for statement in statements:
        if statement.type == duckdb.StatementType.COPY:
            tokens = _tokens(statement.query)
            for (text, kind), (following, following_kind) in zip(tokens, tokens[1:]):
                if kind == duckdb.token_type.keyword and text.upper() == "TO" and \
                        following_kind == duckdb.token_type.string_const:
                    targets.append(_unquote(following))
    return targets


def _autoloading(con) -> bool:
    try:
        return bool(con.execute("SELECT current_setting('autoload_known_extensions')").fetchone()[0])
    except duckdb.Error:
        return True


def _tokens(sql: str) -> list[tuple[str, object]]:
    """(text, kind) of each token of `sql`, DuckDB's tokenizer telling where each starts and what it is."""
    try:
        found = duckdb.tokenize(sql)
    except duckdb.Error:
        return []
    ends = [start for start, _ in found[1:]] + [len(sql)]
    return [(sql[start:end].strip(), kind) for (start, kind), end in zip(found, ends)]


def _strings(sql: str) -> list[str]:
    return [_unquote(text) for text, kind in _tokens(sql) if kind == duckdb.token_type.string_const]


def _unquote(text: str) -> str:
    """'a''b.csv' -> a'b.csv"""
    text = text.rstrip(";),")
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    return text
