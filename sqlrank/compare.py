"""Compare runs against a baseline: means, differences, wins/ties/losses, effect sizes, intervals, tests.

    comparison = sqlrank.compare("qrels.txt", {"bm25": "bm25.trec", "dense": "dense.trec"},
                                 ["nDCG@10", "AP"], baseline="bm25", tests=["ttest", "randomization"])
    print(comparison)                 # the table, with † / ‡ where a run differs from the baseline
    comparison.to_arrow()             # one row per run and measure, every number

The per-query values live in DuckDB; the resampling (randomization, bootstrap,
Tukey HSD) runs there as the SQL macros of sql/60_ .. 63_, one statement each
for all the comparisons, so a seed gives the same numbers from Python and from
the DuckDB shell. The t-test, Wilcoxon and sign tests are scipy's
(sqlrank.significance).

Every test, W/T/L and the effect size read the same differences, those of
sqlrank.differences_from: on the values' precision (2^-40 of the largest |value|
compared), so that float noise is a tie, never a win. The paper table's number
of a measure is its own aggregate (the mean; the sum of a count such as NumRet;
the geometric mean of GMAP and GMbpref, as evaluate's `all` row) over the
queries compared.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from . import significance
from .checks import messages
from .errors import ChoiceError, EvaluationError, InputError
from .limits import MAX_TRIALS, SEEDS, whole_number
from .sqlgen import call, create_temp_table, identifier, literal

PER_QUERY_TABLE = "sqlrank_per_query"
DIFFERENCES_TABLE = "sqlrank_differences"  # a temporary table, dropped before compare() returns
GM_FLOOR = 1e-5  # what the geometric mean floors each value at (trec_eval's gm_map; sql/90_summary.sql)
PER_QUERY_COLUMNS = ("run_id", "query_id", "measure", "value")


@dataclass
class Comparison:
    """The comparison table (one row per run and measure) and what produced it."""

    table: object  # pyarrow.Table
    baseline: str
    runs: list[str]
    measures: list[str]
    tests: list[str]
    correction: str
    trials: int
    seed: int
    confidence: float
    notes: list[str] = field(default_factory=list)
    # {measure: "mean" | "sum" | "gm"}, and the measures whose lower values are better (Unjudged)
    aggregates: dict = field(default_factory=dict)
    lower_is_better: set = field(default_factory=set)
    per_query: object = None  # pyarrow.Table (run_id, query_id, measure, value): the values compared

    def deltas(self):
        """Per query, each run against the baseline: a pyarrow Table (run_id, measure, query_id, value,
        baseline_value, delta), over the queries both have, the largest gains first (.to_pandas() for pandas)."""
        import duckdb

        with duckdb.connect() as con:
            con.register("per_query", self.per_query)
            baseline = literal(self.baseline)
            return con.sql(
                "SELECT r.run_id, r.measure, r.query_id, r.value, b.value AS baseline_value, "
                f"r.value - b.value AS delta FROM per_query r JOIN per_query b ON b.run_id = {baseline} AND "
                f"b.measure = r.measure AND b.query_id = r.query_id WHERE r.run_id <> {baseline} AND r.value IS NOT "
                f"NULL AND b.value IS NOT NULL ORDER BY list_position({literal(self.runs)}, r.run_id), "
                f"list_position({literal(self.measures)}, r.measure), delta DESC, r.query_id").to_arrow_table()

    def to_arrow(self):
        return self.table

    def to_pandas(self):
        return self.table.to_pandas()

    def rows(self) -> list[dict]:
        return self.table.to_pylist()

    def row(self, run_id: str, measure: str) -> dict:
        for row in self.rows():
            if row["run_id"] == run_id and row["measure"] == measure:
                return row
        raise KeyError((run_id, measure))

    def __str__(self) -> str:
        from .comparison_report import terminal

        return terminal(self)

    def _repr_html_(self) -> str:
        from .comparison_report import html

        return html(self)

    def to_markdown(self) -> str:
        from .comparison_report import markdown

        return markdown(self)

    def to_latex(self) -> str:
        from .comparison_report import latex

        return latex(self)

    def write(self, path, fmt: str | None = None, inputs: tuple = ()):
        """Written atomically to `path`: table, markdown, latex, csv, tsv, json, jsonl or parquet (default: from the extension)."""
        from .comparison_report import write

        return write(self, path, fmt, inputs)

    def render(self, fmt: str = "table") -> bytes:
        """The comparison in `fmt`, as bytes (for stdout)."""
        from .comparison_report import encode

        return encode(self, fmt)

    @staticmethod
    def format_for(path) -> str:
        """The format a file name asks for: `table.tex` -> latex."""
        from .comparison_report import format_for

        return format_for(path)


def compare(qrels, runs=None, measures=None, *, baseline: str | None = None, tests=("ttest",),
            correction: str | None = None, trials: int = 10_000, seed: int = 42, confidence: float = 0.95,
            ci_trials: int = 1_000, connection=None, **evaluate_options) -> Comparison:
    """Compare every run with the baseline over the queries both were evaluated on.

    qrels, runs, measures, evaluate_options: as sqlrank.evaluate (missing= decides which queries
        each run has); or, alone, an existing sqlrank Result or a per-query table
        (run_id, query_id, measure, value) as a pyarrow Table or a pandas/polars DataFrame.
    baseline: the run the others are compared with (default: the first run).
    tests: any of "ttest" (default), "wilcoxon", "sign", "randomization", "bootstrap", "tukey".
    correction: "holm" (the default when more than one run is compared with the baseline),
        "bonferroni", "bh" (Benjamini-Hochberg) or "none"; the family is one measure and one
        test across the runs compared. Tukey HSD controls the family-wise error itself: not corrected.
    trials, seed: permutations of the randomization and Tukey HSD tests and resamples of the
        bootstrap test (the randomization test is exact when 2^queries <= trials).
    confidence, ci_trials: the percentile bootstrap interval of the mean difference (from
        `trials` resamples when the bootstrap test is asked for, else `ci_trials`).
    """
    from .macros import connect, install

    names = significance.test_names(tests)
    trials = whole_number("trials", trials, 1, MAX_TRIALS)
    ci_trials = whole_number("ci_trials", ci_trials, 1, MAX_TRIALS)
    seed = whole_number("seed", seed, *SEEDS)
    confidence = checked_confidence(confidence)
    if baseline is not None and not isinstance(baseline, str):
        raise EvaluationError(f"baseline must be a run's name (text), got {type(baseline).__name__} {baseline!r}")
    if correction is not None and not isinstance(correction, str):
        raise EvaluationError(f"correction must be one of {', '.join(significance.CORRECTIONS)}, "
                              f"got {type(correction).__name__} {correction!r}")
    _check_connection(connection)
    table, run_names, measure_names, result = _per_query(qrels, runs, measures, evaluate_options)
    kinds = {measure: _kind(result, measure) for measure in measure_names}
    baseline = run_names[0] if baseline is None else baseline
    if baseline not in run_names:
        raise ChoiceError(f"baseline {baseline!r} is not one of the runs ({', '.join(run_names)}): "
                              "name it as the run is named")
    others = [run for run in run_names if run != baseline]
    if not others:
        raise EvaluationError(f"nothing to compare: the baseline {baseline!r} is the only run; give two runs or more")
    correction = significance.correction_name(correction, len(others))
    con = connection if connection is not None else connect()
    install(con)
    progress_bar = _progress_bar_off(con)  # a borrowed connection's bar would print into the caller's output
    con.register(PER_QUERY_TABLE, table)
    try:
        con.execute(create_temp_table(DIFFERENCES_TABLE, "SELECT * FROM " + call(
            "sqlrank.differences_from", literal(PER_QUERY_TABLE), literal(baseline))))
        pairs = _pairs(con)
        resampled = _resampling(con, names, trials, seed, confidence, ci_trials)
    finally:
        con.unregister(PER_QUERY_TABLE)
        con.execute(f"DROP TABLE IF EXISTS {identifier(DIFFERENCES_TABLE)}")
        if connection is None:
            con.close()
        else:
            con.execute(f"SET enable_progress_bar = {str(progress_bar).lower()}")
    rows = _rows(run_names, measure_names, baseline, names, pairs, resampled, kinds)
    _correct(rows, names, correction)
    notes = _notes(rows, baseline, names, correction)
    import pyarrow as pa

    return Comparison(pa.Table.from_pylist(rows, schema=_schema(names)), baseline, run_names, measure_names, names,
                      correction, trials, seed, confidence, notes,
                      {measure: aggregate for measure, (aggregate, _) in kinds.items()},
                      {measure for measure, (_, lower) in kinds.items() if lower},
                      per_query=table)


def checked_confidence(confidence) -> float:
    """The confidence level as a float strictly between 0 and 1; else an EvaluationError."""
    import numbers

    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) or not 0 < confidence < 1:
        raise EvaluationError(messages.render(messages.CONFIDENCE, value=repr(confidence)))
    return float(confidence)


def _check_connection(connection) -> None:
    """None, or an open DuckDB connection; anything else said plainly, before any work."""
    import duckdb

    if connection is None:
        return
    if not isinstance(connection, duckdb.DuckDBPyConnection):
        raise EvaluationError(f"connection must be a DuckDB connection (duckdb.connect() or sqlrank.connect()), "
                              f"got {type(connection).__name__}")
    try:
        connection.execute("SELECT 1").fetchall()
    except duckdb.Error as error:
        raise EvaluationError(f"the DuckDB connection cannot be used ({str(error).splitlines()[0]}); "
                              "pass an open one, or none") from None


def _progress_bar_off(con) -> bool:
    """Turn DuckDB's progress bar off in `con`; whether it was on, to put it back."""
    was_on = bool(con.execute("SELECT current_setting('enable_progress_bar')").fetchall()[0][0])
    con.execute("SET enable_progress_bar = false")
    return was_on


def _kind(result, measure: str) -> tuple[str, bool]:
    """(aggregate, lower is better) of a measure as the registry defines it: from the Result when there is
    one, else from its name; a name the registry does not know is averaged, higher better."""
    from .measures import parse

    if result is not None:
        definition = result.measure(measure).definition
    else:
        try:
            parsed = parse(measure)
        except Exception:  # noqa: BLE001 - any column name of the user's: not a measure sqlrank knows
            return "mean", False
        if len(parsed) != 1 or not hasattr(parsed[0], "definition"):
            return "mean", False
        definition = parsed[0].definition
    return definition.aggregate, definition.better == "lower"


def _per_query(qrels, runs, measures, evaluate_options):
    """(per-query Arrow table, runs in order, measures in order, the Result or None for a table) from inputs to
    evaluate or from a result."""
    import pyarrow as pa

    from .result import Result, where_all  # query ids as text: the comparison's tables are text

    if runs is None:
        if isinstance(qrels, Result):
            return where_all(qrels.to_arrow(), False), list(qrels.runs), [str(m) for m in qrels.measures], qrels
        if qrels is None:
            raise EvaluationError("compare needs qrels and runs, a sqlrank Result or a per-query table; got None")
        table = qrels if isinstance(qrels, pa.Table) else _arrow(qrels)
        missing = [column for column in PER_QUERY_COLUMNS if column not in table.column_names]
        if missing:
            raise EvaluationError(f"a per-query table needs the columns {', '.join(PER_QUERY_COLUMNS)}; "
                                  f"missing {', '.join(missing)} (found {', '.join(table.column_names)})")
        table = _checked_table(table.select(list(PER_QUERY_COLUMNS)))
        return table, _in_order(table, "run_id"), _in_order(table, "measure"), None
    if measures is None:
        raise EvaluationError("compare needs measures, e.g. ['nDCG@10', 'AP'], with qrels and runs")
    from .engine import evaluate

    result = evaluate(qrels, runs, measures, **evaluate_options)
    return where_all(result.to_arrow(), False), list(result.runs), [str(m) for m in result.measures], result


def _checked_table(table):
    """A per-query table as text ids and float values, checked as evaluate checks its inputs: numbers in the
    value column, no NULL id, no NaN or inf, each (run, query, measure) once; the `all` rows of sqlrank's
    long table (the means, not queries) left out."""
    import pyarrow as pa

    types = {"run_id": pa.string(), "query_id": pa.string(), "measure": pa.string(), "value": pa.float64()}
    for name, wanted in types.items():
        found = table.schema.field(name).type
        if name == "value" and not (pa.types.is_integer(found) or pa.types.is_floating(found)
                                    or pa.types.is_decimal(found) or pa.types.is_null(found)):
            raise InputError(f"the per-query table's column 'value' must hold numbers, found {found}; "
                             "cast it (e.g. pandas' astype(float))")
        try:
            table = table.set_column(table.schema.get_field_index(name), name, table.column(name).cast(wanted))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as error:
            raise InputError(f"the per-query table's column '{name}' cannot be read as {wanted}: "
                             f"{str(error).splitlines()[0]}") from None
    columns = [table.column(name).to_pylist() for name in PER_QUERY_COLUMNS]
    keep, seen = [], set()
    for row, (run, query, measure, value) in enumerate(zip(*columns), start=1):
        for name, text in (("run_id", run), ("query_id", query), ("measure", measure)):
            if text is None:
                raise InputError(f"the per-query table's row {row} has no {name} (NULL); give every row one")
        if query == "all":
            continue
        if value is not None and not math.isfinite(value):
            raise InputError(f"the per-query table's row {row} ({run!r}, {query!r}, {measure!r}) has the value "
                             f"{value}; a per-query value must be a finite number")
        if (run, query, measure) in seen:
            raise InputError(f"the per-query table's row {row} repeats ({run!r}, {query!r}, {measure!r}); "
                             "each run, query and measure may have one value")
        seen.add((run, query, measure))
        keep.append(row - 1)
    return table.take(keep) if len(keep) < table.num_rows else table


def _arrow(frame):
    import pyarrow as pa

    if hasattr(frame, "to_arrow"):  # polars
        return frame.to_arrow()
    try:
        return pa.Table.from_pandas(frame, preserve_index=False)
    except Exception:  # noqa: BLE001 - anything else is the user's mistake, said plainly
        raise EvaluationError(f"compare takes qrels and runs, a sqlrank Result or a per-query table; "
                              f"not a {type(frame).__name__}") from None


def _in_order(table, column: str) -> list[str]:
    """The distinct values of a column in the order they first appear (no pyarrow.compute: it loads pandas)."""
    return list(dict.fromkeys(table.column(column).to_pylist()))


def _pairs(con) -> dict:
    """{(run, measure): (query ids, values, baseline values, differences)} for the queries both have, in
    query_id order; the differences on the values' precision, as the SQL tests see them."""
    import numpy as np  # loaded when used: `import sqlrank` stays light

    grouped: dict = {}
    table = con.sql(f"SELECT run_id, measure, query_id, value, baseline_value, difference "
                    f"FROM {identifier(DIFFERENCES_TABLE)} ORDER BY run_id, measure, query_id").fetchnumpy()
    keys = list(zip(table["run_id"].tolist(), table["measure"].tolist()))
    queries = table["query_id"].tolist()
    values, baseline_values = np.asarray(table["value"], dtype=float), np.asarray(table["baseline_value"], dtype=float)
    differences = np.asarray(table["difference"], dtype=float)
    start = 0
    for end in range(1, len(keys) + 1):
        if end == len(keys) or keys[end] != keys[start]:
            grouped[keys[start]] = (queries[start:end], values[start:end], baseline_values[start:end],
                                    differences[start:end])
            start = end
    return grouped


def _resampling(con, names: list[str], trials: int, seed: int, confidence: float, ci_trials: int) -> dict:
    """{(test, run, measure): row of the macro} for the SQL tests, and the interval under 'interval'."""
    found: dict = {}
    differences = literal(DIFFERENCES_TABLE)
    if "randomization" in names:
        for row in _records(con, call("sqlrank.randomization", differences, trials=trials, seed=seed)):
            found["randomization", row["run_id"], row["measure"]] = row
    bootstrap_trials = trials if "bootstrap" in names else ci_trials
    for row in _records(con, call("sqlrank.bootstrap", differences, trials=bootstrap_trials, seed=seed,
                                  confidence=confidence)):
        found["bootstrap", row["run_id"], row["measure"]] = row
    if "tukey" in names:
        for row in _records(con, call("sqlrank.tukey_hsd", literal(PER_QUERY_TABLE), trials=trials, seed=seed)):
            found["tukey", row["run_a"], row["run_b"], row["measure"]] = row
    return found


def _records(con, table_call: str) -> list[dict]:
    return con.sql("SELECT * FROM " + table_call).to_arrow_table().to_pylist()


def _rows(run_names, measure_names, baseline, names, pairs, resampled, kinds) -> list[dict]:
    import numpy as np

    empty = ([], np.array([]), np.array([]), np.array([]))
    rows = []
    for run in run_names:
        for measure in measure_names:
            aggregate = kinds[measure][0]
            row = {"run_id": run, "measure": measure, "cutoff": cutoff(measure), "baseline": baseline,
                   "aggregate": aggregate}
            if run == baseline:
                # over the queries compared with any run: the baseline's number beside theirs is over the same queries
                compared = {}
                for other in run_names:
                    queries, _, baseline_values, _ = pairs.get((other, measure), empty)
                    compared.update(zip(queries, baseline_values))
                row.update(queries=len(compared), mean=_aggregate(np.array(list(compared.values())), aggregate))
                rows.append(row)
                continue
            _, values, baseline_values, differences = pairs.get((run, measure), empty)
            n = len(differences)
            mean, baseline_mean = _aggregate(values, aggregate), _aggregate(baseline_values, aggregate)
            interval = resampled.get(("bootstrap", run, measure), {})
            row.update(
                queries=n, mean=mean, baseline_mean=baseline_mean,
                delta=None if n == 0 else mean - baseline_mean,
                delta_relative=None if n == 0 or baseline_mean == 0 else (mean - baseline_mean) / baseline_mean,
                wins=int(np.sum(differences > 0)), ties=int(np.sum(differences == 0)),
                losses=int(np.sum(differences < 0)),
                effect_size=_nan_none(significance.effect_size(differences)),
                ci_low=interval.get("ci_low"), ci_high=interval.get("ci_high"))
            for test in names:
                statistic, p_value = _test(test, run, baseline, measure, differences, resampled)
                row[f"{test}_statistic"], row[f"{test}_p_value"] = _nan_none(statistic), _nan_none(p_value)
            rows.append(row)
    return rows


def _test(test, run, baseline, measure, differences, resampled) -> tuple:
    if len(differences) == 0:
        return math.nan, math.nan
    if test in significance.SCIPY_TESTS:
        return significance.paired_test(test, differences)
    if test == "tukey":
        found = resampled.get(("tukey", run, baseline, measure))
        return (found["difference"], found["p_value"]) if found else (math.nan, math.nan)
    found = resampled[test, run, measure]
    return found["mean_difference"], found["p_value"]


def _aggregate(values, aggregate: str):
    """The measure's own aggregate of its per-query values, as evaluate's `all` row: mean, sum, or the
    geometric mean of the values floored at GM_FLOOR; None for no values."""
    import numpy as np

    if len(values) == 0:
        return None
    if aggregate == "sum":
        return float(np.sum(values))
    if aggregate == "gm":
        return float(np.exp(np.mean(np.log(np.maximum(values, GM_FLOOR)))))
    return float(np.mean(values))


def _nan_none(value):
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)


def _correct(rows: list[dict], names: list[str], correction: str) -> None:
    """Each test's p-values adjusted within one measure across the runs compared (Tukey HSD: already family-wise)."""
    for test in names:
        for measure in dict.fromkeys(row["measure"] for row in rows):
            family = [row for row in rows if row["measure"] == measure and f"{test}_p_value" in row]
            p_values = [math.nan if row[f"{test}_p_value"] is None else row[f"{test}_p_value"] for row in family]
            method = "none" if test == "tukey" else correction
            for row, adjusted in zip(family, significance.adjust(p_values, method)):
                row[f"{test}_p_adjusted"] = _nan_none(adjusted)


def _notes(rows, baseline, names, correction) -> list[str]:
    compared = sorted({row["queries"] for row in rows if row["run_id"] != baseline})
    notes = [f"queries compared per run and measure: {', '.join(map(str, compared))} "
             "(those both the run and the baseline have)"]
    if correction != "none":
        notes.append(f"p-values adjusted by {significance.CORRECTIONS[correction]} within each measure and test "
                     "across the runs compared with the baseline")
    if "tukey" in names:
        notes.append("Tukey HSD p-values are family-wise over all pairs of runs already: not adjusted again")
    return notes


def _schema(names: list[str]):
    import pyarrow as pa

    fields = [("run_id", pa.string()), ("measure", pa.string()), ("cutoff", pa.int64()), ("baseline", pa.string()),
              ("aggregate", pa.string()), ("queries", pa.int64()), ("mean", pa.float64()),
              ("baseline_mean", pa.float64()),
              ("delta", pa.float64()), ("delta_relative", pa.float64()), ("wins", pa.int64()), ("ties", pa.int64()),
              ("losses", pa.int64()), ("effect_size", pa.float64()), ("ci_low", pa.float64()),
              ("ci_high", pa.float64())]
    for test in names:
        fields += [(f"{test}_statistic", pa.float64()), (f"{test}_p_value", pa.float64()),
                   (f"{test}_p_adjusted", pa.float64())]
    return pa.schema(fields)


_CUTOFF = re.compile(r"@(\d+)$")


def cutoff(measure: str) -> int | None:
    """The cutoff of a measure as reported (nDCG@10 -> 10), None for a measure of the whole ranking."""
    found = _CUTOFF.search(measure)
    return int(found.group(1)) if found else None
