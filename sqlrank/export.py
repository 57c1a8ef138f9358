"""Results out: one renderer per format (sqlrank.formats), and the one place that writes files.

Two kinds of tables go out: a `Result` of `evaluate` (`render`, `write`) and any
Arrow table, such as what `sqlrank query` selects (`render_arrow`, `write_arrow`).
A format is a renderer module in sqlrank/formats/ and one line in FORMAT_REGISTRY
below: its name, the file extensions that ask for it, and its renderers.

Files are written atomically: to a temporary name in the target folder, then
renamed over the target, so an existing output is replaced only by a complete
new one and a failed write leaves nothing behind. `check_target` refuses an
output that is one of the inputs and returns the checked Target; call it before
the work, so that a long evaluation is not thrown away at the end, and hand the
Target to `write`, which then does not check again.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Optional

from .errors import OutputError
from .formats import columns, latex, markdown, table, trec

if TYPE_CHECKING:
    import pyarrow as pa

    from .result import Result


@dataclass(frozen=True)
class Format:
    name: str
    extensions: tuple[str, ...]  # file name endings that ask for it (-o results.csv)
    table: Callable[[pa.Table], Iterable]  # any Arrow table -> parts (bytes or Arrow buffers), in order
    result: Optional[Callable[[Result, bool], Iterable]] = None  # a Result -> parts; None: its rows through `table`


FORMAT_REGISTRY = {f.name: f for f in (
    Format("table", (".txt",), table.render_table, table.render_result),
    Format("csv", (".csv",), columns.render_csv),
    Format("tsv", (".tsv",), columns.render_tsv),
    Format("json", (".json",), columns.render_json),
    Format("jsonl", (".jsonl", ".ndjson"), columns.render_jsonl),
    Format("parquet", (".parquet",), columns.render_parquet),
    Format("trec", (".trec",), trec.render_table, trec.render_result),
    Format("markdown", (".md", ".markdown"), markdown.render_table, markdown.render_result),
    Format("latex", (".tex",), latex.render_table, latex.render_result),
)}
FORMATS = tuple(FORMAT_REGISTRY)  # the names, in the order --help lists them
_EXTENSIONS = {extension: f.name for f in FORMAT_REGISTRY.values() for extension in f.extensions}


def format_for(path: str | os.PathLike) -> str:
    """The format a file name asks for: `results.csv` -> csv."""
    ext = Path(path).suffix.lower()
    if ext not in _EXTENSIONS:
        known = ", ".join(sorted(_EXTENSIONS))
        raise OutputError(f"{path}: cannot tell the format from the extension '{ext or '(none)'}' "
                          f"(known: {known}); pass a format ({', '.join(FORMATS)})")
    return _EXTENSIONS[ext]


def _format(fmt: str) -> Format:
    if fmt not in FORMAT_REGISTRY:
        raise OutputError(f"unknown format '{fmt}' (expected one of: {', '.join(FORMATS)})")
    return FORMAT_REGISTRY[fmt]


def _result_parts(result: Result, fmt: str, per_query: bool) -> Iterable:
    """A Result in format `fmt`, as parts (bytes, or Arrow buffers that write() writes without a copy)."""
    renderer = _format(fmt)
    if renderer.result is None:
        return renderer.table(_keyed(result.rows(per_query), result.report.query_id_name))
    return renderer.result(result, per_query)


def _keyed(rows: pa.Table, name: str) -> pa.Table:
    """The rows with the query column under the inputs' own name (`user_id`), as per_query gives it; as text,
    since the `all` rows share the column."""
    return rows.rename_columns([name if column == "query_id" else column for column in rows.column_names])


def _table_parts(data: pa.Table, fmt: str) -> Iterable:
    return _format(fmt).table(data)


def render(result: Result, fmt: str, per_query: bool = False) -> bytes:
    """The bytes of the result in format `fmt` (the means only, unless per_query)."""
    return b"".join(_result_parts(result, fmt, per_query))


def render_arrow(data: pa.Table, fmt: str) -> bytes:
    """The bytes of any table in format `fmt`; `trec` needs the columns measure, query_id and value."""
    return b"".join(_table_parts(data, fmt))


def write(result: Result, path: str | os.PathLike | Target, fmt: str | None = None, per_query: bool = False,
          inputs: tuple = ()) -> Path:
    """Write a Result atomically to `path` (format from the extension unless given); refuses to overwrite an input.

    `path` may be the Target that check_target returned: it is not checked again.
    """
    target = _checked(path, inputs)
    return write_bytes(_result_parts(result, fmt or format_for(target.path), per_query), target)


def write_arrow(data: pa.Table, path: str | os.PathLike | Target, fmt: str | None = None,
                inputs: tuple = ()) -> Path:
    """Write any Arrow table atomically to `path` (format from the extension unless given)."""
    target = _checked(path, inputs)
    return write_bytes(_table_parts(data, fmt or format_for(target.path)), target)


# ---------------------------------------------------------------- writing files

@dataclass(frozen=True)
class Target:
    """An output file that check_target accepted: writing to it checks nothing again."""

    path: Path

    def __fspath__(self) -> str:
        return os.fspath(self.path)


def check_target(path: str | os.PathLike, inputs: tuple = ()) -> Target:
    """Refuse an output that cannot be written: missing folder, a folder, a read-only file, a symlink loop, or
    one of the `inputs`."""
    target = Path(path)
    folder = target.parent
    _refuse_symlink_loop(target)
    if not folder.is_dir():
        raise OutputError(f"{target}: the folder {folder} does not exist; create it first")
    if target.is_dir():
        raise OutputError(f"{target}: is a folder; name a file to write")
    _refuse_read_only(target)
    for source in inputs:
        if same_file(source, target):
            raise OutputError(f"{target}: is one of the inputs ({source}); refusing to overwrite it, "
                              "choose another output file")
    return Target(target)


def _refuse_symlink_loop(target: Path) -> None:
    """A link that names itself (through one link or more) has no file to write: say so, before any work."""
    try:
        os.stat(target)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise OutputError(f"{target}: is a symlink loop (it names itself, through one link or more); "
                              "remove the link or choose another output file") from None


def _refuse_read_only(target: Path) -> None:
    """A file its owner made read-only is not replaced (as the shell's `>` would not write it either)."""
    if not target.is_file():
        return
    mode = stat.S_IMODE(target.stat().st_mode)
    if not mode & 0o222 or not os.access(target, os.W_OK):  # no write bit at all: refused even to root
        raise OutputError(f"{target}: is read-only (mode {mode:04o}); make it writable (chmod u+w) "
                          "or choose another output file")


def _new_file_mode(target: Path) -> int:
    """The replaced file's permissions, or for a new file what open() would give it: 0666 less the umask."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        pass
    umask = os.umask(0o022)  # the only way to read the umask is to set it: put it straight back
    os.umask(umask)
    return 0o666 & ~umask


def _checked(path: str | os.PathLike | Target, inputs: tuple) -> Target:
    return path if isinstance(path, Target) else check_target(path, inputs)


def same_file(source, target: Path) -> bool:
    """True when writing `target` would replace the file `source` (also through symlinks or other spellings)."""
    if not isinstance(source, (str, os.PathLike)):
        return False  # a DataFrame or a table: not a file
    try:
        if os.path.samefile(source, target):
            return True
    except OSError:
        pass  # one of them does not exist (yet)
    return Path(source).resolve() == target.resolve()


def write_bytes(parts: Iterable, path: str | os.PathLike | Target, inputs: tuple = ()) -> Path:
    """Write `parts` (bytes or Arrow buffers, in order) atomically to `path`: all of it, or nothing (the old file is kept).

    `parts` may be made as they are taken; an error while making them also leaves the old file.
    A pipe or a device (/dev/stdout, /dev/null, a FIFO) has no file to replace: it gets the bytes as
    they come. A symlink stays a symlink: the file it names is replaced.
    """
    target = _checked(path, inputs).path
    own = _standard_stream(target)
    if own is not None or (target.exists() and not target.is_file()):
        # nothing to replace: renaming a temporary file over /dev/stdout replaced the device's link
        # with a plain file, or the file the shell sent stdout to (all of a log opened with >>)
        return _write_through(parts, target, own)
    _refuse_symlink_loop(target)
    if target.is_symlink():
        target = target.resolve()
    mode = _new_file_mode(target)
    folder = target.parent
    import tempfile  # here: only a file written needs it, not every start-up

    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise OutputError(f"{target}: cannot write in {folder}: {error.strerror or error}") from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.writelines(parts)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)  # mkstemp makes it 0600
        os.replace(temporary, target)
    except BaseException as error:  # also Ctrl-C: never leave a half-written temporary file
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise OutputError(f"{target}: cannot be written: {error.strerror or error}") from None
        raise
    return target


# the names of a process's own standard streams
_STANDARD_STREAMS = {"/dev/stdout": "stdout", "/dev/fd/1": "stdout", "/proc/self/fd/1": "stdout",
                     "/dev/stderr": "stderr", "/dev/fd/2": "stderr", "/proc/self/fd/2": "stderr"}


def _standard_stream(target: Path):
    """This process's stdout or stderr (as bytes) when `target` names it, to write at its place: opened
    anew, a file the shell sent stdout to would be written from its start."""
    name = _STANDARD_STREAMS.get(os.path.abspath(target))
    return getattr(getattr(sys, name, None), "buffer", None) if name else None


def _write_through(parts: Iterable, target: Path, stream=None) -> Path:
    """The parts written straight into `stream`, or into the pipe or device `target`, in order."""
    try:
        if stream is not None:
            stream.writelines(parts)
            stream.flush()
        else:
            with open(target, "wb") as out:
                out.writelines(parts)
    except OSError as error:
        raise OutputError(f"{target}: cannot be written: {error.strerror or error}") from None
    return target
