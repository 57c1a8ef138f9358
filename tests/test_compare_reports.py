"""The comparison's reports (terminal, Markdown, LaTeX, CSV/JSON/Parquet) and `sqlrank compare` / `sqlrank plot`."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import sqlrank
from sqlrank.cli import run as cli_run


def clear_gain() -> pa.Table:
    """'better' beats 'base' (mean 2.1 / 12 = 0.175) by 0.29, 0.3 or 0.31 on each of 12 queries, 0.3 on average
    (p far below 0.01; a gain of exactly 0.3 everywhere has no variance, so no t-test); 'same' is 'base' but for
    +0.1 on one query."""
    base = [0.1 * (i % 5) for i in range(12)]
    rows = [(run, f"q{i:02d}", "AP", value + (shift and shift + 0.01 * (i % 3 - 1)))
            for run, shift in (("base", 0.0), ("better", 0.3), ("same", 0.0)) for i, value in enumerate(base)]
    rows[-1] = ("same", "q11", "AP", base[11] + 0.1)  # one query differs, so the t-test has a variance
    return pa.table({name: [row[i] for row in rows] for i, name in enumerate(("run_id", "query_id", "measure", "value"))})


@pytest.fixture(scope="module")
def comparison():
    return sqlrank.compare(clear_gain(), baseline="base", tests=["ttest", "randomization"], trials=2000)


def test_markers_bold_best_and_legend(comparison):
    text = comparison.to_markdown()
    assert "| better | **0.4750**‡ |" in text  # best in bold, ‡: adjusted p < 0.01
    assert "| same | 0.1833 |" in text and "| base (baseline) | 0.1750 |" in text
    assert "‡ p < 0.01 against the baseline base (paired Student t-test, Holm-adjusted)" in text
    latex = comparison.to_latex()
    assert r"\toprule" in latex and r"\midrule" in latex and r"\bottomrule" in latex
    assert r"better & \textbf{0.4750}$^{\ddagger}$ \\" in latex
    terminal = str(comparison)
    assert "better           0.4750‡" in terminal and "12/0/0" in terminal and "+171.4%" in terminal


def test_holm_within_the_measure(comparison):
    better, same = comparison.row("better", "AP"), comparison.row("same", "AP")
    assert comparison.correction == "holm"
    ps = sorted([better["ttest_p_value"], same["ttest_p_value"]])
    assert min(better["ttest_p_adjusted"], same["ttest_p_adjusted"]) == pytest.approx(2 * ps[0], rel=1e-12)
    assert better["wins"] == 12 and better["delta"] == pytest.approx(0.3)
    assert 0.29 <= better["ci_low"] < 0.3 < better["ci_high"] <= 0.31  # the gains are 0.29, 0.3 and 0.31


@pytest.mark.parametrize("suffix", [".csv", ".json", ".parquet", ".md", ".tex"])
def test_written_by_extension(comparison, tmp_path, suffix):
    path = comparison.write(tmp_path / f"table{suffix}")
    if suffix == ".parquet":
        table = pq.read_table(path)
        assert table.num_rows == 3 and "randomization_p_adjusted" in table.column_names
    elif suffix == ".json":
        rows = json.loads(path.read_text())
        assert {row["run_id"] for row in rows} == {"base", "better", "same"}
    elif suffix == ".csv":
        header = path.read_text().splitlines()[0]
        assert header.startswith('"run_id","measure","cutoff","baseline","aggregate","queries","mean"')
    else:
        assert "0.4750" in path.read_text()


def test_errors():
    with pytest.raises(sqlrank.EvaluationError, match="baseline 'bm25' is not one of the runs"):
        sqlrank.compare(clear_gain(), baseline="bm25")
    with pytest.raises(sqlrank.EvaluationError, match="unknown test 'z'"):
        sqlrank.compare(clear_gain(), tests=["z"])
    with pytest.raises(sqlrank.EvaluationError, match="unknown correction 'sidak'"):
        sqlrank.compare(clear_gain(), correction="sidak")


def test_cli_compare_and_plot(trec_data, tmp_path, capsys):
    qrels, a, b = trec_data / "qrels.test", f"base={trec_data / 'results.test'}", f"short={trec_data / 'results.trunc'}"
    assert cli_run(["compare", str(qrels), a, b, "-m", "AP", "-t", "ttest", "-t", "sign"]) == 0
    out = capsys.readouterr().out
    assert "base (baseline)" in out and "p sign" in out and "short" in out
    assert cli_run(["compare", str(qrels), a, b, "-m", "AP", "-o", str(tmp_path / "t.md")]) == 0
    assert "| short |" in (tmp_path / "t.md").read_text()
    assert cli_run(["compare", str(qrels), a, "-m", "AP"]) == 1
    assert "the baseline 'base' is the only run" in capsys.readouterr().err
    assert cli_run(["plot", "distribution", str(qrels), a, b, "-m", "AP", "-o", str(tmp_path / "d.svg")]) == 0
    assert "short" in (tmp_path / "d.svg").read_text()


def test_comparing_doc_shows_what_the_command_prints(capsys, monkeypatch):
    """The example of docs/comparing.md is the command's real output."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    section = (root / "docs" / "comparing.md").read_text(encoding="utf-8")
    block = re.search(r"```\n\$ sqlrank (?P<args>[^\n]+)\n(?P<output>.*?)```", section, re.S)
    monkeypatch.chdir(root)
    assert cli_run(block["args"].split()) == 0
    assert capsys.readouterr().out == block["output"]
    with sqlrank.connect() as con:
        result = sqlrank.evaluate("data/qrels.txt", {"bm25": "data/bm25.trec", "dense": "data/dense.trec"}, ["nDCG@10"])
        con.register("per_query", result.per_query)
        row = con.execute("SELECT run_id, baseline, measure, queries, method, permutations, p_value FROM "
                      "sqlrank.randomization_test('per_query', 'dense', 'bm25', trials := 10000, seed := 42)").fetchall()[0]
    assert "-- " + "  ".join(str(value) for value in row) in section


def test_queries_compared_are_those_both_runs_have():
    """missing='skip' leaves a query out of a run: it is not compared (3 of 4), and the table says so; the
    baseline's own row is over the same 3 queries, so that its number and the run's are comparable."""
    table = pa.table({"run_id": ["base"] * 4 + ["run"] * 3, "query_id": ["q1", "q2", "q3", "q4", "q1", "q2", "q3"],
                      "measure": ["AP"] * 7, "value": [0.1, 0.2, 0.3, 0.4, 0.2, 0.2, 0.5]})
    comparison = sqlrank.compare(table, tests=["ttest", "randomization"])
    row = comparison.row("run", "AP")
    assert (row["queries"], row["wins"], row["ties"], row["losses"]) == (3, 2, 1, 0)
    assert row["delta"] == pytest.approx((0.2 + 0.2 + 0.5) / 3 - (0.1 + 0.2 + 0.3) / 3)
    assert comparison.row("base", "AP")["queries"] == 3
    assert comparison.row("base", "AP")["mean"] == pytest.approx((0.1 + 0.2 + 0.3) / 3)
    assert "queries compared per run and measure: 3" in comparison.notes[0]


def test_compare_takes_a_result(trec_data):
    result = sqlrank.evaluate(trec_data / "qrels.test", {"full": trec_data / "results.test",
                                                        "short": trec_data / "results.trunc"}, ["AP"])
    row = sqlrank.compare(result).row("short", "AP")
    assert row["mean"] == pytest.approx(result.means["short"]["AP"], abs=1e-12)
    assert row["baseline_mean"] == pytest.approx(result.means["full"]["AP"], abs=1e-12)


def test_import_sqlrank_loads_no_numpy_scipy_or_matplotlib():
    import subprocess
    import sys

    code = "import sys, sqlrank; print(sorted(m for m in ('numpy', 'scipy', 'matplotlib') if m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "[]\n"
