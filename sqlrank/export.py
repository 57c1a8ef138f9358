"""Results out: terminal table, CSV/TSV, JSON, JSON lines, Parquet and trec_eval's text layout.

Two kinds of tables go out: a `Result` of `evaluate` (`render`, `write`) and any
Arrow table, such as what `sqlrank query` selects (`render_arrow`, `write_arrow`).

Files are written atomically: to a temporary name in the target folder, then
renamed over the target, so an existing output is replaced only by a complete
new one and a failed write leaves nothing behind. `check_target` refuses an
output that is one of the inputs; call it before the work, so that a long
evaluation is not thrown away at the end.

CSV, TSV and Parquet go through Arrow's writers, and their buffers are written
to the file without a copy. Arrow's CSV writer uses one core, so a big table is
encoded in slices of CSV_SLICE_ROWS rows on one thread per core, and each slice
is written, in order, while the next ones are encoded. pyarrow.csv and
pyarrow.parquet are imported only by the formats that need them (~30 ms for
Parquet).
"""

from __future__ import annotations

import html
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

from .errors import OutputError
from .result import where_all

if TYPE_CHECKING:
    import pyarrow as pa

FORMATS = ("table", "csv", "tsv", "json", "jsonl", "parquet", "trec")
_EXTENSIONS = {".csv": "csv", ".tsv": "tsv", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl",
               ".parquet": "parquet", ".txt": "table", ".trec": "trec"}
TREC_NAME_WIDTH = 22  # trec_eval pads measure names to 22 characters (printf "%-22s")


def format_for(path: str | os.PathLike) -> str:
    """The format a file name asks for: `results.csv` -> csv."""
    ext = Path(path).suffix.lower()
    if ext not in _EXTENSIONS:
        known = ", ".join(sorted(_EXTENSIONS))
        raise OutputError(f"{path}: cannot tell the format from the extension '{ext or '(none)'}' "
                          f"(known: {known}); pass a format ({', '.join(FORMATS)})")
    return _EXTENSIONS[ext]


# ---------------------------------------------------------------- a Result of evaluate()

def _rows(result, per_query: bool) -> pa.Table:
    table = result.to_arrow()
    return table if per_query else where_all(table, True)


def _number(value: float, measure: str) -> str:
    """4 decimals, as trec_eval prints; counts (summed, not averaged) as whole numbers."""
    from .measures import REGISTRY

    name = measure.split("(")[0].split("@")[0]
    if name in REGISTRY and REGISTRY[name].aggregate == "sum" and float(value).is_integer():
        return str(int(value))
    return f"{value:.4f}"


def _align(lines: list[list[str]], right: list[bool]) -> str:
    """Columns padded to their widest cell, a rule under the header; text left, numbers (`right`) right."""
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    out = []
    for number, line in enumerate(lines):
        out.append("  ".join(cell.rjust(width) if flush_right else cell.ljust(width)
                             for cell, width, flush_right in zip(line, widths, right)).rstrip())
        if number == 0:
            out.append("  ".join("-" * width for width in widths))
    return "\n".join(out)


def format_table(result, per_query: bool = False) -> str:
    """Aligned text for people: one row per (query, measure), one column per run."""
    table = _rows(result, per_query)
    runs = result.runs
    cells: dict[tuple[str, str], dict[str, float]] = {}
    for row in table.to_pylist():
        cells.setdefault((row["query_id"], row["measure"]), {})[row["run_id"]] = row["value"]
    lines = [(["query"] if per_query else []) + ["measure"] + runs]
    for (query_id, measure), values in cells.items():
        shown = [_number(values[r], measure) if r in values else "" for r in runs]
        lines.append(([query_id] if per_query else []) + [measure] + shown)
    labels = 2 if per_query else 1
    return _align(lines, right=[False] * labels + [True] * len(runs))


def format_html(result) -> str:
    table = _rows(result, per_query=False)
    runs = result.runs
    cells: dict[str, dict[str, float]] = {}
    for row in table.to_pylist():
        cells.setdefault(row["measure"], {})[row["run_id"]] = row["value"]
    head = "".join(f"<th>{html.escape(r)}</th>" for r in runs)
    body = "".join(
        f"<tr><td>{html.escape(m)}</td>" + "".join(f"<td>{_number(v[r], m) if r in v else ''}</td>" for r in runs) + "</tr>"
        for m, v in cells.items()
    )
    return f"<table><thead><tr><th>measure</th>{head}</tr></thead><tbody>{body}</tbody></table>"


def _trec_line(run_id: str | None, name: str, query_id: str, value: str) -> str:
    prefix = f"{run_id}\t" if run_id is not None else ""
    return f"{prefix}{name:<{TREC_NAME_WIDTH}}\t{query_id}\t{value}"


def format_trec(result, per_query: bool = True) -> str:
    """trec_eval's layout: `measure<pad 22>\\tquery\\tvalue`, 4 decimals, trec_eval names.

    Several runs come one after another, each line starting with its run id
    (trec_eval evaluates one run at a time, so it has no such column).
    """
    from .measures import parse, trec_name

    names = {m: trec_name(parse(m)[0]) for m in result.measures}
    several = len(result.runs) > 1
    lines = [_trec_line(row["run_id"] if several else None, names.get(row["measure"], row["measure"]),
                        row["query_id"], _number(row["value"], row["measure"]))
             for row in _rows(result, per_query).to_pylist()]
    return "".join(line + "\n" for line in lines)


def render(result, fmt: str, per_query: bool = False) -> bytes:
    """The bytes of the result in format `fmt`."""
    return b"".join(_encode(result, fmt, per_query))


def _encode(result, fmt: str, per_query: bool) -> Iterable:
    """The result in format `fmt`, as parts (bytes, or Arrow buffers that write() writes without a copy)."""
    _check_format(fmt)
    if fmt == "table":
        return [(format_table(result, per_query) + "\n").encode()]
    if fmt == "trec":
        return [format_trec(result, per_query).encode()]
    return _encode_columns(_rows(result, per_query), fmt)


# ---------------------------------------------------------------- any Arrow table (sqlrank query)

def render_arrow(table: pa.Table, fmt: str) -> bytes:
    """The bytes of any table in format `fmt`; `trec` needs the columns measure, query_id and value."""
    return b"".join(_encode_arrow(table, fmt))


def _encode_arrow(table: pa.Table, fmt: str) -> Iterable:
    _check_format(fmt)
    if fmt == "table":
        return [(_plain_table(table) + "\n").encode()]
    if fmt == "trec":
        return [_plain_trec(table).encode()]
    return _encode_columns(table, fmt)


def _cell(value) -> str:
    return "NULL" if value is None else str(value)


def _plain_table(table: pa.Table) -> str:
    import pyarrow as pa

    if table.num_columns == 0:
        return "(no columns)"
    numeric = [pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t) for t in table.schema.types]
    lines = [list(table.column_names)]
    columns = [column.to_pylist() for column in table.columns]  # by position: SQL allows two columns named alike
    lines += [[_cell(value) for value in row] for row in zip(*columns)]
    return _align(lines, right=numeric)


def _plain_trec(table: pa.Table) -> str:
    import pyarrow as pa

    needed = ("measure", "query_id", "value")
    if any(name not in table.column_names for name in needed):
        raise OutputError(f"the trec format needs the columns {', '.join(needed)} (found "
                          f"{', '.join(table.column_names) or 'none'}); rename them with AS, or choose another format")
    whole = pa.types.is_integer(table.schema.field("value").type)
    several = "run_id" in table.column_names and len(set(table["run_id"].to_pylist())) > 1
    lines = [_trec_line(_cell(row["run_id"]) if several else None, _cell(row["measure"]), _cell(row["query_id"]),
                        "NULL" if row["value"] is None else str(row["value"]) if whole
                        else _number(float(row["value"]), _cell(row["measure"])))
             for row in table.to_pylist()]
    return "".join(line + "\n" for line in lines)


def _encode_columns(table: pa.Table, fmt: str) -> Iterator:
    """csv, tsv, json, jsonl, parquet: the table's own columns and types, as parts to write in order.

    The parts are made as they are taken (so a CSV is written while it is encoded): an error of
    Arrow's comes out of the iteration, as an OutputError.
    """
    import pyarrow as pa

    try:
        if fmt in ("csv", "tsv"):
            yield from _delimited(table, "," if fmt == "csv" else "\t")
        elif fmt in ("json", "jsonl"):
            yield _json_text(table, fmt).encode()
        else:
            import pyarrow.parquet as pq

            sink = pa.BufferOutputStream()
            pq.write_table(table, sink)
            yield sink.getvalue()
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError) as error:
        # e.g. a LIST column selected by `sqlrank query` has no CSV form
        raise OutputError(f"cannot write the result as {fmt}: {error}; choose json, jsonl or parquet, "
                          "or select plain columns") from None


# Rows per CSV slice. Small slices keep each of Arrow's output buffers small (a buffer grown to
# tens of MB by doubling costs its copies and fresh pages) and let the file be written while the
# next slices are encoded. 3M rows (95 MB), fresh processes, 4 runs each: 0.14-0.16 s in slices
# of 262,144 rows against 0.30-0.66 s in one slice per core, written after all were encoded.
CSV_SLICE_ROWS = 1 << 18


def _delimited(table: pa.Table, delimiter: str) -> Iterator:
    """CSV or TSV, header first, one buffer per slice of the table, in order."""
    import pyarrow as pa
    import pyarrow.csv as pa_csv

    def encode(first_row: int):
        sink = pa.BufferOutputStream()
        options = pa_csv.WriteOptions(include_header=first_row == 0, delimiter=delimiter, quoting_style="needed")
        pa_csv.write_csv(table.slice(first_row, CSV_SLICE_ROWS), sink, options)
        return sink.getvalue()

    starts = range(0, max(table.num_rows, 1), CSV_SLICE_ROWS)  # an empty table still has its header
    if len(starts) == 1:
        yield encode(0)
        return
    from concurrent.futures import ThreadPoolExecutor

    # pyarrow releases the GIL while it encodes, so the slices are encoded in parallel; map()
    # hands them back in order, each as soon as it and those before it are done
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        yield from pool.map(encode, starts)


def _json_text(table: pa.Table, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(table.to_pylist(), indent=1, default=str) + "\n"
    return "".join(json.dumps(row, default=str) + "\n" for row in table.to_pylist())


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise OutputError(f"unknown format '{fmt}' (expected one of: {', '.join(FORMATS)})")


# ---------------------------------------------------------------- writing files

def check_target(path: str | os.PathLike, inputs: tuple = ()) -> Path:
    """Refuse an output that cannot be written: missing folder, a folder, or one of the `inputs`."""
    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        raise OutputError(f"{target}: the folder {folder} does not exist; create it first")
    if target.is_dir():
        raise OutputError(f"{target}: is a folder; name a file to write")
    for source in inputs:
        if _same_file(source, target):
            raise OutputError(f"{target}: is one of the inputs ({source}); refusing to overwrite it, "
                              "choose another output file")
    return target


def _same_file(source, target: Path) -> bool:
    """True when writing `target` would replace the file `source` (also through symlinks or other spellings)."""
    if not isinstance(source, (str, os.PathLike)):
        return False  # a DataFrame or a table: not a file
    try:
        if os.path.samefile(source, target):
            return True
    except OSError:
        pass  # one of them does not exist (yet)
    return Path(source).resolve() == target.resolve()


def write_bytes(parts: Iterable, path: str | os.PathLike, inputs: tuple = ()) -> Path:
    """Write `parts` (bytes or Arrow buffers, in order) atomically to `path`: all of it, or nothing (the old file is kept).

    `parts` may be made as they are taken; an error while making them also leaves the old file.
    A pipe or a device (/dev/stdout, /dev/null, a FIFO) has no file to replace: it gets the bytes as
    they come. A symlink stays a symlink: the file it names is replaced.
    """
    target = check_target(path, inputs)
    own = _standard_stream(target)
    if own is not None or (target.exists() and not target.is_file()):
        # nothing to replace: renaming a temporary file over /dev/stdout replaced the device's link
        # with a plain file, or the file the shell sent stdout to (all of a log opened with >>)
        return _write_through(parts, target, own)
    if target.is_symlink():
        target = target.resolve()
    folder = target.parent
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise OutputError(f"{target}: cannot write in {folder}: {error.strerror or error}") from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.writelines(parts)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)
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


def write(result, path: str | os.PathLike, fmt: str | None = None, per_query: bool = False,
          inputs: tuple = ()) -> Path:
    """Write a Result atomically to `path` (format from the extension unless given); refuses to overwrite an input."""
    check_target(path, inputs)
    return write_bytes(_encode(result, fmt or format_for(path), per_query), path, inputs)


def write_arrow(table: pa.Table, path: str | os.PathLike, fmt: str | None = None, inputs: tuple = ()) -> Path:
    """Write any Arrow table atomically to `path` (format from the extension unless given)."""
    check_target(path, inputs)
    return write_bytes(_encode_arrow(table, fmt or format_for(path)), path, inputs)
