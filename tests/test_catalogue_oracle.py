"""sqlrank's trec_eval catalogue against the plain-Python oracle (tests/trec_oracle.py) on generated cases.

The oracle matches trec_eval 10 on every line of its conformance files
(tests/test_trec_oracle.py); here sqlrank matches the oracle where those
files cannot reach: graded labels 0..4 and negative ones, queries whose
labels are all negative or all 0, unjudged documents, tied scores, lists
shorter than the cutoffs, queries the run missed (scored 0, trec_eval -c),
relevance levels 1 and 2. Per query and for the `all` row, to 1e-9, by
trec_eval's own names, which sqlrank parses (and names back with
sqlrank.measures.trec_name). ERR and RBP(p, rel), which trec_eval lacks,
and Judged are compared with the oracle's functions from their papers.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sqlrank
import trec_oracle as oracle
from batched import batches
from sqlrank.measures import trec_name
from trec_oracle import Options

TOL = 1e-9

# the measures this catalogue added, by trec_eval's names (with cutoffs a short list reaches past)
TREC_SPECS = ("set_P", "set_recall", "set_relative_P", "relative_P.1,3,10", "set_map", "set_F",
              "num_nonrel_judged_ret", "num_q", "unj.1,3,10", "utility", "gm_map", "gm_bpref", "iprec_at_recall",
              "11pt_avg", "Rprec_mult", "binG", "G", "ndcg_rel", "Rndcg", "rbp", "rbp_resid", "infAP")
# trec_eval prints these in the `all` row only (sqlrank's per-query values are AP, bpref and 1)
SUMMARY_ONLY = {"gm_map", "gm_bpref", "num_q"}

DOC_IDS = ["a", "b", "c", "d", "e", "f", "g", "h", "A", "10", "9", "é"]
QUERY_IDS = ["q1", "q2", "q3", "q4"]
TIE_SCORES = [0.0, 0.5, 1.0, 2.0, -1.0]


@st.composite
def cases(draw):
    """Qrels (every label kind, all-negative and all-zero queries too) and a run missing some of their queries."""
    qrels, run = {}, {}
    for query in draw(st.lists(st.sampled_from(QUERY_IDS), min_size=1, max_size=4, unique=True)):
        qrels[query] = draw(st.dictionaries(st.sampled_from(DOC_IDS), st.sampled_from([-2, -1, 0, 0, 1, 1, 2, 3, 4]),
                                            min_size=1, max_size=9))
        if draw(st.booleans()) or len(run) == 0:
            score = st.one_of(st.sampled_from(TIE_SCORES), st.floats(-50, 50, allow_nan=False))
            run[query] = draw(st.dictionaries(st.sampled_from(DOC_IDS), score, min_size=1, max_size=12))
    return qrels, run


def sqlrank_lines(qrels, run, specs, rel) -> dict[tuple[str, str], float]:
    result = sqlrank.evaluate(qrels, run, list(specs), rel=rel, missing="zero", names="canonical")
    names = {str(m): trec_name(m) for m in sqlrank.parse_measures(list(specs), rel=rel)}
    return {(names[row["measure"]], row["query_id"]): row["value"] for row in result.to_arrow().to_pylist()}


def oracle_lines(qrels, run, specs, rel) -> dict[tuple[str, str], float]:
    values = oracle.evaluate(qrels, run, specs, Options(rel_level=rel, complete=True))
    return {(name, query): value for query, row in values.items() for name, value in row.items()}


@settings(max_examples=12, deadline=None)
@given(case=batches(cases(), 3), rel=st.sampled_from([1, 2]))
def test_every_added_trec_measure_equals_the_oracle(case, rel):
    qrels, run = case
    ours = {key: value for key, value in sqlrank_lines(qrels, run, TREC_SPECS, rel).items()
            if key[1] == "all" or key[0] not in SUMMARY_ONLY}
    theirs = oracle_lines(qrels, run, TREC_SPECS, rel)
    assert set(ours) == set(theirs)
    wrong = {key: (value, theirs[key]) for key, value in ours.items() if not math.isclose(value, theirs[key],
                                                                                          rel_tol=0, abs_tol=TOL)}
    assert not wrong, f"(sqlrank, oracle): {wrong}"


@settings(max_examples=12, deadline=None)
@given(case=batches(cases(), 4), k=st.sampled_from([1, 3, 20]), p=st.sampled_from([0.5, 0.8, 0.95]), rel=st.sampled_from([1, 2]),
       max_grade=st.sampled_from([4, 6]))
def test_err_rbp_and_judged_equal_the_oracle(case, k, p, rel, max_grade):
    qrels, run = case
    measures = [f"ERR(max_grade={max_grade})@{k}", f"RBP(p={p},rel={rel})", f"RBP(p={p},rel={rel})@{k}", f"Judged@{k}"]
    result = sqlrank.evaluate(qrels, run, measures, missing="zero", names="canonical")
    ours = {(row["measure"], row["query_id"]): row["value"] for row in result.per_query.to_pylist()}
    for query, judgments in qrels.items():
        ranking = oracle.rank(judgments, run.get(query, {}))
        expected = {
            measures[0]: oracle.err(ranking, k, max_grade),
            measures[1]: oracle.rbp_binary(ranking, p, rel),
            measures[2]: oracle.rbp_binary(oracle.Ranking(ranking.values[:k], ranking.levels, 1), p, rel),
            measures[3]: oracle.judged(ranking, k),
        }
        for measure, value in expected.items():
            assert ours[(str(sqlrank.parse_measures(measure)[0]), query)] == pytest.approx(value, abs=TOL), measure
