"""sqlrank.compare at the edges: float noise, degenerate samples, what a table holds, each measure's aggregate.

Hand-worked numbers: a tie is a difference below the values' precision (2^-40 of the largest |value|);
a test without an answer (no variance, one query) gives none, and so no marker.
"""

from __future__ import annotations

import math
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

import sqlrank

DATA = Path(__file__).resolve().parent.parent / "data"
ALL_TESTS = ["ttest", "wilcoxon", "sign", "randomization", "bootstrap"]


def per_query(runs: dict[str, list[float]], measure: str = "AP") -> pa.Table:
    rows = [(run, f"q{i:02d}", measure, value) for run, values in runs.items() for i, value in enumerate(values)]
    return pa.table({name: [row[i] for row in rows] for i, name in enumerate(("run_id", "query_id", "measure", "value"))})


def test_one_ulp_apart_is_a_tie_in_every_test():
    """AP 37/60 on every query, one run a float's rounding above: no win, no test finds anything."""
    above = math.nextafter(37 / 60, 1)
    comparison = sqlrank.compare(per_query({"a": [37 / 60] * 10, "b": [above] * 10}), tests=ALL_TESTS, trials=500)
    row = comparison.row("b", "AP")
    assert (row["wins"], row["ties"], row["losses"]) == (0, 10, 0)
    assert row["ttest_p_value"] is None and row["wilcoxon_p_value"] is None and row["sign_p_value"] is None
    assert row["randomization_p_value"] == 1.0 and row["bootstrap_p_value"] == 1.0
    assert row["effect_size"] is None
    assert "†" not in comparison.to_markdown().split("\n\n")[0] and "‡" not in comparison.to_markdown().split("\n\n")[0]


def test_constant_differences_with_noise_have_no_variance():
    """+0.3 on every query, computed as 0.1 * i + 0.3 (float noise of 1e-17): t and d_z undefined, not 7.6e15;
    the exact randomization test still answers: only all-plus and all-minus reach |sum| = 3, p = 2 / 2^10."""
    base = [0.1 * i for i in range(10)]
    comparison = sqlrank.compare(per_query({"base": base, "up": [v + 0.3 for v in base]}), tests=ALL_TESTS,
                                 trials=1024)  # 2^10: the randomization test exact
    row = comparison.row("up", "AP")
    assert row["effect_size"] is None and row["ttest_statistic"] is None and row["ttest_p_value"] is None
    assert row["bootstrap_p_value"] is None  # every resample is the observed mean: no null distribution
    assert row["randomization_p_value"] == 2 / 1024
    assert (row["wins"], row["ties"], row["losses"]) == (10, 0, 0)
    table = comparison.to_markdown().split("\n\n")[0]
    assert "| up | **0.7500** |" in table  # the first test (t) has no answer: no marker


def test_one_query_is_never_significant():
    comparison = sqlrank.compare(per_query({"a": [0.2], "b": [0.9]}), tests=ALL_TESTS, trials=1000)
    row = comparison.row("b", "AP")
    assert row["ttest_p_value"] is None and row["bootstrap_p_value"] is None and row["effect_size"] is None
    assert row["randomization_p_value"] == 1.0  # both sign assignments are as extreme
    assert row["sign_p_value"] == 1.0 and row["wilcoxon_p_value"] == 1.0


@pytest.mark.parametrize("change, message", [
    (lambda rows: rows.__setitem__(0, ("a", "q00", "AP", math.nan)),
     r"row 1 \('a', 'q00', 'AP'\) has the value nan; a per-query value must be a finite number"),
    (lambda rows: rows.__setitem__(1, ("a", "q01", "AP", math.inf)),
     r"row 2 \('a', 'q01', 'AP'\) has the value inf"),
    (lambda rows: rows.__setitem__(1, ("a", "q00", "AP", 0.5)),
     r"row 2 repeats \('a', 'q00', 'AP'\); each run, query and measure may have one value"),
    (lambda rows: rows.__setitem__(0, (None, "q00", "AP", 0.5)), r"row 1 has no run_id \(NULL\)"),
])
def test_a_table_is_checked_as_evaluate_checks_its_inputs(change, message):
    rows = [(run, f"q{i:02d}", "AP", 0.1 * i) for run in "ab" for i in range(3)]
    change(rows)
    table = pa.table({name: [row[i] for row in rows] for i, name in enumerate(("run_id", "query_id", "measure", "value"))})
    with pytest.raises(sqlrank.InputError, match=message):
        sqlrank.compare(table)


def test_a_text_value_column_is_said_plainly():
    table = pa.table({"run_id": ["a", "b"], "query_id": ["q", "q"], "measure": ["AP"] * 2, "value": ["x", "y"]})
    with pytest.raises(sqlrank.InputError, match="column 'value' must hold numbers, found string"):
        sqlrank.compare(table)


@pytest.fixture(scope="module")
def result():
    return sqlrank.evaluate(DATA / "qrels.txt", {"bm25": DATA / "bm25.trec", "dense": DATA / "dense.trec"},
                            ["AP", "GMAP", "NumRet", "Unjudged@10"])


def test_each_measure_s_own_aggregate_and_the_long_table_s_all_rows(result):
    """The paper table's numbers are evaluate's `all` row (GMAP a geometric mean, NumRet a sum), from a
    Result or from its long table, whose `all` rows are the means, not queries."""
    for source in (result, result.to_arrow()):
        comparison = sqlrank.compare(source, tests=["ttest"], ci_trials=10)
        for run in ("bm25", "dense"):
            for measure in ("AP", "GMAP", "NumRet", "Unjudged@10"):
                assert comparison.row(run, measure)["mean"] == pytest.approx(result.means[run][measure], rel=1e-12)
    assert comparison.aggregates == {"AP": "mean", "GMAP": "gm", "NumRet": "sum", "Unjudged@10": "mean"}
    assert result.means["bm25"]["NumRet"] == 13 and comparison.row("dense", "NumRet")["mean"] == 9


def test_lower_is_better_is_marked_as_best(result):
    comparison = sqlrank.compare(result, tests=["ttest"], ci_trials=10)
    lines = {line.split(" | ")[0]: line for line in comparison.to_markdown().splitlines()[2:4]}
    unjudged = {run: result.means[run]["Unjudged@10"] for run in ("bm25", "dense")}
    best = min(unjudged, key=unjudged.get)
    assert unjudged["bm25"] != unjudged["dense"]
    assert f"**{unjudged[best]:.4f}**" in lines[f"| {best}" + (" (baseline)" if best == "bm25" else "")]
    assert "**13**" not in comparison.to_markdown() and "| 13 |" in comparison.to_markdown()  # a count: no bold


def test_the_user_s_connection_is_left_as_it_was():
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = true")
    sqlrank.compare(per_query({"a": [0.1, 0.5], "b": [0.3, 0.4]}), tests=["bootstrap"], trials=50, connection=con)
    assert con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE 'sqlrank%'").fetchall() == [(0,)]
    assert con.execute("SELECT current_setting('enable_progress_bar')").fetchall() == [(True,)]


@pytest.mark.parametrize("options, error, message", [
    ({"confidence": "x"}, sqlrank.EvaluationError, r"confidence must be between 0 and 1 \(e.g. 0.95\), not 'x'"),
    ({"tests": None}, sqlrank.EvaluationError, r"tests must be a test's name or a list of them"),
    ({"connection": "memory"}, sqlrank.EvaluationError, r"connection must be a DuckDB connection"),
    ({"baseline": 3}, sqlrank.EvaluationError, r"baseline must be a run's name \(text\), got int 3"),
    ({"correction": 1}, sqlrank.EvaluationError, r"correction must be one of holm"),
    ({"trials": 0}, sqlrank.EvaluationError, r"trials must be a whole number >= 1, got 0"),
])
def test_wrong_arguments_are_said_plainly(options, error, message):
    with pytest.raises(error, match=message):
        sqlrank.compare(per_query({"a": [0.1, 0.5], "b": [0.3, 0.4]}), **options)


def test_a_closed_connection_and_no_source_are_said_plainly():
    con = duckdb.connect()
    con.close()
    with pytest.raises(sqlrank.EvaluationError, match="the DuckDB connection cannot be used"):
        sqlrank.compare(per_query({"a": [0.1], "b": [0.3]}), connection=con)
    with pytest.raises(sqlrank.EvaluationError, match="compare needs qrels and runs, a sqlrank Result or a per-query"):
        sqlrank.compare(None)
