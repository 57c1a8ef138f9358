"""Judged-only evaluation (trec_eval -J, ir_measures' judged_only=True) through the three doors.

Unjudged documents (and negative labels) leave each ranking before any measure reads it; depth
(trec_eval -M) cuts first. Checked against the plain-Python trec_eval oracle (tests/trec_oracle.py,
itself checked against trec_eval's output) on every all_trec measure, and by hand.
"""

from __future__ import annotations

import pytest

import sqlrank
import trec_oracle as oracle
from sqlrank.cli import run
from sqlrank.measures import trec_name
from trec_oracle import Options

TOL = 1e-9


def sqlrank_lines(trec_data, qrels, results, **options) -> dict:
    result = sqlrank.evaluate(trec_data / qrels, trec_data / results, ["all_trec"], judged_only=True, names="canonical",
                              **options)
    names = {str(m): trec_name(m) for m in result.parsed_measures}
    return {(names[row["measure"]], row["query_id"]): row["value"] for row in result.to_arrow().to_pylist()}


@pytest.mark.parametrize("qrels, results, depth, rel", [
    ("qrels.rel_level", "results.test", None, 1),  # unjudged and -1 documents in the top ranks
    ("qrels.rel_level", "results.test", 100, 2),  # -M100 before -J, -l2
    ("qrels.test", "results.trunc", 50, 1),  # a query missing from the run (-c)
])
def test_every_all_trec_measure_matches_the_oracle(trec_data, qrels, results, depth, rel):
    judgments = oracle.read_qrels(trec_data / qrels)
    scores, runid = oracle.read_run(trec_data / results)
    expected = oracle.evaluate(judgments, scores, oracle.ALL_TREC,
                               Options(rel_level=rel, complete=True, max_docs=depth, judged_only=True), runid)
    actual = sqlrank_lines(trec_data, qrels, results, depth=depth, rel=rel)
    compared = 0
    for query, row in expected.items():
        for measure, value in row.items():
            if isinstance(value, str):  # runid, relstring: the trec layout's text lines
                continue
            if (measure, query) == ("num_rel", "all") and rel != 1:
                continue  # trec_eval's -c quirk, which sqlrank does not copy (tests/test_conformance.py)
            assert actual[(measure, query)] == pytest.approx(value, abs=TOL), (measure, query)
            compared += 1
    assert compared > 300


QRELS = {"q": {"a": 1, "c": 0, "d": -1}}
RUN = {"q": {"x": 3.0, "a": 2.0, "d": 1.5, "c": 1.0}}  # x unjudged, d negative: a, c remain


def test_by_hand_and_in_the_notices():
    result = sqlrank.evaluate(QRELS, RUN, ["P@1", "NumRet", "RR"], judged_only=True)
    assert result.summary == {"P@1": 1.0, "NumRet": 2, "RR": 1.0}
    assert any("judged only" in notice for notice in result.notices())
    assert sqlrank.evaluate(QRELS, RUN, ["P@1", "NumRet", "RR"]).summary == {"P@1": 0.0, "NumRet": 4, "RR": 0.5}


def test_depth_cuts_before_the_unjudged_go():
    # the top 1 is x, unjudged: nothing is left, which is refused rather than scored 0
    with pytest.raises(sqlrank.EvaluationError, match="no retrieved document has a judgment >= 0 in the top 1"):
        sqlrank.evaluate(QRELS, RUN, ["NumRet"], judged_only=True, depth=1)
    two = {"q": {"a": 1}, "r": {"b": 1}}
    result = sqlrank.evaluate(two, {"q": {"x": 2.0, "a": 1.0}, "r": {"b": 2.0, "y": 1.0}}, ["RR"], judged_only=True,
                              depth=1)  # q is left with nothing: missing from the run, scored 0
    assert result.summary == {"RR": 0.5}
    assert sqlrank.evaluate(QRELS, RUN, ["RR"], judged_only=True, depth=2).summary == {"RR": 1.0}


def test_the_shell_macros_take_judged_only(con):
    con.execute("CREATE TABLE qrels AS SELECT * FROM (VALUES ('q', 'a', 1), ('q', 'c', 0), ('q', 'd', -1)) "
                "t(query_id, doc_id, relevance)")
    con.execute("CREATE TABLE run AS SELECT * FROM (VALUES ('q', 'x', 3.0), ('q', 'a', 2.0), ('q', 'd', 1.5), "
                "('q', 'c', 1.0)) t(query_id, doc_id, score)")
    assert con.execute("SELECT value FROM sqlrank.rr('qrels', 'run', judged_only := true)").fetchall() == [(1.0,)]
    assert con.execute("SELECT value FROM sqlrank.rr('qrels', 'run')").fetchall() == [(0.5,)]
    assert con.execute("SELECT value FROM sqlrank.num_ret('qrels', 'run', judged_only := true, depth := 2)"
                       ).fetchall() == [(1.0,)]  # x, a: a is left


def test_the_command_line_takes_dash_j(trec_data, capsys):
    args = ["eval", "-f", "trec", "-m", "map", str(trec_data / "qrels.rel_level"), str(trec_data / "results.test")]
    assert run([*args[:1], "-J", *args[1:]]) == 0
    judged = capsys.readouterr().out
    assert run(args) == 0
    assert judged != capsys.readouterr().out
    expected = sqlrank.evaluate(trec_data / "qrels.rel_level", trec_data / "results.test", ["map"],
                                judged_only=True).summary["map"]
    assert judged == f"map                   \tall\t{expected:.4f}\n"


def test_judged_only_must_be_a_bool():
    with pytest.raises(sqlrank.EvaluationError, match="judged_only is True or False"):
        sqlrank.evaluate(QRELS, RUN, ["RR"], judged_only="yes")
