"""trec_eval's multi-judge measures (-R qrels_jg -m qrels_jg: map_avgjg, P_avgjg, Rprec_mult_avgjg) against trec_eval
10's own output on its multi-judge test qrels, through every door; the refusals where they cannot go.

tests/data/trec_eval/README.md names the files' source: qrels.123 holds three judges' qrels (0, 1, 2) of queries
301-303; expected_qrels_jg_full.csv is `trec_eval -m qrels_jg -q -R qrels_jg qrels.123 results.test` with 17 digits.
The `-f trec` layout's byte-for-byte check is in tests/test_named_sets.py.
"""

from __future__ import annotations

import csv

import pytest

import sqlrank
from cli_runner import invoke
from sqlrank.errors import EvaluationError, MeasureError


def expected(trec_data) -> dict[tuple[str, str], float]:
    with open(trec_data / "expected_qrels_jg_full.csv", newline="") as file:
        return {(row["measure"], row["query_id"]): float(row["value"]) for row in csv.DictReader(file)
                if row["measure"] != "runid"}


def test_every_value_equals_trec_eval(trec_data):
    # qrels.comments.123 is qrels.123 with comment lines, which upstream's own test gives the same output
    # (tests/test_named_sets.py prints qrels.123's byte for byte)
    result = sqlrank.evaluate(None, trec_data / "results.test", ["qrels_jg"],
                              judge_qrels=trec_data / "qrels.comments.123")
    got = {(row["measure"], row["query_id"]): row["value"] for row in result.to_arrow().to_pylist()
           if row["query_id"] == "all" or row["measure"] != "num_q"}  # trec_eval prints num_q in the `all` row only
    want = expected(trec_data)
    assert got.keys() == want.keys() and len(want) == 3 * 20 + 21
    assert got == pytest.approx(want, abs=1e-9)


def test_the_shell_macros_give_trec_eval_numbers(trec_data):
    """sqlrank.<macro>(judge_qrels, run, ...) with a judge_id column, as a shell user loads the file."""
    want = expected(trec_data)
    with sqlrank.connect() as con:
        con.execute(f"CREATE TABLE judges AS SELECT column0 AS query_id, column1 AS judge_id, column2 AS doc_id, "
                    f"column3 AS relevance FROM read_csv('{trec_data / 'qrels.123'}', delim=' ', header=false, "
                    "columns={'column0': 'VARCHAR', 'column1': 'VARCHAR', 'column2': 'VARCHAR', 'column3': 'INTEGER'})")
        sqlrank.load_run(con, trec_data / "results.test", "run")
        for call, name in (("ap_avgjg('judges', 'run')", "map_avgjg"), ("p_avgjg('judges', 'run', k := 15)", "P_avgjg_15"),
                           ("rprec_mult_avgjg('judges', 'run', multiple := 0.6)", "Rprec_mult_avgjg_0.60")):
            got = dict(con.execute(f"SELECT query_id, value FROM sqlrank.{call}").fetchall())
            assert got == pytest.approx({q: want[(name, q)] for q in ("301", "302", "303")}, abs=1e-9), call


def test_one_judge_gives_the_measures_themselves(trec_data):
    """qrels.test names one judge (its second field is 0 throughout): each *_avgjg is its measure, which
    tests/test_conformance.py checks against trec_eval."""
    pairs = {"AP_avgjg": "AP", "P_avgjg@10": "P@10", "P_avgjg@1000": "P@1000", "RprecMult_avgjg@0.4": "RprecMult@0.4",
             "RprecMult_avgjg@1.8": "RprecMult@1.8"}
    judged = sqlrank.evaluate(None, trec_data / "results.test", list(pairs), judge_qrels=trec_data / "qrels.test")
    plain = sqlrank.evaluate(trec_data / "qrels.test", trec_data / "results.test", list(pairs.values()))
    values = {(row["measure"], row["query_id"]): row["value"] for row in judged.to_arrow().to_pylist()}
    base = {(row["measure"], row["query_id"]): row["value"] for row in plain.to_arrow().to_pylist()}
    assert {(pairs[m], q): v for (m, q), v in values.items()} == pytest.approx(base, abs=1e-12)


def test_a_judge_column_of_another_name_is_suggested_and_taken(tmp_path):
    (tmp_path / "judges.csv").write_text("qid,assessor,docno,rel\nq,1,a,1\nq,1,b,1\nq,2,c,1\n")
    (tmp_path / "run.txt").write_text("q Q0 a 1 3 r\nq Q0 c 2 2 r\nq Q0 b 3 1 r\n")
    files = (tmp_path / "judges.csv", tmp_path / "run.txt")
    done = invoke("eval", "-R", "qrels_jg", "-m", "map_avgjg", *files)
    assert done.exit_code != 0
    # multi-judge qrels are read as subtopic qrels are, the judge in the subtopic's place: the reader's words
    assert "missing column 'subtopic_id' (found qid, assessor, docno, rel); did you mean --subtopic-col assessor?" \
        in done.stderr
    done = invoke("eval", "-R", "qrels_jg", "--subtopic-col", "assessor", "-m", "map_avgjg", "-m", "P_avgjg.2",
                  "-f", "csv", *files)
    assert done.exit_code == 0, done.stderr
    # docs/measures.md's worked example: ((1/1 + 2/3) / 2 + (1/2) / 1) / 2 and (1/2 + 1/2) / 2
    assert done.stdout.replace('"', "").splitlines()[1:] == ["run,all,map_avgjg,0.6666666666666666",
                                                             "run,all,P_avgjg.2,0.5"]
    result = sqlrank.evaluate(None, files[1], ["map_avgjg"], judge_qrels=files[0], judge_col="assessor")
    assert result.summary == {"map_avgjg": pytest.approx(2 / 3, abs=1e-15)}


def test_without_multi_judge_qrels_and_beside_subtopic_qrels_they_are_refused(trec_data):
    with pytest.raises(MeasureError, match=r"AP_avgjg: the multi-judge measures read multi-judge qrels .* pass "
                                           r"judge_qrels=<path or table> \(and qrels=None\) \(CLI: -R qrels_jg"):
        sqlrank.evaluate(trec_data / "qrels.123", trec_data / "results.test", ["map_avgjg"])
    with pytest.raises(EvaluationError, match="judge_qrels and subtopic_qrels are one input under two names"):
        sqlrank.evaluate(None, trec_data / "results.test", ["map_avgjg"], judge_qrels=trec_data / "qrels.123",
                         subtopic_qrels=trec_data / "qrels.123")
    done = invoke("eval", "-m", "qrels_jg", trec_data / "qrels.123", trec_data / "results.test")
    assert done.exit_code != 0
    assert "the multi-judge measures read multi-judge qrels" in done.stderr and "pass -R qrels_jg" in done.stderr


def test_ties_average_and_spark_refuse_them_by_name(trec_data):
    from sqlrank.spark.checks import check_options

    with pytest.raises(MeasureError, match="ties='average' is not defined yet for AP_avgjg"):
        sqlrank.evaluate(None, trec_data / "results.test", ["map_avgjg"], judge_qrels=trec_data / "qrels.123",
                         ties="average")
    with pytest.raises(MeasureError, match="P_avgjg@5: the multi-judge measures are not computed on Spark yet"):
        check_options("zero", "error", None, "double", None, "trec", False, (), sqlrank.parse_measures(["P_avgjg@5"]))
    done = invoke("eval", "--engine", "spark", "-R", "qrels_jg", "-m", "qrels_jg", trec_data / "qrels.123",
                  trec_data / "results.test")
    assert done.exit_code != 0 and "the multi-judge measures are not computed on Spark yet" in done.stderr
