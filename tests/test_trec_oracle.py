"""The trec_eval oracle (tests/trec_oracle.py) against trec_eval 10.0's own output, every line.

The oracle is what the SQL measures are later checked against, so it is
checked first: all 99 measure lines of `trec_eval -q -m all_trec` per query
and for `all` on the four 17-digit files at 1e-9 (binary labels; -c with a
query missing from the run; graded and negative labels; the RAG-track
qrels with '#' inside doc ids and 270 run-only queries), the parameterised
forms of `out.test.meas_params`, and the stock 4-decimal outputs with -l2
and -M100 at 5e-5. Then worked examples of the semantics that surprised,
each with its arithmetic, and the oracle against pytrec_eval (trec_eval 9.x
compiled) on generated hard cases for every measure the two share.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

import trec_oracle as oracle
from tolerances import printed
from trec_oracle import NEGATIVE_LABEL, NOT_IN_QRELS, Options, Ranking

DATA = Path(__file__).parent / "data" / "trec_eval"
TOL = 1e-9
PRINTED_TOL = printed(4)  # trec_eval prints 4 decimals


def read_full_csv(path: Path) -> dict[tuple[str, str], str]:
    with open(path, newline="", encoding="utf-8") as handle:
        return {(row["measure"], row["query_id"]): row["value"] for row in csv.DictReader(handle)}


def read_trec_text(path: Path) -> dict[tuple[str, str], str]:
    rows = (line.split("\t") for line in path.read_text(encoding="utf-8").splitlines())
    return {(measure.strip(), query.strip()): value.strip() for measure, query, value in rows}


def oracle_lines(qrels: str, run: str, measures, options: Options) -> dict[tuple[str, str], float | str]:
    judgments = oracle.read_qrels(DATA / qrels)
    scores, runid = oracle.read_run(DATA / run)
    values = oracle.evaluate(judgments, scores, measures, options, runid)
    return {(measure, query): value for query, row in values.items() for measure, value in row.items()}


def assert_lines(actual: dict, expected: dict, tolerance: float) -> None:
    assert set(actual) == set(expected), (
        f"lines differ: missing {sorted(set(expected) - set(actual))[:8]}, extra {sorted(set(actual) - set(expected))[:8]}")
    wrong = {}
    for key, text in expected.items():
        value = actual[key]
        if isinstance(value, str) or key[0] == "runid":
            same = value == text
        else:
            same = abs(value - float(text)) <= tolerance
        if not same:
            wrong[key] = (value, text)
    assert not wrong, f"{len(wrong)} of {len(expected)} lines differ (oracle, trec_eval): {dict(list(wrong.items())[:8])}"


FULL_CASES = {
    # trec_eval -q -m all_trec qrels.test results.test
    "binary": ("qrels.test", "results.test", "expected_all_trec_full.csv", Options()),
    # trec_eval -q -c -m all_trec qrels.test results.trunc (302 missing from the run)
    "complete": ("qrels.test", "results.trunc", "expected_all_trec_c_trunc_full.csv", Options(complete=True)),
    # trec_eval -q -m all_trec qrels.rel_level results.test (labels -1..4)
    "graded": ("qrels.rel_level", "results.test", "expected_all_trec_rel_level_full.csv", Options()),
    # trec_eval -q -m all_trec qrels.comment.test results.comment.test (31 queries, labels 0-3)
    "rag": ("qrels.comment.test", "results.comment.test.gz", "expected_all_trec_comment_full.csv", Options()),
}


@pytest.mark.parametrize("case", FULL_CASES)
def test_every_all_trec_line_to_1e9(case):
    qrels, run, expected_file, options = FULL_CASES[case]
    expected = read_full_csv(DATA / expected_file)
    measures = {measure for measure, query in expected if query == "all"}
    assert len(measures) == 99  # the whole of all_trec, so a shrunken file cannot pass
    assert_lines(oracle_lines(qrels, run, oracle.ALL_TREC, options), expected, TOL)


PRINTED_CASES = {
    # trec_eval -m all_trec -q qrels.test results.test
    "out.test.aq": ("qrels.test", "results.test", oracle.ALL_TREC, Options()),
    # trec_eval -m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test
    "out.test.aql": ("qrels.rel_level", "results.test", oracle.ALL_TREC + ("relstring.20",), Options(rel_level=2)),
    # trec_eval -m all_trec -q -c -M100 qrels.test results.trunc
    "out.test.aqcM": ("qrels.test", "results.trunc", oracle.ALL_TREC, Options(complete=True, max_docs=100)),
    # trec_eval -q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 -m Rprec_mult.5.0,0.2,0.35
    #   -mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 -mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 -msuccess.2,5,20
    #   qrels.test results.test
    "out.test.meas_params": ("qrels.test", "results.test", (
        "iprec_at_recall..10,.20,.25,.75,.50", "P.5,7,3", "recall.20,2000", "Rprec_mult.5.0,0.2,0.35",
        "utility.2,-1,0,0", "11pt_avg..25,.5,.75", "ndcg.1=3,2=9,4=4.5", "ndcg_cut.10,20,23.4", "success.2,5,20"),
        Options()),
}


@pytest.mark.parametrize("case", PRINTED_CASES)
def test_trec_eval_text_outputs_to_4_decimals(case):
    qrels, run, measures, options = PRINTED_CASES[case]
    expected = read_trec_text(DATA / case)
    assert_lines(oracle_lines(qrels, run, measures, options), expected, PRINTED_TOL)


def test_parameter_text_names_the_lines():
    """Cutoffs sorted and read with atol (23.4 -> 23), levels printed %4.2f, value lists named as written."""
    lines = lambda spec: [name for name, _ in oracle.parse(spec).lines()]
    assert lines("P.5,7,3") == ["P_3", "P_5", "P_7"]
    assert lines("ndcg_cut.10,20,23.4") == ["ndcg_cut_10", "ndcg_cut_20", "ndcg_cut_23"]
    assert lines("iprec_at_recall..10,.20") == ["iprec_at_recall_0.10", "iprec_at_recall_0.20"]
    assert lines("Rprec_mult.5.0,0.2,0.35") == ["Rprec_mult_0.20", "Rprec_mult_0.35", "Rprec_mult_5.00"]
    assert lines("utility.2,-1,0,0") == ["utility_2,-1,0,0"]
    assert lines("11pt_avg..25,.5,.75") == ["11pt_avg_.25,.5,.75"]
    assert lines("ndcg.1=3,2=9,4=4.5") == ["ndcg_1=3,2=9,4=4.5"]
    assert lines("success") == ["success_1", "success_5", "success_10"]
    with pytest.raises(ValueError, match="duplicates"):
        oracle.parse("P.5,5")


# ---------------------------------------------------------------- the surprises, worked by hand

def ranking(values, levels=None, rel_level=1) -> Ranking:
    """A Ranking from values by rank; the qrels levels default to the judged values retrieved."""
    if levels is None:
        levels = {}
        for value in values:
            if value >= 0:
                levels[value] = levels.get(value, 0) + 1
    from collections import Counter
    return Ranking(list(values), Counter(levels), rel_level)


def test_iprec_rounds_recall_times_r_in_10_where_9x_added_0_9():
    # R = 4, relevant at ranks 1 and 4: level 0.3 -> lround(1.2) = 1 doc (10.0); 9.x: (long)(1.2 + 0.9) = 2 docs
    r = ranking([1, 0, 0, 1], levels={1: 4, 0: 2})
    assert oracle.interpolated_precision(r, 0.3) == pytest.approx(1.0)        # max P@i for i >= 1: P@1 = 1
    assert oracle.interpolated_precision(r, 0.4) == pytest.approx(2 / 4)      # lround(1.6) = 2 -> from rank 4
    assert oracle.interpolated_precision(r, 0.7) == 0.0                       # lround(2.8) = 3 > 2 found
    assert oracle.lround(0.125 * 4) == 1 and oracle.lround(0.1 * 5) == 1      # halves away from zero


def test_rprec_mult_truncates_after_adding_0_9():
    # R = 4: multiple 0.2 -> (long)(0.8 + 0.9) = 1 -> P@1; multiple 0.1 -> (long)(1.3) = 1 as well
    r = ranking([1, 0, 0, 1], levels={1: 4})
    assert oracle.rprec_mult(r, 0.2) == 1.0
    assert oracle.rprec_mult(r, 0.1) == 1.0
    assert oracle.rprec_mult(r, 2.0) == pytest.approx(2 / 8)  # P@8 with 4 retrieved: missing ranks non-relevant


def test_rbp_resid_is_the_residual_alone_and_zero_without_unjudged():
    # values by rank [1, -1, 0]: residual = 0.9^3 + 0.1 * 0.9^1 (the unjudged rank 2)
    assert oracle.rbp_resid(ranking([1, NOT_IN_QRELS, 0])) == pytest.approx(0.9 ** 3 + 0.1 * 0.9)
    # nothing unjudged: 0, though the tail 0.9^3 of the short list is unknown too
    assert oracle.rbp_resid(ranking([1, 0, 0])) == 0.0


def test_rbp_scales_graded_gains_by_the_querys_largest_label():
    # labels [2, 0, 4] with the query's largest label 4: gains 0.5, 0, 1 -> 0.1 * (0.5 + 0.81 * 1)
    assert oracle.rbp(ranking([2, 0, 4])) == pytest.approx(0.1 * (0.5 + 0.9 ** 2))
    # binary labels are not scaled; p from the pair `p=0.5`: 0.5 * (1 + 0.25)
    assert oracle.rbp(ranking([1, 0, 1]), ("p", 0.5)) == pytest.approx(0.5 * 1.25)


def test_set_f_uses_its_parameter_unsquared():
    # 2 of 4 retrieved relevant, R = 8: P = 0.5, R = 0.25; set_F.4 = 5 * 0.125 / (4 * 0.5 + 0.25)
    r = ranking([1, 0, 1, 0], levels={1: 8, 0: 2})
    assert oracle.set_f(r, 4.0) == pytest.approx(5 * 0.125 / 2.25)
    assert oracle.set_f(r, 1.0) == pytest.approx(2 * 0.125 / 0.75)  # the harmonic mean


def test_rndcg_skips_the_final_point_when_the_ideal_list_is_one_shorter():
    # ideal [1, 1]: one R-level boundary, at b = 2. Run of 3 docs: len(ideal) + 1 = 3, not < 3 -> no extra point
    three = ranking([0, 1, 1], levels={1: 2, 0: 1})
    at_2 = (1 / math.log2(3)) / (1 + 1 / math.log2(3))
    assert oracle.rndcg(three) == pytest.approx(at_2)
    # run of 4 docs: 3 < 4 -> the whole list's nDCG is averaged in too
    four = ranking([0, 1, 1, 0], levels={1: 2, 0: 2})
    whole = (1 / math.log2(3) + 1 / math.log2(4)) / (1 + 1 / math.log2(3))
    assert oracle.rndcg(four) == pytest.approx((at_2 + whole) / 2)


def test_ndcg_rel_averages_over_ideal_docs_and_counts_unretrieved_ones_at_the_end():
    # ideal [2, 1]; run [0, 2]: rank 2 adds DCG@2/IDCG@2; the unretrieved label-1 doc adds DCG/IDCG again
    r = ranking([0, 2], levels={2: 1, 1: 1, 0: 1})
    point = (2 / math.log2(3)) / (2 + 1 / math.log2(3))
    assert oracle.ndcg_rel(r) == pytest.approx((point + point) / 2)


def test_g_costs_at_least_one_per_rank():
    # ideal [2]; run [0, 2]: rank 1 costs 2 (ideal gain), rank 2 costs 1 (past the ideal); 2 / log2(2 + 3 - 2), / 2
    r = ranking([0, 2], levels={2: 1, 0: 1})
    assert oracle.g(r) == pytest.approx((2 / math.log2(3)) / 2)


def test_bin_g_counts_unjudged_docs_above_as_non_relevant():
    # relevant at rank 3 below one unjudged and one judged non-relevant doc: 1 / log2(2 + 2), R = 1
    assert oracle.bin_g(ranking([NOT_IN_QRELS, 0, 1])) == pytest.approx(1 / math.log2(4))


def test_inf_ap_counts_negative_labels_in_the_pool_but_not_unpooled_docs():
    # rank 1 not in qrels, rank 2 negative label, rank 3 relevant: 1/3 + (2/3) * (1/2) * (eps / (0 + 2 eps)) = 1/3 + 1/6
    r = ranking([NOT_IN_QRELS, NEGATIVE_LABEL, 1])
    assert oracle.inf_ap(r) == pytest.approx(1 / 3 + (2 / 3) * (1 / 2) * 0.5)


def test_complete_recounts_num_rel_from_labels_above_zero_whatever_l_says():
    qrels = {"q1": {"a": 1, "b": 2}, "q2": {"c": 1}}
    run = {"q1": {"a": 1.0, "b": 0.5}}
    values = oracle.evaluate(qrels, run, ["num_rel", "map", "gm_map"], Options(rel_level=2, complete=True))
    assert values["q1"]["num_rel"] == 1 and values["q2"]["num_rel"] == 0
    assert values["all"]["num_rel"] == 3                       # labels > 0 in the qrels, ignoring -l2
    assert values["all"]["gm_map"] == pytest.approx(math.exp((math.log(0.5) + math.log(1e-5)) / 2))
    assert "gm_map" not in values["q1"]                         # printed in the summary only


def test_a_qrels_query_missing_from_the_run_stops_trec_eval_10_without_c():
    with pytest.raises(ValueError, match="no run lines"):
        oracle.evaluate({"q1": {"a": 1}, "q2": {"b": 1}}, {"q1": {"a": 1.0}}, ["map"])


def test_judged_only_drops_unjudged_docs_after_ranking():
    qrels = {"q": {"a": 1, "c": 0, "d": -1}}
    run = {"q": {"x": 3.0, "a": 2.0, "d": 1.5, "c": 1.0}}
    values = oracle.evaluate(qrels, run, ["P.1", "num_ret", "recip_rank"], Options(judged_only=True))
    assert values["q"] == {"P_1": 1.0, "num_ret": 2.0, "recip_rank": 1.0}  # x (not in qrels) and d (-1) gone


def test_float32_scores_tie_where_doubles_do_not():
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 1.0000000001, "b": 1.0}}
    assert oracle.evaluate(qrels, run, ["recip_rank"])["q"]["recip_rank"] == 1.0
    # in float32 both are 1.0, and the tie goes to the larger doc id: b first
    assert oracle.evaluate(qrels, run, ["recip_rank"], Options(float32=True))["q"]["recip_rank"] == 0.5


# ---------------------------------------------------------------- against pytrec_eval on generated cases

DOC_IDS = ["a", "b", "c", "d", "e", "f", "A", "10", "9", "é", "e\u0301", "z"]
QUERY_IDS = ["q1", "q2", "q3"]
TIE_SCORES = [0.0, 0.5, 1.0, 1.0000000001, 2.0, -1.0]

# pytrec_eval's measures (its supported_measures) other than iprec_at_recall and 11pt_avg, whose recall
# rounding changed in 10.0, and runid/relstring/num_q (not per query). pytrec_eval cannot pass utility's
# comma-separated coefficients, and names set_F's line without its parameter.
SHARED = ("num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "map", "gm_map", "Rprec", "bpref",
          "gm_bpref", "recip_rank", "P.1,2,3,5,10", "recall.1,3,10", "infAP", "Rprec_mult.0.2,0.5,1.0,1.5,2.0",
          "utility", "binG", "G", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut.1,3,10", "map_cut.2,10",
          "relative_P.1,3,10", "success.1,2,5", "set_P", "set_relative_P", "set_recall", "set_map", "set_F.0.5")


@st.composite
def cases(draw):
    """Qrels with graded, zero and negative labels (never all negative), and runs over judged and unjudged docs."""
    qrels, run = {}, {}
    for query in draw(st.lists(st.sampled_from(QUERY_IDS), min_size=1, max_size=3, unique=True)):
        labels = draw(st.dictionaries(st.sampled_from(DOC_IDS), st.sampled_from([-2, -1, 0, 0, 1, 1, 2, 3]),
                                      min_size=1, max_size=8))
        if all(label < 0 for label in labels.values()):
            labels[draw(st.sampled_from(DOC_IDS))] = 0
        qrels[query] = labels
        score = st.one_of(st.sampled_from(TIE_SCORES), st.floats(-100, 100, allow_nan=False))
        run[query] = draw(st.dictionaries(st.sampled_from(DOC_IDS), score, min_size=1, max_size=10))
    return qrels, run


def pytrec_values(qrels, run, rel_level, judged_only):
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(SHARED), relevance_level=rel_level,
                                               judged_docs_only_flag=judged_only)
    return evaluator.evaluate(run)


@settings(max_examples=100, deadline=None)
@given(case=cases(), rel_level=st.sampled_from([1, 2]))
def test_interpolated_precision_with_9x_rounding_equals_pytrec_eval(case, rel_level):
    """pytrec_eval embeds 9.x, whose recall levels are (long)(level * R + 0.9) docs; the oracle's "9" rule."""
    qrels, run = case
    options = Options(rel_level=rel_level, float32=True, recall_rounding="9")
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall", "11pt_avg"}, relevance_level=rel_level)
    measures = [oracle.parse("iprec_at_recall"), oracle.parse("11pt_avg")]
    for query, theirs in evaluator.evaluate(run).items():
        ours = oracle.query_values(oracle.rank(qrels[query], run[query], options), measures)
        assert set(theirs) == set(ours)
        wrong = {name: (ours[name], value) for name, value in theirs.items() if abs(ours[name] - value) > TOL}
        assert not wrong, f"{query}: (oracle, pytrec_eval) {wrong}"


@settings(max_examples=150, deadline=None)
@given(case=cases(), rel_level=st.sampled_from([1, 2]), judged_only=st.booleans())
def test_oracle_equals_pytrec_eval_per_query(case, rel_level, judged_only):
    """Float32 scores as pytrec_eval keeps them; gm_* compared as its per-query logs."""
    qrels, run = case
    options = Options(rel_level=rel_level, judged_only=judged_only, float32=True)
    expected = pytrec_values(qrels, run, rel_level, judged_only)
    measures = [oracle.parse(spec) for spec in SHARED]
    for query, theirs in expected.items():
        ranking_ = oracle.rank(qrels[query], run[query], options)
        if judged_only and not ranking_.values:
            continue  # nothing judged retrieved: trec_eval divides 0 by 0 in places; the oracle says 0
        ours = oracle.query_values(ranking_, measures)
        ours["set_F"] = ours.pop("set_F_0.5")
        assert set(theirs) == set(ours)
        wrong = {name: (ours[name], value) for name, value in theirs.items()
                 if not math.isclose(ours[name], value, rel_tol=0, abs_tol=TOL)}
        assert not wrong, f"{query}: (oracle, pytrec_eval) {wrong}"
