"""Each plot kind rendered to PNG and SVG from a small result, and the files checked."""

from __future__ import annotations

import sys

import pyarrow as pa
import pytest

import sqlrank

pytest.importorskip("matplotlib")  # the `plot` extra; the test extra installs it

LEVELS = [i / 10 for i in range(11)]


@pytest.fixture(scope="module")
def result(trec_data):
    return sqlrank.evaluate(trec_data / "qrels.test", {"bm25": trec_data / "results.test",
                                                       "short": trec_data / "results.trunc"},
                            ["nDCG@5", "nDCG@10", "nDCG@20", "AP"])


def precision_recall_table() -> pa.Table:
    """Interpolated precision at recall 0.0 .. 1.0 of two runs over two queries, as trec_eval names it."""
    rows = [(run, query, f"iprec_at_recall_{level:.2f}", max(0.0, top - drop * level))
            for run, top, drop in (("bm25", 0.9, 0.8), ("dense", 1.0, 0.6)) for query in ("q1", "q2")
            for level in LEVELS]
    return pa.table({name: [row[i] for row in rows] for i, name in enumerate(("run_id", "query_id", "measure", "value"))})


@pytest.mark.parametrize("kind, measure, expected", [
    ("cutoff", None, ["nDCG@k by cutoff", "bm25", "short"]),
    ("delta", "AP", ["AP: short", "bm25 per query"]),
    ("distribution", "AP", ["AP per query", "bm25", "short"]),
])
def test_result_plots_to_png_and_svg(result, tmp_path, kind, measure, expected):
    png, svg = tmp_path / f"{kind}.png", tmp_path / f"{kind}.svg"
    result.plot(kind, png, measure=measure)
    sqlrank.plot(result, kind, svg, measure=measure)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5_000
    text = svg.read_text()
    assert text.lstrip().startswith("<?xml") and svg.stat().st_size > 5_000
    for words in expected:
        assert words in text, (kind, words)


def test_precision_recall_plot(tmp_path):
    svg, png = tmp_path / "pr.svg", tmp_path / "pr.png"
    figure = sqlrank.plot(precision_recall_table(), "pr", svg)
    sqlrank.plot(precision_recall_table(), "pr", png)
    text = svg.read_text()
    assert "Interpolated precision-recall" in text and "bm25" in text and "dense" in text
    assert png.stat().st_size > 5_000
    # the curve of dense holds its means at the 11 recall levels: 1.0 - 0.6 r
    line = figure.axes[0].get_lines()[1]
    assert list(line.get_xdata()) == LEVELS
    assert list(line.get_ydata()) == pytest.approx([1.0 - 0.6 * level for level in LEVELS])


def test_cutoff_plot_carries_the_cutoffs_as_numbers(result):
    figure = result.plot("cutoff")
    lines = figure.axes[0].get_lines()
    assert [line.get_label() for line in lines] == ["bm25", "short"]
    assert list(lines[0].get_xdata()) == [5, 10, 20]
    assert list(lines[0].get_ydata()) == pytest.approx([result.means["bm25"][m] for m in ("nDCG@5", "nDCG@10", "nDCG@20")])


def test_plot_errors_say_what_to_do(result):
    with pytest.raises(sqlrank.OutputError, match="unknown plot 'pie'"):
        result.plot("pie")
    with pytest.raises(sqlrank.OutputError, match="no values for measure 'P@5'"):
        result.plot("distribution", measure="P@5")
    with pytest.raises(sqlrank.OutputError, match="iprec_at_recall"):
        result.plot("pr")


def test_without_matplotlib_the_error_says_what_to_install(result, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # an import of it now raises ImportError
    with pytest.raises(sqlrank.OutputError) as error:
        result.plot("cutoff", tmp_path / "cutoff.png")
    assert str(error.value) == "plots need matplotlib: in the sqlrank checkout, .venv/bin/pip install -e '.[plot]'"
    assert not (tmp_path / "cutoff.png").exists()
