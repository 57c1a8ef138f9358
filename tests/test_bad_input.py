"""Every bad input gets a clear answer: an error naming the file, the line (or row, or column), what was
expected, what was found and the fix; or a documented policy whose numbers are checked here. Never a wrong
number, never an exception other than a sqlrank one. docs/bad_input.md is the table of these cases; the
last test keeps it in step with this file.

The small data set used throughout (labels by rank in the comments):

    qrels  q1: a=2 b=0 c=1      q2: x=1 y=0
    run    q1: a 3.0, b 2.0, c 1.0  -> labels by rank [2, 0, 1]
           q2: y 2.0, x 1.0         -> labels by rank [0, 1]
"""

from __future__ import annotations

import ast
import gzip
import math
import os
import re
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import sqlrank
from sqlrank import export
from sqlrank.errors import EvaluationError, InputError, MeasureError, OutputError, ResourceError
from cli_runner import invoke

ROOT = Path(__file__).resolve().parent.parent

QRELS = "q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq2 0 x 1\nq2 0 y 0\n"
RUN = "q1 Q0 a 1 3.0 r\nq1 Q0 b 2 2.0 r\nq1 Q0 c 3 1.0 r\nq2 Q0 y 1 2.0 r\nq2 Q0 x 2 1.0 r\n"
MEASURES = ["nDCG", "AP", "RR", "P@2"]

# q1 [2, 0, 1]: DCG = 2 + 0 + 1/log2(4); ideal [2, 1, 0]: IDCG = 2 + 1/log2(3)
# q2 [0, 1]:    DCG = 1/log2(3);         ideal [1, 0]:    IDCG = 1
NDCG = {"q1": (2 + 1 / math.log2(4)) / (2 + 1 / math.log2(3)), "q2": 1 / math.log2(3)}
# relevant = label >= 1; q1 relevant at ranks 1 and 3 of R = 2, q2 at rank 2 of R = 1
AP = {"q1": (1 / 1 + 2 / 3) / 2, "q2": (1 / 2) / 1}
RR = {"q1": 1.0, "q2": 1 / 2}
P2 = {"q1": 1 / 2, "q2": 1 / 2}
EXPECTED = {
    "nDCG": (NDCG["q1"] + NDCG["q2"]) / 2,
    "AP": (AP["q1"] + AP["q2"]) / 2,
    "RR": (RR["q1"] + RR["q2"]) / 2,
    "P@2": (P2["q1"] + P2["q2"]) / 2,
}


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    data = content.encode() if isinstance(content, str) else content
    path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    return path


def evaluate(qrels, run, measures=MEASURES, **options):
    return sqlrank.evaluate(qrels, run, measures, **options)


def summary_of(qrels, run, **options) -> dict:
    return evaluate(qrels, run, **options).summary


def per_query(result, measure: str) -> dict[str, float]:
    return {row["query_id"]: row["value"] for row in result.per_query.to_pylist() if row["measure"] == measure}


def assert_expected(summary: dict, expected: dict = EXPECTED) -> None:
    assert summary.keys() == expected.keys()
    for measure, value in expected.items():
        assert summary[measure] == pytest.approx(value, abs=1e-12), measure


def error_of(qrels, run, error_type=InputError, **options) -> str:
    with pytest.raises(error_type) as caught:
        evaluate(qrels, run, **options)
    return str(caught.value)


@pytest.fixture
def qrels(tmp_path) -> Path:
    return write(tmp_path, "qrels.txt", QRELS)


@pytest.fixture
def run(tmp_path) -> Path:
    return write(tmp_path, "run.trec", RUN)


def test_the_clean_files_give_the_numbers_worked_out_above(qrels, run):
    result = evaluate(qrels, run)
    assert_expected(result.summary)
    assert per_query(result, "nDCG") == pytest.approx(NDCG)
    assert result.notices() == []


# ---------------------------------------------------------------- TREC line format

def test_run_line_with_fewer_than_6_fields_names_the_line(tmp_path, qrels):
    run = write(tmp_path, "run.trec", "q1 Q0 a 1 3.0 r\n\n# a comment\nq1 Q0 b 2 2.0\n")
    message = error_of(qrels, run)
    # line 4 counts the blank line and the comment: it is the line number an editor shows
    assert message == (f"{run}:4: expected 6 fields ('301 Q0 FBIS3-10082 1 12.5 myrun' (qid Q0 docno rank score "
                       "tag)), found 5: 'q1 Q0 b 2 2.0'; fix or remove the line")


def test_run_whose_first_line_is_short_is_still_read_as_trec(tmp_path, qrels):
    run = write(tmp_path, "run", "q1 Q0 a 1 3.0\nq1 Q0 b 2 2.0 r\n")
    assert error_of(qrels, run).startswith(f"{run}:1: expected 6 fields")


@pytest.mark.parametrize("line, found", [("q1 0 b", 3), ("q1 0 b 0 extra", 5), ("q1 0 b 0 7 x", 6)])
def test_qrels_line_with_other_than_4_fields_names_the_line(tmp_path, run, line, found):
    qrels = write(tmp_path, "qrels.txt", f"q1 0 a 2\n{line}\n")
    message = error_of(qrels, run)
    assert message.startswith(f"{qrels}:2: expected 4 fields ('301 0 FBIS3-10082 1' (qid iter docno relevance)), "
                              f"found {found}: '{line}'")
    assert message.endswith("fix or remove the line")


def test_qrels_and_run_given_the_wrong_way_round_say_so(qrels, run):
    message = error_of(run, qrels)
    assert message.startswith(f"{run}:1: expected 4 fields")
    assert "this looks like a run line: the qrels come first, then the run" in message


def test_extra_trailing_fields_on_run_lines_are_ignored(tmp_path, qrels):
    lines = RUN.splitlines()
    lines[0] += " junk 42 more"  # trec_eval reads the first 6 fields only
    lines[3] += "\textra"
    assert_expected(summary_of(qrels, write(tmp_path, "run.trec", "\n".join(lines) + "\n")))


def test_blank_and_comment_lines_are_skipped(tmp_path):
    qrels = write(tmp_path, "qrels.txt", "# judged 2024\n\n" + QRELS.replace("q2 0 x 1\n", "q2 0 x 1\n   \n"))
    run = write(tmp_path, "run.trec", "\n# system r\n  # indented comment\n" + RUN + "\n\n\t\n")
    assert_expected(summary_of(qrels, run))


def test_a_hash_inside_an_id_is_not_a_comment(tmp_path):
    qrels = write(tmp_path, "qrels.txt", "q1 0 doc#4 1\n")
    run = write(tmp_path, "run.trec", "q1 Q0 other 1 2.0 r\nq1 Q0 doc#4 2 1.0 r\n")
    assert summary_of(qrels, run)["RR"] == 1 / 2  # doc#4 is read, at rank 2


def test_crlf_bom_tabs_and_mixed_spaces_read_like_plain_lines(tmp_path):
    bom = b"\xef\xbb\xbf"
    qrels = write(tmp_path, "qrels.txt", bom + QRELS.replace("\n", "\r\n").replace(" 0 ", "\t0  ").encode())
    run_text = "\n".join(f"  {line.replace(' Q0 ', chr(9) + 'Q0' + chr(9) + chr(9)).replace(' r', '   r')}"
                         for line in RUN.splitlines())
    run = write(tmp_path, "run.trec", bom + run_text.replace("\n", "\r\n").encode() + b"\r\n")
    assert_expected(summary_of(qrels, run))


def test_classic_mac_line_ends_are_line_ends(tmp_path, qrels):
    assert_expected(summary_of(qrels, write(tmp_path, "run.trec", RUN.replace("\n", "\r"))))


def test_a_unit_separator_byte_is_refused_not_split_on(tmp_path, qrels):
    # the TREC line reader uses 0x1F as its column delimiter; a line holding one must not be cut short
    run = write(tmp_path, "run.trec", RUN + "q2 Q0 z\x1fw 3 0.5 r\n")
    assert error_of(qrels, run) == (f"{run}:6: contains the control character 0x1F (unit separator), which cannot "
                                    "be part of a TREC line: 'q2 Q0 z'; remove it")


def test_invalid_utf8_names_the_line_and_the_fix(tmp_path, qrels):
    run = write(tmp_path, "run.trec", RUN.encode() + b"q2 Q0 caf\xe9 3 0.5 r\n")
    assert error_of(qrels, run) == (f"{run}:6: is not UTF-8 text (found the bytes b'\\xe9'); convert the file to "
                                    "UTF-8 (e.g. iconv -f latin1 -t utf-8); compressed files must be gzip")


# ---------------------------------------------------------------- scores

@pytest.mark.parametrize("score", ["abc", "3abc", "1_000", "0x10", "1,5", "--1"])
def test_non_numeric_trec_score_is_refused_with_its_line(tmp_path, qrels, score):
    # trec_eval's atof would read these as 0, 3, 1, 16, 1 and 0: a silently different ranking
    run = write(tmp_path, "run.trec", RUN.replace("q1 Q0 c 3 1.0 r", f"q1 Q0 c 3 {score} r"))
    assert error_of(qrels, run) == (f"{run}:3: column 5 (score) must be a number, found '{score}': "
                                    f"'q1 Q0 c 3 {score} r'; fix the score")


@pytest.mark.parametrize("nan", ["nan", "NaN", "-nan"])
def test_nan_trec_score_is_refused(tmp_path, qrels, nan):
    run = write(tmp_path, "run.trec", RUN.replace("q2 Q0 x 2 1.0 r", f"q2 Q0 x 2 {nan} r"))
    assert error_of(qrels, run) == (f"{run}:5: the score is NaN, which has no order, so it cannot be ranked: "
                                    f"'q2 Q0 x 2 {nan} r'; replace it with a number")


def test_nan_and_empty_scores_in_tables_are_refused_with_their_row(tmp_path, qrels):
    csv = write(tmp_path, "run.csv", "query_id,doc_id,score\nq1,a,3\nq1,b,nan\n")
    assert error_of(qrels, csv) == (f"{csv}: row 2, column 'score': the score is NaN, which has no order; "
                                    "replace it with a number")
    empty = write(tmp_path, "empty.csv", "query_id,doc_id,score\nq1,a,3\nq1,b,\n")
    assert error_of(qrels, empty) == (f"{empty}: row 2: the score (column 'score') is empty; "
                                      "give every row a number")
    frame = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["a", "b"], "score": [None, 1.0]})
    assert error_of(qrels, frame) == ("<pandas DataFrame run>: row 1: the score (column 'score') is empty; "
                                      "give every row a number")


def test_infinite_exponent_and_extreme_scores_are_numbers(tmp_path, qrels):
    # q1: a inf, b 1e400 (overflows to inf, as atof), c -inf; a and b tie on inf, so b ranks first (doc id
    # descending): labels by rank [0, 2, 1]; q2: y 5e-1 = 0.5, x 1e-400 (underflows to 0): labels [0, 1]
    run = write(tmp_path, "run.trec", "q1 Q0 a 1 inf r\nq1 Q0 b 2 1e400 r\nq1 Q0 c 3 -inf r\n"
                                      "q2 Q0 y 1 5e-1 r\nq2 Q0 x 2 1e-400 r\n")
    result = evaluate(qrels, run)
    assert per_query(result, "nDCG") == pytest.approx({
        "q1": (0 + 2 / math.log2(3) + 1 / math.log2(4)) / (2 + 1 / math.log2(3)), "q2": NDCG["q2"]})
    assert per_query(result, "RR") == {"q1": 1 / 2, "q2": 1 / 2}


def test_exponent_forms_equal_plain_numbers(tmp_path, qrels):
    run = write(tmp_path, "run.trec", RUN.replace(" 3.0 ", " 3e0 ").replace(" 2.0 ", " +.2E1 ")
                .replace(" 1.0 ", " 100e-2 "))
    assert_expected(summary_of(qrels, run))


@pytest.mark.parametrize("value", ["abc", "1.5x"])
def test_dataframe_scores_that_are_not_numbers_are_refused_with_their_row(qrels, value):
    rows = {"query_id": ["q1", "q1"], "doc_id": ["a", "b"], "score": ["3", value]}
    relation = duckdb.sql(f"SELECT * FROM (VALUES ('q1', 'a', '3'), ('q1', 'b', '{value}')) t(query_id, doc_id, score)")
    for source, label in [(pd.DataFrame(rows), "<pandas DataFrame run>"), (pl.DataFrame(rows), "<polars DataFrame run>"),
                          (pa.table(rows), "<pyarrow Table run>"), (relation, "<duckdb DuckDBPyRelation run>")]:
        assert error_of(qrels, source) == (f"{label}: row 2, column 'score': expected a number (score), "
                                           f"found '{value}'; fix the value")


def test_dataframe_scores_written_as_numeric_strings_are_numbers(qrels):
    rows = [line.split() for line in RUN.splitlines()]
    frame = pd.DataFrame({"query_id": [r[0] for r in rows], "doc_id": [r[2] for r in rows],
                          "score": [r[4] for r in rows]})  # '3.0', '2.0', ... as text
    assert_expected(summary_of(qrels, frame))


# ---------------------------------------------------------------- labels

def test_trec_labels_that_are_not_integers_are_cut_like_atol_and_reported(tmp_path, run):
    # trec_eval reads labels with atol: 2.9 -> 2, 1.9 -> 1, +1 -> 1, 0.5 -> 0; so the numbers equal QRELS's
    qrels = write(tmp_path, "qrels.txt", "q1 0 a 2.9\nq1 0 b 0.5\nq1 0 c 1.9\nq2 0 x +1\nq2 0 y 0\n")
    result = evaluate(qrels, run)
    assert_expected(result.summary)
    assert result.notices() == [
        f"{qrels}: 3 relevance label(s) are not whole numbers; read as their leading integer, as trec_eval does "
        "(1.9 -> 1); give real-valued labels in a CSV or Parquet qrels"
    ]


@pytest.mark.parametrize("label", ["abc", ".5", "high", "-"])
def test_trec_label_without_a_leading_integer_is_refused(tmp_path, run, label):
    qrels = write(tmp_path, "qrels.txt", f"q1 0 a 2\nq1 0 b {label}\n")
    assert error_of(qrels, run) == (f"{qrels}:2: column 4 (relevance) must be an integer label, found '{label}': "
                                    f"'q1 0 b {label}'; fix the label")


def test_real_valued_labels_in_csv_and_parquet_are_kept(tmp_path, run):
    # q1 labels a=0.5 b=0 c=2.5, by rank [0.5, 0, 2.5]; ideal [2.5, 0.5]; q2 as before
    rows = {"query_id": ["q1", "q1", "q1", "q2", "q2"], "doc_id": ["a", "b", "c", "x", "y"],
            "relevance": [0.5, 0.0, 2.5, 1.0, 0.0]}
    csv = write(tmp_path, "qrels.csv", "query_id,doc_id,relevance\n" + "".join(
        f"{q},{d},{r}\n" for q, d, r in zip(*rows.values())))
    pq.write_table(pa.table(rows), tmp_path / "qrels.parquet")
    ndcg_q1 = (0.5 + 2.5 / math.log2(4)) / (2.5 + 0.5 / math.log2(3))
    for qrels in (csv, tmp_path / "qrels.parquet", pd.DataFrame(rows)):
        result = evaluate(qrels, run, ["nDCG", "AP(rel=0.5)"])
        assert per_query(result, "nDCG") == pytest.approx({"q1": ndcg_q1, "q2": NDCG["q2"]})
        # AP(rel=0.5): q1 relevant a (rank 1) and c (rank 3): (1 + 2/3) / 2
        assert per_query(result, "AP(rel=0.5)") == pytest.approx({"q1": (1 + 2 / 3) / 2, "q2": 1 / 2})


def test_empty_label_is_refused_with_its_row(tmp_path, run):
    qrels = write(tmp_path, "qrels.csv", "query_id,doc_id,relevance\nq1,a,2\nq1,b,\n")
    assert error_of(qrels, run) == (f"{qrels}: row 2: the relevance (column 'relevance') is empty; "
                                    "give every row a number")


# ---------------------------------------------------------------- empty inputs, queries that do not meet

@pytest.mark.parametrize("content", [b"", b"\n\n", b"# only a comment\n", b"\xef\xbb\xbf\r\n"])
def test_empty_trec_files_are_refused(tmp_path, qrels, run, content):
    empty = write(tmp_path, "empty.txt", content)
    # an empty run retrieved nothing: the missing policy scores every qrels query 0
    assert evaluate(qrels, empty).summary == {"nDCG": 0.0, "AP": 0.0, "RR": 0.0, "P@2": 0.0}
    assert error_of(empty, run) == (f"{empty}: no qrels lines (the file is empty or only comments); expected "
                                    "'301 0 FBIS3-10082 1' (qid iter docno relevance)")


def test_empty_tables_are_refused(tmp_path, qrels, run):
    header_only = write(tmp_path, "run.csv", "query_id,doc_id,score\n")
    assert evaluate(qrels, header_only).notices()[0] == (
        "run 'run': the run has no rows: every qrels query is scored 0 (missing='zero')")
    no_header = write(tmp_path, "nothing.csv", "")
    assert error_of(qrels, no_header) == (f"{no_header}: the first line is empty; a CSV file starts with a header "
                                          "line, e.g. query_id,doc_id,score")
    frame = pd.DataFrame({"query_id": pd.Series([], dtype=str), "doc_id": pd.Series([], dtype=str),
                          "relevance": pd.Series([], dtype=float)})
    assert error_of(frame, run) == ("<pandas DataFrame qrels>: no rows: the qrels are empty, so nothing can be "
                                    "evaluated; expected rows of query_id, doc_id, relevance")


def test_run_with_no_query_in_common_is_refused_unless_allowed(tmp_path, qrels):
    run = write(tmp_path, "other.trec", "q9 Q0 a 1 3.0 r\n")
    assert error_of(qrels, run, EvaluationError) == (
        "run 'other': shares no query with the qrels (its 1 query, e.g. 'q9'; the qrels have e.g. 'q1'): it is most "
        "likely not a run of these qrels, or its query ids are written otherwise; pass allow_disjoint=True (CLI: "
        "--allow-disjoint) to evaluate it anyway")
    result = evaluate(qrels, run, allow_disjoint=True)
    assert result.summary == {"nDCG": 0.0, "AP": 0.0, "RR": 0.0, "P@2": 0.0}
    assert result.notices() == [
        "run 'other': 2 of 2 qrels queries have no documents (q1, q2): scored 0 (missing='zero')",
        "run 'other': 1 query without judgments left out",
    ]
    with pytest.raises(EvaluationError, match=r"run 'other': .*qrels queries have no documents in the run \(q1, q2\)"):
        evaluate(qrels, run, missing="error", allow_disjoint=True)


def test_query_whose_labels_are_all_negative_scores_zero(tmp_path, run):
    # trec_eval and pytrec_eval crash on such a query; it has no relevant document, so every measure is 0
    qrels = write(tmp_path, "qrels.txt", QRELS + "q3 0 m -1\nq3 0 n -2\n")
    run3 = write(tmp_path, "run3.trec", RUN + "q3 Q0 m 1 2.0 r\nq3 Q0 n 2 1.0 r\n")
    measures = ["nDCG", "AP", "RR", "P@2", "R@2", "Rprec", "bpref", "NumRel", "NumRelRet"]
    result = evaluate(qrels, run3, measures)
    assert {m: per_query(result, m)["q3"] for m in measures} == dict.fromkeys(measures, 0.0)
    assert result.summary["nDCG"] == pytest.approx((NDCG["q1"] + NDCG["q2"] + 0) / 3)  # q3 counts in the mean


# ---------------------------------------------------------------- duplicates

def test_duplicate_run_rows_are_refused_by_default(tmp_path, qrels):
    run = write(tmp_path, "run.trec", RUN + "q1 Q0 c 4 0.5 r\n")
    assert error_of(qrels, run) == (
        f"{run}: duplicate (query_id, doc_id) rows, e.g. query 'q1' doc 'c' (2 rows); each document may appear "
        "once per query. Remove them, or choose a policy: duplicates='first' or 'max' (CLI: --duplicates first|max)")


def test_duplicate_qrels_rows_are_refused_by_default(tmp_path, run):
    qrels = write(tmp_path, "qrels.txt", QRELS + "q2 0 x 0\n")
    assert error_of(qrels, run).startswith(f"{qrels}: duplicate (query_id, doc_id) rows, e.g. query 'q2' doc 'x'")


def test_duplicates_first_and_max_keep_one_row_and_say_so(tmp_path, qrels):
    # c appears again with 5.0: 'first' keeps 1.0 (the clean numbers), 'max' keeps 5.0, so q1 ranks c, a, b:
    # labels by rank [1, 2, 0]
    run = write(tmp_path, "run.trec", RUN + "q1 Q0 c 4 5.0 r\n")
    first = evaluate(qrels, run, duplicates="first")
    assert_expected(first.summary)
    assert first.notices() == [f"{run}: 1 duplicate run row dropped, kept the first score (duplicates='first')"]
    highest = evaluate(qrels, run, duplicates="max")
    assert per_query(highest, "nDCG")["q1"] == pytest.approx((1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)))
    assert per_query(highest, "RR")["q1"] == 1.0


def test_duplicate_qrels_policies(tmp_path, run):
    # x judged 0 then 1: 'first' keeps 0 (q2 has nothing relevant: nDCG 0), 'max' keeps 1 (the clean numbers)
    qrels = write(tmp_path, "qrels.txt", QRELS.replace("q2 0 x 1\n", "q2 0 x 0\nq2 0 x 1\n"))
    assert per_query(evaluate(qrels, run, duplicates="first"), "nDCG")["q2"] == 0.0
    assert_expected(summary_of(qrels, run, duplicates="max"))


def test_unknown_duplicates_policy_is_refused(qrels, run):
    assert error_of(qrels, run, duplicates="last") == ("unknown duplicates policy 'last' "
                                                       "(expected one of: error, first, max)")


def test_the_same_doc_id_in_two_queries_is_fine(tmp_path):
    qrels = write(tmp_path, "qrels.txt", "q1 0 a 1\nq2 0 a 0\nq2 0 b 1\n")
    run = write(tmp_path, "run.trec", "q1 Q0 a 1 1.0 r\nq2 Q0 a 1 2.0 r\nq2 Q0 b 2 1.0 r\n")
    assert per_query(evaluate(qrels, run), "RR") == {"q1": 1.0, "q2": 1 / 2}


# ---------------------------------------------------------------- ids

def test_integer_ids_in_one_input_match_text_ids_in_the_other(tmp_path):
    qrels = write(tmp_path, "qrels.txt", "1 0 7 1\n1 0 8 0\n2 0 9 1\n")
    run = pd.DataFrame({"query_id": [1, 1, 2], "doc_id": [8, 7, 9], "score": [2.0, 1.0, 1.0]})
    assert per_query(evaluate(qrels, run), "RR") == {"1": 1 / 2, "2": 1.0}  # 8 (label 0) above 7 (label 1)


def test_leading_zeros_make_different_ids(tmp_path):
    qrels = write(tmp_path, "qrels.txt", "01 0 007 1\n")
    run = write(tmp_path, "run.trec", "1 Q0 007 1 1.0 r\n01 Q0 7 1 1.0 r\n")
    result = evaluate(qrels, run, ["RR", "NumRelRet"])
    assert result.summary == {"RR": 0.0, "NumRelRet": 0.0}  # query '1' is not '01', doc '7' is not '007'


def test_csv_ids_keep_their_spelling(tmp_path):
    # read as numbers, '007' would become 7 and '1.50' 1.5, and match nothing in the TREC run
    qrels = write(tmp_path, "qrels.csv", "query_id,doc_id,relevance\n01,007,1\n01,1.50,1\n")
    run = write(tmp_path, "run.trec", "01 Q0 007 1 2.0 r\n01 Q0 1.50 2 1.0 r\n")
    assert evaluate(qrels, run, ["NumRelRet"]).summary == {"NumRelRet": 2.0}


def test_floating_point_id_columns_are_refused(qrels):
    frame = pd.DataFrame({"query_id": [1.0, None], "doc_id": ["a", "b"], "score": [1.0, 2.0]})
    assert error_of(qrels, frame) == (
        "<pandas DataFrame run>: column 'query_id' (query_id) has type DOUBLE, expected text or whole numbers: "
        "floating-point ids never match text ids (1.0 is not '1'); convert the column to int or str")


def test_empty_ids_are_refused_with_their_row(tmp_path, qrels):
    csv = write(tmp_path, "run.csv", "query_id,doc_id,score\nq1,a,3\n,b,2\n")
    assert error_of(qrels, csv) == (f"{csv}: row 2: the query_id (column 'query_id') is empty; every row needs "
                                    "a query_id, a doc_id and a score")
    frame = pd.DataFrame({"query_id": ["q1"], "doc_id": [""], "score": [1.0]})
    assert error_of(qrels, frame).startswith("<pandas DataFrame run>: row 1: the doc_id (column 'doc_id') is empty")


ODD_IDS = ["it's", 'say "hi"', "back\\slash", "semi;colon", "'; DROP TABLE run; --", "SELECT", "ünïcødé",
           "日本語", "no\u00a0break"]


def test_quotes_unicode_and_sql_in_ids_are_plain_data(tmp_path):
    con = sqlrank.connect()
    con.execute("CREATE TABLE run AS SELECT 42 AS answer")  # a table the ids name
    qrels = pd.DataFrame({"query_id": ODD_IDS, "doc_id": ODD_IDS, "relevance": [1.0] * len(ODD_IDS)})
    run = pd.DataFrame({"query_id": ODD_IDS * 2, "doc_id": ODD_IDS + [i + "x" for i in ODD_IDS],
                        "score": [1.0] * len(ODD_IDS) + [2.0] * len(ODD_IDS)})
    result = sqlrank.evaluate(qrels, run, ["RR"], connection=con)
    assert per_query(result, "RR") == dict.fromkeys(ODD_IDS, 1 / 2)  # each judged doc ranks 2nd
    assert con.execute("SELECT answer FROM run").fetchall() == [(42,)]


def test_quotes_unicode_and_sql_in_trec_ids(tmp_path):
    ids = [i for i in ODD_IDS if " " not in i]  # a TREC field holds no ASCII space (a no-break space is fine)
    qrels = write(tmp_path, "qrels.txt", "".join(f"{i} 0 {i} 1\n" for i in ids))
    run = write(tmp_path, "run.trec", "".join(f"{i} Q0 {i} 1 1.0 r\n" for i in ids))
    assert per_query(evaluate(qrels, run, ["RR"]), "RR") == dict.fromkeys(ids, 1.0)


@pytest.mark.parametrize("name", ["it's; DROP TABLE run.trec", 'quo"te.trec', "ünï cödé.trec", "back\\slash.trec",
                                  "~home.trec", "run[1].trec", "run*.trec", "run?.trec"])
def test_odd_file_names_are_taken_literally(tmp_path, qrels, name):
    # DuckDB would read `run*.trec` as a glob of every run; a decoy that the glob matches must not be read
    write(tmp_path, "run1.trec", "q1 Q0 decoy 1 9.0 r\n")
    run = write(tmp_path, name, RUN)
    assert_expected(summary_of(qrels, run))


def test_a_column_name_with_quotes_and_sql_is_mapped_safely(tmp_path, qrels):
    column = 'q"id; DROP TABLE run'
    csv = write(tmp_path, "run.csv", '"q""id; DROP TABLE run",doc,score\n' + "".join(
        f"{q},{d},{s}\n" for q, _, d, _, s, _ in (line.split() for line in RUN.splitlines())))
    assert_expected(summary_of(qrels, csv, query_col=column))
    message = error_of(qrels, csv)
    assert message == (f"{csv}: missing column 'query_id' (found q\"id; DROP TABLE run, doc, score); "
                       "pass query_col=<name> (CLI: --query-col <name>)")


# ---------------------------------------------------------------- columns and types

def test_missing_column_lists_the_columns_found_and_the_option(tmp_path, qrels):
    csv = write(tmp_path, "run.csv", "qid,docno,points\nq1,a,3\n")
    assert error_of(qrels, csv) == (f"{csv}: missing column 'score' (found qid, docno, points); "
                                    "pass score_col=<name> (CLI: --score-col <name>)")
    pq.write_table(pa.table({"query_id": ["q1"], "document": ["a"], "score": [1.0]}), tmp_path / "run.parquet")
    assert error_of(qrels, tmp_path / "run.parquet") == (
        f"{tmp_path / 'run.parquet'}: missing column 'doc_id' (found query_id, document, score); "
        "did you mean run_columns={'doc_id': 'document'}?")
    frame = pd.DataFrame({"query_id": ["q1"], "doc_id": ["a"]})
    assert error_of(qrels, frame) == ("<pandas DataFrame run>: missing column 'score' (found query_id, doc_id); "
                                      "pass score_col=<name> (CLI: --score-col <name>)")


def test_a_mapped_column_that_does_not_exist_is_named(tmp_path, qrels):
    csv = write(tmp_path, "run.csv", "qid,docno,score\nq1,a,3\n")
    assert error_of(qrels, csv, query_col="query") == (
        f"{csv}: missing column 'query' (found qid, docno, score); did you mean run_columns={{'query_id': 'qid'}}?")


@pytest.mark.parametrize("source, message", [
    (pd.DataFrame({"query_id": ["q1"], "doc_id": ["a"], "score": [pd.Timestamp("2024-01-01")]}),
     "<pandas DataFrame run>: column 'score' (score) has type TIMESTAMP, expected numbers; convert the column to float"),
    (pa.table({"query_id": ["q1"], "doc_id": ["a"], "score": [b"\x01"]}),
     "<pyarrow Table run>: column 'score' (score) has type BLOB, expected numbers; convert the column to float"),
    # a list of ids is a recommender's items per user (tests/test_recommender_inputs.py); a list of scores
    # without one is not
    (pd.DataFrame({"query_id": ["q1"], "doc_id": ["a"], "score": [[1.0]]}),
     "<pandas DataFrame run>: column 'score' (score) has type DOUBLE[], expected numbers; convert the column to "
     "float"),
], ids=["timestamp score", "binary score", "list score"])
def test_columns_of_the_wrong_type_are_refused(qrels, source, message):
    assert error_of(qrels, source) == message


def test_a_ragged_csv_row_names_its_line(tmp_path, qrels):
    csv = write(tmp_path, "run.csv", "query_id,doc_id,score\nq1,a,3\n\nq1,b,2,extra\n")
    assert error_of(qrels, csv) == (f"{csv}:4: Expected Number of Columns: 3 Found: 4; fix the line (every row "
                                    "needs as many fields as the header)")
    quote = write(tmp_path, "quote.csv", 'query_id,doc_id,score\nq1,"a,3\n')
    assert error_of(qrels, quote).startswith(f"{quote}:2: Value with unterminated quote found; fix the line")


def test_a_csv_row_starting_with_hash_is_data(tmp_path):
    # DuckDB's CSV sniffer would take '#' for a comment and drop the row, and query #1 would score 0
    qrels = pd.DataFrame({"query_id": ["#1", "q"], "doc_id": ["z", "a"], "relevance": [1.0, 1.0]})
    run = write(tmp_path, "run.csv", "query_id,doc_id,score\n#1,z,3\nq,a,2\n")
    assert per_query(evaluate(qrels, run, ["RR"]), "RR") == {"#1": 1.0, "q": 1.0}


# ---------------------------------------------------------------- files

def test_a_parquet_name_on_csv_content_is_refused(tmp_path, qrels):
    fake = write(tmp_path, "run.parquet", "query_id,doc_id,score\nq1,a,3\n")
    assert error_of(qrels, fake) == (f"{fake}: has a .parquet name but is not a Parquet file (no PAR1 magic "
                                     "bytes); rename it after its real format (.csv, .tsv, .jsonl or a TREC file)")


def test_a_truncated_parquet_file_is_refused(tmp_path, qrels):
    pq.write_table(pa.table({"query_id": ["q1"], "doc_id": ["a"], "score": [1.0]}), tmp_path / "whole.parquet")
    cut = write(tmp_path, "run.parquet", (tmp_path / "whole.parquet").read_bytes()[:60])
    message = error_of(qrels, cut)
    assert message.startswith(f"{cut}: is not a readable Parquet file (")
    assert message.endswith("); it may be truncated or corrupt: write it again")


@pytest.mark.parametrize("keep", [30, 3000])
def test_a_truncated_gzip_file_is_refused(tmp_path, qrels, keep):
    # cut early, Python's look at the first line fails; cut late, DuckDB's read does: the same answer
    body = "".join(f"q1 Q0 d{i} {i} {i}.5 r\n" for i in range(20000)).encode()
    cut = write(tmp_path, "run.trec.gz", b"")
    cut.write_bytes(gzip.compress(body)[:keep])
    message = error_of(qrels, cut)
    assert message.startswith(f"{cut}: the gzip data is truncated or corrupt (")
    assert message.endswith("); re-create or re-download the file (`gzip -t` checks it)")


def test_gzip_is_recognised_by_content_not_by_name(tmp_path, qrels):
    compressed = tmp_path / "run.trec"
    compressed.write_bytes(gzip.compress(RUN.encode()))
    assert_expected(summary_of(qrels, compressed))
    plain = write(tmp_path, "plain.trec.gz", b"")
    plain.write_bytes(RUN.encode())  # a .gz name on plain text
    assert_expected(summary_of(qrels, plain))


def test_a_path_that_does_not_exist(tmp_path, qrels):
    missing = tmp_path / "nope.trec"
    assert error_of(qrels, missing) == (f"{missing}: no such file; check the path (the run comes second: "
                                        "evaluate(qrels, run, measures))")


def test_a_directory_is_not_a_file(tmp_path, qrels):
    assert error_of(qrels, tmp_path) == f"{tmp_path}: is a directory, expected a run file; name a file inside it"


def test_a_pipe_is_refused_before_it_is_read(tmp_path, qrels):
    """A pipe gives its bytes once and sqlrank reads an input more than once: it seemed an empty file."""
    fifo = tmp_path / "run.fifo"
    os.mkfifo(fifo)  # nothing writes to it: opening it to read would wait forever
    assert error_of(qrels, fifo) == (f"{fifo}: is a pipe or a device, not a file, and sqlrank reads its inputs "
                                     "more than once; save it to a file first (e.g. zcat run.gz > run.txt; a .gz "
                                     "file can also be given as it is)")


@pytest.mark.parametrize("fmt", ["parquet", "trec"])
@pytest.mark.parametrize("limit", ["1MB", "4MB", "8MB"])
def test_too_little_memory_is_said_to_be_that(tmp_path, fmt, limit):
    """DuckDB's out-of-memory error, wherever it strikes (reading, checking, ranking), is not called a corrupt
    file or a failed evaluation: it says to raise the limit or give DuckDB a folder to spill to."""
    con = duckdb.connect()
    rows = "SELECT 'q' || (i // 100) AS query_id, 'd' || (i % 100) AS doc_id, (i % 97) / 7.0 AS score FROM range(200000) r(i)"
    judged = "SELECT 'q' || (i // 100) AS query_id, 'd' || (i % 100) AS doc_id, i % 3 AS relevance FROM range(0, 200000, 7) r(i)"
    run, qrels = tmp_path / f"run.{fmt}", tmp_path / f"qrels.{fmt}"
    if fmt == "parquet":
        con.execute(f"COPY ({rows}) TO '{run}'")
        con.execute(f"COPY ({judged}) TO '{qrels}'")
    else:
        run.write_text("".join(f"{q} Q0 {d} 1 {v} r\n" for q, d, v in con.execute(rows).fetchall()))
        qrels.write_text("".join(f"{q} 0 {d} {v}\n" for q, d, v in con.execute(judged).fetchall()))
    with pytest.raises(ResourceError) as caught:
        evaluate(qrels, run, ["AP"], memory_limit=limit)
    message = str(caught.value)
    assert message.startswith("DuckDB ran out of memory (Out of Memory Error: ")
    assert message.endswith("); raise the memory limit (--memory-limit, memory_limit=) or give DuckDB a folder to "
                            "spill to (--temp-directory, temp_directory=)")


def test_an_unreadable_file(tmp_path, qrels):
    run = write(tmp_path, "run.trec", RUN)
    run.chmod(0)
    try:
        if os.access(run, os.R_OK):  # root reads anything: then sqlrank reads it too, with the right numbers
            assert_expected(summary_of(qrels, run))
        else:
            assert error_of(qrels, run) == (f"{run}: cannot be read (permission denied); check the file's "
                                            "permissions (e.g. chmod +r)")
    finally:
        run.chmod(0o644)


def test_an_unreadable_file_as_any_user(tmp_path, qrels, monkeypatch):
    # what a user without read permission sees, also when the tests run as root
    run = write(tmp_path, "run.trec", RUN)

    def refuse(path, *args, **kwargs):
        if Path(path) == run:
            raise PermissionError(13, "Permission denied", str(path))
        return open(path, *args, **kwargs)

    monkeypatch.setattr(sqlrank.readers.files, "open", refuse, raising=False)
    assert error_of(qrels, run) == (f"{run}: cannot be read (permission denied); check the file's permissions "
                                    "(e.g. chmod +r)")


@pytest.mark.parametrize("source", [42, None, [[1, 2]], object()])
def test_an_object_that_is_not_a_table_is_refused(qrels, source):
    message = error_of(qrels, source)
    assert "; pass a file path, a pandas or polars DataFrame, a pyarrow Table, a DuckDB relation, a dict" in message


def test_a_dict_with_a_value_that_is_not_a_number(qrels):
    assert error_of(qrels, {"q1": {"a": 1.0, "b": "high"}}) == (
        "<dict run>: query 'q1' doc 'b': the score must be a number, found 'high'; fix the value")


# ---------------------------------------------------------------- measures

@pytest.mark.parametrize("measure, message", [
    ("nDCG(gain=cubic)", "nDCG(gain=cubic): unknown gain 'cubic' (expected one of: linear, exp)"),
    ("P@0", "P@0: the cutoff must be a whole number >= 1, got '0'"),
    ("P@-3", "P@-3: the cutoff must be a whole number >= 1, got '-3'"),
    ("P@ten", "P@ten: the cutoff must be a whole number >= 1, got 'ten'"),
    ("P@9223372036854775807", "P@9223372036854775807: the cutoff must be at most 2147483647, "
                              "got '9223372036854775807'"),
    ("AP(rel=high)", "AP(rel=high): rel must be a number, got 'high'"),
    ("AP(rel=nan)", "AP(rel=nan): rel must be a finite number, got 'nan'"),
    ("nDCG(discount=jarvelin,base=1)", "nDCG(discount=jarvelin,base=1): base must be greater than 1, got '1'"),
    ("nDCG(gain=exp,gain=linear)", "nDCG(gain=exp,gain=linear): parameter 'gain' is given twice; give it once"),
    ("Rprec@5", "Rprec@5: Rprec takes no cutoff (@k)"),
])
def test_bad_measure_parameters_are_refused(qrels, run, measure, message):
    assert error_of(qrels, run, MeasureError, measures=[measure]).startswith(message)


def test_an_unknown_measure_suggests_the_closest(qrels, run):
    message = error_of(qrels, run, MeasureError, measures=["nDGC@10"])
    assert message.startswith("unknown measure 'nDGC' (did you mean 'nDCG@10'?); known measures: nDCG, DCG")


@pytest.mark.parametrize("measure", ["nDCG@10; DROP TABLE run", "AP(rel=1); DROP TABLE run", "P@5 OR 1=1",
                                     "nDCG')--", "RR@1)/*"])
def test_injection_attempts_in_measure_strings_are_refused(qrels, run, measure):
    con = sqlrank.connect()
    con.execute("CREATE TABLE run AS SELECT 42 AS answer")
    with pytest.raises(MeasureError):
        sqlrank.evaluate(qrels, run, [measure], connection=con)
    assert con.execute("SELECT answer FROM run").fetchall() == [(42,)]


def test_repeated_measures_are_computed_once(qrels, run):
    result = evaluate(qrels, run, ["P@2", "P_2", "p@2", "P.2", "AP", "map"])
    assert result.summary == {"P@2": EXPECTED["P@2"], "AP": pytest.approx(EXPECTED["AP"])}


@pytest.mark.parametrize("rel", ["2", float("nan"), float("inf"), True])
def test_a_bad_rel_option_is_refused(qrels, run, rel):
    assert error_of(qrels, run, MeasureError, rel=rel) == f"rel must be a finite number, got {rel!r}"


@pytest.mark.parametrize("measures", [5, None])
def test_measures_that_are_not_a_list_of_names(qrels, run, measures):
    assert error_of(qrels, run, MeasureError, measures=measures).startswith(
        "measures are a list of names such as ['nDCG@10', 'AP'], got ")


# ---------------------------------------------------------------- output

@pytest.fixture
def result(qrels, run):
    return evaluate(qrels, run)


def test_writing_into_a_missing_folder_is_refused(tmp_path, result):
    target = tmp_path / "no" / "such" / "out.csv"
    with pytest.raises(OutputError) as caught:
        export.write(result, target)
    assert str(caught.value) == f"{target}: the folder {target.parent} does not exist; create it first"


def test_writing_over_an_input_is_refused(qrels, run, result):
    before = run.read_bytes()
    with pytest.raises(OutputError) as caught:
        export.write(result, run, "csv", inputs=(qrels, run))
    assert str(caught.value).startswith(f"{run}: is one of the inputs")
    assert str(caught.value).endswith("refusing to overwrite it, choose another output file")
    assert run.read_bytes() == before


def test_writing_to_a_read_only_folder_leaves_nothing_behind(tmp_path, result):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("running as root: a read-only folder is writable (the next test covers the failure)")
        with pytest.raises(OutputError) as caught:
            export.write(result, folder / "out.csv")
        assert str(caught.value).startswith(f"{folder / 'out.csv'}: cannot write in {folder}: Permission denied")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


def test_a_failed_write_keeps_the_old_file_and_leaves_no_partial_file(tmp_path, result, monkeypatch):
    (tmp_path / "out").mkdir()
    target = tmp_path / "out" / "out.csv"
    target.write_text("the previous result\n")

    def refuse(source, destination):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(export.os, "replace", refuse)
    with pytest.raises(OutputError) as caught:
        export.write(result, target)
    assert str(caught.value) == f"{target}: cannot be written: Permission denied"
    assert target.read_text() == "the previous result\n"
    assert [p.name for p in target.parent.iterdir()] == ["out.csv"]


# ---------------------------------------------------------------- the command line

@pytest.mark.parametrize("case, exit_code, start", [
    ("short line", 1, "{run}:3: expected 6 fields"),
    ("missing file", 1, "{missing}: no such file"),
    ("bad measure", 2, "P@0: the cutoff must be a whole number"),
    # -m takes a space-separated list, as trec_eval's does: the first word is refused
    ("injection", 2, "nDCG@10;: the cutoff must be a whole number"),
    ("bad bytes", 1, "{run}:3: is not UTF-8 text"),
])
def test_the_command_line_answers_in_one_line_with_an_exit_code(tmp_path, qrels, case, exit_code, start):
    run = write(tmp_path, "run.trec", {"short line": "q1 Q0 a 1 3 r\nq1 Q0 b 2 2 r\nq1 Q0 c 3\n",
                                       "bad bytes": b"q1 Q0 a 1 3 r\n\nq1 Q0 \xff 2 2 r\n"}.get(case, RUN))
    missing = tmp_path / "missing.trec"
    args = {"missing file": [qrels, missing], "bad measure": [qrels, run, "-m", "P@0"],
            "injection": [qrels, run, "-m", "nDCG@10; DROP TABLE run"]}.get(case, [qrels, run])
    outcome = invoke("eval", *args)
    assert outcome.exit_code == exit_code
    assert outcome.stdout == ""
    lines = outcome.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in outcome.stderr
    assert lines[0].startswith("sqlrank: error: " + start.format(run=run, missing=missing))


def test_the_command_line_refuses_to_overwrite_an_input(qrels, run):
    before = run.read_bytes()
    outcome = invoke("eval", qrels, run, "-o", run, "-f", "csv")
    assert outcome.exit_code != 0 and "Traceback" not in outcome.stderr
    assert outcome.stderr.splitlines() == [outcome.stderr.strip()]
    assert outcome.stderr.startswith(f"sqlrank: error: {run}: is one of the inputs")
    assert run.read_bytes() == before


# ---------------------------------------------------------------- the table in docs/bad_input.md

def test_every_test_named_in_docs_bad_input_exists_and_every_case_here_is_named():
    table = (ROOT / "docs" / "bad_input.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(test_\w+)`", table))
    defined: set[str] = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined |= {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    assert named, "docs/bad_input.md names no tests"
    assert sorted(named - defined) == [], "docs/bad_input.md names tests that do not exist"
    here = {node.name for node in ast.walk(ast.parse(Path(__file__).read_text(encoding="utf-8")))
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}
    unnamed = here - named - {"test_every_test_named_in_docs_bad_input_exists_and_every_case_here_is_named"}
    assert sorted(unnamed) == [], "tests of bad input missing from docs/bad_input.md"
