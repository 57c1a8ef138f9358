"""What the preference measures' test files share: trec_eval 10's values on its own test files, computed once
for all fourteen measures (tests/data/trec_eval/README.md), and the docs' worked example."""

from __future__ import annotations

import csv
import functools
from pathlib import Path

import sqlrank
from sqlrank.registry import NAMED_SETS

TREC_DATA = Path(__file__).resolve().parent.parent / "data" / "trec_eval"
# (preferences, run, the 17-digit values of trec_eval -m all_prefs -q, whether the preferences are qrels)
CASES = {"prefs": ("prefs.test", "prefs.results.test", "expected_prefs_full.csv", False),
         "qrels_prefs": ("qrels.test", "results.test", "expected_qrels_prefs_full.csv", True)}
# docs/measures.md#preference-measures: the judgments read as one judgment group, and the ranking b, a, x, c
JUDGMENTS = {"q": {"a": 2, "b": 1, "c": 0, "d": 0, "e": 0}}
RANKING = {"q": {"b": 4.0, "a": 3.0, "x": 2.0, "c": 1.0}}


@functools.cache
def computed(case: str) -> dict[tuple[str, str], float]:
    """Every preference measure of one case, {(measure, query_id): value}, by one evaluation."""
    prefs, run, _, from_qrels = CASES[case]
    result = sqlrank.evaluate(None, TREC_DATA / run, list(NAMED_SETS["all_prefs"][2:]), prefs=TREC_DATA / prefs,
                              prefs_from_qrels=from_qrels)
    table = result.to_arrow()
    return {(m, q): v for m, q, v in zip(*(table[c].to_pylist() for c in ("measure", "query_id", "value")))}


def expected(case: str, measure: str) -> dict[tuple[str, str], float]:
    with open(TREC_DATA / CASES[case][2], newline="") as handle:
        return {(row["measure"], row["query_id"]): float(row["value"]) for row in csv.DictReader(handle)
                if row["measure"] == measure}


def check_against_trec_eval(measure: str) -> None:
    """Every query's value and the `all` row equal to trec_eval 10's to 1e-9, on both files."""
    for case in CASES:
        want, got = expected(case, measure), computed(case)
        assert want and [(key, value, got.get(key)) for key, value in want.items()
                         if got.get(key) is None or abs(got[key] - value) > 1e-9] == []


@functools.cache
def worked_example() -> dict[str, float]:
    """Every preference measure of the docs' worked example (the qrels read as preferences), by one evaluation;
    each measure's shell macro answers as evaluate() does: tests/test_measure_names.py, tests/test_prefs.py."""
    return sqlrank.evaluate(JUDGMENTS, RANKING, list(NAMED_SETS["all_prefs"][2:])).summary
