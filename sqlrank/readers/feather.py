"""Feather (Arrow IPC) files, as pandas `to_feather()` and polars `write_ipc()` write them.

Recognised by their magic bytes (ARROW1, Feather version 2). pyarrow maps the
file into memory and the table is read as an in-memory one (frames.py), under
the file's name.
"""

from __future__ import annotations

from ..errors import InputError, first_line
from . import files, frames
from .base import Loaded, Reader


def read(con, file: files.File, table: str, kind: str, columns: dict) -> Loaded:
    import pyarrow as pa
    import pyarrow.feather

    try:
        arrow = pyarrow.feather.read_table(str(file.path), memory_map=True)
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{file.path}: is not a readable Feather (Arrow IPC) file ({first_line(error)}); it may "
                         "be truncated or corrupt: write it again") from None
    return frames.read(con, arrow, table, kind, columns, label=str(file.path))


READER = Reader("feather", read, magic=b"ARROW1", extensions=(".feather", ".arrow"), title="Feather")
