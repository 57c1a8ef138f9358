"""The markdown and latex formats: a paper's results table, runs as rows, measures as columns, the best in bold.

On the example of data/ (the README's numbers): bm25 and dense over q1-q3.

            nDCG@10  AP      RR      P@10    R@100   NumRet
    bm25    0.6519   0.5556  0.7778  0.2667  0.8333  13
    dense   0.7894   0.6741  0.8333  0.2333  0.7778  9

dense is best in nDCG@10, AP and RR, bm25 in P@10 and R@100; NumRet is a count
(summed, not averaged), which describes a run rather than scores it: never bold.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest
from typer.testing import CliRunner

import sqlrank
from sqlrank import export
from sqlrank.cli import app

DATA = Path(__file__).resolve().parent.parent / "data"
MEASURES = ["nDCG@10", "AP", "RR", "P@10", "R@100", "NumRet"]
MEASURE_ARGS = [arg for m in MEASURES for arg in ("-m", m)]

MARKDOWN = """\
| run   |    nDCG@10 |         AP |         RR |       P@10 |      R@100 | NumRet |
| :---- | ---------: | ---------: | ---------: | ---------: | ---------: | -----: |
| bm25  |     0.6519 |     0.5556 |     0.7778 | **0.2667** | **0.8333** |     13 |
| dense | **0.7894** | **0.6741** | **0.8333** |     0.2333 |     0.7778 |      9 |
"""

LATEX = r"""\begin{tabular}{lrrrrrr}
\toprule
run   &         nDCG@10 &              AP &              RR &            P@10 &           R@100 & NumRet \\
\midrule
bm25  &          0.6519 &          0.5556 &          0.7778 & \textbf{0.2667} & \textbf{0.8333} &     13 \\
dense & \textbf{0.7894} & \textbf{0.6741} & \textbf{0.8333} &          0.2333 &          0.7778 &      9 \\
\bottomrule
\end{tabular}
"""


def invoke(*args):
    try:
        runner = CliRunner(mix_stderr=False)  # click < 8.2 mixes stderr into stdout unless told
    except TypeError:
        runner = CliRunner()
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def result():
    return sqlrank.evaluate(DATA / "qrels.txt", [DATA / "bm25.trec", DATA / "dense.trec"], MEASURES)


@pytest.mark.parametrize("fmt, expected", [("markdown", MARKDOWN), ("latex", LATEX)])
def test_the_means_of_the_example(result, fmt, expected):
    assert export.render(result, fmt).decode() == expected
    shown = invoke("eval", DATA / "qrels.txt", DATA / "bm25.trec", DATA / "dense.trec", *MEASURE_ARGS, "-f", fmt)
    assert shown.exit_code == 0 and shown.stdout == expected


@pytest.mark.parametrize("name, expected", [("paper.md", MARKDOWN), ("paper.markdown", MARKDOWN),
                                            ("paper.tex", LATEX)])
def test_the_extension_asks_for_the_format(tmp_path, name, expected):
    written = invoke("eval", DATA / "qrels.txt", DATA / "bm25.trec", DATA / "dense.trec", *MEASURE_ARGS,
                     "-o", tmp_path / name)
    assert written.exit_code == 0 and written.stdout == ""
    assert (tmp_path / name).read_text() == expected


def test_per_query_marks_the_best_run_of_each_query(result):
    # q1: nDCG@10 bm25 0.7842 < dense 0.8376; AP 0.8333 > 0.6333; RR 1 = 1 (a tie of all: nothing to choose)
    lines = export.render(result, "markdown", per_query=True).decode().splitlines()
    assert lines[0] == "| query | run   |    nDCG@10 |         AP |         RR |       P@10 |      R@100 | NumRet |"
    assert lines[2] == "| q1    | bm25  |     0.7842 | **0.8333** |     1.0000 | **0.5000** | **0.8333** |      5 |"
    assert lines[3] == "| q1    | dense | **0.8376** |     0.6333 |     1.0000 |     0.4000 |     0.6667 |      5 |"
    # the means last; bm25's query q4 has no judgments and no row
    assert [line.split("|")[1].strip() for line in lines[2:]] == ["q1", "q1", "q2", "q2", "q3", "q3", "all", "all"]
    assert lines[-2:] == [
        "| all   | bm25  |     0.6519 |     0.5556 |     0.7778 | **0.2667** | **0.8333** |     13 |",
        "| all   | dense | **0.7894** | **0.6741** | **0.8333** |     0.2333 |     0.7778 |      9 |",
    ]


def test_per_query_latex_rules_off_each_query(result):
    lines = export.render(result, "latex", per_query=True).decode().splitlines()
    assert lines[:4] == [r"\begin{tabular}{llrrrrrr}", r"\toprule",
                         r"query & run   &         nDCG@10 &              AP &              RR &            P@10 &"
                         r"           R@100 & NumRet \\", r"\midrule"]
    assert lines[4] == (
        r"q1    & bm25  &          0.7842 & \textbf{0.8333} &          1.0000 & \textbf{0.5000} & "
        r"\textbf{0.8333} &      5 \\")
    assert lines.count(r"\midrule") == 4  # under the header, then before q2, q3 and all
    assert lines[-2:] == [r"\bottomrule", r"\end{tabular}"]


def test_ties_are_all_bold_and_a_single_run_has_nothing_to_choose():
    qrels = {"q1": {"d1": 1, "d2": 1}}
    runs = {"first": {"q1": {"d1": 2.0, "d3": 1.0}}, "second": {"q1": {"d2": 2.0, "d1": 1.0}},
            "third": {"q1": {"d3": 2.0, "d1": 1.0}}}
    three = sqlrank.evaluate(qrels, runs, ["RR", "P@2"])
    # RR: 1, 1, 1/2 -> first and second share the best; P@2: 1/2, 1, 1/2
    assert export.render(three, "markdown").decode().splitlines()[2:] == [
        "| first  | **1.0000** |     0.5000 |",
        "| second | **1.0000** | **1.0000** |",
        "| third  |     0.5000 |     0.5000 |",
    ]
    one = sqlrank.evaluate(qrels, {"first": runs["first"]}, ["RR", "P@2"])
    assert "**" not in export.render(one, "markdown").decode()
    assert r"\textbf" not in export.render(one, "latex").decode()


def test_names_are_escaped():
    qrels = {"q1": {"d1": 1}}
    runs = {"bm25_rm3": {"q1": {"d1": 1.0}}, "a|b&c%": {"q1": {"d2": 1.0}}}
    result = sqlrank.evaluate(qrels, runs, ["RR"])
    assert export.render(result, "markdown").decode().splitlines()[2:] == [
        r"| bm25\_rm3   | **1.0000** |",
        r"| a\|b&amp;c% |     0.0000 |",
    ]
    assert export.render(result, "latex").decode().splitlines()[4:6] == [
        r"bm25\_rm3 & \textbf{1.0000} \\",
        r"a|b\&c\%  &          0.0000 \\",
    ]


def test_any_table_keeps_its_own_columns():
    """`sqlrank query -f markdown`: the columns as selected, numbers flush right, nothing in bold."""
    table = pa.table({"query_id": ["q1", "q_2"], "value": [0.5, 1.0], "n": [3, None]})
    assert export.render_arrow(table, "markdown").decode() == (
        "| query\\_id | value |    n |\n"
        "| :-------- | ----: | ---: |\n"
        "| q1        |   0.5 |    3 |\n"
        "| q\\_2      |   1.0 | NULL |\n"
    )
    assert export.render_arrow(table, "latex").decode() == (
        "\\begin{tabular}{lrr}\n\\toprule\n"
        "query\\_id & value &    n \\\\\n\\midrule\n"
        "q1        &   0.5 &    3 \\\\\n"
        "q\\_2      &   1.0 & NULL \\\\\n"
        "\\bottomrule\n\\end{tabular}\n"
    )
    shown = invoke("query", "SELECT 'q1' AS query, 0.25::DOUBLE AS value", "-f", "markdown")
    assert shown.exit_code == 0 and shown.stdout == "| query | value |\n| :---- | ----: |\n| q1    |  0.25 |\n"
