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
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from . import significance
from .errors import ChoiceError, EvaluationError
from .limits import MAX_TRIALS, SEEDS, whole_number
from .sqlgen import call, create_temp_table, identifier, literal

PER_QUERY_TABLE = "sqlrank_per_query"
DIFFERENCES_TABLE = "sqlrank_differences"
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
    if not 0 < confidence < 1:
        raise EvaluationError(f"confidence must be between 0 and 1 (e.g. 0.95), not {confidence!r}")
    table, run_names, measure_names = _per_query(qrels, runs, measures, evaluate_options)
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
    con.register(PER_QUERY_TABLE, table)
    try:
        con.execute(create_temp_table(DIFFERENCES_TABLE, "SELECT * FROM " + call(
            "sqlrank.differences_from", literal(PER_QUERY_TABLE), literal(baseline))))
        pairs = _pairs(con)
        resampled = _resampling(con, names, trials, seed, confidence, ci_trials)
    finally:
        con.unregister(PER_QUERY_TABLE)
        if connection is None:
            con.close()
    rows = _rows(table, run_names, measure_names, baseline, names, pairs, resampled)
    _correct(rows, names, correction)
    notes = _notes(rows, baseline, names, correction)
    import pyarrow as pa

    return Comparison(pa.Table.from_pylist(rows, schema=_schema(names)), baseline, run_names, measure_names, names,
                      correction, trials, seed, confidence, notes, per_query=table)


def _per_query(qrels, runs, measures, evaluate_options):
    """(per-query Arrow table, runs in order, measures in order) from inputs to evaluate or from a result."""
    import pyarrow as pa

    from .result import Result, where_all  # query ids as text: the comparison's tables are text

    if runs is None:
        if isinstance(qrels, Result):
            return where_all(qrels.to_arrow(), False), list(qrels.runs), [str(m) for m in qrels.measures]
        table = qrels if isinstance(qrels, pa.Table) else _arrow(qrels)
        missing = [column for column in PER_QUERY_COLUMNS if column not in table.column_names]
        if missing:
            raise EvaluationError(f"a per-query table needs the columns {', '.join(PER_QUERY_COLUMNS)}; "
                                  f"missing {', '.join(missing)} (found {', '.join(table.column_names)})")
        table = table.select(list(PER_QUERY_COLUMNS))
        table = table.cast(pa.schema([("run_id", pa.string()), ("query_id", pa.string()),
                                      ("measure", pa.string()), ("value", pa.float64())]))
        return table, _in_order(table, "run_id"), _in_order(table, "measure")
    if measures is None:
        raise EvaluationError("compare needs measures, e.g. ['nDCG@10', 'AP'], with qrels and runs")
    from .engine import evaluate

    result = evaluate(qrels, runs, measures, **evaluate_options)
    return where_all(result.to_arrow(), False), list(result.runs), [str(m) for m in result.measures]


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
    """{(run, measure): (values, baseline values)} for the queries both have, in query_id order."""
    import numpy as np  # loaded when used: `import sqlrank` stays light

    grouped: dict = {}
    table = con.sql(f"SELECT run_id, measure, value, baseline_value FROM {identifier(DIFFERENCES_TABLE)} "
                    "ORDER BY run_id, measure, query_id").fetchnumpy()
    keys = list(zip(table["run_id"].tolist(), table["measure"].tolist()))
    values, baseline_values = np.asarray(table["value"], dtype=float), np.asarray(table["baseline_value"], dtype=float)
    start = 0
    for end in range(1, len(keys) + 1):
        if end == len(keys) or keys[end] != keys[start]:
            grouped[keys[start]] = (values[start:end], baseline_values[start:end])
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


def _rows(table, run_names, measure_names, baseline, names, pairs, resampled) -> list[dict]:
    import numpy as np

    means = _means(table)
    rows = []
    for run in run_names:
        for measure in measure_names:
            row = {"run_id": run, "measure": measure, "cutoff": cutoff(measure), "baseline": baseline}
            if run == baseline:
                own_mean, own_queries = means.get((run, measure), (None, 0))
                row.update(queries=own_queries, mean=own_mean)
                rows.append(row)
                continue
            values, baseline_values = pairs.get((run, measure), (np.array([]), np.array([])))
            differences = values - baseline_values
            n = len(differences)
            mean, baseline_mean = _mean(values), _mean(baseline_values)
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
                statistic, p_value = _test(test, run, baseline, measure, values, baseline_values, resampled)
                row[f"{test}_statistic"], row[f"{test}_p_value"] = _nan_none(statistic), _nan_none(p_value)
            rows.append(row)
    return rows


def _test(test, run, baseline, measure, values, baseline_values, resampled) -> tuple:
    if len(values) == 0:
        return math.nan, math.nan
    if test in significance.SCIPY_TESTS:
        return significance.paired_test(test, values, baseline_values)
    if test == "tukey":
        found = resampled.get(("tukey", run, baseline, measure))
        return (found["difference"], found["p_value"]) if found else (math.nan, math.nan)
    found = resampled[test, run, measure]
    return found["mean_difference"], found["p_value"]


def _means(table) -> dict:
    """{(run, measure): (mean over the run's queries, number of queries)}, for the baseline's own row."""
    sums: dict = {}
    for run, measure, value in zip(table.column("run_id").to_pylist(), table.column("measure").to_pylist(),
                                   table.column("value").to_pylist()):
        if value is not None:
            total, count = sums.get((run, measure), (0.0, 0))
            sums[run, measure] = (total + value, count + 1)
    return {key: (total / count, count) for key, (total, count) in sums.items()}


def _mean(values: np.ndarray):
    import numpy as np

    return float(np.mean(values)) if len(values) else None


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
              ("queries", pa.int64()), ("mean", pa.float64()), ("baseline_mean", pa.float64()),
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
