"""Each policy of sqlrank.evaluate, with its numbers and with what it reports.

missing (zero | skip | error), duplicates (error | first | max) on the run
and on the qrels, depth (trec_eval -M), rel (trec_eval -l), score_precision
(float32 reproduces pytrec_eval's ties).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import pytrec_eval

import sqlrank
from sqlrank.errors import EvaluationError, InputError
from tolerances import printed

DATA = Path(__file__).resolve().parent.parent / "data"

# data/qrels.txt with bm25's ranking:
#   q1 A(3) E(1) C(2) D(2) F(1)  -> RR 1
#   q2 a(1) x(-) y(-) b(1) z(-)  -> RR 1        (labels: a=1 b=1 c=1 d=0)
#   q3 z(-1) y(0) x(2)           -> RR 1/3      (z and y tied at 0.9: z first, doc id descending)
QRELS = {"q1": {"A": 3, "B": 3, "C": 2, "D": 2, "E": 1, "F": 1, "G": 0},
         "q2": {"a": 1, "b": 1, "c": 1, "d": 0},
         "q3": {"x": 2, "y": 0, "z": -1}}
RUN_WITHOUT_Q3 = {"q1": {"A": 9.1, "E": 8.4, "C": 7.7, "D": 6.2, "F": 5.0},
                  "q2": {"a": 3.0, "x": 2.5, "y": 2.0, "b": 1.5, "z": 1.0}}


def per_query(result, measure: str) -> dict[str, float]:
    return {r["query_id"]: r["value"] for r in result.per_query.to_pylist() if r["measure"] == measure}


# ---------------------------------------------------------------- missing

def test_missing_zero_scores_absent_queries_0_and_says_so():
    result = sqlrank.evaluate(QRELS, RUN_WITHOUT_Q3, ["RR", "NumRel"])
    assert per_query(result, "RR") == {"q1": 1.0, "q2": 1.0, "q3": 0.0}
    assert result.summary["RR"] == pytest.approx((1 + 1 + 0) / 3, abs=1e-12)
    # q3 keeps its true number of relevant documents (trec_eval -c): x only
    assert per_query(result, "NumRel")["q3"] == 1.0
    assert result.notices() == [
        "run 'run': 1 of 3 qrels queries have no documents (q3): scored 0 (missing='zero')"]
    assert result.report.runs["run"].missing_queries == ["q3"]


@pytest.mark.parametrize("missing, runs", [("zero", ["unjudged", "judged"]), ("skip", ["judged"])])
def test_result_runs_are_the_runs_with_rows(missing, runs):
    """Result.runs comes from the report, not from the table: it must name exactly the runs the table has,
    in its order (the order given). A run with no judged query has rows (all 0) under 'zero' and none under 'skip'."""
    result = sqlrank.evaluate(QRELS, {"unjudged": {"q9": {"A": 1.0}}, "judged": RUN_WITHOUT_Q3}, ["RR"],
                              missing=missing, allow_disjoint=True)
    in_table = list(dict.fromkeys(result.to_arrow().column("run_id").to_pylist()))
    assert result.runs == in_table == runs


def test_missing_skip_leaves_absent_queries_out_of_the_mean():
    result = sqlrank.evaluate(QRELS, RUN_WITHOUT_Q3, ["RR"], missing="skip")
    assert per_query(result, "RR") == {"q1": 1.0, "q2": 1.0}
    assert result.summary["RR"] == pytest.approx((1 + 1) / 2, abs=1e-12)
    assert result.notices() == [
        "run 'run': 1 of 3 qrels queries have no documents (q3): left out of the mean (missing='skip')"]


def test_missing_error_refuses():
    with pytest.raises(EvaluationError) as error:
        sqlrank.evaluate(QRELS, RUN_WITHOUT_Q3, ["RR"], missing="error")
    assert str(error.value) == (
        "run 'run': 1 of 3 qrels queries have no documents in the run (q3); use missing='zero' to score them 0 "
        "or missing='skip' to leave them out")
    # nothing missing: nothing to refuse
    complete = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", ["RR"], missing="error")
    assert complete.summary["RR"] == pytest.approx((1 + 1 + 1 / 3) / 3, abs=1e-12)


def test_unknown_policy_values_are_refused():
    with pytest.raises(EvaluationError) as error:
        sqlrank.evaluate(QRELS, RUN_WITHOUT_Q3, ["RR"], missing="ignore")
    assert str(error.value) == "unknown missing 'ignore' (expected one of: zero, skip, error)"
    with pytest.raises(InputError) as error:
        sqlrank.evaluate(QRELS, RUN_WITHOUT_Q3, ["RR"], duplicates="last")
    assert str(error.value) == "unknown duplicates policy 'last' (expected one of: error, first, max)"
    with pytest.raises(EvaluationError) as error:
        sqlrank.evaluate(QRELS, RUN_WITHOUT_Q3, ["RR"], depth=0)
    assert str(error.value) == "depth must be a whole number >= 1, got 0"


def test_run_only_queries_are_left_out_and_reported():
    # data/bm25.trec has q4, which has no judgments
    result = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", ["RR"])
    assert set(per_query(result, "RR")) == {"q1", "q2", "q3"}
    assert result.report.runs["bm25"].run_only_queries == 1
    assert result.notices() == ["run 'bm25': 1 query without judgments left out"]


# ---------------------------------------------------------------- duplicates

# q1: A relevant, B not. The run gives B twice, with a low score first and a high one later.
DUPLICATE_RUN = [("q1", "B", 1.0), ("q1", "A", 2.0), ("q1", "B", 3.0)]


def run_frame(rows):
    import pandas as pd

    return pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])


def qrels_frame(rows):
    import pandas as pd

    return pd.DataFrame(rows, columns=["query_id", "doc_id", "relevance"])


def test_duplicate_run_rows_are_an_error_by_default():
    with pytest.raises(InputError) as error:
        sqlrank.evaluate({"q1": {"A": 1, "B": 0}}, run_frame(DUPLICATE_RUN), ["RR"])
    assert str(error.value) == (
        "<pandas DataFrame run>: duplicate (query_id, doc_id) rows, e.g. query 'q1' doc 'B' (2 rows); each document "
        "may appear once per query. Remove them, or choose a policy: duplicates='first' or 'max' "
        "(CLI: --duplicates first|max)")


@pytest.mark.parametrize("policy, rr, kept", [
    ("first", 1.0, "first"),  # B keeps 1.0: A (2.0) ranks first -> RR 1
    ("max", 1 / 2, "highest"),  # B keeps 3.0: B ranks above A -> RR 1/2
])
def test_duplicate_run_rows_first_or_max(policy, rr, kept):
    result = sqlrank.evaluate({"q1": {"A": 1, "B": 0}}, run_frame(DUPLICATE_RUN), ["RR", "NumRet"], duplicates=policy)
    assert per_query(result, "RR") == {"q1": pytest.approx(rr, abs=1e-12)}
    assert per_query(result, "NumRet") == {"q1": 2.0}  # 3 rows, 2 documents
    assert result.notices() == [
        f"<pandas DataFrame run>: 1 duplicate run row dropped, kept the {kept} score (duplicates='{policy}')"]


# q1: A judged twice (0, then 2), B relevant. The run ranks A, then B.
DUPLICATE_QRELS = [("q1", "A", 0), ("q1", "B", 1), ("q1", "A", 2)]


def test_duplicate_judgments_are_an_error_by_default():
    with pytest.raises(InputError) as error:
        sqlrank.evaluate(qrels_frame(DUPLICATE_QRELS), {"q1": {"A": 2.0, "B": 1.0}}, ["RR"])
    assert str(error.value).startswith("<pandas DataFrame qrels>: duplicate (query_id, doc_id) rows, e.g. query 'q1' "
                                       "doc 'A' (2 rows)")


@pytest.mark.parametrize("policy, rr, num_rel, kept", [
    ("first", 1 / 2, 1.0, "first"),  # A keeps 0: B (rank 2) is the first relevant; R = 1
    ("max", 1.0, 2.0, "highest"),  # A keeps 2: relevant at rank 1; R = 2
])
def test_duplicate_judgments_first_or_max(policy, rr, num_rel, kept):
    result = sqlrank.evaluate(qrels_frame(DUPLICATE_QRELS), {"q1": {"A": 2.0, "B": 1.0}}, ["RR", "NumRel"],
                              duplicates=policy)
    assert per_query(result, "RR") == {"q1": pytest.approx(rr, abs=1e-12)}
    assert per_query(result, "NumRel") == {"q1": num_rel}
    assert result.notices() == [
        f"<pandas DataFrame qrels>: 1 duplicate judgment row dropped, kept the {kept} label (duplicates='{policy}')"]


def test_duplicates_in_a_table_of_several_runs_are_counted_per_run():
    """The same document once in each of two runs is not a duplicate."""
    import pandas as pd

    stacked = pd.DataFrame({"run_id": ["a", "a", "b", "b"], "query_id": ["q1"] * 4, "doc_id": ["A", "B", "A", "B"],
                            "score": [1.0, 2.0, 2.0, 1.0]})
    result = sqlrank.evaluate({"q1": {"A": 1, "B": 0}}, stacked, ["RR"])
    # run a ranks B, A -> 1/2; run b ranks A, B -> 1
    assert result.means == {"a": {"RR": 0.5}, "b": {"RR": 1.0}}
    assert result.notices() == []


# ---------------------------------------------------------------- depth (trec_eval -M)

def test_depth_cuts_every_ranking_like_trec_eval_M():
    measures = ["P@5", "NumRet", "AP", "nDCG"]
    full = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", measures)
    cut = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", measures, depth=3)
    # q1: A, E, C, D, F are all relevant; -M3 keeps A, E, C. P@5 still divides by 5 (trec_eval).
    assert per_query(full, "P@5")["q1"] == pytest.approx(5 / 5, abs=1e-12)
    assert per_query(cut, "P@5")["q1"] == pytest.approx(3 / 5, abs=1e-12)
    assert per_query(cut, "NumRet") == {"q1": 3.0, "q2": 3.0, "q3": 3.0}
    # R = 6 for q1: AP = (1/1 + 2/2 + 3/3) / 6
    assert per_query(cut, "AP")["q1"] == pytest.approx(3 / 6, abs=1e-12)
    # q3 (z, y, x) already has 3 documents: unchanged
    assert per_query(cut, "nDCG")["q3"] == per_query(full, "nDCG")["q3"]
    assert cut.notices() == ["run 'bm25': 1 query without judgments left out",
                             "rankings cut at depth 3: documents below rank 3 ignored (depth=3)"]
    assert cut.report.depth == 3


def test_depth_agrees_with_pytrec_eval_on_a_cut_run():
    """pytrec_eval has no -M; cutting the run by hand to its top 3 must give the same numbers."""
    run = {"q1": {"A": 9.1, "E": 8.4, "C": 7.7, "D": 6.2, "F": 5.0},
           "q2": {"a": 3.0, "x": 2.5, "y": 2.0, "b": 1.5, "z": 1.0}}
    top3 = {q: dict(sorted(docs.items(), key=lambda d: (-d[1], d[0]))[:3]) for q, docs in run.items()}
    qrels = {q: QRELS[q] for q in run}
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg", "P_5", "recip_rank"}).evaluate(top3)
    result = sqlrank.evaluate(qrels, run, ["AP", "nDCG", "P@5", "RR"], depth=3)
    for measure, trec in [("AP", "map"), ("nDCG", "ndcg"), ("P@5", "P_5"), ("RR", "recip_rank")]:
        assert per_query(result, measure) == {q: pytest.approx(v[trec], abs=1e-12) for q, v in expected.items()}


# ---------------------------------------------------------------- rel (trec_eval -l)

def test_rel_sets_the_relevance_level():
    result = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", ["RR", "NumRel"], rel=2)
    # label >= 2: q1 A B C D (A at rank 1), q2 none, q3 x (rank 3)
    assert result.canonical("RR") == "RR(rel=2)"
    assert per_query(result, "RR") == {"q1": 1.0, "q2": 0.0, "q3": pytest.approx(1 / 3, abs=1e-12)}
    assert per_query(result, "NumRel") == {"q1": 4.0, "q2": 0.0, "q3": 1.0}


# ---------------------------------------------------------------- score precision

def test_float32_scores_tie_like_pytrec_eval():
    """1.0 and 1.0000000001 are the same float32: tied, so b ranks above a (doc id descending)."""
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 1.0000000001, "b": 1.0}}
    trec_measures = {"recip_rank": "RR", "map": "AP", "ndcg": "nDCG", "P_1": "P@1"}
    expected = pytrec_eval.RelevanceEvaluator(qrels, set(trec_measures)).evaluate(run)["q"]
    assert expected["recip_rank"] == 1 / 2  # pytrec_eval: b, then a
    as_float32 = sqlrank.evaluate(qrels, run, list(trec_measures.values()), score_precision="float32")
    for trec, name in trec_measures.items():
        assert as_float32.summary[name] == pytest.approx(expected[trec], abs=1e-12), name
    # as doubles (trec_eval 10) the scores differ: a ranks first
    as_double = sqlrank.evaluate(qrels, run, ["RR"])
    assert as_double.summary == {"RR": 1.0}
    with pytest.raises(EvaluationError) as error:
        sqlrank.evaluate(qrels, run, ["RR"], score_precision="half")
    assert str(error.value) == "unknown score_precision 'half' (expected one of: double, float32)"


def test_float32_agrees_with_pytrec_eval_on_the_example_data():
    qrels = {q: {d: int(r) for d, r in docs.items()} for q, docs in QRELS.items()}
    runs = {}
    for name in ("bm25", "dense"):
        run: dict = {}
        for line in (DATA / f"{name}.trec").read_text().splitlines():
            q, _, d, _, score, _ = line.split()
            run.setdefault(q, {})[d] = float(score)
        runs[name] = run
    trec_measures = {"ndcg_cut_5": "nDCG@5", "map": "AP", "recip_rank": "RR", "P_5": "P@5", "bpref": "bpref",
                     "Rprec": "Rprec", "recall_10": "R@10", "success_1": "Success@1"}
    result = sqlrank.evaluate(qrels, runs, list(trec_measures.values()), score_precision="float32", missing="skip")
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(trec_measures))
    for name, run in runs.items():
        expected = evaluator.evaluate(run)
        mine = {(r["query_id"], r["measure"]): r["value"] for r in result.per_query.to_pylist() if r["run_id"] == name}
        assert mine == {(q, trec_measures[m]): pytest.approx(v, abs=1e-12)
                        for q, values in expected.items() for m, v in values.items()}


def test_duplicates_dropped_are_reported_per_named_run():
    result = sqlrank.evaluate({"q1": {"A": 1, "B": 0}}, {"mine": run_frame(DUPLICATE_RUN)}, ["RR"], duplicates="max")
    assert result.summary == {"RR": 0.5}
    assert result.notices() == ["run 'mine': 1 duplicate run row dropped, kept the highest score (duplicates='max')"]


def test_a_query_named_all_is_refused():
    """The result's `all` rows hold the means; a real query of that name would be mixed up with them."""
    with pytest.raises(EvaluationError) as error:
        sqlrank.evaluate({"all": {"A": 1}}, {"all": {"A": 1.0}}, ["RR"])
    assert str(error.value) == ("<dict qrels>: a query is named 'all', which the result reserves for the mean over "
                                "queries; rename that query (in the qrels and the run)")


# trec_eval -m all_trec -q -c -M100 qrels.test results.trunc: upstream trec_eval's test/out.test.aqcM
# (v10.0, 4 decimals). results.trunc has 500 documents for 301, none for 302, 84 for 303.
TREC_EVAL_C_M100 = {
    "301": {"num_ret": 100, "map": 0.0118, "Rprec": 0.0485, "bpref": 0.0456, "recip_rank": 0.1667, "P_5": 0.0,
            "P_100": 0.2300, "P_200": 0.1150, "ndcg": 0.0670},
    "302": {"num_ret": 0, "map": 0.0, "Rprec": 0.0, "bpref": 0.0, "recip_rank": 0.0, "P_5": 0.0,
            "P_100": 0.0, "P_200": 0.0, "ndcg": 0.0},
    "303": {"num_ret": 84, "map": 0.2723, "Rprec": 0.4000, "bpref": 0.3300, "recip_rank": 0.3333, "P_5": 0.6000,
            "P_100": 0.0600, "P_200": 0.0300, "ndcg": 0.4730},
    "all": {"num_ret": 184, "map": 0.0947, "Rprec": 0.1495, "bpref": 0.1252, "recip_rank": 0.1667, "P_5": 0.2000,
            "P_100": 0.0967, "P_200": 0.0483, "ndcg": 0.1800},
}
SQLRANK_NAMES = {"num_ret": "NumRet", "map": "AP", "Rprec": "Rprec", "bpref": "bpref", "recip_rank": "RR",
                 "P_5": "P@5", "P_100": "P@100", "P_200": "P@200", "ndcg": "nDCG"}


def test_depth_and_missing_zero_match_trec_eval_c_M100(trec_data):
    result = sqlrank.evaluate(trec_data / "qrels.test", trec_data / "results.trunc", list(TREC_EVAL_C_M100["all"]),
                              depth=100, missing="zero", names="canonical")
    values = {(r["query_id"], r["measure"]): r["value"] for r in result.to_arrow().to_pylist()}
    expected = {(q, SQLRANK_NAMES[m]): pytest.approx(v, abs=printed(4)) for q, row in TREC_EVAL_C_M100.items()
                for m, v in row.items()}
    assert values == expected
    assert result.notices() == [
        "run 'results.trunc': 1 of 3 qrels queries have no documents (302): scored 0 (missing='zero')",
        "rankings cut at depth 100: documents below rank 100 ignored (depth=100)",
    ]
