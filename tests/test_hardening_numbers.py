"""Hardening, round two: the inputs that gave silently wrong numbers are refused, or read exactly.

Each test here failed before its fix; docs/bad_input.md names them. The small data set:

    qrels  q1: a=2 b=0 c=1      q2: x=1 y=0
    run    q1: a 3.0, b 2.0, c 1.0;  q2: y 2.0, x 1.0
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import sqlrank
from sqlrank.errors import InputError, SqlrankError
from cli_runner import invoke

QRELS = "q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq2 0 x 1\nq2 0 y 0\n"
RUN = "q1 Q0 a 1 3.0 r\nq1 Q0 b 2 2.0 r\nq1 Q0 c 3 1.0 r\nq2 Q0 y 1 2.0 r\nq2 Q0 x 2 1.0 r\n"


def write(folder: Path, name: str, content: str) -> Path:
    path = folder / name
    path.write_text(content, encoding="utf-8")
    return path


def refusal(qrels, run, measures=("RR",), error=InputError, **options) -> str:
    with pytest.raises(error) as caught:
        sqlrank.evaluate(qrels, run, list(measures), **options)
    return str(caught.value)


# ---------------------------------------------------------------- 3. one case rule for every recognised column

@pytest.mark.parametrize("spelling", ["run_id", "RUN_ID", "Run_Id"])
def test_a_run_id_column_is_recognised_in_any_case(tmp_path, con, spelling):
    # two systems in one table: s1 ranks the relevant document first, s2 second
    rows = f"QID,DocNo,Score,{spelling}\nq1,a,2,s1\nq1,b,1,s1\nq1,a,1,s2\nq1,b,2,s2\n"
    run = write(tmp_path, "runs.csv", rows)
    qrels = write(tmp_path, "qrels.txt", "q1 0 a 1\nq1 0 b 0\n")
    result = sqlrank.evaluate(qrels, run, ["RR", "NumRet"])
    values = {(row["run_id"], row["measure"]): row["value"] for row in result.per_query.to_pylist()}
    assert values == {("s1", "RR"): 1.0, ("s2", "RR"): 0.5, ("s1", "NumRet"): 2.0, ("s2", "NumRet"): 2.0}
    frame = pd.read_csv(run)
    from_frame = sqlrank.evaluate(qrels, frame, ["RR"]).per_query.to_pylist()
    assert sorted((row["run_id"], row["value"]) for row in from_frame) == [("s1", 1.0), ("s2", 0.5)]
    # the DuckDB shell's macros read a user's own table: its run_id column in any case too
    con.register("runs_table", frame.rename(columns={"QID": "query_id", "DocNo": "doc_id", "Score": "score"}))
    sqlrank.load_qrels(con, qrels)
    rows = con.execute("SELECT * FROM sqlrank.rr('qrels', 'runs_table')").fetchall()
    assert sorted(rows) == [("s1", "q1", 1.0), ("s2", "q1", 0.5)]


# ---------------------------------------------------------------- 7. duplicate column names

def test_duplicate_column_names_are_refused_naming_the_column(tmp_path):
    qrels = write(tmp_path, "qrels.txt", QRELS)
    csv_run = write(tmp_path, "run.csv", "query_id,doc_id,score,query_id\nq1,a,3,q2\n")
    assert refusal(qrels, csv_run) == (
        f"{csv_run}: the header names the column 'query_id' twice (columns 1 and 4); give each column its own "
        "name: rename or remove one")
    case_run = write(tmp_path, "case.csv", "qid,docno,score,QID\nq1,a,3,q2\n")
    assert refusal(qrels, case_run) == (
        f"{case_run}: the header names the column 'qid' twice (columns 1 and 4, as 'qid' and 'QID': column "
        "names are compared in any case); give each column its own name: rename or remove one")
    table = pa.table([pa.array(["q1"]), pa.array(["a"]), pa.array([3.0]), pa.array(["q2"])],
                     names=["query_id", "doc_id", "score", "query_id"])
    pq.write_table(table, tmp_path / "run.parquet")
    assert refusal(qrels, tmp_path / "run.parquet") == (
        f"{tmp_path / 'run.parquet'}: the Parquet schema names the column 'query_id' twice (columns 1 and 4); "
        "give each column its own name: rename or remove one")
    assert refusal(qrels, table) == (
        "<pyarrow Table run>: the table names the column 'query_id' twice (columns 1 and 4); give each column its "
        "own name: rename or remove one")
    frame = pd.DataFrame([["q1", "a", 3.0, "q2"]], columns=["query_id", "doc_id", "score", "query_id"])
    assert refusal(qrels, frame) == (
        "<pandas DataFrame run>: the table names the column 'query_id' twice (columns 1 and 4); give each column its "
        "own name: rename or remove one")


# ---------------------------------------------------------------- 8. digit separators: one rule everywhere

def test_digit_separators_are_refused_in_every_format(tmp_path):
    qrels = write(tmp_path, "qrels.txt", QRELS)
    trec_run = write(tmp_path, "run.trec", RUN.replace("3.0", "1_000"))
    assert "column 5 (score) must be a number, found '1_000'" in refusal(qrels, trec_run)
    csv_run = write(tmp_path, "run.csv", "query_id,doc_id,score\nq1,a,3\nq1,b,1_000\n")
    assert refusal(qrels, csv_run) == (
        f"{csv_run}: row 2, column 'score': expected a number (score), found '1_000'; fix the value "
        "(a digit separator '_' is not part of a number, as in TREC files)")
    frame = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["a", "b"], "score": ["3", "1_0"]})
    assert refusal(qrels, frame) == (
        "<pandas DataFrame run>: row 2, column 'score': expected a number (score), found '1_0'; fix the value "
        "(a digit separator '_' is not part of a number, as in TREC files)")
    csv_qrels = write(tmp_path, "qrels.csv", "query_id,doc_id,relevance\nq1,a,1_0\n")
    assert refusal(csv_qrels, write(tmp_path, "ok.trec", RUN)).startswith(
        f"{csv_qrels}: row 1, column 'relevance': expected a number (relevance), found '1_0'")


# ---------------------------------------------------------------- 6. integer scores beyond 2^53

def _big_integer_run(folder: Path, scores: list[int], arrow_type) -> Path:
    table = pa.table({"query_id": ["q1", "q1"], "doc_id": ["a", "b"], "score": pa.array(scores, arrow_type)})
    pq.write_table(table, folder / "run.parquet")
    return folder / "run.parquet"


@pytest.mark.parametrize("arrow_type", [pa.int64(), pa.uint64()])
def test_integer_scores_a_double_cannot_hold_are_refused(tmp_path, arrow_type):
    qrels = write(tmp_path, "qrels.txt", "q1 0 a 1\nq1 0 b 0\n")
    # 2^62 + 1 and 2^62 are the same double: they tied, and b (larger doc id) was ranked first (RR 0.5)
    run = _big_integer_run(tmp_path, [2**62 + 1, 2**62], arrow_type)
    assert refusal(qrels, run) == (
        f"{run}: row 1, column 'score': the score 4611686018427387905 is a whole number beyond 2^53 "
        "(9007199254740992), which a double cannot hold exactly, so it could tie with another; rescale the "
        "scores (e.g. subtract their minimum, or divide them) or give them as floating-point numbers")
    jsonl = write(tmp_path, "run.jsonl", '{"query_id": "q1", "doc_id": "a", "score": 4611686018427387905}\n'
                                         '{"query_id": "q1", "doc_id": "b", "score": 4611686018427387904}\n')
    assert "the score 4611686018427387905 is a whole number beyond 2^53" in refusal(qrels, jsonl)
    message = refusal(qrels, {"q1": {"a": 2**62 + 1, "b": 2**62}})
    assert message.startswith("<dict run>: query 'q1' doc 'a': the score 4611686018427387905 is a whole number "
                              "beyond 2^53")
    # up to 2^53 every integer is a double of its own: ranked exactly
    exact = _big_integer_run(tmp_path, [2**53, 2**53 - 1], arrow_type)
    assert sqlrank.evaluate(qrels, exact, ["RR"]).summary == {"RR": 1.0}


# ---------------------------------------------------------------- 1. infinite labels, gains that overflow

def test_non_finite_labels_are_refused_naming_the_input_row_and_query(tmp_path):
    run = write(tmp_path, "run.trec", RUN)
    csv_qrels = write(tmp_path, "qrels.csv", "query_id,doc_id,relevance\nq1,a,2\nq2,x,inf\n")
    assert refusal(csv_qrels, run) == (
        f"{csv_qrels}: row 2 (query 'q2'), column 'relevance': the relevance is infinite ('inf'); a label must "
        "be a finite number: fix the label")
    frame = pd.DataFrame({"qid": ["q1", "q1"], "docno": ["a", "b"], "label": [1.0, -math.inf]})
    assert refusal(frame, run) == (
        "<pandas DataFrame qrels>: row 2 (query 'q1'), column 'label': the relevance is infinite ('-inf'); a label "
        "must be a finite number: fix the label")
    assert refusal({"q1": {"a": math.inf}}, run).startswith(
        "<dict qrels>: row 1 (query 'q1'), column 'relevance': the relevance is infinite ('inf')")
    assert "NaN" in refusal({"q1": {"a": math.nan}}, run)
    # a TREC label is read as its leading integer (atol); 400 nines are beyond any double
    huge = "9" * 400
    trec_qrels = write(tmp_path, "qrels.txt", f"q1 0 a 1\nq2 0 x {huge}\n")
    assert refusal(trec_qrels, run) == (
        f"{trec_qrels}:2: column 4 (relevance) is beyond the largest number a double holds ('{huge[:27]}...' is "
        f"infinite): '{('q2 0 x ' + huge)[:77]}...'; fix the label")


def test_gains_that_overflow_are_refused_naming_the_query_and_label(tmp_path, con):
    run = write(tmp_path, "run.trec", RUN)
    qrels = write(tmp_path, "qrels.txt", "q1 0 a 1\nq1 0 c 2000\nq2 0 x 1\n")
    # label 2000: 2^2000 - 1 is inf; nDCG was 0 (inf / inf) or 1 whatever the ranking
    assert refusal(qrels, run, ["nDCG(gain=exp)@10"], error=SqlrankError) == (
        f"{qrels}: query 'q1': the label 2000 gives nDCG(gain=exp)@10 the gain 2^2000 - 1, beyond the largest "
        "number a double holds (about 2^1024); use gain=linear, or labels below 1024")
    assert "query 'q1': the label 2000 gives ERR@10 the gain 2^2000 - 1" in refusal(qrels, run, ["ERR@10"],
                                                                                     error=SqlrankError)
    # linear gains of 2000 are ordinary numbers
    linear = sqlrank.evaluate(qrels, run, ["nDCG@10"]).per_query.to_pylist()
    dcg = 1 + 2000 / math.log2(4)
    assert {row["query_id"]: row["value"] for row in linear}["q1"] == pytest.approx(dcg / (2000 + 1 / math.log2(3)))
    # three labels of 1e308 add up to inf: the document ranked third gave nDCG 1
    big = write(tmp_path, "big.csv", "query_id,doc_id,relevance\nq1,a,1e308\nq1,b,1e308\nq1,c,1e308\n")
    assert refusal(big, run, ["nDCG"], error=SqlrankError) == (
        f"{big}: query 'q1': its positive labels (the largest 1e+308) add up to more than the largest number a "
        "double holds, so its gains, DCG and ideal DCG would be infinite; scale the labels down")
    # the DuckDB shell: load_qrels refuses the sum, and the gain macro a gain it cannot hold
    with pytest.raises(InputError, match="add up to more than the largest number"):
        sqlrank.load_qrels(con, big)
    with pytest.raises(Exception, match=r"gain=exp of the label 2000(\.0)? is beyond"):
        con.execute("SELECT sqlrank.gain(2000, kind := 'exp')").fetchall()


def test_json_output_never_writes_infinity_or_nan(tmp_path):
    for value in ("inf", "nan"):
        outcome = invoke("query", f"SELECT 'q1' AS query_id, '{value}'::DOUBLE AS value", "-f", "json")
        assert outcome.exit_code == 1 and "Infinity" not in outcome.stdout and "NaN" not in outcome.stdout
        assert outcome.stderr.startswith("sqlrank: error: cannot write the result as json: column 'value' holds "
                                         f"{value}, which JSON has no number for; choose csv or parquet, or select "
                                         "finite values")


# ---------------------------------------------------------------- 4. user names never reach internal ones

def test_a_user_view_name_cannot_replace_an_internal_one(tmp_path, con):
    qrels = write(tmp_path, "qrels.txt", QRELS)
    other = write(tmp_path, "other.txt", "q1 0 zzz 1\n")
    run = write(tmp_path, "run.trec", RUN)
    expected = "'sqlrank_qrels_qrels_source': names starting with 'sqlrank_' (in any case) are sqlrank's own; " \
               "choose another name for the view"
    outcome = invoke("query", "--qrels", f"qrels={qrels}", "--qrels", f"sqlrank_qrels_qrels_source={other}",
                     "--run", run, "SELECT avg(value) AS v FROM sqlrank.ap('qrels', 'run')")
    assert outcome.exit_code == 1 and outcome.stdout == ""
    assert expected in outcome.stderr and "Traceback" not in outcome.stderr
    sqlrank.load_qrels(con, qrels, "qrels")
    sqlrank.load_run(con, run, "run")
    for name in ("sqlrank_qrels_qrels_source", "SQLRANK_Qrels_qrels_source"):
        with pytest.raises(SqlrankError) as caught:
            sqlrank.load_qrels(con, other, name)
        assert str(caught.value) == expected.replace("sqlrank_qrels_qrels_source", name)
    # the view still reads the first file: AP (1 + 2/3) / 2 and 1/2
    mean = con.execute("SELECT avg(value) FROM sqlrank.ap('qrels', 'run')").fetchall()[0][0]
    assert mean == pytest.approx(((1 + 2 / 3) / 2 + 1 / 2) / 2)


# ---------------------------------------------------------------- 2. an input that changes after its checks

def _parquet(path: Path, rows: list[tuple[str, str, float]], value: str = "score") -> Path:
    query_ids, doc_ids, values = zip(*rows)
    pq.write_table(pa.table({"query_id": list(query_ids), "doc_id": list(doc_ids), value: list(values)}), path)
    return path


CHECKED_RUN = [("q1", "a", 3.0), ("q1", "b", 2.0), ("q1", "c", 1.0), ("q2", "y", 2.0), ("q2", "x", 1.0)]
# what an attacker or a busy writer puts there after the checks: a NaN, a duplicate, another order
UNCHECKED_RUN = [("q1", "c", 9.0), ("q1", "c", 8.0), ("q1", "a", math.nan), ("q2", "x", 5.0), ("q2", "y", 1.0)]


def _replace_after_checks(monkeypatch, path: Path, rows, value: str = "score", in_place: bool = False):
    """Make the checks of `path` replace it (a new file renamed over it, or rewritten in place) once they pass."""
    from sqlrank import checks

    validate = checks.validate

    def validate_then_replace(con, loaded, kind):
        validate(con, loaded, kind)
        if loaded.path is not None and Path(loaded.path) == path:
            if in_place:
                _parquet(path, rows, value)
            else:
                os.replace(_parquet(path.with_suffix(".new"), rows, value), path)

    monkeypatch.setattr(checks, "validate", validate_then_replace)


@pytest.mark.parametrize("in_place", [False, True])
def test_a_parquet_input_replaced_after_its_checks_is_refused(tmp_path, monkeypatch, in_place):
    qrels = write(tmp_path, "qrels.txt", QRELS)
    run = _parquet(tmp_path / "run.parquet", CHECKED_RUN)
    assert sqlrank.evaluate(qrels, run, ["RR"]).summary == {"RR": 0.75}
    _replace_after_checks(monkeypatch, run, UNCHECKED_RUN, in_place=in_place)
    expected = (f"{run}: changed after it was checked (its size, time stamps or last bytes differ), so its rows "
                "now are not the ones checked; nothing was computed from them: run again once the file is written")
    assert refusal(qrels, run) == expected
    _parquet(run, CHECKED_RUN)
    outcome = invoke("eval", qrels, run, "-m", "RR")
    assert outcome.exit_code == 1 and outcome.stdout == ""
    assert outcome.stderr == f"sqlrank: error: {expected}\n"
    # the qrels too: a Parquet qrels is copied after its checks
    parquet_qrels = _parquet(tmp_path / "qrels.parquet", [("q1", "a", 2.0), ("q2", "x", 1.0)], "relevance")
    _replace_after_checks(monkeypatch, parquet_qrels, [("q1", "b", 1.0), ("q1", "b", 1.0)], "relevance", in_place)
    assert refusal(parquet_qrels, write(tmp_path, "run.trec", RUN)).startswith(
        f"{parquet_qrels}: changed after it was checked")


def test_load_run_keeps_the_rows_it_checked(tmp_path, con):
    qrels = write(tmp_path, "qrels.txt", QRELS)
    run = _parquet(tmp_path / "run.parquet", CHECKED_RUN)
    frame = pd.DataFrame(CHECKED_RUN, columns=["query_id", "doc_id", "score"])
    sqlrank.load_qrels(con, qrels)
    sqlrank.load_run(con, run, "from_file")
    sqlrank.load_run(con, frame, "from_frame")
    os.replace(_parquet(tmp_path / "new.parquet", UNCHECKED_RUN), run)
    frame.loc[0, "score"] = math.nan  # the DataFrame changed in place after it was checked
    for view in ("from_file", "from_frame"):
        rr = con.execute(f"SELECT query_id, value FROM sqlrank.rr('qrels', '{view}') ORDER BY query_id").fetchall()
        assert rr == [("q1", 1.0), ("q2", 0.5)], view
        assert con.execute(f"SELECT count(*) FROM {view}").fetchall() == [(5,)]
    nested = invoke("query", "SELECT ['inf'::DOUBLE] AS values", "-f", "jsonl")
    assert nested.exit_code == 1 and "Infinity" not in nested.stdout
    assert nested.stderr.startswith("sqlrank: error: cannot write the result as jsonl: a list or struct holds inf")


def test_a_nan_score_a_parquet_file_s_statistics_leave_out_is_refused(tmp_path):
    """pyarrow's Parquet min/max leave NaN out; DuckDB's statistics propagation then folded isnan(score) to
    false, and the run was evaluated as if the NaN were not there (AP 1/3 here): the checks read every value."""
    pq.write_table(pa.table({"query_id": ["q1"] * 3, "doc_id": ["a", "b", "c"], "score": [1.0, math.nan, 2.0]}),
                   tmp_path / "run.parquet")
    pq.write_table(pa.table({"query_id": ["q1"], "doc_id": ["a"], "relevance": [1]}), tmp_path / "qrels.parquet")
    with pytest.raises(InputError) as error:
        sqlrank.evaluate(tmp_path / "qrels.parquet", tmp_path / "run.parquet", ["AP"])
    assert str(error.value) == (f"{tmp_path / 'run.parquet'}: row 2, column 'score': the score is NaN, which has no "
                                "order; replace it with a number")
