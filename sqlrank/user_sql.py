"""A user's own SQL, run in a connection that has the macros (and perhaps the canonical views).

The SQL runs with the user's permissions, like the `duckdb` shell: it may read and write any file
the user may. What sqlrank adds is that it does not overwrite an input where it can know one:
the files the SQL may read (its string constants that name files, each a glob as DuckDB reads
it: `read_csv('part*.csv')`) are inputs for `-o`; and each statement's target, as DuckDB parses
and evaluates it, may not be an input: a `COPY ... TO` target (a string, or an expression
evaluated by DuckDB: `TO ('victim' || '.trec')`), a folder a COPY fills (`PARTITION_BY`, ...) holding
an input at any depth, an `EXPORT DATABASE` folder holding an input. An `ATTACH`ed database is not
checked: DuckDB opens only its own database files that way, never a text, CSV or Parquet input.
A COPY whose target DuckDB cannot evaluate before the statement runs is refused.
"""

from __future__ import annotations

import glob
import os
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from .errors import OutputError, SqlrankError, first_line, out_of_memory

if TYPE_CHECKING:
    import pyarrow as pa

# the COPY options that make its target a folder of files, which DuckDB's OVERWRITE empties first
FOLDER_COPY_OPTIONS = {"PARTITION_BY", "PER_THREAD_OUTPUT", "FILE_SIZE_BYTES"}

# what a "needs an extension" error gets added when sqlrank turned DuckDB's automatic loading off
EXTENSIONS_HINT = ("; sqlrank query installs and loads no DuckDB extension by itself: pass --allow-extensions "
                   "(which may download it), or INSTALL and LOAD it in the SQL")


def query(con: duckdb.DuckDBPyConnection, sql: str, inputs: tuple = ()) -> pa.Table | None:
    """What `sql` selects, as an Arrow table; None for a statement without a result (CREATE, SET, ...).

    inputs: files a `COPY ... TO` in `sql` must not write (an OutputError before anything runs).
    A DuckDB error becomes a SqlrankError of one line (a ResourceError when memory ran out).
    """
    refuse_writing_inputs(con, sql, inputs)
    try:
        relation = con.sql(sql)
        return None if relation is None else relation.to_arrow_table()
    except duckdb.Error as error:
        if out_of_memory(error, con):
            raise out_of_memory(error, con) from None
        hint = EXTENSIONS_HINT if "extension" in str(error) and not _autoloading(con) else ""
        raise SqlrankError(f"the SQL failed: {first_line(error)}{hint}") from None


def files_named(sql: str) -> list[str]:
    """The files the string constants of `sql` name, each read as a glob as DuckDB does: what the
    statement may read (or write)."""
    found = []
    for text in dict.fromkeys(_strings(sql)):
        if os.path.isfile(text):
            found.append(text)
        elif any(char in text for char in "*?["):
            found += [path for path in glob.glob(text, recursive=True) if os.path.isfile(path)]
    return found


def refuse_writing_inputs(con: duckdb.DuckDBPyConnection, sql: str, inputs: tuple) -> None:
    """An OutputError, before anything runs, when a statement of `sql` would write over one of `inputs`."""
    from .export import same_file

    for kind, target in written_paths(con, sql):
        for source in inputs:
            if kind == "file" and same_file(source, Path(target).absolute()):
                raise OutputError(f"the SQL's COPY writes {target}, which is one of the inputs ({source}); "
                                  "refusing to overwrite it, copy to another file")
            if kind == "tree" and Path(target).resolve() in Path(source).resolve().parents:
                raise OutputError(f"the SQL's COPY writes into the folder {target}, which holds one of the inputs "
                                  f"({source}); refusing, since DuckDB's OVERWRITE empties the folder first: "
                                  "copy into another folder")
            if kind == "folder" and same_file(Path(source).absolute().parent, Path(target).absolute()):
                raise OutputError(f"the SQL's EXPORT DATABASE writes into {target}, which holds one of the inputs "
                                  f"({source}); refusing to overwrite it, export to another folder")


def written_paths(con: duckdb.DuckDBPyConnection, sql: str) -> list[tuple[str, str]]:
    """("file", path) for each `COPY ... TO` of `sql`, ("tree", folder) for each COPY that writes a folder of
    files, ("folder", path) for each EXPORT DATABASE, from DuckDB's parse of each statement (its type, its
    tokens, comments apart) and DuckDB's value of the target."""
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error:
        return []  # not SQL DuckDB can parse: running it will say so
    written = []
    for statement in statements:
        tokens = [(text, kind) for text, kind in _tokens(statement.query) if kind != duckdb.token_type.comment]
        if statement.type == duckdb.StatementType.COPY:
            target = _copy_target(con, tokens)
            if target is not None:
                writes_folder = any(text.upper() in FOLDER_COPY_OPTIONS for text, kind in tokens
                                    if kind != duckdb.token_type.string_const)
                written.append(("tree" if writes_folder else "file", target))
        elif statement.type == duckdb.StatementType.EXPORT:
            written += [("folder", _unquote(text)) for text, kind in tokens[:4]
                        if kind == duckdb.token_type.string_const][:1]
    return written


def _copy_target(con, tokens: list[tuple[str, object]]) -> str | None:
    """The file a COPY's `TO` names (None for a COPY ... FROM): a string, a name, or a parenthesized
    expression that DuckDB evaluates."""
    depth = 0
    for position, (text, kind) in enumerate(tokens):
        if kind == duckdb.token_type.operator:
            depth += text.count("(") - text.count(")")
        elif depth == 0 and kind == duckdb.token_type.keyword and text.upper() == "TO":
            return _target_value(con, tokens[position + 1:])
    return None


def _target_value(con, tokens: list[tuple[str, object]]) -> str:
    if not tokens:
        raise OutputError("the SQL's COPY ... TO names no file")
    text, kind = tokens[0]
    if kind == duckdb.token_type.string_const:
        return _unquote(text)
    if kind != duckdb.token_type.operator or not text.startswith("("):
        return text  # a bare name: DuckDB takes it as the file's name
    depth, expression = 0, []
    for text, kind in tokens:
        expression.append(text)
        if kind == duckdb.token_type.operator:
            depth += text.count("(") - text.count(")")
            if depth <= 0:
                break
    try:
        value = con.execute(f"SELECT CAST({' '.join(expression)} AS VARCHAR)").fetchall()[0][0]
    except duckdb.Error as error:
        value, reason = None, first_line(error)
    else:
        reason = "its value is NULL"
    if value is None:
        raise OutputError(f"cannot tell which file the SQL's COPY writes ({reason}), so not whether it "
                          "overwrites an input: write its target as a string, COPY ... TO 'file.csv'")
    return value


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
