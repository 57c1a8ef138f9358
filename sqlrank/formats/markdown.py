"""`markdown`: a GitHub-flavoured Markdown table, runs as rows and measures as columns, the best in bold.

The columns are padded so that the text reads as a table before it is rendered
too. Any other table (`sqlrank query`) keeps its own columns, nothing in bold.
"""

from __future__ import annotations

from . import cell, escaping, numeric, pad, widths
from .grid import grid


def render_result(result, per_query: bool) -> list[bytes]:
    lines, right = grid(result, per_query).cells(len(result.measures), _escape, lambda text: f"**{text}**")
    return [_table(lines, right).encode()]


def render_table(table) -> list[bytes]:
    lines = [[_escape(name) for name in table.column_names]]
    columns = [column.to_pylist() for column in table.columns]  # by position: SQL allows two columns named alike
    lines += [[_escape(cell(value)) for value in row] for row in zip(*columns)]
    return [_table(lines, numeric(table)).encode()] if table.num_columns else [b""]


def _escape(text: str) -> str:
    return escaping.markdown(text)


def _table(lines: list[list[str]], right: list[bool]) -> str:
    column_widths = [max(width, 3) for width in widths(lines)]  # a rule is at least ---
    rule = [("-" * (width - 1) + ":") if flush_right else (":" + "-" * (width - 1))
            for width, flush_right in zip(column_widths, right)]
    out = [pad(line, column_widths, right) for line in lines]
    out.insert(1, rule)
    return "".join("| " + " | ".join(line) + " |\n" for line in out)
