"""`table`: aligned text for people, the default on a terminal (and its HTML twin for notebooks).

A Result shows one row per measure (per query and measure with per_query) and
one column per run; any other table shows its own columns.
"""

from __future__ import annotations

import html

from . import align, cell, escaped, numeric, shown


def result_text(result, per_query: bool = False) -> str:
    """The Result's values, one column per run: what `print(result)` shows."""
    runs = result.runs
    cells: dict[tuple[str, str], dict[str, float]] = {}
    for row in result.rows(per_query).to_pylist():
        cells.setdefault((row["query_id"], row["measure"]), {})[row["run_id"]] = row["value"]
    # ids are shown with a tab or line break escaped, so that each row stays one line
    lines = [(["query"] if per_query else []) + ["measure"] + [escaped(r) for r in runs]]
    for (query_id, measure), values in cells.items():
        texts = [shown(result, measure, values[r]) if r in values else "" for r in runs]
        lines.append(([escaped(query_id)] if per_query else []) + [escaped(measure)] + texts)
    labels = 2 if per_query else 1
    return align(lines, right=[False] * labels + [True] * len(runs))


def result_html(result) -> str:
    """The means as an HTML table: what a notebook shows for a Result."""
    runs = result.runs
    cells: dict[str, dict[str, float]] = {}
    for row in result.rows().to_pylist():
        cells.setdefault(row["measure"], {})[row["run_id"]] = row["value"]
    head = "".join(f"<th>{html.escape(r)}</th>" for r in runs)
    body = "".join(
        f"<tr><td>{html.escape(m)}</td>"
        + "".join(f"<td>{shown(result, m, v[r]) if r in v else ''}</td>" for r in runs) + "</tr>"
        for m, v in cells.items()
    )
    return f"<table><thead><tr><th>measure</th>{head}</tr></thead><tbody>{body}</tbody></table>"


def table_text(table) -> str:
    """Any Arrow table, its columns as they are; numbers flush right."""
    if table.num_columns == 0:
        return "(no columns)"
    lines = [[escaped(name) for name in table.column_names]]
    columns = [column.to_pylist() for column in table.columns]  # by position: SQL allows two columns named alike
    lines += [[escaped(cell(value)) for value in row] for row in zip(*columns)]
    return align(lines, right=numeric(table))


def render_result(result, per_query: bool) -> list[bytes]:
    return [(result_text(result, per_query) + "\n").encode()]


def render_table(table) -> list[bytes]:
    return [(table_text(table) + "\n").encode()]
