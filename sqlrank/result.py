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
    # the integer type every input's query ids had (BIGINT...), which per_query and wide() give back; None: text
    query_id_type: str | None = None
    # the inputs' own name of their query id column (`user_id`), which per_query and wide() give back
    query_id_name: str = "query_id"
    empty_runs: list[str] = field(default_factory=list)  # runs without rows, scored under the missing policy
    input_notes: list[str] = field(default_factory=list)  # what the loaders did that changes values
    run_tags: dict[str, str | None] = field(default_factory=dict)  # a TREC run's tag (its first line's), by run
    # the runs as loaded (readers.Loaded): files read in place are checked unchanged after their last read
    run_inputs: list = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # what is almost surely a mistake: shown first
    doc_columns: dict[str, str | None] = field(default_factory=dict)  # run table -> the column read as doc_id
    ties: str = "trec"  # the tie policy (docs/tie-policies.md)
    tie_groups: dict[str, tuple[int, int]] = field(default_factory=dict)  # run -> (tie groups, documents in them)
    # qrels queries without a label >= empty_level, and what the empty policy did with them (checks/empty_truth.py)
    empty_queries: list[str] = field(default_factory=list)
    empty_policy: str = "zero"
    empty_level: float = 1.0
    zscores: str | None = None  # the -Z file the values are z-scores against (sqlrank.zscores), else None

    def notices(self) -> list[str]:
        """One line per thing the user should know; empty when nothing was filled, skipped or dropped."""
        lines = list(self.warnings) + list(self.input_notes)
        if self.empty_queries:
            from .checks.empty_truth import empty_notice

            lines.append(empty_notice(self))
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
            if run_id in self.empty_runs:  # one notice: its queries are all missing, which this says
                lines.append(f"run '{run_id}': the run has no rows: every qrels query is {action} "
                             f"(missing='{self.missing_policy}')")
            elif run.missing_queries:
                missing = sorted(run.missing_queries, key=id_order)
                shown = ", ".join(missing[:3]) + (", ..." if len(missing) > 3 else "")
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


def id_order(query_id: str) -> tuple:
    """Ids as a person orders them: numbers by their value (2 before 10), then text as text."""
    return (0, int(query_id), query_id) if query_id.isdigit() else (1, 0, query_id)


def _count(number: int, singular: str, plural: str | None = None) -> str:
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def dataframes(library: str):
    """pandas or polars, imported, or an error that says how to install it (the `dataframes` extra)."""
    import importlib

    try:
        return importlib.import_module(library)
    except ImportError:
        from .errors import OutputError

        hint = "in the sqlrank checkout, .venv/bin/pip install -e '.[dataframes]'"
        raise OutputError(f"to_{library}() needs {library}: {hint} (or use to_arrow(), which needs nothing more)") from None


class Result:
    """Long table (run_id, query_id, measure, value); `query_id = 'all'` rows hold the means.

    `measures` are the names of the measure column (what `summary` is indexed by),
    `parsed_measures` the sqlrank.Measure objects behind them, in the same order.
    """

    def __init__(self, table: pa.Table, measures: list[Measure], report: Report, text_rows: list[dict] | None = None,
                 order: list[str] | None = None, aggregates: pa.Table | None = None, names: list[str] | None = None):
        self._table = table
        # evaluate(aggregates=[...]): (run_id, measure, aggregate, value), the spread over the queries
        # beside the `all` row's mean; None when none was asked for
        self.aggregates = aggregates
        # trec_eval's text lines (runid, relstring), which only the trec layout prints: {run_id, query_id,
        # measure, text}; `order` names every measure and text line in the order asked, for that layout
        self.text_rows = list(text_rows or [])
        self.parsed_measures = list(measures)
        # the names of the measure column: as asked (evaluate's names="asked") or canonical
        self.measures = list(names) if names is not None else [str(m) for m in self.parsed_measures]
        self._by_name = dict(zip(self.measures, self.parsed_measures))
        self.order = list(order or self.measures)
        self.report = report
        # the runs that have rows, in the table's order (both in the order given), from the report rather
        # than from the table's run_id column (which would need pyarrow.compute, slow to import): every
        # run has a row per qrels query, unless missing='skip' leaves out all of a run's queries
        self.runs = [run_id for run_id, run in report.runs.items()
                     if report.missing_policy != "skip" or run.queries > run.run_only_queries]

    # conversions
    def to_arrow(self, *, cutoff: bool = False) -> pa.Table:
        """The long table; cutoff=True adds `family` (the measure without its cutoff: nDCG) and `cutoff`
        (5, or null for a measure without one), so that a measure is plotted against k without parsing names."""
        return self._with_cutoffs() if cutoff else self._table

    def to_pandas(self, *, cutoff: bool = False, wide: bool = False, per_query: bool = False):
        """The long table as a pandas DataFrame; wide=True: wide()'s table, per_query=True: per_query's."""
        dataframes("pandas")
        return self._table_for(cutoff, wide, per_query).to_pandas()

    def to_polars(self, *, cutoff: bool = False, wide: bool = False, per_query: bool = False):
        """As to_pandas(), as a polars DataFrame."""
        return dataframes("polars").from_arrow(self._table_for(cutoff, wide, per_query))

    def _table_for(self, cutoff: bool, wide: bool, per_query: bool) -> pa.Table:
        if wide:
            return self.wide()
        return self.per_query if per_query else self.to_arrow(cutoff=cutoff)

    def wide(self, *, means: bool = False) -> pa.Table:
        """The per-query values with one column per measure: (run_id, query_id, <measure>...), in the long
        table's order; means=True keeps each run's `all` row (the means) after its queries."""
        import duckdb

        from . import sqlgen

        columns = ", ".join(f"any_value(value) FILTER (WHERE measure = {sqlgen.literal(name)}) AS "
                            f"{sqlgen.identifier(name)}" for name in self.measures)
        with duckdb.connect() as con:
            # without the means, from per_query: integer query ids in their type and order
            con.register("result_rows", self._table if means else self.per_query)
            query_id = sqlgen.identifier(self.report.query_id_name if not means else "query_id")
            return con.sql(
                f"SELECT run_id, {query_id}, {columns} FROM (SELECT *, row_number() OVER () AS row_order "
                f"FROM result_rows) GROUP BY run_id, {query_id} ORDER BY min(row_order)").to_arrow_table()

    def _with_cutoffs(self) -> pa.Table:
        import duckdb

        from . import sqlgen
        from .measures import family

        families = [family(m) for m in self.parsed_measures]
        cutoffs = [m.k for m in self.parsed_measures]
        where = f"list_position({sqlgen.literal(self.measures)}, measure)"
        with duckdb.connect() as con:
            con.register("result_rows", self._table)
            return con.sql(
                f"SELECT run_id, query_id, measure, {sqlgen.literal(families)}[{where}] AS family, "
                f"CAST({sqlgen.literal(cutoffs)}[{where}] AS BIGINT) AS cutoff, value FROM result_rows"
            ).to_arrow_table()

    @property
    def means(self) -> dict[str, dict[str, float]]:
        """{run_id: {measure: mean}} for every run evaluated, in their order, however many there are.

        A run left with no query (missing='skip') keeps its place, as {}.
        """
        by_run: dict[str, dict[str, float]] = {run: {} for run in self.report.runs}
        for row in where_all(self._table, True).to_pylist():
            by_run[row["run_id"]][row["measure"]] = row["value"]
        return by_run

    @property
    def summary(self) -> dict[str, float]:
        """{measure: mean} of the one run evaluated; with several runs an error that points to `means`."""
        means = self.means
        if len(means) != 1:
            from .errors import EvaluationError

            raise EvaluationError(
                f"result.summary is the means of one run, and {len(means)} runs were evaluated "
                f"({', '.join(means)}): use result.means[run] ({{run: {{measure: mean}}}})")
        return next(iter(means.values()))

    @property
    def per_query(self) -> pa.Table:
        """The per-query rows (no `all` rows), long form, the query ids under the inputs' own column name
        (`user_id`; `query_id` when they had none or differ). When every input's query ids had one integer type
        (int64 user ids), they come back in that type, in numeric order; otherwise as text."""
        name = self.report.query_id_name
        if self.report.query_id_type is None:
            rows = where_all(self._table, False)
            return rows if name == "query_id" else rows.rename_columns(
                [name if column == "query_id" else column for column in rows.column_names])
        import duckdb

        from . import sqlgen

        runs = sqlgen.literal(list(self.report.runs) or [""])
        with duckdb.connect() as con:
            con.register("result_rows", self._table)
            return con.sql(
                f"SELECT run_id, CAST(query_id AS {self.report.query_id_type}) AS {sqlgen.identifier(name)}, "
                "measure, value FROM "
                "(SELECT *, row_number() OVER () AS row_order FROM result_rows WHERE query_id <> 'all') "
                f"ORDER BY list_position({runs}, run_id), CAST(query_id AS {self.report.query_id_type}), row_order"
            ).to_arrow_table()

    def rows(self, per_query: bool = False) -> pa.Table:
        """The rows a report shows, long form: the `all` rows (the means), or with per_query all of them."""
        return self._table if per_query else where_all(self._table, True)

    def without_summary(self) -> "Result":
        """This result without the `all` rows (the means): the per-query rows only, as trec_eval -n prints."""
        import copy

        shown = copy.copy(self)
        shown._table = where_all(self._table, False)
        shown.text_rows = [row for row in self.text_rows if row.get("query_id") != "all"]
        return shown

    def measure(self, name: str) -> Measure:
        """The parsed measure behind a name of the measure column ("nDCG@10")."""
        return self._by_name[name]

    def canonical(self, name: str) -> str:
        """sqlrank's canonical name of a measure the result names `name` (`map` -> `AP`, `P_5` -> `P@5`)."""
        return str(self.measure(name))

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
