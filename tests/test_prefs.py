"""trec_eval's preference measures (-R prefs, -R qrels_prefs, -m all_prefs) equal to trec_eval 10 on its own test
files (tests/data/trec_eval/README.md), through Python, the command line and the DuckDB shell's macros."""

from __future__ import annotations

import pyarrow
import pytest

import sqlrank
from cli_runner import invoke
from sqlrank.errors import EvaluationError, InputError, MeasureError
from sqlrank.registry import NAMED_SETS


def test_the_command_line_prints_what_trec_eval_prints(trec_data):
    # every value against trec_eval's 17 digits: tests/measures/test_measure_prefs_*.py; here the trec layout,
    # byte for byte, of -R prefs (the file with comment lines reads as the one without) and of -R qrels_prefs
    run = invoke("eval", "-q", "-f", "trec", "-m", "all_prefs", "-R", "prefs", trec_data / "prefs.comment.test",
                 trec_data / "prefs.results.test")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == (trec_data / "out.test.prefs").read_text()
    result = sqlrank.evaluate(None, trec_data / "results.test", "all_prefs", prefs=trec_data / "qrels.test",
                              prefs_from_qrels=True)
    assert sqlrank.export.render(result, "trec", per_query=True) == (trec_data / "out.test.qrels_prefs").read_bytes()


def test_the_command_line_takes_qrels_prefs_and_refuses_spark(trec_data, tmp_path):
    # a small qrels file read as preferences (qid jg docno rel), checked against the Python door
    qrels = tmp_path / "qrels"
    qrels.write_text("1 0 a 2\n1 0 b 1\n1 0 c 0\n1 0 d 0\n")
    run_file = tmp_path / "run"
    run_file.write_text("1 Q0 b 1 3 r\n1 Q0 a 2 2 r\n1 Q0 x 3 1 r\n1 Q0 c 4 0.5 r\n")
    out = invoke("eval", "-q", "-f", "trec", "-m", "prefs_simp,prefs_num_prefs_poss", "-R", "qrels_prefs", qrels,
                 run_file)
    assert out.exit_code == 0, out.stderr
    # 5 preferences: a>b (not: b above a), a>c, a>d (d not retrieved), b>c, b>d: 4 fulfilled
    assert "prefs_simp            \t1\t0.8000\n" in out.stdout and "prefs_num_prefs_poss  \t1\t5\n" in out.stdout
    refused = invoke("eval", "--engine", "spark", "-m", "all_prefs", "-R", "prefs", trec_data / "prefs.test",
                     trec_data / "prefs.results.test")
    assert refused.exit_code == 2 and "the preference measures are not computed on Spark yet" in refused.stderr


def test_qrels_given_as_qrels_are_one_judgment_group_per_query():
    # judgments a=2 b=1 c=0 are the preferences a>b, a>c, b>c; ranking c, a (b not retrieved): a>b is fulfilled
    # (implied), a>c and b>c are not
    qrels = {"q": {"a": 2, "b": 1, "c": 0}}
    run = {"q": {"c": 2.0, "a": 1.0}}
    result = sqlrank.evaluate(qrels, run, ["prefs_simp", "prefs_simp_ret", "prefs_simp_imp", "prefs_num_prefs_ful"])
    assert result.summary == pytest.approx({"prefs_simp": 1 / 3, "prefs_simp_ret": 0.0, "prefs_simp_imp": 1 / 3,
                                            "prefs_num_prefs_ful": 1})


def test_a_table_of_preferences_and_ties_read_as_trec_eval_reads_them():
    # one group of two sub-groups: a>b in one, b>c in the other, so a>c is implied; a and c tie on score,
    # which trec_eval's preference measures break by doc id ascending (a above c)
    prefs = pyarrow.table({"query_id": ["q"] * 4, "jg": ["u"] * 4, "jsg": ["s1", "s1", "s2", "s2"],
                           "doc_id": ["a", "b", "b", "c"], "rel_level": [2.0, 1.0, 1.0, 0.0]})
    run = {"q": {"c": 1.0, "a": 1.0, "b": 0.5}}
    result = sqlrank.evaluate(None, run, ["prefs_num_prefs_poss", "prefs_simp"], prefs=prefs)
    assert result.summary == pytest.approx({"prefs_num_prefs_poss": 3, "prefs_simp": 2 / 3})  # a>b, a>c; not b>c


@pytest.mark.parametrize("lines, message", [
    ("q u s a 1\nq u s b\n", "line 2: expected 5 fields"),
    ("q u s a 1\nq u s b high\n", "line 2: expected 5 fields"),
    ("q u s a 1\nq u s a 2\n", "query q, judgment group u, sub-group s: document a is judged 2 times"),
    ("q u s1 a 1\nq u s1 b 0\nq u s2 b 1\nq u s2 a 0\n", "has both rel_level 0 and a positive one"),
    ("q u s1 a 2\nq u s1 b 1\nq u s2 b 2\nq u s2 a 1\n", "its sub-groups contradict each other"),
    ("q u s a 1\nq u s b -1\n", "a rel_level that is not a non-negative number"),
])
def test_bad_preferences_are_named(tmp_path, lines, message):
    path = tmp_path / "prefs"
    path.write_text(lines)
    with pytest.raises(InputError, match=message):
        sqlrank.evaluate(None, {"q": {"a": 1.0}}, "prefs_simp", prefs=path)


def test_preferences_beside_qrels_or_under_average_ties_are_refused(trec_data):
    with pytest.raises(EvaluationError, match="preferences are given in place of the qrels"):
        sqlrank.evaluate(trec_data / "qrels.test", trec_data / "results.test", "prefs_simp",
                         prefs=trec_data / "prefs.test")
    with pytest.raises(MeasureError, match="ties='average' is not defined yet for prefs_simp"):
        sqlrank.evaluate(None, trec_data / "prefs.results.test", "prefs_simp", prefs=trec_data / "prefs.test",
                         ties="average")


def test_preference_and_diversity_measures_are_asked_apart():
    with pytest.raises(MeasureError, match="prefs_simp and alpha_nDCG: the preference and the diversity measures"):
        subtopics = pyarrow.table({"query_id": ["q"], "subtopic_id": ["1"], "doc_id": ["a"], "relevance": [1]})
        sqlrank.evaluate(None, {"q": {"a": 1.0}}, ["prefs_simp", "alpha_nDCG"], subtopic_qrels=subtopics)


def test_all_prefs_is_trec_eval_s_set():
    assert NAMED_SETS["all_prefs"][2:] == tuple(sqlrank.registry.REGISTRY[name].trec_name for name in (
        "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair",
        "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
        "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp"))


def test_the_shell_macro_equals_trec_eval(trec_data):
    # the most intricate of the fourteen, prefs_avgjg_Rnonrel (every macro answers as evaluate() does:
    # tests/test_measure_names.py), from a preferences table and a run table
    lines = [line.split() for line in (trec_data / "prefs.test").read_text().splitlines() if line.strip()]
    prefs = pyarrow.table({name: [row[i] for row in lines] for i, name in enumerate(("query_id", "jg", "jsg", "doc_id"))}
                          | {"rel_level": [float(row[4]) for row in lines]})
    ranked = [line.split() for line in (trec_data / "prefs.results.test").read_text().splitlines() if line.strip()]
    run = pyarrow.table({"query_id": [r[0] for r in ranked], "doc_id": [r[2] for r in ranked],
                         "score": [float(r[4]) for r in ranked]})
    con = sqlrank.connect()
    con.register("prefs", prefs)
    con.register("run", run)
    got = dict(con.execute("SELECT query_id, value FROM sqlrank.prefs_avgjg_rnonrel(prefs, run)").fetchall())
    with open(trec_data / "expected_prefs_full.csv") as handle:
        want = {row[1]: float(row[2]) for row in (line.strip().split(",") for line in handle)
                if row[0] == "prefs_avgjg_Rnonrel" and row[1] != "all"}
    assert len(want) == 24 and got == pytest.approx(want, abs=1e-9)


def test_spark_refuses_them_by_name():
    from sqlrank.spark.checks import check_options

    with pytest.raises(MeasureError, match="prefs_simp: the preference measures are not computed on Spark yet"):
        check_options("zero", "error", None, "double", None, "trec", False, (), sqlrank.parse_measures(["prefs_simp"]))
