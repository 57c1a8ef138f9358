"""The comparison table for people and papers: terminal, Markdown, LaTeX (booktabs); and as data.

The paper table has one row per run and one column per measure: the mean, the
best of each measure in bold, and a marker where the run differs from the
baseline by the first test asked for, its p-value adjusted:
† p < 0.05, ‡ p < 0.01 (markers against the baseline, not ranx's superscripts
naming every run beaten: with a baseline, that is the question asked).
The terminal also shows the details per run and measure: the difference,
wins / ties / losses, the effect size, the interval and each test's p-value.
CSV, TSV, JSON, JSON lines and Parquet hold every column of the comparison.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from .errors import OutputError
from .formats import escaping
from .significance import CORRECTIONS, TESTS

FORMATS = ("table", "markdown", "latex", "csv", "tsv", "json", "jsonl", "parquet")
_EXTENSIONS = {".txt": "table", ".md": "markdown", ".markdown": "markdown", ".tex": "latex", ".csv": "csv",
               ".tsv": "tsv", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet"}
MARKERS = ((0.01, "‡"), (0.05, "†"))
LATEX_MARKERS = {"‡": r"$^{\ddagger}$", "†": r"$^{\dagger}$"}


def format_for(path: str | os.PathLike) -> str:
    """The format a file name asks for: `table.tex` -> latex."""
    ext = Path(path).suffix.lower()
    if ext not in _EXTENSIONS:
        raise OutputError(f"{path}: cannot tell the format from the extension '{ext or '(none)'}' "
                          f"(known: {', '.join(sorted(_EXTENSIONS))}); pass a format ({', '.join(FORMATS)})")
    return _EXTENSIONS[ext]


def marker(row: dict, test: str) -> str:
    """‡ for an adjusted p < 0.01, † for p < 0.05, else nothing (the baseline's own row: nothing)."""
    p = row.get(f"{test}_p_adjusted")
    if p is None:
        return ""
    return next((sign for level, sign in MARKERS if p < level), "")


def legend(comparison, escape=escaping.terminal) -> str:
    """What the markers mean, the baseline's name put through the output's `escape`."""
    test = comparison.tests[0]
    adjusted = "" if comparison.correction == "none" or test == "tukey" else \
        f", {CORRECTIONS[comparison.correction]}-adjusted"
    return (f"† p < 0.05, ‡ p < 0.01 against the baseline {escape(comparison.baseline)} "
            f"({TESTS[test].split(' (')[0]}{adjusted})")


def _cells(comparison) -> tuple[list[str], list[list[tuple[str, str, bool]]]]:
    """The measures, and per run the (aggregate's text, marker, is best) of each measure.

    The best is the highest value as shown (the lowest for a measure better lower: Unjudged), marked
    only where there is something to choose (values differ) and never for a count (summed: NumRet),
    which describes a run rather than scores it, as in evaluate's paper tables.
    """
    from .formats import number

    rows = comparison.rows()
    by_key = {(row["run_id"], row["measure"]): row for row in rows}
    table = [[] for _ in comparison.runs]
    for measure in comparison.measures:
        summed = comparison.aggregates.get(measure) == "sum"
        texts = ["—" if by_key[run, measure]["mean"] is None else number(by_key[run, measure]["mean"], summed)
                 for run in comparison.runs]
        shown = {float(text) for text in texts if text != "—"}
        pick = min if measure in comparison.lower_is_better else max
        best = pick(shown) if len(shown) > 1 and not summed else None
        for line, run, text in zip(table, comparison.runs, texts):
            line.append((text, marker(by_key[run, measure], comparison.tests[0]),
                         text != "—" and float(text) == best))
    return comparison.measures, table


def _names(comparison, escape) -> list[str]:
    return [escape(run) + (" (baseline)" if run == comparison.baseline else "") for run in comparison.runs]


def terminal(comparison) -> str:
    """The paper table, the legend, the details per run and measure, and the notes."""
    measures, cells = _cells(comparison)
    lines = [["run", *map(escaping.terminal, measures)]]
    lines += [[name, *(text + sign for text, sign, _ in line)]
              for name, line in zip(_names(comparison, escaping.terminal), cells)]
    parts = [_align(lines, right=[False] + [True] * len(measures)), legend(comparison), "", _details(comparison)]
    parts += [""] + [escaping.notice(note) for note in comparison.notes]
    return "\n".join(parts)


def _details(comparison) -> str:
    level = f"{comparison.confidence:.0%}"
    header = ["run", "measure", "n", "mean", "Δ", "Δ%", "W/T/L", "d_z", f"{level} CI"]
    header += [f"p {test}" for test in comparison.tests]
    lines = [header]
    for row in comparison.rows():
        if row["run_id"] == comparison.baseline:
            continue
        line = [escaping.terminal(row["run_id"]), escaping.terminal(row["measure"]), str(row["queries"]),
                _number(row["mean"]), _signed(row["delta"]),
                _percent(row["delta_relative"]), f"{row['wins']}/{row['ties']}/{row['losses']}",
                _number(row["effect_size"], 2), _interval(row["ci_low"], row["ci_high"])]
        line += [_p(row[f"{test}_p_adjusted"]) for test in comparison.tests]
        lines.append(line)
    return _align(lines, right=[False, False] + [True] * (len(header) - 2))


def markdown(comparison) -> str:
    measures, cells = _cells(comparison)
    escape = escaping.markdown
    lines = ["| run | " + " | ".join(escape(m) for m in measures) + " |",
             "|:--|" + "--:|" * len(measures)]
    for name, line in zip(_names(comparison, escape), cells):
        shown = [(f"**{text}**" if best else text) + sign for text, sign, best in line]
        lines.append(f"| {name} | " + " | ".join(shown) + " |")
    return "\n".join(lines) + "\n\n" + legend(comparison, escape) + "\n"


def latex(comparison) -> str:
    """A booktabs table (\\usepackage{booktabs}): bold best, † / ‡ as math superscripts."""
    measures, cells = _cells(comparison)
    columns = "".join("lr"[numeric] for numeric in [False] + [True] * len(measures))  # runs left, numbers right
    lines = [r"\begin{tabular}{" + columns + "}", r"\toprule",
             "run & " + " & ".join(escaping.latex(m) for m in measures) + r" \\", r"\midrule"]
    for name, line in zip(_names(comparison, escaping.latex), cells):
        shown = [(rf"\textbf{{{text}}}" if best else text) + LATEX_MARKERS.get(sign, "") for text, sign, best in line]
        lines.append(name + " & " + " & ".join(shown) + r" \\")
    # the legend is the table's last row, under the rule, so that it prints with the table wherever it goes;
    # every name in it escaped
    caption = legend(comparison, escaping.latex).replace("<", r"$<$")
    caption = caption.replace("‡", r"$^{\ddagger}$").replace("†", r"$^{\dagger}$")
    lines += [r"\bottomrule", rf"\multicolumn{{{len(measures) + 1}}}{{l}}{{\footnotesize {caption}}} \\",
              r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def html(comparison) -> str:
    """The paper table and its legend as HTML: what a notebook shows for a Comparison."""
    from html import escape

    measures, cells = _cells(comparison)
    head = "".join(f"<th>{escape(m)}</th>" for m in measures)
    body = "".join(
        f"<tr><td>{name}</td>" + "".join(
            f"<td>{'<b>' + text + '</b>' if best else text}{sign}</td>" for text, sign, best in line) + "</tr>"
        for name, line in zip(_names(comparison, escape), cells))
    notes = "".join(f"<br>{escape(note)}" for note in comparison.notes)
    return (f"<table><thead><tr><th>run</th>{head}</tr></thead><tbody>{body}</tbody></table>"
            f"<p>{legend(comparison, escape)}{notes}</p>")


def write(comparison, path, fmt: str | None = None, inputs: tuple = ()) -> Path:
    """The comparison written atomically to `path`, in `fmt` or the format its extension names."""
    from . import export

    fmt = fmt or format_for(path)
    if fmt not in FORMATS:
        raise OutputError(f"unknown format {fmt!r} for a comparison: expected one of {', '.join(FORMATS)}")
    text = {"table": terminal, "markdown": markdown, "latex": latex}.get(fmt)
    if text is not None:
        ending = "" if fmt != "table" else "\n"
        return export.write_bytes([(text(comparison) + ending).encode()], path, inputs)
    return export.write_arrow(comparison.to_arrow(), path, fmt, inputs)


def encode(comparison, fmt: str) -> bytes:
    """The comparison in `fmt`, as bytes for stdout."""
    from . import export

    if fmt not in FORMATS:
        raise OutputError(f"unknown format {fmt!r} for a comparison: expected one of {', '.join(FORMATS)}")
    text = {"table": terminal, "markdown": markdown, "latex": latex}.get(fmt)
    if text is not None:
        return (text(comparison) + ("\n" if fmt == "table" else "")).encode()
    return export.render_arrow(comparison.to_arrow(), fmt)


def _align(lines: list[list[str]], right: list[bool]) -> str:
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    out = []
    for number, line in enumerate(lines):
        out.append("  ".join(cell.rjust(width) if flush else cell.ljust(width)
                             for cell, width, flush in zip(line, widths, right)).rstrip())
        if number == 0:
            out.append("  ".join("-" * width for width in widths))
    return "\n".join(out)


def _number(value, digits: int = 4) -> str:
    return "—" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def _signed(value) -> str:
    return "—" if value is None else f"{value:+.4f}"


def _percent(value) -> str:
    return "—" if value is None else f"{value:+.1%}"


def _interval(low, high) -> str:
    return "—" if low is None or high is None else f"[{low:+.4f}, {high:+.4f}]"


def _p(value) -> str:
    if value is None:
        return "—"
    return f"{value:.4f}" if value >= 0.0001 else f"{value:.1e}"
