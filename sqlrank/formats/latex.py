r"""`latex`: a booktabs tabular, runs as rows and measures as columns, the best in bold.

Paste it into a `table` environment (with a caption) of a document that loads
`\usepackage{booktabs}`. With per_query, a rule separates the queries. Any other
table (`sqlrank query`) keeps its own columns, nothing in bold.
"""

from __future__ import annotations

from . import cell, escaping, numeric, pad, widths
from .grid import grid


def render_result(result, per_query: bool) -> list[bytes]:
    layout = grid(result, per_query)
    lines, right = layout.cells(len(result.measures), _escape, lambda text: rf"\textbf{{{text}}}")
    rules_before = {number + 1 for number, row in enumerate(layout.rows) if row.first_of_query and number > 0}
    return [_tabular(lines, right, rules_before).encode()]


def render_table(table) -> list[bytes]:
    lines = [[_escape(name) for name in table.column_names]]
    columns = [column.to_pylist() for column in table.columns]  # by position: SQL allows two columns named alike
    lines += [[_escape(cell(value)) for value in row] for row in zip(*columns)]
    return [_tabular(lines, numeric(table), set()).encode()] if table.num_columns else [b""]


def _escape(text: str) -> str:
    return escaping.latex(text)


def _tabular(lines: list[list[str]], right: list[bool], rules_before: set[int]) -> str:
    """`lines` (the header first) between booktabs rules; a \\midrule also before each line in `rules_before`."""
    column_widths = widths(lines)
    columns = "".join("lr"[flush_right] for flush_right in right)  # text flush left, numbers flush right
    out = [r"\begin{tabular}{" + columns + "}", r"\toprule"]
    for number, line in enumerate(lines):
        if number == 1 or number in rules_before:
            out.append(r"\midrule")
        out.append(" & ".join(pad(line, column_widths, right)) + r" \\")
    out += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(out) + "\n"
