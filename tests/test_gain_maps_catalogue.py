"""Gain maps for ERR, G, nDCGrel, RnDCG and trec_eval's rbp (GradedRBP), in both spellings, through all three doors.

trec_eval 10 reads `G.1=3,2=9`, `ndcg_rel.1=3,2=9`, `Rndcg.1=3,2=9` and `rbp.1=3,2=9` as it reads
`ndcg.1=3,2=9` (its gain_init.c: a level the map names gets its gain, every other level from 0 to the
query's highest label keeps its own value as gain; gains may be 0 or negative); ir_measures writes
`G(gains={1:3,2:9})`. ERR, which trec_eval lacks, reads the map as the grade of each label:
R = (2^grade - 1) / 2^max_grade. The conformance data holds no gain map for these measures, so the
numbers come from hand arithmetic and from the trec_eval oracle (tests/trec_oracle.py, itself checked
line by line against trec_eval 10's output), on generated cases with fractional, zero and negative gains.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sqlrank
import trec_oracle as oracle
from batched import merged
from cli_runner import invoke
from tolerances import printed
from sqlrank import sqlgen

# labels by rank: c=0, a=1, b=2, then x (unjudged); d=3 is not retrieved
QRELS = {"q": {"a": 1, "b": 2, "c": 0, "d": 3}}
RUN = {"q": {"c": 4.0, "a": 3.0, "b": 2.0, "x": 1.0}}
L2, L3, L4, L5 = math.log2(2), math.log2(3), math.log2(4), math.log2(5)


def by_hand() -> dict[str, float]:
    """Each measure with the map {1:3, 2:9} (labels 1, 2, 3 gain 3, 9, 3), its arithmetic written out."""
    # ERR: grades by rank 0, 3, 9 -> max_grade 9; R = 0, 7/512, 511/512
    err = (7 / 512) / 2 + (1 - 7 / 512) * (511 / 512) / 3
    # G: ideal gains [9, 3, 3]; ranks cost 9, 3, 3, then 1: cost 9, 12, 15, 16; gained 0, 3, 12
    g = (3 / math.log2(2 + 12 - 3) + 9 / math.log2(2 + 15 - 12)) / (9 + 3 + 3)
    # nDCGrel: run DCG by rank 0, 3/log2 3, + 9/2; ideal DCG@2 = 9 + 3/log2 3, @3 = + 3/2
    run_dcg2, run_dcg3 = 3 / L3, 3 / L3 + 9 / L4
    ideal2, ideal3 = 9 + 3 / L3, 9 + 3 / L3 + 3 / L4
    # a (rank 2) and b (rank 3) add their nDCG; d, not retrieved, adds the whole list's
    ndcg_rel = (run_dcg2 / ideal2 + run_dcg3 / ideal3 + run_dcg3 / ideal3) / 3
    # RnDCG: ideal [9, 3, 3] changes gain after rank 1 and ends at rank 3; the run (4) is not longer than 3 + 1
    rndcg = (0 / 9 + run_dcg3 / ideal3) / 2
    # GradedRBP: levels 0..3 gain 0, 3, 9, 3 -> scaled by 9: labels 0, 1, 2 gain 0, 1/3, 1
    rbp = 0.1 * (0.9 * (1 / 3) + 0.9 ** 2 * 1)
    return {"ERR(gains={1:3,2:9},max_grade=9)": err, "G(gains={1:3,2:9})": g,
            "nDCGrel(gains={1:3,2:9})": ndcg_rel, "RnDCG(gains={1:3,2:9})": rndcg,
            "GradedRBP(gains={1:3,2:9})": rbp}


TREC_SPELLINGS = {"G(gains={1:3,2:9})": "G.1=3,2=9", "nDCGrel(gains={1:3,2:9})": "ndcg_rel.1=3,2=9",
                  "RnDCG(gains={1:3,2:9})": "Rndcg.1=3,2=9", "GradedRBP(gains={1:3,2:9})": "rbp.1=3,2=9"}


def test_each_map_by_hand_through_python():
    expected = by_hand()
    result = sqlrank.evaluate(QRELS, RUN, list(expected))
    assert result.summary == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("ir_measures, trec", TREC_SPELLINGS.items())
def test_trec_eval_spelling_is_the_ir_measures_spelling(ir_measures, trec):
    assert str(sqlrank.parse_measures(trec)[0]) == ir_measures
    assert str(sqlrank.parse_measures(ir_measures)[0]) == ir_measures
    assert sqlrank.evaluate(QRELS, RUN, [trec], names="asked").summary[trec] == pytest.approx(by_hand()[ir_measures], abs=1e-12)


def test_err_reads_the_trec_spelling_too():
    assert str(sqlrank.parse_measures("ERR.1=3")[0]) == "ERR(gains={1:3})"


def test_each_map_by_hand_through_the_shell_macros():
    with sqlrank.connect() as con:
        sqlrank.load_qrels(con, QRELS, "qrels")
        sqlrank.load_run(con, RUN, "run")
        for name, value in by_hand().items():
            (parsed,) = sqlrank.parse_measures([name])
            named = {p: parsed.param(p) for p in parsed.definition.params}
            call = sqlgen.call(f"sqlrank.{parsed.definition.macro}", "'qrels'", "'run'", **named)
            assert con.execute(f"SELECT value FROM {call}").fetchall()[0][0] == pytest.approx(value, abs=1e-12), name


def test_the_shell_macro_takes_the_map_as_text():
    with sqlrank.connect() as con:
        sqlrank.load_qrels(con, QRELS, "qrels")
        sqlrank.load_run(con, RUN, "run")
        value = con.execute("SELECT value FROM sqlrank.g('qrels', 'run', gain := '{1:3,2:9}')").fetchall()[0][0]
    assert value == pytest.approx(by_hand()["G(gains={1:3,2:9})"], abs=1e-12)


def test_each_map_by_hand_through_the_cli(tmp_path):
    (tmp_path / "qrels.txt").write_text("q 0 a 1\nq 0 b 2\nq 0 c 0\nq 0 d 3\n")
    (tmp_path / "run.txt").write_text("q Q0 c 1 4.0 t\nq Q0 a 2 3.0 t\nq Q0 b 3 2.0 t\nq Q0 x 4 1.0 t\n")
    names = list(by_hand())
    args = [arg for name in [*names[:1], *TREC_SPELLINGS.values()] for arg in ("-m", name)]
    result = invoke("eval", "-f", "trec", *args, tmp_path / "qrels.txt", tmp_path / "run.txt")
    assert result.exit_code == 0, result.output
    shown = {line.split()[0]: float(line.split()[2]) for line in result.stdout.splitlines()}
    expected = by_hand()
    assert shown["ERR(gains={1:3,2:9},max_grade=9)"] == pytest.approx(expected[names[0]], abs=printed(4))
    for ir_measures, trec in TREC_SPELLINGS.items():
        assert shown[trec.replace(".", "_", 1)] == pytest.approx(expected[ir_measures], abs=printed(4))


def test_a_negative_gain_is_left_out_of_the_ideal_ranking():
    # nDCG(gains={1:-2}) on labels by rank 3, 1, 0 (b=2 not retrieved): ideal [3, 2], not [3, 2, -2]
    qrels, run = {"q": {"a": 1, "b": 2, "c": 3, "d": 0}}, {"q": {"c": 3.0, "a": 2.0, "d": 1.0}}
    expected = (3 - 2 / L3) / (3 + 2 / L3)
    assert sqlrank.evaluate(qrels, run, ["ndcg.1=-2"], names="canonical").summary["nDCG(gains={1:-2})"] == pytest.approx(expected, abs=1e-12)


def test_rbp_with_a_negative_gain_lifts_judged_nonrelevant_documents():
    # labels by rank 2, 0, 4; map {2:-4}: levels 0..4 gain 0, 1, -4, 3, 4, scaled from [-4, 4]: 0, 0.5, 1
    qrels, run = {"q": {"a": 2, "b": 0, "c": 4}}, {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    assert sqlrank.evaluate(qrels, run, ["rbp.2=-4"], names="canonical").summary["GradedRBP(gains={2:-4})"] == pytest.approx(
        0.1 * (0.9 * 0.5 + 0.9 ** 2 * 1), abs=1e-12)


def test_err_refuses_a_grade_above_max_grade_from_the_map():
    with pytest.raises(sqlrank.EvaluationError, match="grade 9.* above max_grade"):
        sqlrank.evaluate(QRELS, RUN, ["ERR(gains={1:3,2:9})"])


# ---------------------------------------------------------------- against the trec_eval oracle

DOC_IDS = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]


@st.composite
def cases(draw):
    """Qrels with labels -1..4, a run with ties and unjudged documents, and a gain map (0, negative and
    fractional gains, labels the qrels do not use)."""
    qrels, run = {}, {}
    for query in draw(st.lists(st.sampled_from(["q1", "q2", "q3"]), min_size=1, max_size=3, unique=True)):
        qrels[query] = draw(st.dictionaries(st.sampled_from(DOC_IDS), st.sampled_from([-1, 0, 0, 1, 1, 2, 3, 4]),
                                            min_size=1, max_size=8))
        score = st.one_of(st.sampled_from([0.0, 1.0, 2.0]), st.floats(-10, 10, allow_nan=False))
        run[query] = draw(st.dictionaries(st.sampled_from(DOC_IDS + ["x", "y"]), score, min_size=1, max_size=10))
    gains = draw(st.dictionaries(st.integers(1, 5), st.sampled_from([0, -2, 0.5, 1, 2.5, 3, 7, 10]),
                                 min_size=1, max_size=3))
    return qrels, run, gains


@st.composite
def batches_of_one_map(draw, size):
    """`size` cases merged into one (tests/batched.py), all read with the first case's gain map: the map is part
    of the measures' names, so one map a call."""
    drawn = [draw(cases()) for _ in range(size)]
    return (*merged((qrels, run) for qrels, run, _ in drawn), drawn[0][2])


def _map_text(gains: dict) -> str:
    return ",".join(f"{label}={gain}" for label, gain in gains.items())


@settings(max_examples=12, deadline=None)
@given(case=batches_of_one_map(3), rel=st.sampled_from([1, 2]))
def test_each_map_equals_the_trec_eval_oracle(case, rel):
    """Per query and for `all`, to 1e-9. trec_eval sorts its gain levels with a comparator that truncates the
    gains' difference to an integer; the oracle sorts them properly, and so does sqlrank. Where R > 0 and no
    gain is positive trec_eval divides 0 by 0 for Rndcg (the oracle's NaN): sqlrank gives 0 there."""
    qrels, run, gains = case
    specs = [f"{name}.{_map_text(gains)}" for name in ("ndcg", "G", "ndcg_rel", "Rndcg", "rbp")]
    result = sqlrank.evaluate(qrels, run, specs, rel=rel, missing="zero", names="asked")
    ours = {(row["measure"], row["query_id"]): row["value"] for row in result.to_arrow().to_pylist()}
    theirs = oracle.evaluate(qrels, run, specs, oracle.Options(rel_level=rel, complete=True))
    for spec in specs:
        printed = spec.replace(".", "_", 1)
        values = {query: row[printed] for query, row in theirs.items()}
        for query, value in values.items():
            if query == "all" and any(math.isnan(v) for v in values.values()):
                continue
            expected = 0.0 if math.isnan(value) else value
            assert ours[(spec, query)] == pytest.approx(expected, abs=1e-9), (spec, query, qrels, run)


def err_by_grades(values: list[int], grades: dict[int, float], k: int, max_grade: float) -> float:
    """ERR (Chapelle et al. 2009) with each label's grade from the map, as written in sql/measures/err.sql."""
    total, still_looking = 0.0, 1.0
    for i, value in enumerate(values[:k], start=1):
        grade = grades.get(value, value) if value > 0 else 0
        stop = (2.0 ** grade - 1) / 2.0 ** max_grade if grade > 0 else 0.0
        total += still_looking * stop / i
        still_looking *= 1 - stop
    return total


@settings(max_examples=12, deadline=None)
@given(case=batches_of_one_map(4), k=st.sampled_from([1, 3, 20]))
def test_err_with_a_map_equals_its_formula(case, k):
    qrels, run, gains = case
    spec = f"ERR(max_grade=10,gains={{{','.join(f'{label}:{gain}' for label, gain in gains.items())}}})@{k}"
    result = sqlrank.evaluate(qrels, run, [spec], missing="zero")
    ours = {row["query_id"]: row["value"] for row in result.per_query.to_pylist()}
    for query in qrels:
        values = oracle.rank(qrels[query], run.get(query, {})).values
        assert ours[query] == pytest.approx(err_by_grades(values, gains, k, 10), abs=1e-12), (query, qrels, run)
