"""What every file reader shares: a path checked and its first bytes read, its text, and DuckDB's read errors.

Files are read by DuckDB itself (no round trip through Python objects);
Python opens a file only for its first bytes and line (to recognise its
format) and, on the error path, to find the line to name. Paths are taken
literally: `*`, `?`, `[` in a file name are not DuckDB glob patterns
(sqlgen.file_path).
"""

from __future__ import annotations

import gzip
import os
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError, SqlrankError, at_command_line, first_line, out_of_memory
from .base import Loaded

# C isspace(), trec_eval's field separator; the BOM is trimmed with it
BLANKS = " \t\n\r\x0b\x0c\ufeff"
GZIP_MAGIC = b"\x1f\x8b"  # gzip is recognised by its bytes: a `.gz` name is neither needed nor trusted
READ_ERRORS = (OSError, EOFError, zlib.error, ValueError)  # gzip.BadGzipFile is an OSError
# other compressions, also by their bytes, and the command that undoes each: refused by name, never read as text
OTHER_COMPRESSIONS = (("xz", b"\xfd7zXZ\x00", "xz -d"), ("zstd", b"\x28\xb5\x2f\xfd", "zstd -d"),
                      ("bzip2", b"BZh", "bzip2 -d"), ("zip", b"PK\x03\x04", "unzip"))


@dataclass(frozen=True)
class File:
    """A readable file: its path, its first bytes and its compression ('gzip' or 'none')."""

    path: Path
    head: bytes
    compression: str
    identity: tuple = ()  # identity(path) when it was opened, before any reader read it

    @property
    def extension(self) -> str:
        """The last extension in lower case, after any .gz ('.csv' for run.CSV.gz); '' for none."""
        suffixes = [suffix.lower() for suffix in self.path.suffixes]
        if suffixes and suffixes[-1] == ".gz":
            suffixes = suffixes[:-1]
        return suffixes[-1] if suffixes else ""


def open_file(path: Path, kind: str) -> File:
    """The file at `path` with its first bytes, after checking that it is a readable file."""
    label = str(path)
    try:
        exists, is_dir, is_file = path.exists(), path.is_dir(), path.is_file()
    except (OSError, ValueError) as error:  # e.g. a NUL byte or a name too long for the OS
        raise InputError(f"{label}: not a usable file name ({error}); check the path") from None
    if not exists:
        order = "first" if kind == "qrels" else "second"
        usage = "sqlrank eval QRELS RUN" if at_command_line() else "evaluate(qrels, run, measures)"
        raise InputError(f"{label}: no such file; check the path (the {kind} comes {order}: {usage})")
    if is_dir:
        raise InputError(f"{label}: is a directory, expected a {kind} file; name a file inside it")
    if not is_file:
        # a pipe (/dev/stdin, <(zcat ...)) gives its bytes once, and an input is read more than once
        # (its first bytes for the format, a TREC file's bytes checked before DuckDB parses them): the
        # second read would find nothing and the file would seem empty
        raise InputError(f"{label}: is a pipe or a device, not a file, and sqlrank reads its inputs more "
                         f"than once; save it to a file first (e.g. zcat {kind}.gz > {kind}.txt; a .gz file "
                         "can also be given as it is)")
    try:
        with open(path, "rb") as handle:
            head = handle.read(16)  # enough for every reader's and compression's magic bytes
            known = _identity(handle)
    except PermissionError:
        raise InputError(f"{label}: cannot be read (permission denied); check the file's permissions "
                         "(e.g. chmod +r)") from None
    except OSError as error:
        raise InputError(f"{label}: cannot be read ({error.strerror or error}); check the file") from None
    _refuse_other_compressions(label, head)
    return File(path, head, "gzip" if head.startswith(GZIP_MAGIC) else "none", known)


# how much of a file's end identity() reads: a Parquet footer (the schema and where every row group is)
IDENTITY_TAIL_BYTES = 4096


def identity(path: Path) -> tuple:
    """What tells a file from the same path rewritten or replaced: (device, inode, size, mtime, ctime, tail)."""
    with open(path, "rb") as handle:
        return _identity(handle)


def _identity(handle) -> tuple:
    # ctime changes with every write or rename and cannot be set back; the tail covers file systems
    # whose time stamps are coarse (a rewrite of the same size within one tick)
    status = os.fstat(handle.fileno())
    handle.seek(max(status.st_size - IDENTITY_TAIL_BYTES, 0))
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns,
            handle.read(IDENTITY_TAIL_BYTES))


def check_unchanged(loaded: Loaded) -> None:
    """Refuse a file read in place whose identity changed since it was opened, so since it was checked.

    The checks run on a view of the file and later statements read the file again: called after the
    last such read, this proves those reads read the rows checked (a changed file means nothing
    computed from it is used).
    """
    if not (loaded.in_place and loaded.identity and loaded.path):
        return
    try:
        now = identity(loaded.path)
    except OSError:
        now = ()
    if now != loaded.identity:
        raise InputError(f"{loaded.label}: changed after it was checked (its size, time stamps or last bytes "
                         "differ), so its rows now are not the ones checked; nothing was computed from them: run "
                         "again once the file is written")


def _refuse_other_compressions(label: str, head: bytes) -> None:
    for name, magic, command in OTHER_COMPRESSIONS:
        # bzip2's "BZh" could begin a TREC line: its block magic (pi's digits) after the level makes it sure
        if head.startswith(magic) and (name != "bzip2" or head[4:10] == b"\x31\x41\x59\x26\x53\x59"):
            raise InputError(f"{label}: is {name}-compressed (by its first bytes, whatever its name); sqlrank reads "
                             f"plain or gzip files: decompress it ({command}) or compress it with gzip")


def decompressed_head(file: File, size: int = 16) -> bytes:
    """The first bytes of the data itself: after gzip's decompression, for a gzip file."""
    if file.compression != "gzip":
        return file.head[:size]
    try:
        with gzip.open(file.path, "rb") as handle:
            return handle.read(size)
    except READ_ERRORS as error:
        raise corrupt_gzip(str(file.path), error) from None


def open_text(path: Path, compression: str):
    """The file as text, universal newlines (\\n, \\r\\n, \\r: DuckDB's line ends), bad bytes replaced."""
    if compression == "gzip":
        return gzip.open(path, "rt", encoding="utf-8", errors="replace", newline=None)
    return open(path, encoding="utf-8", errors="replace", newline=None)


def first_data_line(file: File) -> str | None:
    """The first line that is not blank or a comment, from the first 64 KiB, stripped."""
    try:
        with open_text(file.path, file.compression) as handle:
            text = handle.read(65536)
    except READ_ERRORS as error:
        raise unreadable(str(file.path), error, file.compression) from None
    for line in text.splitlines():
        stripped = line.strip(BLANKS)
        if stripped and not stripped.startswith("#"):
            return stripped
    return None


def unreadable(label: str, error: Exception, compression: str) -> InputError:
    """A failure of Python's own reading (recognising, a header, error paths) as an InputError."""
    if compression == "gzip":
        return corrupt_gzip(label, error)
    return InputError(f"{label}: cannot be read ({first_line(error)}); check the file")


def corrupt_gzip(label: str, error: Exception) -> InputError:
    return InputError(f"{label}: the gzip data is truncated or corrupt ({first_line(error)}); "
                      "re-create or re-download the file (`gzip -t` checks it)")


def read_error(loaded: Loaded, error: Exception, *, text: bool = True, line_fix: str = "check the line",
               otherwise: str | None = None, con=None) -> SqlrankError:
    """A DuckDB read failure in the user's words: the file, the line if DuckDB gave one, and the fix.

    text: the format is text, so a UTF-8 error is looked for on the file's lines.
    line_fix: what to do about a line DuckDB's CSV reader refused.
    otherwise: the message when nothing more precise is known (default: cannot be read as FORMAT).
    con: the connection that read, so that out of memory with a spill folder is not told to add one.
    """
    memory = out_of_memory(error, con)
    if memory:
        return memory
    label = loaded.label
    # DuckDB's message names the file: take it out, so that a folder called `gzip` decides nothing
    message = str(error)
    for name in filter(None, (str(loaded.path.absolute()) if loaded.path else "", label)):
        message = message.replace(name, "<file>")
    lowered = message.lower()
    if "gzip" in lowered or "zlib" in lowered:
        return corrupt_gzip(label, error)
    if "invalid unicode" in lowered or "not utf-8 encoded" in lowered or "utf8" in lowered:
        found = _first_invalid_utf8(loaded) if loaded.path and text else None
        where = f"{label}:{found[0]}" if found else label
        shown = f" (found the bytes {found[1]!r})" if found else ""
        return InputError(f"{where}: is not UTF-8 text{shown}; convert the file to UTF-8 "
                          "(e.g. iconv -f latin1 -t utf-8); compressed files must be gzip")
    if "permission denied" in lowered:
        return InputError(f"{label}: cannot be read (permission denied); check the file's permissions")
    line = re.search(r"CSV Error on Line: (\d+)", message)
    if line:  # DuckDB counts rows (a quoted newline does not end one); an editor counts physical lines
        number = _physical_line(loaded, int(line.group(1))) or line.group(1)
        too_long = re.search(r"Maximum line size of (\d+) bytes exceeded", message)
        if too_long:
            return InputError(f"{label}:{number}: the line is longer than {too_long.group(1)} bytes, the CSV reader's "
                              "limit; a line this long is most often a quote left open or lines run together (a "
                              "missing line end): fix the line, or convert the file to Parquet, which has no line "
                              "limit")
        detail = re.search(r"Expected Number of Columns: \d+ Found: \d+|Value with unterminated quote found", message)
        return InputError(f"{label}:{number}: {detail.group(0) if detail else 'malformed line'}; "
                          f"fix the line ({line_fix})")
    if "malformed json" in lowered and loaded.path:
        bad = _first_bad_json_line(loaded)
        if bad:
            return InputError(f"{label}:{bad[0]}: is not valid JSON ({bad[1]}); fix the line: one JSON object a line")
    return InputError(otherwise or f"{label}: cannot be read as {loaded.fmt.upper()}: {first_line(error)}")


def _physical_line(loaded: Loaded, row: int) -> int | None:
    """The physical line (as an editor counts) on which row `row` of a CSV/TSV file starts, header = row 1."""
    import csv

    if loaded.path is None or loaded.fmt not in ("csv", "tsv"):
        return None
    try:
        with open_text(loaded.path, loaded.compression) as handle:
            reader = csv.reader(handle, delimiter="\t" if loaded.fmt == "tsv" else ",")
            start, number = 1, 0
            for number, _ in enumerate(reader, start=1):
                if number == row:
                    return start
                start = reader.line_num + 1
    except (csv.Error, *READ_ERRORS):
        return None
    return start if row == number + 1 else None  # the row the reader could not take: the one after the last


def _first_bad_json_line(loaded: Loaded) -> tuple[int, str] | None:
    """(line, what is wrong) of the first line of a JSON-lines file that is not JSON; None for a JSON array."""
    import json

    try:
        with open_text(loaded.path, loaded.compression) as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                if number == 1 and line.lstrip(BLANKS).startswith("["):
                    return None  # one JSON document over many lines: its line numbers are DuckDB's to give
                try:
                    json.loads(line)
                except json.JSONDecodeError as bad:
                    return number, f"{bad.msg} at column {bad.colno}"
    except READ_ERRORS:
        return None
    return None


def _first_invalid_utf8(loaded: Loaded) -> tuple[int, bytes] | None:
    opener = gzip.open if loaded.compression == "gzip" else open
    try:
        with opener(loaded.path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                try:
                    raw.decode("utf-8")
                except UnicodeDecodeError as bad:
                    return number, raw[bad.start: bad.end]
    except READ_ERRORS:
        return None
    return None


def is_number(text: str) -> bool:
    """Whether Python reads `text` as a number (a TREC field, a header cell)."""
    try:
        float(text)
    except ValueError:
        return False
    return True
