"""Results out: terminal table, CSV/TSV, JSON, JSON lines, Parquet and trec_eval's text layout.

Files are written atomically: to a temporary name in the target folder, then
renamed over the target, so an existing output is replaced only by a complete
new one and a failed write leaves nothing behind.
"""

from __future__ import annotations

import html
import json
import os
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from .errors import OutputError

FORMATS = ("table", "csv", "tsv", "json", "jsonl", "parquet", "trec")
_EXTENSIONS = {".csv": "csv", ".tsv": "tsv", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl",
               ".parquet": "parquet", ".txt": "table", ".trec": "trec"}


def format_for(path: str | os.PathLike) -> str:
    ext = Path(path).suffix.lower()
    if ext not in _EXTENSIONS:
        raise OutputError(f"{path}: cannot tell the format from the extension '{ext or '(none)'}'; "
                          f"pass a format ({', '.join(FORMATS)})")
    return _EXTENSIONS[ext]


def _rows(result, per_query: bool) -> pa.Table:
    table = result.to_arrow()
    if not per_query:
        table = table.filter(pc.equal(table["query_id"], "all"))
    return table


def _number(value: float, measure: str) -> str:
    from .measures import REGISTRY

    name = measure.split("(")[0].split("@")[0]
    if name in REGISTRY and REGISTRY[name].count and float(value).is_integer():
        return str(int(value))
    return f"{value:.4f}"


def format_table(result, per_query: bool = False) -> str:
    """Aligned text for people: one row per (query, measure), one column per run."""
    table = _rows(result, per_query)
    runs = result.runs
    cells: dict[tuple[str, str], dict[str, float]] = {}
    for row in table.to_pylist():
        cells.setdefault((row["query_id"], row["measure"]), {})[row["run_id"]] = row["value"]
    header = (["query"] if per_query else []) + ["measure"] + runs
    lines = [header]
    for (query_id, measure), values in cells.items():
        shown = [_number(values[r], measure) if r in values else "" for r in runs]
        lines.append(([query_id] if per_query else []) + [measure] + shown)
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(header))]
    label_columns = 2 if per_query else 1
    out = []
    for number, line in enumerate(lines):
        out.append("  ".join(str(c).ljust(w) if i < label_columns else str(c).rjust(w)
                             for i, (c, w) in enumerate(zip(line, widths))).rstrip())
        if number == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


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


def format_trec(result, per_query: bool = True) -> str:
    """trec_eval's layout: `measure<pad 22>\\tquery\\tvalue`, 4 decimals, trec_eval names, runs one after another."""
    from .measures import parse, trec_name

    names = {m: trec_name(parse(m)[0]) for m in result.measures}
    table = _rows(result, per_query)
    lines = []
    for row in table.to_pylist():
        prefix = f"{row['run_id']}\t" if len(result.runs) > 1 else ""
        name = names.get(row["measure"], row["measure"])
        lines.append(f"{prefix}{name:<22}\t{row['query_id']}\t{_number(row['value'], row['measure'])}")
    return "\n".join(lines) + ("\n" if lines else "")


def render(result, fmt: str, per_query: bool = False) -> bytes:
    """The bytes of the result in format `fmt`."""
    if fmt not in FORMATS:
        raise OutputError(f"unknown format '{fmt}' (expected one of: {', '.join(FORMATS)})")
    if fmt == "table":
        return (format_table(result, per_query) + "\n").encode()
    if fmt == "trec":
        return format_trec(result, per_query).encode()
    table = _rows(result, per_query)
    if fmt in ("csv", "tsv"):
        sink = pa.BufferOutputStream()
        pa_csv.write_csv(table, sink, pa_csv.WriteOptions(delimiter="," if fmt == "csv" else "\t", quoting_style="needed"))
        return sink.getvalue().to_pybytes()
    if fmt == "json":
        return (json.dumps(table.to_pylist(), indent=1) + "\n").encode()
    if fmt == "jsonl":
        return "".join(json.dumps(row) + "\n" for row in table.to_pylist()).encode()
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()


def write(result, path: str | os.PathLike, fmt: str | None = None, per_query: bool = False,
          inputs: tuple = ()) -> Path:
    """Write atomically to `path`; refuses to overwrite one of the `inputs`."""
    target = Path(path)
    fmt = fmt or format_for(target)
    for source in inputs:
        if isinstance(source, (str, os.PathLike)) and Path(source).exists() and target.exists() \
                and os.path.samefile(source, target):
            raise OutputError(f"{target}: is one of the inputs; refusing to overwrite it, choose another output file")
    data = render(result, fmt, per_query)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise OutputError(f"{target}: the folder {folder} does not exist; create it first")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise OutputError(f"{target}: cannot write in {folder}: {error.strerror}") from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise OutputError(f"{target}: cannot be written: {error.strerror or error}") from None
    return target
