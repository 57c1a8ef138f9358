"""sqlrank against trec_eval 10.0's own output on trec_eval's own test files.

The expected values were produced by the trec_eval binary (see
tests/data/trec_eval/README.md for each file's exact command line). The
`*_full.csv` files carry 17 significant digits and are compared at 1e-9, per
query and for the `all` row; the stock 4-decimal text outputs (`out.test.aq`,
`out.test.aql`) at half a unit of their last printed digit (tests/tolerances.py).

Measure names are trec_eval's (ndcg_cut_10, map, P_5, ...); sqlrank reads
them itself through `sqlrank.parse_measures`, so this also checks that every
trec_eval name means what trec_eval means by it.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

import sqlrank
from sqlrank import EvaluationError
from tolerances import printed

TOL = 1e-9
PRINTED_TOL = printed(4)  # trec_eval prints 4 decimals

# the trec_eval measures sqlrank implements: every trec_eval name the registry declares, so that a
# measure added with its trec_eval name is checked against every line trec_eval printed for it
IMPLEMENTED = re.compile(
    "^(" + "|".join([re.escape(m.trec_name) for m in sqlrank.REGISTRY.values() if m.trec_name]
                    + [re.escape(m.trec_family) + r"_\d+(?:\.\d+)?" for m in sqlrank.REGISTRY.values() if m.trec_family])
    + ")$"
)
# measures every all_trec file must bring, so that a silently emptied filter cannot pass
REQUIRED = {
    "ndcg", "ndcg_cut_5", "ndcg_cut_10", "ndcg_cut_15", "ndcg_cut_20", "ndcg_cut_30", "ndcg_cut_100",
    "ndcg_cut_200", "ndcg_cut_500", "ndcg_cut_1000", "map", "map_cut_5", "map_cut_1000", "recip_rank",
    "P_5", "P_1000", "recall_5", "recall_1000", "Rprec", "bpref", "success_1", "success_5", "success_10",
    "num_ret", "num_rel", "num_rel_ret",
}


def read_full_csv(path: Path) -> dict[tuple[str, str], float]:
    """{(trec measure, query_id): value} from a tidy `measure,query_id,value` file, implemented measures only."""
    with open(path, newline="", encoding="utf-8") as handle:
        return {(row["measure"], row["query_id"]): float(row["value"])
                for row in csv.DictReader(handle) if IMPLEMENTED.match(row["measure"])}


def read_trec_text(path: Path) -> dict[tuple[str, str], float]:
    """The same from trec_eval's own text output: `measure<padding>\\tquery_id\\tvalue`."""
    values = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        measure, query_id, value = (field.strip() for field in line.split("\t"))
        if IMPLEMENTED.match(measure):
            values[(measure, query_id)] = float(value)
    return values


# trec_eval prints these in the `all` row only (sqlrank has a value per query: NumQ's 1, GMAP's AP, ...)
SUMMARY_ONLY = {"num_q", "gm_map", "gm_bpref"}


def evaluate_like_trec_eval(qrels: Path, run: Path, trec_measures, *, rel: int = 1, missing: str = "zero"):
    """{(trec measure, query_id): value} from sqlrank.evaluate, for the trec_eval names given."""
    names = sorted(set(trec_measures))
    canonical = {name: str(sqlrank.parse_measures(name, rel=rel)[0]) for name in names}
    result = sqlrank.evaluate(qrels, run, names, rel=rel, missing=missing, names="canonical")
    by_canonical = {(row["measure"], row["query_id"]): row["value"] for row in result.to_arrow().to_pylist()}
    return {(name, query): by_canonical[(canonical[name], query)]
            for name in names for (measure, query) in by_canonical
            if measure == canonical[name] and (query == "all" or name not in SUMMARY_ONLY)}


def assert_same(actual: dict, expected: dict, tolerance: float) -> None:
    assert set(actual) == set(expected), f"rows differ: missing {set(expected) - set(actual)}, extra {set(actual) - set(expected)}"
    wrong = {key: (actual[key], value) for key, value in expected.items() if abs(actual[key] - value) > tolerance}
    assert not wrong, f"{len(wrong)} of {len(expected)} values differ (sqlrank, trec_eval): {dict(list(wrong.items())[:8])}"


# ---------------------------------------------------------------- 17-digit files at 1e-9

CASES = {
    # trec_eval -q -m all_trec qrels.test results.test
    "binary": ("qrels.test", "results.test", "expected_all_trec_full.csv", "zero"),
    # trec_eval -q -m all_trec qrels.rel_level results.test  (graded labels, -1 labels, -l1)
    "graded": ("qrels.rel_level", "results.test", "expected_all_trec_rel_level_full.csv", "zero"),
    # trec_eval -q -c -m all_trec qrels.test results.trunc  (302 missing from the run: scores 0, counts in the mean)
    "missing_query_c": ("qrels.test", "results.trunc", "expected_all_trec_c_trunc_full.csv", "zero"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_all_trec_measures_match_trec_eval(trec_data, case):
    qrels, run, expected_file, missing = CASES[case]
    expected = read_full_csv(trec_data / expected_file)
    assert REQUIRED <= {measure for measure, _ in expected}
    assert {query for _, query in expected} == {"301", "302", "303", "all"}
    actual = evaluate_like_trec_eval(trec_data / qrels, trec_data / run, {m for m, _ in expected}, missing=missing)
    # The -c quirk (trec_eval m_num_rel.c): with -c the `all` num_rel is recounted from the
    # qrels as "label > 0", ignoring -l. sqlrank always sums the per-query values, which
    # honour `rel`. With -l1 and integer labels the two agree (561 = 474 + 77 + 10 here),
    # so this file checks our sum; with -c -l2 trec_eval's `all` would exceed the sum and
    # sqlrank deliberately does not copy that.
    assert_same(actual, expected, TOL)


def test_missing_query_scores_zero_and_counts_in_the_mean(trec_data):
    expected = read_full_csv(trec_data / "expected_all_trec_c_trunc_full.csv")
    # query 302 has no run lines: 0 everywhere, but its 77 relevant documents still count
    assert expected[("map", "302")] == 0 and expected[("num_rel", "302")] == 77
    assert expected[("map", "all")] == pytest.approx((expected[("map", "301")] + 0 + expected[("map", "303")]) / 3, abs=TOL)
    actual = evaluate_like_trec_eval(trec_data / "qrels.test", trec_data / "results.trunc", ["map", "num_rel", "num_ret"])
    assert actual[("map", "302")] == 0.0
    assert actual[("num_ret", "302")] == 0.0
    assert actual[("num_rel", "302")] == 77.0
    assert actual[("map", "all")] == pytest.approx(expected[("map", "all")], abs=TOL)


def test_missing_skip_averages_over_the_queries_of_the_run(trec_data):
    # trec_eval 9.x / pytrec_eval behaviour (10.0 without -c refuses instead). The per-query
    # values of 301 and 303 are those of the -c file; the mean is over those two only.
    expected = read_full_csv(trec_data / "expected_all_trec_c_trunc_full.csv")
    names = ["map", "ndcg_cut_10", "P_5", "num_rel"]
    actual = evaluate_like_trec_eval(trec_data / "qrels.test", trec_data / "results.trunc", names, missing="skip")
    assert {query for _, query in actual} == {"301", "303", "all"}
    for name in names:
        for query in ("301", "303"):
            assert actual[(name, query)] == pytest.approx(expected[(name, query)], abs=TOL)
    assert actual[("map", "all")] == pytest.approx((expected[("map", "301")] + expected[("map", "303")]) / 2, abs=TOL)
    assert actual[("num_rel", "all")] == 474 + 10  # counts are sums, over the evaluated queries


def test_missing_error_refuses_like_trec_eval_10(trec_data):
    # trec_eval 10.0 without -c exits with code 4 on qrels.test + results.trunc (302 has no run lines)
    with pytest.raises(EvaluationError, match=r"1 of 3 qrels queries have no documents in the run \(302\)"):
        sqlrank.evaluate(trec_data / "qrels.test", trec_data / "results.trunc", ["map"], missing="error")


def test_raw_dcg_ideal_dcg_and_ndcg(trec_data):
    # trec_eval -q -m dcg -m ideal_dcg -m ndcg qrels.rel_level results.test (graded labels as linear gains)
    expected = read_full_csv(trec_data / "expected_dcg_rel_level_full.csv")
    assert {measure for measure, _ in expected} == {"dcg", "ideal_dcg", "ndcg"}
    assert str(sqlrank.parse_measures("ideal_dcg")[0]) == "IDCG"
    actual = evaluate_like_trec_eval(trec_data / "qrels.rel_level", trec_data / "results.test", ["dcg", "ideal_dcg", "ndcg"])
    assert_same(actual, expected, TOL)


# ---------------------------------------------------------------- 4-decimal text outputs at 5e-5

def test_stock_text_output_binary(trec_data):
    # out.test.aq: trec_eval -m all_trec -q qrels.test results.test
    expected = read_trec_text(trec_data / "out.test.aq")
    assert REQUIRED <= {measure for measure, _ in expected}
    actual = evaluate_like_trec_eval(trec_data / "qrels.test", trec_data / "results.test", {m for m, _ in expected})
    assert_same(actual, expected, PRINTED_TOL)


def test_relevance_level_2(trec_data):
    # out.test.aql: trec_eval -m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test
    # (relevant = label >= 2: R is 12, 77, 8 instead of 474, 77, 10). -l does not touch ndcg.
    expected = read_trec_text(trec_data / "out.test.aql")
    assert (expected[("num_rel", "301")], expected[("num_rel", "all")]) == (12, 97)
    actual = evaluate_like_trec_eval(trec_data / "qrels.rel_level", trec_data / "results.test",
                                     {m for m, _ in expected}, rel=2)
    assert_same(actual, expected, PRINTED_TOL)
    # the graded ndcg ignores -l: the same as the -l1 run's 17-digit value
    graded = read_full_csv(trec_data / "expected_all_trec_rel_level_full.csv")
    assert actual[("ndcg", "all")] == pytest.approx(graded[("ndcg", "all")], abs=TOL)


# ---------------------------------------------------------------- the SQL macros, as a shell user calls them

MACRO_CASES = [
    # (SQL call, trec_eval measure)
    ("sqlrank.ndcg('qrels', 'run')", "ndcg"),
    ("sqlrank.ndcg('qrels', 'run', k := 10)", "ndcg_cut_10"),
    ("sqlrank.ap('qrels', 'run')", "map"),
    ("sqlrank.ap('qrels', 'run', k := 100)", "map_cut_100"),
    ("sqlrank.rr('qrels', 'run')", "recip_rank"),
    ("sqlrank.p('qrels', 'run', k := 5)", "P_5"),
    ("sqlrank.recall('qrels', 'run', k := 1000)", "recall_1000"),
    ("sqlrank.rprec('qrels', 'run')", "Rprec"),
    ("sqlrank.bpref('qrels', 'run')", "bpref"),
    ("sqlrank.success('qrels', 'run', k := 1)", "success_1"),
    ("sqlrank.num_rel_ret('qrels', 'run')", "num_rel_ret"),
]


@pytest.mark.parametrize(("call", "trec_name"), MACRO_CASES)
def test_sql_macros_on_graded_qrels(con, trec_data, call, trec_name):
    expected = read_full_csv(trec_data / "expected_all_trec_rel_level_full.csv")
    sqlrank.load_qrels(con, trec_data / "qrels.rel_level", name="qrels")
    sqlrank.load_run(con, trec_data / "results.test", name="run")
    rows = dict(con.execute(f"SELECT query_id, value FROM {call} ORDER BY query_id").fetchall())
    assert set(rows) == {"301", "302", "303"}
    for query, value in rows.items():
        assert value == pytest.approx(expected[(trec_name, query)], abs=TOL), query
    # the `all` row: a mean over queries, except counts, which are sums
    summary = "sum" if trec_name.startswith("num_") else "avg"
    total = con.execute(f"SELECT {summary}(value) FROM {call}").fetchone()[0]
    assert total == pytest.approx(expected[(trec_name, "all")], abs=TOL)


def test_sql_macros_missing_zero_and_summary_macro(con, trec_data):
    # qrels.test + results.trunc as trec_eval -c: the macros' default missing := 'zero'
    expected = read_full_csv(trec_data / "expected_all_trec_c_trunc_full.csv")
    sqlrank.load_qrels(con, trec_data / "qrels.test", name="qrels")
    sqlrank.load_run(con, trec_data / "results.trunc", name="run")
    con.execute(
        "CREATE TABLE per_query AS "
        "SELECT query_id, 'ndcg_cut_10' AS measure, value FROM sqlrank.ndcg('qrels', 'run', k := 10) "
        "UNION ALL SELECT query_id, 'num_ret', value FROM sqlrank.num_ret('qrels', 'run')"
    )
    per_query = {(m, q): v for q, m, v in con.execute("SELECT query_id, measure, value FROM per_query").fetchall()}
    assert per_query[("ndcg_cut_10", "302")] == 0.0
    summary = {m: v for m, q, v in con.execute("SELECT measure, query_id, value FROM sqlrank.summary('per_query')").fetchall()}
    assert summary["ndcg_cut_10"] == pytest.approx(expected[("ndcg_cut_10", "all")], abs=TOL)
    assert summary["num_ret"] == expected[("num_ret", "all")] == 500 + 0 + 84
