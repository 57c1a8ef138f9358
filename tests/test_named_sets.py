"""trec_eval's named sets (`-m all_trec`, `-m official`) and its text lines (runid, relstring), byte for byte.

`sqlrank eval -f trec` with a named set prints what trec_eval prints on its own test files: the same
lines in the same order with the same names and formatting (tests/data/trec_eval/README.md gives each
file's trec_eval command line).
"""

from __future__ import annotations

import pytest

import sqlrank
from sqlrank.cli import run
from sqlrank.registry import NAMED_SETS

CASES = {
    # trec_eval -m all_trec -q qrels.test results.test
    "all_trec": (["-q", "-m", "all_trec"], "qrels.test", "results.test", "out.test.aq"),
    # trec_eval -m all_trec -q -c -M100 qrels.test results.trunc  (302 missing: relstring '')
    "all_trec_c_M100": (["-q", "-m", "all_trec", "--depth", "100"], "qrels.test", "results.trunc", "out.test.aqcM"),
    # trec_eval -m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test  (relstring named again: 20 long)
    "all_trec_l2_relstring20": (["-q", "-m", "all_trec", "-m", "relstring.20", "--rel", "2"], "qrels.rel_level",
                                "results.test", "out.test.aql"),
    # trec_eval qrels.test results.test  (its default set, the `all` rows only)
    "official": (["-m", "official"], "qrels.test", "results.test", "out.test"),
    # trec_eval -q -M 50 -l 2 -m rbp -m rbp_resid qrels.robust03_630_389 input.uic0301_630_389
    # (query 630 prints 0.2264 only in trec_eval's own arithmetic: sql/21_ranking_parts.sql, rbp_walk)
    "rbp_M50_l2": (["-q", "-M", "50", "-l", "2", "-m", "rbp", "-m", "rbp_resid"], "qrels.robust03_630_389",
                   "input.uic0301_630_389", "out.robust03_630_389.rbp_M50_l2"),
    # trec_eval -m qrels_jg -q -R qrels_jg qrels.123 results.test  (three judges; qrels.comments.123, the same
    # with comments, gives the same numbers: tests/test_multi_judge.py)
    "qrels_jg": (["-q", "-m", "qrels_jg", "-R", "qrels_jg"], "qrels.123", "results.test", "out.test.qrels_jg"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_trec_layout_reproduces_trec_eval_line_for_line(trec_data, capsysbinary, case):
    options, qrels, results, expected = CASES[case]
    assert run(["eval", "-f", "trec", *options, str(trec_data / qrels), str(trec_data / results)]) == 0
    printed = capsysbinary.readouterr().out.decode()
    assert printed.splitlines() == (trec_data / expected).read_text().splitlines()


def test_all_trec_expands_to_every_numeric_measure_in_trec_eval_order():
    names = [sqlrank.measures.trec_name(m) for m in sqlrank.parse_measures("all_trec")]
    assert len(names) == len(set(names)) == 98  # the 99 `all` lines less runid (relstring is per query only)
    assert names[:5] == ["num_q", "num_ret", "num_rel", "num_rel_ret", "map"]
    assert names[-3:] == ["unj_5", "unj_10", "unj_20"]
    # the text lines are kept only for the evaluation the trec layout prints
    with_text = [str(m) for m in sqlrank.parse_measures(["all_trec", "relstring.20"], text_lines=True)]
    assert with_text[0] == "runid" and "relstring_20" in with_text and "relstring" not in with_text


def test_text_lines_in_the_python_result(trec_data):
    result = sqlrank.evaluate(trec_data / "qrels.test", trec_data / "results.test", ["official", "relstring.3"])
    assert result.measures[:2] == ["num_q", "num_ret"]  # the numbers, as any result, under trec_eval's names
    texts = {(row["query_id"], row["measure"]): row["text"] for row in result.text_rows}
    assert texts == {("all", "runid"): "STANDARD", ("301", "relstring_3"): "'000'", ("302", "relstring_3"): "'110'",
                     ("303", "relstring_3"): "'000'"}


def test_text_lines_alone_are_refused():
    with pytest.raises(sqlrank.MeasureError, match="name a measure too"):
        sqlrank.parse_measures(["runid", "relstring"], text_lines=True)


def test_named_sets_are_spelled_as_trec_eval_takes_them():
    for name, members in NAMED_SETS.items():
        assert sqlrank.parse_measures(list(members)) == sqlrank.parse_measures(name)
