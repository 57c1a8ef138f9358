"""Names a user controls (run ids, query ids, the baseline) cannot break out of any output format.

Each format has one escaping function (sqlrank.formats.escaping); these names go through
every format a result or a comparison is written in, and through the command line's messages.
"""

from __future__ import annotations

import pyarrow as pa
import pytest

import sqlrank
from sqlrank import export
from sqlrank.formats import escaping

from cli_runner import invoke

LATEX_ATTACK = "x\n\\input{/etc/hostname}"
HTML_ATTACK = "<img src=x onerror=alert(1)>"
ROW_BREAKER = "a|b\nc"
FORGED_ERROR = "r\nsqlrank: error: forged"
TERMINAL_ATTACK = "\x1b[2J\u202eevil"
MATHTEXT = "$\\frac{$"
HOSTILE = [LATEX_ATTACK, HTML_ATTACK, ROW_BREAKER, FORGED_ERROR, TERMINAL_ATTACK, MATHTEXT]


def test_each_format_escapes_by_hand():
    assert escaping.latex(LATEX_ATTACK) == r"x\textbackslash{}n\textbackslash{}input\{/etc/hostname\}"
    assert escaping.markdown(HTML_ATTACK) == "&lt;img src=x onerror=alert(1)&gt;"
    assert escaping.markdown(ROW_BREAKER) == r"a\|b\\nc"
    assert escaping.terminal(TERMINAL_ATTACK) == r"\x1b[2J\u202eevil"
    assert escaping.notice(FORGED_ERROR) == r"r\nsqlrank: error: forged"
    assert escaping.plot_label(MATHTEXT) == r"\$\frac{\$"


@pytest.fixture(scope="module")
def hostile_result():
    qrels = {"q\n1": {"d1": 1}, "q2": {"d1": 1}}
    runs = {name: {"q\n1": {"d1": 1.0 - i / 10}, "q2": {"d2": 1.0}} for i, name in enumerate(["base", *HOSTILE])}
    return sqlrank.evaluate(qrels, runs, ["RR"])


def _clean(text: str, lines: int, markup: bool = True) -> list[str]:
    """The output's lines: as many as the layout has, none holding a control character (nor raw HTML in markup)."""
    out = text.splitlines()
    assert len(out) == lines, text
    assert not any(not char.isprintable() for line in out for char in line)
    assert "\n\\input" not in text and "\nsqlrank: error" not in text
    assert not markup or "<img" not in text  # plain text on a terminal is not markup: shown as it is
    return out


def test_a_result_in_every_text_format(hostile_result):
    rows = 1 + len(HOSTILE)
    markdown = _clean(export.render(hostile_result, "markdown").decode(), 2 + rows)
    assert all(line.startswith("| ") and line.endswith(" |") and line.count(" | ") == 1 for line in markdown[2:])
    latex = _clean(export.render(hostile_result, "latex").decode(), 6 + rows)
    assert r"x\textbackslash{}n\textbackslash{}input\{/etc/hostname\}" in latex[5 + HOSTILE.index(LATEX_ATTACK)]
    _clean(export.render(hostile_result, "table").decode(), 3, markup=False)
    _clean(export.render(hostile_result, "markdown", per_query=True).decode(), 2 + 3 * rows)
    _clean(export.render(hostile_result, "table", per_query=True).decode(), 2 + 3, markup=False)


def test_a_comparison_in_every_text_format():
    rows = [(run, f"q{q}", "AP", 0.25 * q + 0.01 * i) for i, run in enumerate(["base", *HOSTILE]) for q in range(4)]
    table = pa.table({name: [row[i] for row in rows] for i, name in enumerate(("run_id", "query_id", "measure", "value"))})
    comparison = sqlrank.compare(table, baseline=LATEX_ATTACK, tests=["ttest"])
    runs = 1 + len(HOSTILE)
    markdown = _clean(comparison.to_markdown(), 2 + runs + 2)
    assert markdown[-1].startswith("† p < 0.05") and r"x\\ninput" not in markdown[-1]
    latex = _clean(comparison.to_latex(), 7 + runs)
    assert latex[-2].startswith(r"\multicolumn") and latex[-1] == r"\end{tabular}"  # the legend, a table row
    assert r"baseline x\textbackslash{}n\textbackslash{}input\{/etc/hostname\}" in latex[-2]
    terminal = _clean(str(comparison), len(str(comparison).splitlines()), markup=False)
    assert sum(line.startswith(("a|b", "r\\n")) for line in terminal) == 4  # the table's and the details' rows


def test_a_name_cannot_forge_a_line_of_the_command_line(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\n")
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 d1 1 1.0 r\n")
    result = invoke("compare", qrels, f"a={run}", f"b={run}", "-b", FORGED_ERROR)
    assert result.exit_code != 0
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("sqlrank: error: baseline 'r\\nsqlrank")


def test_plot_labels_are_text_not_mathtext(hostile_result, tmp_path):
    pytest.importorskip("matplotlib")
    figure = sqlrank.plot(hostile_result, "distribution", tmp_path / "d.png", measure="RR")
    labels = [tick.get_text() for tick in figure.axes[0].get_xticklabels()]
    assert labels[HOSTILE.index(MATHTEXT) + 1] == r"\$\frac{\$"
    assert (tmp_path / "d.png").stat().st_size > 0
    sqlrank.plot(hostile_result, "delta", tmp_path / "delta.svg", measure="RR", baseline=MATHTEXT)
