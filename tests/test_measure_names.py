"""Measure names: every spelling people already use maps to one definition; mistakes get clear errors.

The registry (sqlrank.measures) is the one declaration behind the Python API,
the CLI's `sqlrank measures` and docs/measures.md's catalogue table; the last tests check that
the SQL macros and that table agree with it.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

import sqlrank
from sqlrank import measures
from sqlrank.errors import MeasureError
from sqlrank.measures import REGISTRY, parse, parse_all

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"

# (spelling, canonical name): trec_eval names, ir_measures names, common shorthands, any case
ALIASES = [
    ("ndcg_cut_10", "nDCG@10"), ("ndcg_cut.10", "nDCG@10"), ("nDCG@10", "nDCG@10"), ("ndcg@10", "nDCG@10"),
    ("NDCG@10", "nDCG@10"), ("ndcg", "nDCG"), ("nDCG", "nDCG"),
    ("map", "AP"), ("MAP", "AP"), ("AP", "AP"), ("ap", "AP"),
    ("map_cut_10", "AP@10"), ("map_cut.10", "AP@10"), ("map@10", "AP@10"), ("AP@10", "AP@10"),
    ("recip_rank", "RR"), ("mrr", "RR"), ("MRR", "RR"), ("RR", "RR"),
    ("mrr@10", "RR@10"), ("RR@10", "RR@10"),
    ("P_5", "P@5"), ("P@5", "P@5"), ("P.5", "P@5"), ("p@5", "P@5"), ("precision@5", "P@5"),
    ("recall_100", "R@100"), ("recall.100", "R@100"), ("R@100", "R@100"), ("recall@100", "R@100"),
    ("success_10", "Success@10"), ("success.10", "Success@10"), ("Success@10", "Success@10"),
    ("hit@10", "Success@10"), ("hit_rate@10", "Success@10"),
    ("num_ret", "NumRet"), ("NumRet", "NumRet"), ("num_rel", "NumRel"), ("NumRel", "NumRel"),
    ("num_rel_ret", "NumRelRet"), ("NumRelRet", "NumRelRet"),
    ("Rprec", "Rprec"), ("rprec", "Rprec"), ("bpref", "bpref"),
    ("dcg", "DCG"), ("DCG@10", "DCG@10"), ("ideal_dcg", "IDCG"), ("IDCG", "IDCG"), ("CG@5", "CG@5"),
    # parameters: the canonical name shows the non-default ones
    ("AP(rel=2)@100", "AP(rel=2)@100"), ("map(rel=2)@100", "AP(rel=2)@100"),
    ("nDCG(gain=exp)@10", "nDCG(gain=exp)@10"), ("ndcg(gain=exp)@10", "nDCG(gain=exp)@10"),
    ("nDCG(discount=jarvelin,base=2)", "nDCG(discount=jarvelin)"),
    ("nDCG(base=2, discount=jarvelin)", "nDCG(discount=jarvelin)"),
    ("nDCG(discount=jarvelin,base=3)", "nDCG(base=3,discount=jarvelin)"),
    ("AP(denominator=min_R_k)@10", "AP(denominator=min_R_k)@10"),
    ("AP(rel=1)", "AP"), ("nDCG(gain=linear,discount=log2)@10", "nDCG@10"),
]


@pytest.mark.parametrize("spelling, canonical", ALIASES)
def test_alias_maps_to_the_canonical_measure(spelling, canonical):
    assert [str(m) for m in parse(spelling)] == [canonical]
    assert parse(spelling) == parse(canonical)  # same definition, parameters and cutoff


def test_parameters_are_resolved_with_defaults():
    (ap,) = parse("AP(rel=2)@100")
    assert (ap.name, ap.k, dict(ap.params)) == ("AP", 100, {"rel": 2, "denominator": "R"})
    (ndcg,) = parse("nDCG(gain=exp)@10")
    assert dict(ndcg.params) == {"gain": "exp", "discount": "log2", "base": 2, "ideal": "qrels"}
    (jarvelin,) = parse("nDCG(discount=jarvelin,base=2)")
    assert (dict(jarvelin.params)["discount"], jarvelin.k) == ("jarvelin", None)
    # evaluate(rel=2) is trec_eval -l2: the level of every measure that does not name one
    assert [str(m) for m in parse_all(["AP", "P(rel=3)@5"], rel=2)] == ["AP(rel=2)", "P(rel=3)@5"]


def test_trec_eval_lists_of_cutoffs():
    assert [str(m) for m in parse("P.5,10")] == ["P@5", "P@10"]
    # `-m ndcg_cut` alone: trec_eval's default cutoffs
    assert [m.k for m in parse("ndcg_cut")] == [5, 10, 15, 20, 30, 100, 200, 500, 1000]
    assert {m.name for m in parse("map_cut")} == {"AP"}


def test_duplicates_in_the_list_are_kept_once():
    texts = ["nDCG@10", "ndcg_cut_10", "ndcg@10", "ndcg_cut.10", "map", "AP", "P.5,10", "P_5"]
    assert [str(m) for m in parse_all(texts)] == ["nDCG@10", "AP", "P@5", "P@10"]
    result = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", texts)
    assert result.measures == ["nDCG@10", "map", "P_5", "P_10"]  # each under its first spelling
    assert [result.canonical(name) for name in result.measures] == ["nDCG@10", "AP", "P@5", "P@10"]
    assert [r["measure"] for r in result.to_arrow().to_pylist() if r["query_id"] == "all"] == result.measures


def test_every_spelling_gives_the_same_numbers():
    """All aliases evaluated in one call agree with the canonical names, value for value."""
    spellings = [s for s, _ in ALIASES]
    canonical = list(dict.fromkeys(c for _, c in ALIASES))
    by_alias = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", spellings, names="canonical")
    by_name = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", canonical)
    assert sorted(by_alias.measures) == sorted(canonical)
    assert by_alias.summary == by_name.summary


def test_parameters_change_the_numbers_as_defined():
    """bm25 ranks q1 A, E, C, D, F; labels A=3 B=3 C=2 D=2 E=1 F=1 G=0."""
    result = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", [
        "AP(rel=2)", "AP@2", "AP(denominator=min_R_k)@2", "nDCG(gain=exp)@5", "nDCG(discount=jarvelin,base=2)",
    ])
    q1 = {r["measure"]: r["value"] for r in result.per_query.to_pylist() if r["query_id"] == "q1"}
    # rel=2: A, B, C, D relevant (R = 4), found at ranks 1, 3, 4
    assert q1["AP(rel=2)"] == pytest.approx((1 / 1 + 2 / 3 + 3 / 4) / 4, abs=1e-12)
    # top 2 = A, E, both relevant: precision sum 1 + 1 over R = 6, or over min(R, 2) = 2
    assert q1["AP@2"] == pytest.approx(2 / 6, abs=1e-12)
    assert q1["AP(denominator=min_R_k)@2"] == pytest.approx(2 / 2, abs=1e-12)
    # exponential gain 2^label - 1: ranks [7, 1, 3, 3, 1], ideal [7, 7, 3, 3, 1] (docs/measures.md#e4: 0.7406319169800546)
    dcg = 7 + 1 / math.log2(3) + 3 / 2 + 3 / math.log2(5) + 1 / math.log2(6)
    idcg = 7 + 7 / math.log2(3) + 3 / 2 + 3 / math.log2(5) + 1 / math.log2(6)
    assert q1["nDCG(gain=exp)@5"] == pytest.approx(dcg / idcg, abs=1e-12)
    assert q1["nDCG(gain=exp)@5"] == pytest.approx(0.7406319169800546, abs=1e-12)
    # Järvelin, base 2: ranks 1 and 2 undiscounted, then 1/log2(i); ideal [3, 3, 2, 2, 1, 1] (whole list)
    dcg = 3 + 1 + 2 / math.log2(3) + 2 / math.log2(4) + 1 / math.log2(5)
    idcg = 3 + 3 + 2 / math.log2(3) + 2 / math.log2(4) + 1 / math.log2(5) + 1 / math.log2(6)
    assert q1["nDCG(discount=jarvelin,base=2)"] == pytest.approx(dcg / idcg, abs=1e-12)


# ---------------------------------------------------------------- errors, pinned

# the list the hint gives is the registry's, in its order, so a new measure does not change these tests
KNOWN = f"known measures: {', '.join(sqlrank.REGISTRY)} (see `sqlrank measures`)"

ERRORS = [
    ("ndgc@10", f"unknown measure 'ndgc' (did you mean 'nDCG@10'?); {KNOWN}"),
    ("mrrr", f"unknown measure 'mrrr' (did you mean 'mrr'?); {KNOWN}"),
    ("Precison@5", f"unknown measure 'Precison' (did you mean 'precision@5'?); {KNOWN}"),
    ("zzz", f"unknown measure 'zzz'; {KNOWN}"),
    ("", f"empty measure name; {KNOWN}"),
    ("nDCG(gian=exp)@10",
     "nDCG(gian=exp)@10: nDCG has no parameter 'gian' (its parameters: gain, discount, base, ideal); "
     "did you mean 'gain'?"),
    ("RR(gain=exp)", "RR(gain=exp): RR has no parameter 'gain' (its parameters: rel)"),
    ("nDCG(gain=expo)", "nDCG(gain=expo): unknown gain 'expo' (expected one of: linear, exp); did you mean 'exp'?"),
    ("AP(denominator=R_k)", "AP(denominator=R_k): unknown denominator 'R_k' (expected one of: R, min_R_k, "
                            "retrieved); did you mean 'min_R_k'?"),
    ("P(rel=high)@5", "P(rel=high)@5: rel must be a number, got 'high'"),
    ("nDCG(discount=jarvelin,base=1)", "nDCG(discount=jarvelin,base=1): base must be greater than 1, got '1'"),
    ("AP(rel)", "AP(rel): parameters are written name=value, got 'rel'"),
    ("Rprec@10", "Rprec@10: Rprec takes no cutoff (@k)"),
    ("nDCG@0", "nDCG@0: the cutoff must be a whole number >= 1, got '0'"),
    ("nDCG@ten", "nDCG@ten: the cutoff must be a whole number >= 1, got 'ten'"),
    ("AP(rel=2", "cannot read measure 'AP(rel=2': expected NAME, NAME@k or NAME(param=value,...)@k, "
                 "e.g. nDCG@10, AP(rel=2), ndcg_cut_10"),
]


@pytest.mark.parametrize("text, message", ERRORS)
def test_bad_measure_names_are_explained(text, message):
    with pytest.raises(MeasureError) as error:
        parse_all([text])
    assert str(error.value) == message


def test_bad_measure_lists_are_explained():
    with pytest.raises(MeasureError) as error:
        parse_all([])
    assert str(error.value) == f"no measures given; {KNOWN}"
    with pytest.raises(MeasureError) as error:
        parse_all(["AP", 10])
    assert str(error.value) == "measure names are strings, got int 10"
    # evaluate checks the names before reading any file
    with pytest.raises(MeasureError):
        sqlrank.evaluate("no such qrels", "no such run", ["nDGC@10"])


# ---------------------------------------------------------------- one registry, three surfaces

def test_describe_lists_every_measure_from_the_registry():
    rows = measures.describe()
    assert [r["name"] for r in rows] == list(REGISTRY)
    by_name = {r["name"]: r for r in rows}
    assert by_name["nDCG"]["parameters"] == {"gain": "linear", "discount": "log2", "base": 2, "ideal": "qrels"}
    assert by_name["nDCG"]["aliases"] == ["ndcg_cut_k", "ndcg_cut.k"]
    assert by_name["RR"]["aliases"] == ["recip_rank", "mrr"]
    assert by_name["NumRet"]["summary"] == "sum" and by_name["AP"]["summary"] == "mean"
    assert by_name["Rprec"]["cutoff"] is False
    assert by_name["P"]["macro"] == "sqlrank.p"
    for row in rows:
        assert set(row) == {"name", "aliases", "parameters", "cutoff", "at", "summary", "definition", "macro"}
        assert row["definition"]


@pytest.mark.parametrize("row", measures.describe(), ids=lambda row: row["name"])
def test_every_listed_spelling_parses_back_to_its_measure(row):
    for alias in row["aliases"]:
        spelling = alias.replace("_k", "_10").replace(".k", ".10")
        (measure,) = parse(spelling)
        assert measure.name == row["name"]
        if row["at"]:  # iprec_at_recall_10: the number is the measure's parameter, not a cutoff
            assert measure.param(row["at"]) == 10 and measure.k is None
        else:
            assert measure.k == (10 if spelling != alias else None)


def test_every_measure_has_its_sql_macro():
    con = sqlrank.connect()
    macros = {name for (name,) in con.execute(
        "SELECT function_name FROM duckdb_functions() WHERE schema_name = 'sqlrank' AND function_type = 'table_macro'"
    ).fetchall()}
    missing = [row["macro"] for row in measures.describe() if row["macro"].removeprefix("sqlrank.") not in macros]
    assert missing == []
    # each one's numbers: tests/test_duckdb_shell.py (in the shell) and tests/measures/ (in Python's DuckDB)


def test_the_catalogue_table_is_generated_from_the_registry():
    """docs/measures.md#the-catalogue-at-a-glance; regenerate with:
    python -c "from sqlrank import measures; print(measures.markdown_table())"."""
    text = (ROOT / "docs" / "measures.md").read_text(encoding="utf-8")
    section = re.search(r"^## The catalogue at a glance\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S)
    assert section, "docs/measures.md has no '## The catalogue at a glance' section"
    assert measures.markdown_table() in section.group(1)
