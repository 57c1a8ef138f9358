"""Measures users define (sqlrank.define, the CLI's --define, the shell's two macros): docs/custom-measures.md.

The independent reference is trec_eval 10: built-in measures written again as SQL expressions over the ranking
struct ("twins") give trec_eval's own numbers on every conformance case of tests/data/trec_eval/ (and the
built-in's, bit for bit); the measure the catalogue lacks is checked on a hand-worked example.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

import sqlrank
from cli_runner import invoke
from test_conformance import read_full_csv, read_trec_text
from tolerances import printed

DOCS = Path(__file__).parent.parent / "docs" / "custom-measures.md"

# built-in measures written again from the shared pieces of sql/21_ranking_parts.sql, as a user would
TWINS = {
    "MyP": ("P", "coalesce(CAST(len(sqlrank.relevant_ranks(ranking, k, rel)) AS DOUBLE)"
                 " / NULLIF(coalesce(k, ranking.num_ret), 0), 0)"),
    "MyR": ("R", "coalesce(CAST(len(sqlrank.relevant_ranks(ranking, k, rel)) AS DOUBLE)"
                 " / NULLIF(sqlrank.num_relevant(ranking, rel), 0), 0)"),
    "MyRR": ("RR", "coalesce(1.0 / NULLIF(sqlrank.relevant_ranks(ranking, k, rel)[1], 0), 0)"),
    "MyAP": ("AP", "coalesce(sqlrank.precision_sum(ranking, k, rel) / NULLIF(sqlrank.num_relevant(ranking, rel), 0), 0)"),
    "MynDCG": ("nDCG", "least(coalesce(sqlrank.dcg_of(ranking, k, 'linear', 'log2', 2) / NULLIF(sqlrank.ideal_dcg("
                       "sqlrank.ideal_gains(ranking, 'linear', 'qrels'), k, 'log2', 2), 0), 0), 1.0)"),
}
# trec_eval's names of each built-in, whole list and at a cutoff
TREC_NAMES = {"P": ("set_P", "P_{k}"), "R": ("set_recall", "recall_{k}"), "RR": ("recip_rank", None),
              "AP": ("map", "map_cut_{k}"), "nDCG": ("ndcg", "ndcg_cut_{k}")}
CUTOFFS = (None, 5, 10, 100)

# (qrels, run, expected file, options): every case of trec_eval's conformance data (tests/data/trec_eval/README.md)
CASES = {
    "binary": ("qrels.test", "results.test", "expected_all_trec_full.csv", {}),
    "graded": ("qrels.rel_level", "results.test", "expected_all_trec_rel_level_full.csv", {}),
    "missing_query_c": ("qrels.test", "results.trunc", "expected_all_trec_c_trunc_full.csv", {}),
    "comment_ids": ("qrels.comment.test", "results.comment.test.gz", "expected_all_trec_comment_full.csv", {}),
    # 4-decimal outputs: trec_eval -l2, and -c -M100
    "rel_2": ("qrels.rel_level", "results.test", "out.test.aql", {"rel": 2}),
    "depth_100": ("qrels.test", "results.trunc", "out.test.aqcM", {"depth": 100}),
}


@pytest.fixture(scope="module")
def twins():
    """The twins, defined for this module's tests and forgotten after them."""
    for name, (_, expression) in TWINS.items():
        sqlrank.define(name, expression, params=() if name == "MynDCG" else ("rel",))
    yield TWINS
    for name in TWINS:
        sqlrank.undefine(name)


def asked(name: str, k) -> str:
    return name if k is None else f"{name}@{k}"


def trec_name(builtin: str, k) -> str | None:
    whole, family = TREC_NAMES[builtin]
    return whole if k is None else family and family.format(k=k)


@pytest.mark.parametrize("case", list(CASES))
def test_each_twin_equals_its_built_in_and_trec_eval_on_every_conformance_case(twins, trec_data, case):
    qrels, run, expected_file, options = CASES[case]
    measures = [asked(name, k) for name in twins for k in CUTOFFS] + \
        [asked(builtin, k) for builtin, _ in twins.values() for k in CUTOFFS]
    result = sqlrank.evaluate(trec_data / qrels, trec_data / run, measures, **options)
    values = {(row["measure"], row["query_id"]): row["value"] for row in result.to_arrow().to_pylist()}
    if expected_file.endswith(".csv"):
        expected, tolerance = read_full_csv(trec_data / expected_file), 1e-9
    else:
        expected, tolerance = read_trec_text(trec_data / expected_file), printed(4)
    queries = {query for _, query in expected}
    checked = 0
    for name, (builtin, _) in twins.items():
        for k in CUTOFFS:
            for query in queries:
                twin = values[(asked(name, k), query)]
                assert twin == values[(asked(builtin, k), query)], (name, k, query)
                reference = trec_name(builtin, k)
                if (reference, query) in expected:
                    assert twin == pytest.approx(expected[(reference, query)], abs=tolerance), (name, k, query)
                    checked += 1
    assert checked >= 40  # trec_eval printed most of them: a silently emptied comparison cannot pass


@pytest.mark.parametrize("ties", ["docid_asc", "optimistic", "pessimistic", "input"])
def test_a_twin_equals_its_built_in_under_every_order_policy(twins, trec_data, ties):
    # results.test has 10 pairs of equal scores, which these policies order each its own way
    measures = ["MyAP", "AP", "MyRR@10", "RR@10", "MyP@5", "P@5", "MynDCG@10", "nDCG@10"]
    result = sqlrank.evaluate(trec_data / "qrels.rel_level", trec_data / "results.test", measures, ties=ties)
    values = {(row["measure"], row["query_id"]): row["value"] for row in result.to_arrow().to_pylist()}
    for query in ("301", "302", "303", "all"):
        for twin, builtin in zip(measures[::2], measures[1::2]):
            assert values[(twin, query)] == values[(builtin, query)], (twin, query, ties)


def test_a_defined_measure_takes_parameters_options_and_the_all_row_it_declares(twins, trec_data):
    result = sqlrank.evaluate(trec_data / "qrels.rel_level", trec_data / "results.test",
                              ["MyP(rel=2)@10", "P(rel=2)@10", "MyAP@100", "AP@100"], rel=3, missing="skip")
    assert result.summary["MyP(rel=2)@10"] == result.summary["P(rel=2)@10"]
    assert result.summary["MyAP@100"] == result.summary["AP@100"]
    # a defined measure that sums: the number of relevant documents within k, against NumRelRet's sum
    sqlrank.define("RelRetDefined", "len(sqlrank.relevant_ranks(ranking, k, rel))", aggregate="sum",
                   params=("rel",), needs=())
    try:
        summed = sqlrank.evaluate(trec_data / "qrels.test", trec_data / "results.test",
                                  ["RelRetDefined@100", "NumRelRet@100"])
        assert summed.summary["RelRetDefined@100"] == summed.summary["NumRelRet@100"]
        by_query = {row["query_id"]: row["value"] for row in summed.to_arrow().to_pylist()
                    if row["measure"] == "RelRetDefined@100"}
        assert by_query["all"] == by_query["301"] + by_query["302"] + by_query["303"]
    finally:
        sqlrank.undefine("RelRetDefined")
