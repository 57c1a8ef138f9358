"""The worked examples of docs/measures.md#worked-examples (E1–E5), to 1e-9, through both doors:

* the SQL macros directly (`SELECT * FROM sqlrank.ndcg('qrels', 'run', ...)`
  on tables created here), as a DuckDB user would write them;
* `sqlrank.evaluate(...)` with measure strings such as `nDCG(gain=exp,ideal=run)@5`.

Every expected number is written as its arithmetic, with the labels by rank
in a comment; the rounded figure the example's tutorial printed is checked too.
Also: the scalar macros sqlrank.gain / sqlrank.discount and their errors.
"""

from __future__ import annotations

import math

import duckdb
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sqlrank

log2 = math.log2
TOL = 1e-9


# ---------------------------------------------------------------- helpers

def lists_as_tables(lists: dict[str, list[float]]) -> tuple[dict, dict]:
    """One query per list; the document at rank i is `d{i}` with the i-th label and score n - i.

    Returns (qrels, run) in pytrec_eval's dict shape, which sqlrank.evaluate accepts.
    """
    qrels, run = {}, {}
    for query, labels in lists.items():
        qrels[query] = {f"d{i}": label for i, label in enumerate(labels, start=1)}
        run[query] = {f"d{i}": float(len(labels) - i) for i in range(1, len(labels) + 1)}
    return qrels, run


def create_tables(con, qrels: dict, run: dict, run_ids: dict | None = None) -> None:
    """Tables `qrels` and `run` (canonical columns) from dicts; run_ids {run_id: run dict} adds a run_id column."""
    con.execute("CREATE OR REPLACE TABLE qrels (query_id VARCHAR, doc_id VARCHAR, relevance DOUBLE)")
    con.executemany("INSERT INTO qrels VALUES (?, ?, ?)",
                    [(q, d, label) for q, docs in qrels.items() for d, label in docs.items()])
    runs = run_ids or {None: run}
    con.execute("CREATE OR REPLACE TABLE run (run_id VARCHAR, query_id VARCHAR, doc_id VARCHAR, score DOUBLE)")
    con.executemany("INSERT INTO run VALUES (?, ?, ?, ?)",
                    [(r, q, d, s) for r, one in runs.items() for q, docs in one.items() for d, s in docs.items()])
    if run_ids is None:
        con.execute("ALTER TABLE run DROP COLUMN run_id")


def macro(con, call: str) -> dict:
    """{query_id: value} (or {(run_id, query_id): value}) of a per-measure table macro."""
    cursor = con.execute(f"SELECT * FROM {call}")
    rows = cursor.fetchall()
    if cursor.description[0][0] == "run_id":
        return {(r, q): v for r, q, v in rows}
    return {q: v for q, v in rows}


def per_query(result: sqlrank.Result, measure: str) -> dict:
    return {row["query_id"]: row["value"] for row in result.to_arrow().to_pylist() if row["measure"] == measure}


# ---------------------------------------------------------------- E1 (docs/measures.md#e1)

# labels by rank [2, 3, 0, 1, 2], gain exp (2^label - 1: 3, 7, 0, 1, 3), discount 1/log2(i+1)
E1_DCG = 3 + 7 / log2(3) + 0 + 1 / log2(5) + 3 / log2(6)
# ideal from the list itself: [3, 2, 2, 1, 0] -> gains 7, 3, 3, 1, 0
E1_IDCG = 7 + 3 / log2(3) + 3 / log2(4) + 1 / log2(5) + 0
E1_LISTS = {"q1": [2, 3, 0, 1, 2], "q2": [1, 2, 1, 1, 0], "q3": [3, 3, 2, 1, 1]}


def e1_ndcg(labels: list[int]) -> float:
    """nDCG@5, exponential gain, ideal = the list re-sorted (the tutorial's numpy code)."""
    gains = [2**label - 1 for label in labels]
    dcg = sum(g / log2(i + 1) for i, g in enumerate(gains, start=1))
    idcg = sum(g / log2(i + 1) for i, g in enumerate(sorted(gains, reverse=True), start=1))
    return dcg / idcg


def test_e1_numbers_are_the_specs():
    assert E1_DCG == pytest.approx(9.007743254777221, abs=TOL)
    assert E1_IDCG == pytest.approx(10.823465818787767, abs=TOL)
    assert E1_DCG / E1_IDCG == pytest.approx(0.8322420383257692, abs=TOL)
    assert sum(map(e1_ndcg, E1_LISTS.values())) / 3 == pytest.approx(0.8901420415712558, abs=TOL)


def test_e1_sql_macros(con):
    create_tables(con, *lists_as_tables({"q1": E1_LISTS["q1"]}))
    dcg = macro(con, "sqlrank.dcg('qrels', 'run', k := 5, gain := 'exp')")
    idcg = macro(con, "sqlrank.idcg('qrels', 'run', k := 5, gain := 'exp', ideal := 'run')")
    ndcg = macro(con, "sqlrank.ndcg('qrels', 'run', k := 5, gain := 'exp', ideal := 'run')")
    assert dcg["q1"] == pytest.approx(E1_DCG, abs=TOL)  # tutorial: 9.01
    assert round(dcg["q1"], 2) == 9.01
    assert idcg["q1"] == pytest.approx(E1_IDCG, abs=TOL)
    assert ndcg["q1"] == pytest.approx(E1_DCG / E1_IDCG, abs=TOL)  # tutorial: 0.83
    assert round(ndcg["q1"], 2) == 0.83
    # AP with relevant = label > 0: relevant at ranks 1, 2, 4, 5 of [2, 3, 0, 1, 2], R = 4
    ap = macro(con, "sqlrank.ap('qrels', 'run')")
    assert ap["q1"] == pytest.approx((1 / 1 + 2 / 2 + 3 / 4 + 4 / 5) / 4, abs=TOL)
    assert ap["q1"] == pytest.approx(0.8875, abs=TOL)


def test_e1_three_lists_mean_through_sql(con):
    create_tables(con, *lists_as_tables(E1_LISTS))
    mean = con.execute("SELECT avg(value) FROM sqlrank.ndcg('qrels', 'run', k := 5, gain := 'exp', ideal := 'run')").fetchone()[0]
    assert mean == pytest.approx((e1_ndcg([2, 3, 0, 1, 2]) + e1_ndcg([1, 2, 1, 1, 0]) + e1_ndcg([3, 3, 2, 1, 1])) / 3,
                                 abs=TOL)
    assert mean == pytest.approx(0.8901420415712558, abs=TOL)


def test_e1_through_evaluate():
    qrels, run = lists_as_tables(E1_LISTS)
    result = sqlrank.evaluate(qrels, run, ["nDCG(gain=exp,ideal=run)@5", "DCG(gain=exp)@5", "AP"])
    assert per_query(result, "DCG(gain=exp)@5")["q1"] == pytest.approx(E1_DCG, abs=TOL)
    ndcg = per_query(result, "nDCG(gain=exp,ideal=run)@5")
    assert ndcg["q1"] == pytest.approx(E1_DCG / E1_IDCG, abs=TOL)
    assert ndcg["all"] == pytest.approx(0.8901420415712558, abs=TOL)
    assert result.summary["nDCG(gain=exp,ideal=run)@5"] == pytest.approx(0.8901420415712558, abs=TOL)
    assert per_query(result, "AP")["q1"] == pytest.approx(0.8875, abs=TOL)


def test_ideal_run_ignores_judged_documents_that_were_not_retrieved(con):
    # E1's list plus an unretrieved judged document with label 3: ideal := 'run' still
    # re-sorts the retrieved labels; ideal := 'qrels' (trec_eval) puts the extra 3 first:
    # [3, 3, 2, 2, 1] -> gains 7, 7, 3, 3, 1
    qrels, run = lists_as_tables({"q1": E1_LISTS["q1"]})
    qrels["q1"]["unretrieved"] = 3
    create_tables(con, qrels, run)
    from_run = macro(con, "sqlrank.ndcg('qrels', 'run', k := 5, gain := 'exp', ideal := 'run')")
    from_qrels = macro(con, "sqlrank.ndcg('qrels', 'run', k := 5, gain := 'exp')")
    assert from_run["q1"] == pytest.approx(E1_DCG / E1_IDCG, abs=TOL)
    qrels_idcg = 7 + 7 / log2(3) + 3 / log2(4) + 3 / log2(5) + 1 / log2(6)
    assert from_qrels["q1"] == pytest.approx(E1_DCG / qrels_idcg, abs=TOL)


# ---------------------------------------------------------------- E2 (docs/measures.md#e2)

# true order [5, 3, 3, 3, 3, 3, 0, 0, 0, 0]; three predicted orders (labels by rank)
E2_LISTS = {
    "ideal": [5, 3, 3, 3, 3, 3, 0, 0, 0, 0],
    "five_last": [3, 3, 3, 3, 3, 0, 0, 0, 0, 5],
    "threes_last": [5, 0, 0, 0, 0, 3, 3, 3, 3, 3],
}
# Järvelin: linear gain, rank 1 and 2 undiscounted, then 1/log2(i)
E2_JARVELIN_IDCG = 5 + 3 + 3 / log2(3) + 3 / log2(4) + 3 / log2(5) + 3 / log2(6)
E2_JARVELIN = {
    "ideal": 1.0,
    "five_last": (3 + 3 + 3 / log2(3) + 3 / log2(4) + 3 / log2(5) + 5 / log2(10)) / E2_JARVELIN_IDCG,
    "threes_last": (5 + 3 / log2(6) + 3 / log2(7) + 3 / log2(8) + 3 / log2(9) + 3 / log2(10)) / E2_JARVELIN_IDCG,
}
# Burges: gain 2^label - 1 (31 for 5, 7 for 3), discount 1/log2(i + 1)
E2_BURGES_IDCG = 31 + sum(7 / log2(i + 1) for i in range(2, 7))
E2_BURGES = {
    "ideal": 1.0,
    "five_last": (sum(7 / log2(i + 1) for i in range(1, 6)) + 31 / log2(11)) / E2_BURGES_IDCG,
    "threes_last": (31 + sum(7 / log2(i + 1) for i in range(6, 11))) / E2_BURGES_IDCG,
}
E2_ROUNDED = {"five_last": (0.8804, 0.6280), "threes_last": (0.7279, 0.8946)}  # docs/measures.md#e2's table


def test_e2_expected_values_round_to_the_specs():
    for name, (jarvelin, burges) in E2_ROUNDED.items():
        assert round(E2_JARVELIN[name], 4) == jarvelin
        assert round(E2_BURGES[name], 4) == burges


def test_e2_sql_macros(con):
    create_tables(con, *lists_as_tables(E2_LISTS))
    jarvelin = macro(con, "sqlrank.ndcg('qrels', 'run', discount := 'jarvelin', base := 2)")
    burges = macro(con, "sqlrank.ndcg('qrels', 'run', gain := 'exp')")
    for name in E2_LISTS:
        assert jarvelin[name] == pytest.approx(E2_JARVELIN[name], abs=TOL), name
        assert burges[name] == pytest.approx(E2_BURGES[name], abs=TOL), name


def test_e2_through_evaluate():
    result = sqlrank.evaluate(*lists_as_tables(E2_LISTS), ["nDCG(discount=jarvelin)", "nDCG(gain=exp)"])
    jarvelin = per_query(result, "nDCG(discount=jarvelin)")
    burges = per_query(result, "nDCG(gain=exp)")
    for name in E2_LISTS:
        assert jarvelin[name] == pytest.approx(E2_JARVELIN[name], abs=TOL), name
        assert burges[name] == pytest.approx(E2_BURGES[name], abs=TOL), name
    assert jarvelin["all"] == pytest.approx(sum(E2_JARVELIN.values()) / 3, abs=TOL)


# ---------------------------------------------------------------- E3 (docs/measures.md#e3)

# real-valued labels, linear gain, 1/log2(i+1)
E3_LISTS = {"list_1": [0.5, 0.9, 0.3, 0.6, 0.1], "list_2": [0.6, 0.5, 0.1, 0.3, 0.9]}
E3_DCG = {
    "list_1": 0.5 + 0.9 / log2(3) + 0.3 / log2(4) + 0.6 / log2(5) + 0.1 / log2(6),
    "list_2": 0.6 + 0.5 / log2(3) + 0.1 / log2(4) + 0.3 / log2(5) + 0.9 / log2(6),
}
# ideal [0.9, 0.6, 0.5, 0.3, 0.1]
E3_IDCG = 0.9 + 0.6 / log2(3) + 0.5 / log2(4) + 0.3 / log2(5) + 0.1 / log2(6)


def test_e3_numbers_are_the_specs():
    assert E3_DCG["list_1"] == pytest.approx(1.5149279937818017, abs=TOL)  # tutorial: 1.52
    assert E3_DCG["list_2"] == pytest.approx(1.4428353707188342, abs=TOL)  # tutorial: 1.44
    assert E3_IDCG == pytest.approx(1.6964461002883464, abs=TOL)  # tutorial: 1.7


def test_e3_real_valued_dcg_sql(con):
    create_tables(con, *lists_as_tables(E3_LISTS))
    dcg = macro(con, "sqlrank.dcg('qrels', 'run')")
    idcg = macro(con, "sqlrank.idcg('qrels', 'run')")
    for name in E3_LISTS:
        assert dcg[name] == pytest.approx(E3_DCG[name], abs=TOL)
        assert idcg[name] == pytest.approx(E3_IDCG, abs=TOL)


# nDCG@3 with the ideal from the list (labels by rank; ideal = the list re-sorted, cut at 3)
E3_NDCG3 = {
    "a": ([3, 2, 3, 0, 1], (3 + 2 / log2(3) + 3 / log2(4)) / (3 + 3 / log2(3) + 2 / log2(4))),
    "b": ([2, 1, 2, 3, 2], (2 + 1 / log2(3) + 2 / log2(4)) / (3 + 2 / log2(3) + 2 / log2(4))),
}


def test_e3_ndcg_at_3_ideal_from_the_list(con):
    assert E3_NDCG3["a"][1] == pytest.approx(0.9777813616305049, abs=TOL)
    assert E3_NDCG3["b"][1] == pytest.approx(0.6900468833579672, abs=TOL)
    create_tables(con, *lists_as_tables({q: labels for q, (labels, _) in E3_NDCG3.items()}))
    ndcg = macro(con, "sqlrank.ndcg('qrels', 'run', k := 3, ideal := 'run')")
    for query, (_, expected) in E3_NDCG3.items():
        assert ndcg[query] == pytest.approx(expected, abs=TOL)


# AP with denominator = relevant documents retrieved; binary labels by rank.
# Each query also has one relevant document that was never retrieved, so that
# denominator := 'R' (trec_eval) gives a different number.
E3_AP = {
    "a": ([0, 1, 0, 1, 1], (1 / 2 + 2 / 4 + 3 / 5) / 3, (1 / 2 + 2 / 4 + 3 / 5) / 4),
    "b": ([1, 0, 0, 1, 0], (1 / 1 + 2 / 4) / 2, (1 / 1 + 2 / 4) / 3),
}


def e3_ap_tables():
    qrels, run = lists_as_tables({q: labels for q, (labels, _, _) in E3_AP.items()})
    for docs in qrels.values():
        docs["never_retrieved"] = 1
    return qrels, run


def test_e3_ap_denominator_retrieved_sql(con):
    create_tables(con, *e3_ap_tables())
    retrieved = macro(con, "sqlrank.ap('qrels', 'run', denominator := 'retrieved')")
    by_r = macro(con, "sqlrank.ap('qrels', 'run')")
    for query, (_, expected_retrieved, expected_r) in E3_AP.items():
        assert retrieved[query] == pytest.approx(expected_retrieved, abs=TOL)
        assert by_r[query] == pytest.approx(expected_r, abs=TOL)
    assert retrieved["a"] == pytest.approx(0.5333333333333333, abs=TOL)
    assert retrieved["b"] == pytest.approx(0.75, abs=TOL)


def test_e3_ap_denominator_retrieved_through_evaluate():
    result = sqlrank.evaluate(*e3_ap_tables(), ["AP(denominator=retrieved)", "AP"])
    retrieved = per_query(result, "AP(denominator=retrieved)")
    assert retrieved["a"] == pytest.approx(E3_AP["a"][1], abs=TOL)
    assert retrieved["b"] == pytest.approx(E3_AP["b"][1], abs=TOL)
    assert retrieved["all"] == pytest.approx(0.6416666666666666, abs=TOL)  # MAP = (0.5333 + 0.75) / 2
    assert per_query(result, "AP")["all"] == pytest.approx((E3_AP["a"][2] + E3_AP["b"][2]) / 2, abs=TOL)


def test_ap_denominator_min_r_k(con):
    # relevant at ranks 1 and 3 of [1, 0, 1, 0]; 5 relevant judgments in all (R = 5), k = 2:
    # only rank 1 counts (P@1 = 1) and the denominator is min(R, k) = 2
    qrels, run = lists_as_tables({"q": [1, 0, 1, 0]})
    qrels["q"].update({"x1": 1, "x2": 1, "x3": 1})
    create_tables(con, qrels, run)
    assert macro(con, "sqlrank.ap('qrels', 'run', k := 2, denominator := 'min_R_k')")["q"] == pytest.approx(1 / 2, abs=TOL)
    assert macro(con, "sqlrank.ap('qrels', 'run', k := 2)")["q"] == pytest.approx(1 / 5, abs=TOL)
    result = sqlrank.evaluate(qrels, run, ["AP(denominator=min_R_k)@2"])
    assert result.summary["AP(denominator=min_R_k)@2"] == pytest.approx(1 / 2, abs=TOL)


# ---------------------------------------------------------------- E4 (docs/measures.md#e4)

E4_QRELS = {"q": {"A": 3, "B": 3, "C": 2, "D": 2, "E": 1, "F": 1, "G": 0}}
E4_SYSTEMS = {"system1": ["A", "E", "C", "D", "F"], "system2": ["A", "B", "C", "G", "E"]}
# ideal from the ground truth: [3, 3, 2, 2, 1]
E4_IDCG_LINEAR = 3 + 3 / log2(3) + 2 / log2(4) + 2 / log2(5) + 1 / log2(6)
E4_IDCG_EXP = 7 + 7 / log2(3) + 3 / log2(4) + 3 / log2(5) + 1 / log2(6)
E4_EXPECTED = {
    # system 1: labels by rank [3, 1, 2, 2, 1]; system 2: [3, 3, 2, 0, 1]
    ("system1", "linear"): (3 + 1 / log2(3) + 2 / log2(4) + 2 / log2(5) + 1 / log2(6)) / E4_IDCG_LINEAR,
    ("system2", "linear"): (3 + 3 / log2(3) + 2 / log2(4) + 0 + 1 / log2(6)) / E4_IDCG_LINEAR,
    ("system1", "exp"): (7 + 1 / log2(3) + 3 / log2(4) + 3 / log2(5) + 1 / log2(6)) / E4_IDCG_EXP,
    ("system2", "exp"): (7 + 7 / log2(3) + 3 / log2(4) + 0 + 1 / log2(6)) / E4_IDCG_EXP,
}


def e4_runs() -> dict:
    return {name: {"q": {doc: float(10 - i) for i, doc in enumerate(docs)}} for name, docs in E4_SYSTEMS.items()}


def test_e4_numbers_are_the_specs():
    assert E4_IDCG_LINEAR == pytest.approx(7.1409951840957, abs=TOL)
    assert E4_EXPECTED[("system1", "linear")] == pytest.approx(0.8232936061974518, abs=TOL)
    assert E4_EXPECTED[("system2", "linear")] == pytest.approx(0.8793791209851007, abs=TOL)
    assert E4_EXPECTED[("system1", "exp")] == pytest.approx(0.7406319169800546, abs=TOL)
    assert E4_EXPECTED[("system2", "exp")] == pytest.approx(0.911476869939315, abs=TOL)


def test_e4_two_systems_in_one_run_table(con):
    create_tables(con, E4_QRELS, {}, run_ids=e4_runs())
    idcg = macro(con, "sqlrank.idcg('qrels', 'run', k := 5)")
    assert idcg[("system1", "q")] == pytest.approx(E4_IDCG_LINEAR, abs=TOL)
    for gain in ("linear", "exp"):
        ndcg = macro(con, f"sqlrank.ndcg('qrels', 'run', k := 5, gain := '{gain}')")
        for system in E4_SYSTEMS:
            assert ndcg[(system, "q")] == pytest.approx(E4_EXPECTED[(system, gain)], abs=TOL), (system, gain)


def test_e4_through_evaluate_with_named_runs():
    runs = {name: pa.table({"query_id": ["q"] * 5, "doc_id": docs, "score": [5.0, 4.0, 3.0, 2.0, 1.0]})
            for name, docs in E4_SYSTEMS.items()}
    result = sqlrank.evaluate(E4_QRELS, runs, ["nDCG@5", "nDCG(gain=exp)@5"])
    for system in E4_SYSTEMS:
        assert result.means[system]["nDCG@5"] == pytest.approx(E4_EXPECTED[(system, "linear")], abs=TOL)
        assert result.means[system]["nDCG(gain=exp)@5"] == pytest.approx(E4_EXPECTED[(system, "exp")], abs=TOL)


# playlist variant: binary relevance, natural log discount, cutoff 100.
# ground truth {a, b, c}; ranking [a, x, y, b, z] -> hits at ranks 1 and 4
PLAYLIST_QRELS = {"p": {"a": 1, "b": 1, "c": 1}}
PLAYLIST_RUN = {"p": {"a": 5.0, "x": 4.0, "y": 3.0, "b": 2.0, "z": 1.0}}
PLAYLIST_NDCG = (1 / math.log(2) + 1 / math.log(5)) / (1 / math.log(2) + 1 / math.log(3) + 1 / math.log(4))


def test_e4_playlist_variant(con):
    assert PLAYLIST_NDCG == pytest.approx(0.6713860725233041, abs=TOL)
    create_tables(con, PLAYLIST_QRELS, PLAYLIST_RUN)
    natural = macro(con, "sqlrank.ndcg('qrels', 'run', k := 100, discount := 'ln')")
    binary = macro(con, "sqlrank.ndcg('qrels', 'run', k := 100)")
    # the log base cancels in DCG / IDCG: ln and log2 give the same nDCG
    assert natural["p"] == pytest.approx(PLAYLIST_NDCG, abs=TOL)
    assert binary["p"] == pytest.approx(PLAYLIST_NDCG, abs=TOL)
    result = sqlrank.evaluate(PLAYLIST_QRELS, PLAYLIST_RUN, ["nDCG(discount=ln)@100", "ndcg_cut_100"])
    assert result.summary["nDCG(discount=ln)@100"] == pytest.approx(PLAYLIST_NDCG, abs=TOL)
    assert result.summary["ndcg_cut_100"] == pytest.approx(PLAYLIST_NDCG, abs=TOL)


# ---------------------------------------------------------------- E5 (docs/measures.md#e5)

def test_e5_cg_ignores_order(con):
    # E3's two orders of the same five labels: 0.5 + 0.9 + 0.3 + 0.6 + 0.1 = 2.4
    create_tables(con, *lists_as_tables(E3_LISTS))
    cg = macro(con, "sqlrank.cg('qrels', 'run')")
    assert cg["list_1"] == pytest.approx(0.5 + 0.9 + 0.3 + 0.6 + 0.1, abs=TOL)
    assert cg["list_2"] == pytest.approx(2.4, abs=TOL)
    assert sqlrank.evaluate(*lists_as_tables(E3_LISTS), ["CG"]).summary["CG"] == pytest.approx(2.4, abs=TOL)


E5_SETTINGS = [
    "gain := 'linear'", "gain := 'exp'", "discount := 'jarvelin'", "discount := 'jarvelin', base := 3",
    "discount := 'ln'", "ideal := 'run'", "gain := 'exp', ideal := 'run'",
]


@pytest.fixture(scope="module")
def module_con():
    """One connection for a whole Hypothesis test (function-scoped fixtures do not mix with @given)."""
    connection = sqlrank.connect()
    yield connection
    connection.close()


@settings(max_examples=4, deadline=None)
@given(label_lists=st.lists(st.lists(st.sampled_from([0, 0.5, 1, 2, 3, 4]), min_size=1, max_size=12),
                            min_size=3, max_size=3),
       k=st.one_of(st.none(), st.integers(1, 15)), data=st.data())
def test_e5_ndcg_is_one_for_the_ideal_ordering_and_within_0_1(module_con, label_lists, k, data):
    # for each list n, query "ideal n" lists the labels sorted best first; query "any n" is a random order of the
    # same documents (three lists a call: a macro call is planned once for them, tests/batched.py)
    lists = {}
    for n, labels in enumerate(label_lists):
        lists[f"ideal {n}"] = sorted(labels, reverse=True)
        lists[f"any {n}"] = data.draw(st.permutations(sorted(labels, reverse=True)))
    con = module_con
    create_tables(con, *lists_as_tables(lists))
    cutoff = "NULL" if k is None else str(k)
    for setting in E5_SETTINGS:
        ndcg = macro(con, f"sqlrank.ndcg('qrels', 'run', k := {cutoff}, {setting})")
        for n, labels in enumerate(label_lists):
            has_gain = any(label > 0 for label in labels)
            assert ndcg[f"ideal {n}"] == pytest.approx(1.0 if has_gain else 0.0, abs=TOL), setting
            assert -TOL <= ndcg[f"any {n}"] <= 1 + TOL, setting


# ---------------------------------------------------------------- scalar macros

@pytest.mark.parametrize(("call", "expected"), [
    ("sqlrank.gain(3)", 3.0),
    ("sqlrank.gain(0.5)", 0.5),
    ("sqlrank.gain(3, kind := 'exp')", 2**3 - 1),
    ("sqlrank.gain(0.5, kind := 'exp')", 2**0.5 - 1),
    ("sqlrank.gain(0)", 0.0),
    ("sqlrank.gain(-1)", 0.0),  # negative label: judged but unusable, no gain
    ("sqlrank.gain(-2, kind := 'exp')", 0.0),
    ("sqlrank.gain(NULL)", 0.0),  # unjudged
    ("sqlrank.discount(1)", 1 / log2(2)),
    ("sqlrank.discount(3)", 1 / log2(4)),
    ("sqlrank.discount(2, kind := 'jarvelin')", 1.0),  # ranks below base 2 ... and log2(2) = 1
    ("sqlrank.discount(1, kind := 'jarvelin')", 1.0),
    ("sqlrank.discount(4, kind := 'jarvelin')", 1 / log2(4)),
    ("sqlrank.discount(2, kind := 'jarvelin', base := 3)", 1.0),  # rank < base: undiscounted
    ("sqlrank.discount(9, kind := 'jarvelin', base := 3)", 1 / math.log(9, 3)),
    ("sqlrank.discount(1, kind := 'ln')", 1 / math.log(2)),
    ("sqlrank.discount(5, kind := 'ln')", 1 / math.log(6)),
])
def test_scalar_macros(con, call, expected):
    assert con.execute(f"SELECT {call}").fetchone()[0] == pytest.approx(expected, abs=TOL)


@pytest.mark.parametrize(("call", "message"), [
    ("sqlrank.gain(1, kind := 'cubic')", "sqlrank: unknown gain 'cubic' (expected one of: linear, exp)"),
    ("sqlrank.discount(1, kind := 'log10')", "sqlrank: unknown discount 'log10' (expected one of: log2, jarvelin, ln, log)"),
    ("sqlrank.discount(3, kind := 'jarvelin', base := 1)", "sqlrank: discount base must be greater than 1, got 1"),
])
def test_scalar_macros_reject_unknown_kinds(con, call, message):
    with pytest.raises(duckdb.Error) as raised:
        con.execute(f"SELECT {call}").fetchall()
    assert message in str(raised.value)


def test_table_macro_rejects_unknown_kind(con):
    create_tables(con, *lists_as_tables({"q": [1, 0]}))
    with pytest.raises(duckdb.Error, match=r"sqlrank: unknown ideal 'best' \(expected one of: qrels, run\)"):
        con.execute("SELECT * FROM sqlrank.ndcg('qrels', 'run', ideal := 'best')").fetchall()
