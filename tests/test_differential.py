"""sqlrank against independent implementations on generated hard cases.

1. pytrec_eval (trec_eval 9.x compiled into a Python module; an independent
   implementation of the same definitions) through `sqlrank.evaluate`, per
   query to 1e-9. pytrec_eval keeps scores as 32-bit floats and skips qrels
   queries that are missing from the run, so sqlrank runs with
   score_precision="float32" and missing="skip" here. Its qrels labels are
   ints and its relevance_level must be >= 1, so real-valued labels and
   rel 0 / 0.5 are checked against the oracle only.
2. tests/reference.py, a plain-Python oracle, through the SQL macros, for
   what pytrec_eval does not have: exponential gain, the Järvelin and ln
   discounts, the ideal from the run, other AP denominators, real-valued
   labels and relevance levels, missing="zero", DOUBLE scores.

The generated data has tied scores (and scores tied only in float32), graded
labels 0..4 and negative labels -1/-2, unjudged and unretrieved documents,
queries without relevant documents, lists shorter than the cutoffs, queries
only in the qrels or only in the run, and non-ASCII doc ids (NFC and NFD
forms of the same word are different ids, compared byte by byte).
Never generated: a qrels query whose labels are ALL negative, which crashes
pytrec_eval and trec_eval (docs/trec-semantics.md#labels).

No disagreement is known. When one appears, the failing example is the bug
report: decide which side is wrong from docs/trec-semantics.md and say so here.
"""

from __future__ import annotations

import pytest
import pytrec_eval
from hypothesis import example, given, settings
from hypothesis import strategies as st

import reference
import sqlrank
from every_measure_sql import every_measure

TOL = 1e-9

DOC_IDS = ["a", "b", "c", "d", "e", "A", "10", "9", "doc-1", "é", "e\u0301", "café", "cafe\u0301", "日本", "z"]
QUERY_IDS = ["q1", "q2", "q3", "Q1", "10"]
# 1.0 and 1.0000000001 are one float32; so are 1e300 and 1e301 (both +inf in float32)
TIE_SCORES = [0.0, 0.5, 1.0, 1.0000000001, 2.0, -1.0, 1e300, 1e301]
scores = st.one_of(st.sampled_from(TIE_SCORES), st.floats(-1000, 1000, allow_nan=False))

# pytrec_eval's measures (trec_eval names) that sqlrank implements
PYTREC_MEASURES = {"ndcg", "ndcg_cut.5,10", "map", "map_cut.10", "recip_rank", "P.5,10", "recall.10", "Rprec",
                   "bpref", "success.1,5,10", "num_ret", "num_rel", "num_rel_ret", "iprec_at_recall", "11pt_avg"}
RESULT_NAMES = ["ndcg", "ndcg_cut_5", "ndcg_cut_10", "map", "map_cut_10", "recip_rank", "P_5", "P_10", "recall_10",
                "Rprec", "bpref", "success_1", "success_5", "success_10", "num_ret", "num_rel", "num_rel_ret",
                *[f"iprec_at_recall_{level / 10:.2f}" for level in range(11)], "11pt_avg"]
# pytrec_eval counts the relevant documents at a recall level as trec_eval 9 did: sqlrank's interpolation="trec_eval9"
INTERPOLATION = "trec_eval9"
COUNTS = {"num_ret", "num_rel", "num_rel_ret"}


def judgments(labels):
    """{query: {doc: label}} with at least one label >= 0 per query (all-negative queries crash pytrec_eval)."""
    per_query = st.dictionaries(st.sampled_from(DOC_IDS), st.sampled_from(labels), min_size=1, max_size=10)
    per_query = per_query.filter(lambda docs: any(label >= 0 for label in docs.values()))
    return st.dictionaries(st.sampled_from(QUERY_IDS), per_query, min_size=1, max_size=4)


runs = st.dictionaries(st.sampled_from(QUERY_IDS),
                       st.dictionaries(st.sampled_from(DOC_IDS), scores, min_size=1, max_size=12),
                       min_size=1, max_size=4)


@pytest.fixture(scope="module")
def module_con():
    """One connection for a whole Hypothesis test (function-scoped fixtures do not mix with @given)."""
    connection = sqlrank.connect()
    yield connection
    connection.close()


# ---------------------------------------------------------------- against pytrec_eval

def pytrec(qrels: dict, run: dict, rel: int) -> dict:
    return pytrec_eval.RelevanceEvaluator(qrels, PYTREC_MEASURES, relevance_level=rel).evaluate(run)


def sqlrank_like_pytrec(qrels: dict, run: dict, rel: int, con) -> dict:
    """{query: {trec name: value}} (with an `all` query) from sqlrank.evaluate."""
    canonical = {str(sqlrank.parse_measures(name, rel=rel, interpolation=INTERPOLATION)[0]): name
                 for name in RESULT_NAMES}
    result = sqlrank.evaluate(qrels, run, RESULT_NAMES, rel=rel, interpolation=INTERPOLATION, missing="skip",
                              score_precision="float32", connection=con, names="canonical")
    values: dict = {}
    for row in result.to_arrow().to_pylist():
        values.setdefault(row["query_id"], {})[canonical[row["measure"]]] = row["value"]
    return values


@settings(max_examples=30, deadline=None)
# (pytrec_eval refuses relevance_level=0 — "should be positive" — so rel 0 is only checked against the oracle)
@given(qrels=judgments([-2, -1, 0, 0, 1, 2, 3, 4]), run=runs, rel=st.sampled_from([1, 1, 2, 3]))
# trec's tie order: docs tied on score go by doc id descending, bytes of UTF-8 ('é' > 'z' > 'e\u0301' > 'e')
@example(qrels={"q1": {"é": 1, "z": 0, "e\u0301": 2, "e": 0}}, run={"q1": {"é": 1.0, "z": 1.0, "e\u0301": 1.0, "e": 1.0}},
         rel=1)
# a query only in the qrels (skipped), one only in the run (ignored), one with no relevant document
@example(qrels={"q1": {"a": 1}, "q2": {"a": 0, "b": -1}, "q3": {"c": 2}}, run={"q1": {"a": 1.0}, "q2": {"a": 1.0}, "10": {"a": 1.0}},
         rel=1)
def test_same_as_pytrec_eval(module_con, qrels, run, rel):
    expected = pytrec(qrels, run, rel)
    queries = set(qrels) & set(run)
    assert set(expected) == queries
    if not queries:
        return  # nothing in common: pytrec_eval returns {}; sqlrank's answer is pinned in test_policies
    actual = sqlrank_like_pytrec(qrels, run, rel, module_con)
    assert set(actual) == queries | {"all"}
    for query in queries:
        for name in RESULT_NAMES:
            assert actual[query][name] == pytest.approx(expected[query][name], abs=TOL), (query, name)
    for name in RESULT_NAMES:  # pytrec_eval has no `all`: the mean (or the sum, for counts) of its values
        values = [expected[query][name] for query in queries]
        total = sum(values) if name in COUNTS else sum(values) / len(values)
        assert actual["all"][name] == pytest.approx(total, abs=TOL), name


def test_float32_scores_tie_like_pytrec_eval(module_con):
    # 'a' is relevant and scores 1.0000000001, 'b' scores 1.0: one float32, so a tie,
    # broken by doc id descending -> 'b' first, 'a' second: RR = 1/2 (pytrec_eval agrees).
    # With DOUBLE scores (trec_eval 10, sqlrank's default) 'a' is first: RR = 1.
    # 1e301 and 1e300 are both beyond float32's range (+inf): tied there too.
    qrels = {"q": {"a": 1, "b": 0}, "big": {"a": 1, "b": 0}}
    run = {"q": {"a": 1.0000000001, "b": 1.0}, "big": {"a": 1e301, "b": 1e300}}
    assert pytrec(qrels, run, 1)["q"]["recip_rank"] == 1 / 2
    assert pytrec(qrels, run, 1)["big"]["recip_rank"] == 1 / 2
    float32 = sqlrank.evaluate(qrels, run, ["RR"], score_precision="float32", connection=module_con)
    double = sqlrank.evaluate(qrels, run, ["RR"], connection=module_con)
    assert {r["query_id"]: r["value"] for r in float32.to_arrow().to_pylist()} == {"q": 1 / 2, "big": 1 / 2, "all": 1 / 2}
    assert {r["query_id"]: r["value"] for r in double.to_arrow().to_pylist()} == {"q": 1.0, "big": 1.0, "all": 1.0}


# ---------------------------------------------------------------- against the plain-Python oracle

PARAMETER_SETS = st.fixed_dictionaries({
    "rel": st.sampled_from([0, 0.5, 1, 2]),
    "gain_kind": st.sampled_from(["linear", "exp"]),
    "discount_kind": st.sampled_from(["log2", "jarvelin", "ln"]),
    "base": st.sampled_from([2, 3]),
    "ideal": st.sampled_from(["qrels", "run"]),
    "denominator": st.sampled_from(["R", "min_R_k", "retrieved"]),
})


def create_tables(con, qrels: dict, run: dict) -> None:
    con.execute("CREATE OR REPLACE TABLE qrels (query_id VARCHAR, doc_id VARCHAR, relevance DOUBLE)")
    con.executemany("INSERT INTO qrels VALUES (?, ?, ?)", [(q, d, v) for q, docs in qrels.items() for d, v in docs.items()])
    con.execute("CREATE OR REPLACE TABLE run (query_id VARCHAR, doc_id VARCHAR, score DOUBLE)")
    con.executemany("INSERT INTO run VALUES (?, ?, ?)", [(q, d, s) for q, docs in run.items() for d, s in docs.items()])


@settings(max_examples=25, deadline=None)
@given(qrels=judgments([-2, -1, 0, 0.5, 1, 1.5, 2, 3, 4]), run=runs, params=PARAMETER_SETS,
       k=st.sampled_from([None, 1, 3, 5, 20]), missing=st.sampled_from(["zero", "skip"]),
       score_precision=st.sampled_from(["double", "float32"]))
def test_sql_macros_same_as_reference(module_con, qrels, run, params, k, missing, score_precision):
    con = module_con
    create_tables(con, qrels, run)
    # validate := false: the reference scores a run sharing no query with the qrels, which the door refuses
    # by default (tests/test_shell_parity.py)
    rankings = ("sqlrank.run_rankings('qrels', 'run', missing := $missing, score_precision := $score_precision, "
                "validate := false)")
    cursor = con.execute(
        every_measure(rankings, k="$k", rel="$rel", gain="$gain", discount="$discount", base="$base", ideal="$ideal",
                      denominator="$denominator", max_grade="16"),  # ERR: under exp gain, label 4 is grade 15
        {"k": k, "rel": params["rel"], "gain": params["gain_kind"], "discount": params["discount_kind"],
         "base": params["base"], "ideal": params["ideal"], "denominator": params["denominator"], "missing": missing,
         "score_precision": score_precision},
    )
    # the reference names recall `r`; the registry's macro is `recall`
    columns = ["r" if column[0] == "recall" else column[0] for column in cursor.description]
    actual = {row[0]: dict(zip(columns[1:], row[1:])) for row in cursor.fetchall()}
    expected = reference.evaluate(qrels, run, k, missing=missing, score_precision=score_precision, **params)
    assert set(actual) == set(expected)
    for query, values in expected.items():
        for measure in reference.MEASURES:
            assert actual[query][measure] == pytest.approx(values[measure], abs=TOL), (query, measure)
