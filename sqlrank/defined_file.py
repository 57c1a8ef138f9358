"""A file of measure definitions (the CLI's --define, sqlrank.define_file): TOML, one table per measure.

    [MyP]
    expression = '''
    coalesce(CAST(len(sqlrank.relevant_ranks(ranking, k, rel)) AS DOUBLE) / NULLIF(coalesce(k, ranking.num_ret), 0), 0)
    '''
    params = ["rel"]

Each table's name is the measure's, its keys sqlrank.define's keywords (docs/custom-measures.md). TOML
because an expression spans lines and has quotes, which TOML's ''' strings hold as written; Python reads it
itself from 3.11 on (tomllib).
"""

from __future__ import annotations

import difflib
import inspect
from pathlib import Path

from .defined import DefinedMeasure, define
from .errors import InputError, MeasureError

# the keys a measure's table may hold: define()'s keywords
KEYS = tuple(name for name in inspect.signature(define).parameters if name != "name")


def define_file(path) -> list[DefinedMeasure]:
    """Every measure of the file at `path`, defined (sqlrank.define) in the file's order."""
    tables = _read(Path(path))
    return [_define(path, name, table) for name, table in tables.items()]


def _read(path: Path) -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        try:
            import tomli as tomllib
        except ModuleNotFoundError:
            raise InputError(f"{path}: reading a TOML file of definitions needs Python 3.11 or later, or the tomli "
                             "package (pip install tomli)") from None
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as error:
        raise InputError(f"{path}: cannot read the definitions: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"{path}: not a TOML file of definitions: {error}; each measure is a table, e.g. "
                         "[MyP] then expression = '''...'''") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a TOML file of definitions: it is not UTF-8 text") from None


def _define(path, name: str, table) -> DefinedMeasure:
    where = f"{path}: [{name}]"
    if not isinstance(table, dict):
        raise InputError(f"{path}: '{name}' is a value, not a table; each measure is a table, e.g. [{name}] then "
                         "expression = '''...'''")
    for key in table:
        if key not in KEYS:
            close = difflib.get_close_matches(key, KEYS, n=1)
            raise InputError(f"{where}: unknown key '{key}' (expected some of: {', '.join(KEYS)})"
                             + (f"; did you mean '{close[0]}'?" if close else ""))
    if "expression" not in table:
        raise InputError(f"{where}: no expression; give the measure's SQL as expression = '''...'''")
    try:
        return define(name, **table)
    except MeasureError as error:
        raise MeasureError(f"{where}: {error}") from None
