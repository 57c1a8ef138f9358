"""The line formats (trec, table) and what could make one line two: parameterised names and ids with tabs."""

from __future__ import annotations

import pytest

import sqlrank
from sqlrank.cli import run

QRELS = {"q": {"a": 1, "b": 2}}
RUN = {"q": {"a": 2.0, "b": 1.0}}


def test_trec_layout_names_parameterised_measures_apart(tmp_path, capsys):
    result = sqlrank.evaluate(QRELS, RUN, ["AP", "AP(rel=2)", "map"])
    assert sqlrank.export.render(result, "trec").decode() == (
        "map                   \tall\t1.0000\n"
        "AP(rel=2)             \tall\t0.5000\n")
    (tmp_path / "qrels").write_text("q 0 a 1\nq 0 b 2\n")
    (tmp_path / "run").write_text("q Q0 a 1 2.0 x\nq Q0 b 2 1.0 x\n")
    assert run(["eval", "-f", "trec", "-m", "AP", "-m", "AP(rel=2)", str(tmp_path / "qrels"), str(tmp_path / "run")]) == 0
    assert [line.split("\t")[0].strip() for line in capsys.readouterr().out.splitlines()] == ["map", "AP(rel=2)"]


TAB_QRELS = {"a\tb": {"d": 1}, "c\nd": {"d": 1}}
TAB_RUN = {"a\tb": {"d": 1.0}, "c\nd": {"d": 2.0}}


def test_ids_with_a_tab_or_line_break_are_refused_in_the_trec_layout():
    result = sqlrank.evaluate(TAB_QRELS, TAB_RUN, ["RR"])
    with pytest.raises(sqlrank.OutputError, match=r"the query id 'a\\tb' holds a tab or a line break.*write csv"):
        sqlrank.export.render(result, "trec", per_query=True)
    # the `all` rows alone are safe
    assert sqlrank.export.render(result, "trec").decode() == "recip_rank            \tall\t1.0000\n"
    several = sqlrank.evaluate(TAB_QRELS, {"x\ty": TAB_RUN, "z": TAB_RUN}, ["RR"])
    with pytest.raises(sqlrank.OutputError, match=r"the run id 'x\\ty'"):
        sqlrank.export.render(several, "trec")


def test_ids_with_a_tab_or_line_break_are_escaped_in_the_table():
    result = sqlrank.evaluate(TAB_QRELS, TAB_RUN, ["RR"])
    text = sqlrank.export.render(result, "table", per_query=True).decode()
    assert text.splitlines()[2:] == ["a\\tb   RR       1.0000", "c\\nd   RR       1.0000", "all    RR       1.0000"]
    # csv quotes them, unchanged
    assert '"c\nd"' in sqlrank.export.render(result, "csv", per_query=True).decode()
