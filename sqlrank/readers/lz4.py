"""ranx's .lz4 files: a dict {query_id: {doc_id: value}} as CBOR, LZ4-compressed (ranx's Run/Qrels.save).

Recognised by the LZ4 frame's magic bytes. ranx compresses the CBOR bytes and writes them inside an
LZ4 frame file, so the data is unpacked until it no longer starts with the magic. The reader needs the
`lz4` extra (lz4 and cbor2, the libraries ranx itself writes with).
"""

from __future__ import annotations

from ..errors import InputError, first_line
from . import files, mapping
from .base import Loaded, Reader

MAGIC = b"\x04\x22\x4d\x18"  # the LZ4 frame format's magic number, little-endian


def read(con, file: files.File, table: str, kind: str, columns: dict) -> Loaded:
    try:
        import cbor2
        import lz4.frame
    except ImportError:
        raise InputError(f"{file.path}: is an LZ4 file (ranx's .lz4), which needs lz4 and cbor2: in the sqlrank "
                         "checkout, .venv/bin/pip install -e '.[lz4]'") from None
    try:
        with lz4.frame.open(file.path, mode="rb") as handle:
            data = handle.read()
        while data.startswith(MAGIC):
            data = lz4.frame.decompress(data)
        found = cbor2.loads(data)
    except (RuntimeError, ValueError, OSError, EOFError, cbor2.CBORDecodeError) as error:
        raise InputError(f"{file.path}: is not a readable ranx .lz4 file ({first_line(error)}); it may be truncated "
                         "or corrupt: save it again") from None
    if not isinstance(found, dict):
        raise InputError(f"{file.path}: holds a {type(found).__name__}, expected ranx's dict "
                         "{query_id: {doc_id: value}}; save the file with ranx's Run.save or Qrels.save")
    loaded = mapping.read(con, found, table, kind, columns, label=str(file.path))
    loaded.path, loaded.fmt = file.path, "dict"
    return loaded


READER = Reader("lz4", read, magic=MAGIC, extensions=(".lz4",), title="LZ4")
