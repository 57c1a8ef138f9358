"""The tie policies against the tools whose rule they name.

- ties='average' nDCG against scikit-learn's ndcg_score, which averages over tied scores by
  default (McSherry & Najork), where the two define the same thing: the ideal ranking from the
  run's own labels (ideal=run; unretrieved judgments do not count), linear gain, log2 discount,
  unjudged documents 0.
- ties='docid_asc' RR@10 against ir_measures' msmarco provider (MS MARCO's evaluator, which sorts
  score descending, doc id ascending) on the same TREC files: trec_eval's test run, which has
  tie groups, and generated ones.
"""

from __future__ import annotations

import math
from pathlib import Path

import ir_measures
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import ndcg_score

import sqlrank

TOL = 1e-12
DATA = Path(__file__).parent / "data" / "trec_eval"
DOC_IDS = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]


@st.composite
def graded_runs(draw):
    """One query: labels 0..3 (some documents unjudged) and scores from a few values, so ties abound."""
    scores = draw(st.dictionaries(st.sampled_from(DOC_IDS), st.sampled_from([0.0, 0.5, 1.0, 2.0]),
                                  min_size=2, max_size=10))
    labels = draw(st.dictionaries(st.sampled_from(DOC_IDS), st.integers(0, 3), min_size=1, max_size=10))
    return labels, scores


@settings(max_examples=30, deadline=None)
@given(case=graded_runs(), k=st.sampled_from([None, 1, 2, 3, 5]))
def test_average_ndcg_equals_scikit_learns_tie_averaged_ndcg(case, k):
    labels, scores = case
    docs = sorted(scores)
    expected = ndcg_score(np.array([[labels.get(d, 0) for d in docs]], dtype=float),
                          np.array([[scores[d] for d in docs]]), k=k)
    measure = "nDCG(ideal=run)" + ("" if k is None else f"@{k}")
    result = sqlrank.evaluate({"q": labels}, {"q": scores}, [measure], ties="average")
    value = result.to_arrow().column("value")[0].as_py()
    assert math.isclose(value, expected, rel_tol=0, abs_tol=TOL), (value, expected)


def msmarco_rr10(qrels_path: Path, run_path: Path) -> dict[str, float]:
    qrels = list(ir_measures.read_trec_qrels(str(qrels_path)))
    run = list(ir_measures.read_trec_run(str(run_path)))
    return {m.query_id: m.value for m in ir_measures.msmarco.iter_calc([ir_measures.RR @ 10], qrels, run)}


def sqlrank_rr10(qrels_path: Path, run_path: Path, ties: str) -> dict[str, float]:
    # skip: the msmarco provider scores only the queries the run has
    result = sqlrank.evaluate(qrels_path, run_path, ["RR@10"], ties=ties, missing="skip")
    return {row["query_id"]: row["value"] for row in result.to_arrow().to_pylist() if row["query_id"] != "all"}


def test_docid_asc_rr10_equals_the_msmarco_provider_on_trec_evals_test_files():
    ours = sqlrank_rr10(DATA / "qrels.test", DATA / "results.test", "docid_asc")
    theirs = msmarco_rr10(DATA / "qrels.test", DATA / "results.test")
    assert ours.keys() == theirs.keys()
    assert {q: v for q, v in ours.items() if not math.isclose(v, theirs[q], abs_tol=TOL)} == {}


@settings(max_examples=30, deadline=None)
@given(case=graded_runs())
def test_docid_asc_rr10_equals_the_msmarco_provider_where_trec_may_not(case, tmp_path_factory):
    labels, scores = case
    folder = tmp_path_factory.mktemp("msmarco")
    (folder / "qrels").write_text("".join(f"q 0 {d} {label}\n" for d, label in labels.items()))
    # in a scrambled order, so that no file order agrees with either policy by chance
    (folder / "run").write_text("".join(f"q Q0 {d} {rank} {scores[d]} r\n"
                                        for rank, d in enumerate(sorted(scores, key=hash), start=1)))
    assert sqlrank_rr10(folder / "qrels", folder / "run", "docid_asc") == pytest.approx(
        msmarco_rr10(folder / "qrels", folder / "run"), abs=TOL)
