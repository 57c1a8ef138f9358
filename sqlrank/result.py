"""The result of an evaluation: a long table, the parsed measures, and the report of what the policies did.

The output formats (sqlrank.formats, written by sqlrank.export) read a Result
through its methods; this module imports none of them but the terminal table,
with which a Result shows itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pyarrow is imported by whoever made the table; importing it here would only slow `import sqlrank`
    import pyarrow as pa

    from .measures import Measure


@dataclass
class RunReport:
    queries: int = 0  # queries of the run (judged or not)
    missing_queries: list[str] = field(default_factory=list)  # qrels queries the run does not have
    run_only_queries: int = 0  # run queries without judgments: left out


@dataclass
class Report:
    """What happened to the inputs, so that no one has to guess why a mean changed."""

    qrels_label: str = ""
    missing_policy: str = "zero"
    depth: int | None = None  # rankings cut at this rank (trec_eval -M)
    duplicates_policy: str = "error"
    qrels_queries: int = 0
    qrels_duplicates_dropped: int = 0
    run_sources: list[tuple[str | None, str, int]] = field(default_factory=list)  # (name, label, duplicates dropped)
    runs: dict[str, RunReport] = field(default_factory=dict)
    run_tables: list[tuple[str | None, str]] = field(default_factory=list)  # (run_id or None, canonical table)
    input_notes: list[str] = field(default_factory=list)  # what the loaders did that changes values
    ties: str = "trec"  # the tie policy (docs/tie-policies.md)
    tie_groups: dict[str, tuple[int, int]] = field(default_factory=dict)  # run -> (tie groups, documents in them)

    def notices(self) -> list[str]:
        """One line per thing the user should know; empty when nothing was filled, skipped or dropped."""
        lines = list(self.input_notes)
        if self.qrels_duplicates_dropped:
            lines.append(duplicates_notice(self.qrels_label, "qrels", self.qrels_duplicates_dropped,
                                           self.duplicates_policy))
        for name, label, dropped in self.run_sources:
            if dropped:
                # "<pandas DataFrame>" says little when several runs are given: name the run instead
                source = f"run '{name}'" if name and label.startswith("<") else label
                lines.append(duplicates_notice(source, "run", dropped, self.duplicates_policy))
        action = {"zero": "scored 0", "skip": "left out of the mean", "error": "refused"}[self.missing_policy]
        for run_id, run in self.runs.items():
            if run.missing_queries:
                shown = ", ".join(run.missing_queries[:3]) + (", ..." if len(run.missing_queries) > 3 else "")
                lines.append(f"run '{run_id}': {len(run.missing_queries)} of {self.qrels_queries} qrels queries "
                             f"have no documents ({shown}): {action} (missing='{self.missing_policy}')")
            if run.run_only_queries:
                lines.append(f"run '{run_id}': {_count(run.run_only_queries, 'query', 'queries')} without judgments "
                             "left out")
        for run_id, (groups, documents) in self.tie_groups.items():
            lines.append(f"run '{run_id}': {_count(groups, 'tie group', 'tie groups')} (documents of equal score in "
                         f"one query) holding {documents} documents, under ties='{self.ties}'")
        if self.depth is not None:
            lines.append(f"rankings cut at depth {self.depth}: documents below rank {self.depth} ignored "
                         f"(depth={self.depth})")
        return lines


_ALL_ROWS = "SELECT * FROM result_rows WHERE query_id = 'all'"
_QUERY_ROWS = "SELECT * FROM result_rows WHERE query_id <> 'all'"


def where_all(table: pa.Table, is_all: bool) -> pa.Table:
    """The rows whose query_id is (or is not) 'all', in their order; a null query_id is neither.

    DuckDB filters, not pyarrow: where pandas is installed, pyarrow imports it on its first
    compute call or filter, most of a small evaluation's fixed cost (docs/performance.md).
    """
    import duckdb

    with duckdb.connect() as con:
        con.register("result_rows", table)
        sql = _ALL_ROWS if is_all else _QUERY_ROWS
        return con.sql(sql).to_arrow_table()



def duplicates_notice(source: str, kind: str, dropped: int, policy: str) -> str:
    """'<source>: 2 duplicate run rows dropped, kept the highest score (duplicates='max')'."""
    row, value = ("judgment row", "label") if kind == "qrels" else ("run row", "score")
    kept = {"first": "kept the first", "max": "kept the highest"}.get(policy, "")
    return f"{source}: {_count(dropped, 'duplicate ' + row)} dropped, {kept} {value} (duplicates='{policy}')"


def _count(number: int, singular: str, plural: str | None = None) -> str:
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


class Result:
    """Long table (run_id, query_id, measure, value); `query_id = 'all'` rows hold the means.

    `measures` are the names of the measure column (what `summary` is indexed by),
    `parsed_measures` the sqlrank.Measure objects behind them, in the same order.
    """

    def __init__(self, table: pa.Table, measures: list[Measure], report: Report):
        self._table = table
        self.parsed_measures = list(measures)
        self.measures = [str(m) for m in self.parsed_measures]
        self._by_name = dict(zip(self.measures, self.parsed_measures))
        self.report = report
        # the runs that have rows, in the table's order (both in the order given), from the report rather
        # than from the table's run_id column (which would need pyarrow.compute, slow to import): every
        # run has a row per qrels query, unless missing='skip' leaves out all of a run's queries
        self.runs = [run_id for run_id, run in report.runs.items()
                     if report.missing_policy != "skip" or run.queries > run.run_only_queries]

    # conversions
    def to_arrow(self) -> pa.Table:
        return self._table

    def to_pandas(self):
        return self._table.to_pandas()

    def to_polars(self):
        import polars as pl

        return pl.from_arrow(self._table)

    @property
    def summary(self) -> dict:
        """{measure: mean} for one run, {run_id: {measure: mean}} for several."""
        by_run: dict[str, dict[str, float]] = {run: {} for run in self.runs}
        for row in where_all(self._table, True).to_pylist():
            by_run[row["run_id"]][row["measure"]] = row["value"]
        return next(iter(by_run.values())) if len(by_run) == 1 else by_run

    @property
    def per_query(self) -> pa.Table:
        """The per-query rows (no `all` rows), long form."""
        return where_all(self._table, False)

    def rows(self, per_query: bool = False) -> pa.Table:
        """The rows a report shows, long form: the `all` rows (the means), or with per_query all of them."""
        return self._table if per_query else where_all(self._table, True)

    def measure(self, name: str) -> Measure:
        """The parsed measure behind a name of the measure column ("nDCG@10")."""
        return self._by_name[name]

    def notices(self) -> list[str]:
        return self.report.notices()

    def plot(self, kind: str, path=None, **options):
        """A picture of this result (sqlrank.plots: cutoff, delta, pr, distribution); needs matplotlib."""
        from .plots import plot

        return plot(self, kind, path, **options)

    def __len__(self) -> int:
        return self._table.num_rows

    def __str__(self) -> str:
        from .formats.table import result_text

        return result_text(self, per_query=False)

    def __repr__(self) -> str:
        return f"<sqlrank.Result {len(self.runs)} run(s), {len(self.measures)} measure(s)>\n{self}"

    def _repr_html_(self) -> str:
        from .formats.table import result_html

        return result_html(self)
