"""The oracle's ir_measures measures (ERR, Judged, RBP(p, rel), Set*, IPrec, NumRet(rel)) against ir_measures.

Each is first worked by hand from its paper's formula, then compared with
ir_measures itself on generated cases: ERR through gdeval (perl), Judged
through ir_measures' own code, RBP through cwl_eval, the set measures and
IPrec through pytrec_eval (so IPrec with trec_eval 9.x's recall rounding and
float32 scores). Scores are distinct in the generated runs where
ir_measures' tie order differs from trec_eval's (Judged: doc id ascending);
the tie rule itself is tested against trec_eval elsewhere.
"""

from __future__ import annotations

from collections import Counter

import ir_measures
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ir_measures import ERR, RBP, IPrec, Judged, NumRet, SetAP, SetF, SetP, SetR

import trec_oracle as oracle
from tolerances import printed
from trec_oracle import NOT_IN_QRELS, Options, Ranking

GDEVAL_TOL = printed(5)  # gdeval prints 5 decimals
TOL = 1e-9


def ranking(values, levels, rel_level=1) -> Ranking:
    return Ranking(list(values), Counter(levels), rel_level)


def test_err_by_hand():
    # labels by rank [0, 1, 3]: R = 0, 1/16, 7/16 -> 1/16 / 2 + (15/16) * (7/16) / 3
    r = ranking([0, 1, 3], {0: 1, 1: 1, 3: 1})
    assert oracle.err(r) == pytest.approx((1 / 16) / 2 + (15 / 16) * (7 / 16) / 3)
    assert oracle.err(r, 2) == pytest.approx((1 / 16) / 2)
    # max grade 3: R = 1/8, 7/8
    assert oracle.err(r, max_grade=3) == pytest.approx((1 / 8) / 2 + (7 / 8) * (7 / 8) / 3)
    with pytest.raises(ValueError, match="max_grade"):
        oracle.err(ranking([5], {5: 1}))


def test_judged_divides_by_the_docs_there_are():
    # top 4 of 3 retrieved: 2 listed in the qrels (one with a negative label) / 3
    r = ranking([NOT_IN_QRELS, -2, 0], {0: 1})
    assert oracle.judged(r, 4) == pytest.approx(2 / 3)
    assert oracle.judged(r, 1) == 0.0


def test_rbp_binary_by_hand():
    # labels by rank [2, 0, 1]: rel=1 -> 0.2 * (1 + 0.8^2); rel=2 -> 0.2 * 1; p=0.5 -> 0.5 * (1 + 0.25)
    r = ranking([2, 0, 1], {2: 1, 1: 1, 0: 1})
    assert oracle.rbp_binary(r) == pytest.approx(0.2 * (1 + 0.64))
    assert oracle.rbp_binary(r, rel=2) == pytest.approx(0.2)
    assert oracle.rbp_binary(r, p=0.5) == pytest.approx(0.5 * 1.25)


def test_hits_and_f1_at_k():
    # top 3 [1, 0, 1] of R = 4: hits 2, P@3 = 2/3, R@3 = 1/2, F1 = 2 * (1/3) / (7/6)
    r = ranking([1, 0, 1, 1], {1: 4, 0: 1})
    assert oracle.hits(r, 3) == 2.0
    assert oracle.f1(r, 3) == pytest.approx(2 * (2 / 3) * (1 / 2) / (2 / 3 + 1 / 2))


# ---------------------------------------------------------------- against ir_measures on generated cases

DOC_IDS = ["a", "b", "c", "d", "e", "f", "g", "h", "A", "10", "9", "z"]
QUERY_IDS = ["1", "2", "3"]  # gdeval takes numeric topics only


@st.composite
def cases(draw, labels=(-2, -1, 0, 0, 1, 1, 2, 3, 4)):
    """Graded labels 0..4 and negative ones; distinct scores."""
    qrels, run = {}, {}
    for query in draw(st.lists(st.sampled_from(QUERY_IDS), min_size=1, max_size=3, unique=True)):
        judgments = draw(st.dictionaries(st.sampled_from(DOC_IDS), st.sampled_from(labels), min_size=1, max_size=8))
        if all(label < 0 for label in judgments.values()):
            judgments[draw(st.sampled_from(DOC_IDS))] = 0
        qrels[query] = judgments
        docs = draw(st.lists(st.sampled_from(DOC_IDS), min_size=1, max_size=10, unique=True))
        scores = draw(st.lists(st.integers(-50, 50), min_size=len(docs), max_size=len(docs), unique=True))
        run[query] = {doc: score / 4 for doc, score in zip(docs, scores)}
    return qrels, run


def per_query(measures, qrels, run) -> dict[tuple[str, str], float]:
    return {(str(metric.measure), metric.query_id): float(metric.value)
            for metric in ir_measures.iter_calc(measures, qrels, run)}


def rankings(qrels, run, options=Options()) -> dict[str, Ranking]:
    return {query: oracle.rank(qrels[query], run[query], options) for query in qrels if query in run}


@settings(max_examples=25, deadline=None)
@given(case=cases(), k=st.sampled_from([1, 3, 5, 20]))
def test_err_equals_gdeval(case, k):
    qrels, run = case
    theirs = per_query([ERR @ k], qrels, run)
    ours = rankings(qrels, run)
    for (_measure, query), value in theirs.items():
        assert oracle.err(ours[query], k) == pytest.approx(value, abs=GDEVAL_TOL)
    assert {query for _, query in theirs} == set(ours)  # gdeval is silent without a positive label; ir_measures says 0


@settings(max_examples=60, deadline=None)
@given(case=cases(), k=st.sampled_from([1, 3, 5, 20]))
def test_judged_equals_ir_measures(case, k):
    qrels, run = case
    ours = rankings(qrels, run)
    for (_measure, query), value in per_query([Judged @ k], qrels, run).items():
        assert oracle.judged(ours[query], k) == pytest.approx(value, abs=TOL)


@settings(max_examples=60, deadline=None)
@given(case=cases(), p=st.sampled_from([0.5, 0.8, 0.95]), rel=st.sampled_from([1, 2, 3]))
def test_rbp_equals_cwl_eval(case, p, rel):
    qrels, run = case
    ours = rankings(qrels, run)
    for (_measure, query), value in per_query([RBP(p=p, rel=rel)], qrels, run).items():
        assert oracle.rbp_binary(ours[query], p, rel) == pytest.approx(value, abs=TOL)


@settings(max_examples=60, deadline=None)
@given(case=cases(), rel=st.sampled_from([1, 2]), beta=st.sampled_from([0.25, 1.0, 4.0]),
       level=st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.7, 1.0]))
def test_set_measures_and_iprec_equal_ir_measures(case, rel, beta, level):
    qrels, run = case
    measures = {
        SetP(rel=rel): oracle.set_p, SetP(rel=rel, relative=True): oracle.set_relative_p,
        SetR(rel=rel): oracle.set_recall, SetF(rel=rel, beta=beta): lambda r: oracle.set_f(r, beta),
        SetAP(rel=rel): oracle.set_map, NumRet(rel=rel): oracle.num_rel_ret,
        IPrec(rel=rel) @ level: lambda r: oracle.interpolated_precision(r, level),
    }
    by_name = {str(measure): compute for measure, compute in measures.items()}
    ours = rankings(qrels, run, Options(rel_level=rel, float32=True, recall_rounding="9"))
    theirs = per_query(list(measures), qrels, run)
    assert theirs
    for (measure, query), value in theirs.items():
        assert by_name[measure](ours[query]) == pytest.approx(value, abs=TOL), measure
