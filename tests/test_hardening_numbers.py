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


def invoke(*args):
    from typer.testing import CliRunner

    from sqlrank.cli import app

    try:
        runner = CliRunner(mix_stderr=False)  # click < 8.2 mixes stderr into stdout unless told
    except TypeError:
        runner = CliRunner()
    return runner.invoke(app, [str(a) for a in args])


# ---------------------------------------------------------------- 3. one case rule for every recognised column

@pytest.mark.parametrize("spelling", ["run_id", "RUN_ID", "Run_Id"])
def test_a_run_id_column_is_recognised_in_any_case(tmp_path, spelling):
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
        "<pyarrow Table>: the table names the column 'query_id' twice (columns 1 and 4); give each column its "
        "own name: rename or remove one")
    frame = pd.DataFrame([["q1", "a", 3.0, "q2"]], columns=["query_id", "doc_id", "score", "query_id"])
    assert refusal(qrels, frame) == (
        "<pandas DataFrame>: the table names the column 'query_id' twice (columns 1 and 4); give each column its "
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
        "<pandas DataFrame>: row 2, column 'score': expected a number (score), found '1_0'; fix the value "
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
