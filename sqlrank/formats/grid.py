"""The layout of a paper's results table, for markdown and latex: runs as rows, measures as columns.

With per_query, one row per query and run, the runs of a query together (the
`all` rows, the means, last). In each column the best value of the runs (of a
query) is marked, as papers print it in bold: the highest value as shown, all of
them when several share it. Nothing is marked where there is nothing to choose
(one run, or every run shows the same value) nor for counts (NumRet, NumRel,
... summed in the `all` row), which describe a run rather than score it.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import shown, summed


@dataclass
class Row:
    labels: list[str]  # the run, or the query and the run
    values: list[str]  # one per measure, as shown; "" where the run has no value
    best: list[bool]  # the values to mark
    first_of_query: bool  # the first row of a query's group (per_query)


@dataclass
class Grid:
    header: list[str]  # label columns, then the measures
    rows: list[Row]

    def cells(self, measures: int, escape, bold) -> tuple[list[list[str]], list[bool]]:
        """The header and rows as text cells, labels escaped and the best values put through `bold`;
        and which columns hold numbers (the last `measures`)."""
        lines = [[escape(text) for text in self.header]]
        lines += [[escape(text) for text in row.labels]
                  + [bold(text) if best else text for text, best in zip(row.values, row.best)]
                  for row in self.rows]
        return lines, [False] * (len(self.header) - measures) + [True] * measures


def grid(result, per_query: bool = False) -> Grid:
    """The Result's values laid out runs × measures, the best of each column marked."""
    values: dict[tuple[str, str], dict[str, float]] = {}
    for row in result.rows(per_query).to_pylist():
        values.setdefault((row["query_id"], row["run_id"]), {})[row["measure"]] = row["value"]
    queries = list(dict.fromkeys(query for query, _ in values))
    queries.sort(key=lambda query: query == "all")  # the means after every query (a stable sort)
    rows = []
    for query in queries:
        group = [(run, values[(query, run)]) for run in result.runs if (query, run) in values]
        texts = [[shown(result, m, cells[m]) if m in cells else "" for m in result.measures] for _, cells in group]
        marks = _best(result, texts)
        for number, ((run, _), shown_values, best) in enumerate(zip(group, texts, marks)):
            rows.append(Row([query, run] if per_query else [run], shown_values, best, number == 0))
    return Grid((["query", "run"] if per_query else ["run"]) + list(result.measures), rows)


def _best(result, texts: list[list[str]]) -> list[list[bool]]:
    """For each row of a group, which of its values are the highest of their column (see the module's note)."""
    marks = [[False] * len(result.measures) for _ in texts]
    for column, name in enumerate(result.measures):
        if summed(result.measure(name)):
            continue
        shown_values = {float(row[column]) for row in texts if row[column]}
        if len(shown_values) < 2:
            continue
        top = max(shown_values)
        for row, row_marks in zip(texts, marks):
            row_marks[column] = bool(row[column]) and float(row[column]) == top
    return marks
