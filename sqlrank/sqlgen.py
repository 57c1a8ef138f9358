"""The one place that writes SQL text: quoting, values, macro calls and the statements sqlrank runs.

Every other module builds its SQL through these functions, so that every value
reaching DuckDB is quoted the same way and a reader finds the composition rules
in one file. Values are validated before they get here (the registry checks
measure parameters, the readers check paths and names); this module only
renders them.
"""

from __future__ import annotations

from pathlib import Path


def identifier(name: str) -> str:
    """A table, view or column name as a quoted identifier, its double quotes doubled."""
    return '"' + str(name).replace('"', '""') + '"'


def literal(value) -> str:
    """A Python value as a SQL literal: None, numbers, strings, and lists of those."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(literal(item) for item in value) + "]"
    return "'" + str(value).replace("'", "''") + "'"


def file_path(path: Path) -> str:
    """The path as a DuckDB string literal naming exactly this file.

    DuckDB expands `*`, `?` and `[...]` in file names (globs) and treats
    `s3://`, `~` ... specially; an absolute path with the glob characters
    bracketed (`[*]`) names the one file the user gave; one with a backslash is
    taken as written.
    """
    text = str(Path(path).absolute())
    if "\\" in text:
        # DuckDB takes a name with a backslash as written (a bracket would then be a character of the name)
        return literal(text)
    return literal("".join(f"[{c}]" if c in "*?[" else c for c in text))


def call(function: str, *arguments: str, **named) -> str:
    """`sqlrank.f(a, b, name := value)`: positional arguments are SQL text, named ones Python values."""
    parts = list(arguments) + [f"{name} := {literal(value)}" for name, value in named.items()]
    return f"{function}({', '.join(parts)})"


def create_temp_table(name: str, select: str) -> str:
    return f"CREATE OR REPLACE TEMP TABLE {identifier(name)} AS {select}"


def create_temp_view(name: str, select: str) -> str:
    return f"CREATE OR REPLACE TEMP VIEW {identifier(name)} AS {select}"


def insert_by_name(name: str, select: str) -> str:
    return f"INSERT INTO {identifier(name)} BY NAME {select}"


def select_all(table: str) -> str:
    return f"SELECT * FROM {identifier(table)}"


def set_option(name: str, value) -> str:
    """`SET name = value`, for a setting DuckDB takes per connection only (enable_progress_bar)."""
    return f"SET {name} = {literal(value)}"


def template(text: str, **parts: str) -> str:
    """A message template (sqlrank.checks.messages) as an SQL string expression: each {field} the SQL in `parts`.

    `{{` and `}}` stand for braces, as in str.format.
    """
    import string

    pieces = []
    for literal_text, field, _, _ in string.Formatter().parse(text):
        if literal_text:
            pieces.append(literal(literal_text))
        if field is not None:
            pieces.append(f"CAST({parts[field]} AS VARCHAR)")
    return "concat(" + ", ".join(pieces) + ")" if pieces else "''"
