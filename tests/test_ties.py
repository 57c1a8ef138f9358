"""The tie policies (ties=...) against plain-Python orderings, on runs with many small tie groups.

trec, docid_asc, optimistic and pessimistic are orders: each must give, for every measure of the
registry, exactly what ties='trec' gives on the same run re-scored so that nothing is tied and
the documents come in the order the policy names, an order computed here in plain Python (the
measures themselves are checked against trec_eval and the oracle elsewhere). ties='average' must
equal the brute-force mean over every ordering of every tie group (each ordering re-scored and
evaluated as a run of its own), to 1e-12, for every measure the registry says it supports; the
others must be refused by name. optimistic >= average >= pessimistic for the measures where a
higher label earlier can only help.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict

import duckdb
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sqlrank
from batched import batches
from sqlrank.engine import TIE_POLICIES
from sqlrank.errors import EvaluationError, MeasureError
from sqlrank.registry import REGISTRY, TIES_AVERAGE

TOL = 1e-12
ORDER_POLICIES = ("trec", "docid_asc", "optimistic", "pessimistic")
DOC_IDS = ["a", "b", "c", "d", "e", "f", "g", "h", "A", "10", "9", "é"]
QUERY_IDS = ["q1", "q2", "q3"]


def spelling(definition, k: int) -> str:
    """A measure of the registry as asked for: at cutoff k when it takes one, at 0.5 when its @ is a parameter."""
    if definition.at:
        return f"{definition.name}@0.5"
    return f"{definition.name}@{k}" if definition.cutoff else definition.name


EVERY_MEASURE = [spelling(d, 3) for d in REGISTRY.values()] + [spelling(d, 1) for d in REGISTRY.values() if d.cutoff]
EVERY_MEASURE += [d.name for d in REGISTRY.values() if d.cutoff]  # the whole list too
# the diversity measures read subtopic qrels, which these cases have not (tests/measures/diversity_cases.py)
# the preference measures break ties as trec_eval's form_prefs_counts does (doc id ascending under 'trec'):
# tests/test_prefs.py
EVERY_MEASURE = [m for m in EVERY_MEASURE if not {"subtopics", "preferences"} & set(REGISTRY[m.split("@")[0]].needs)]
AVERAGED = [m for m in EVERY_MEASURE if REGISTRY[m.split("@")[0]].ties_average]
AVERAGED += ["nDCG(gain=exp,ideal=run)@2", "AP(denominator=min_R_k)@2", "P(rel=2)@2", "DCG(discount=ln)@4"]
# a higher label earlier can only raise these (so optimistic >= average >= pessimistic)
MONOTONE = ["nDCG@3", "nDCG", "DCG@2", "AP", "AP@2", "RR", "RR@2", "P@1", "P@3", "R@2", "Rprec", "Success@1",
            "Success@3", "NumRelRet@2", "RelP@2", "CG@2", "ERR@3", "RBP@3", "bpref"]


def class_of(label) -> float:
    """The label policies' class: the label, unjudged documents and negative labels one class below 0."""
    return label if label is not None and label >= 0 else -1


def policy_order(judgments: dict, scores: dict, ties: str) -> list[str]:
    """The documents in the policy's order, in plain Python (ids compared as code points: UTF-8's byte order)."""
    def key(doc):
        label_key = {"optimistic": -class_of(judgments.get(doc)), "pessimistic": class_of(judgments.get(doc))}
        return (-scores[doc], label_key.get(ties, 0))
    by_id = sorted(scores, reverse=ties != "docid_asc")  # the doc id decides last: descending, or ascending
    return sorted(by_id, key=key)  # stable: equal keys keep the doc id order


def rescored(order: list[str]) -> dict[str, float]:
    """Scores that rank `order` as given with nothing tied."""
    return {doc: float(len(order) - place) for place, doc in enumerate(order)}


@st.composite
def cases(draw, max_docs=10):
    """Qrels with every label kind and a run whose scores come from a few values: many small tie groups."""
    qrels, run = {}, {}
    for query in draw(st.lists(st.sampled_from(QUERY_IDS), min_size=1, max_size=3, unique=True)):
        qrels[query] = draw(st.dictionaries(st.sampled_from(DOC_IDS), st.sampled_from([-1, 0, 0, 1, 1, 2, 3]),
                                            min_size=1, max_size=8))
        if draw(st.booleans()) or not run:
            score = st.one_of(st.sampled_from([0.0, 1.0, 2.0]), st.sampled_from([0.5, 1.5, 2.5, 3.0]))
            run[query] = draw(st.dictionaries(st.sampled_from(DOC_IDS), score, min_size=1, max_size=max_docs))
    return qrels, run


def values(qrels, run, measures, **options) -> dict[tuple[str, str, str], float]:
    result = sqlrank.evaluate(qrels, run, measures, missing="zero", **options)
    return {(row["run_id"], row["query_id"], row["measure"]): row["value"] for row in result.to_arrow().to_pylist()}


def assert_close(ours: dict, theirs: dict, tol: float = TOL) -> None:
    assert set(ours) == set(theirs)
    wrong = {key: (value, theirs[key]) for key, value in ours.items()
             if not math.isclose(value, theirs[key], rel_tol=0, abs_tol=tol)}
    assert not wrong, f"(policy, oracle): {wrong}"


@settings(max_examples=6, deadline=None)
@given(case=batches(cases(), 2), ties=st.sampled_from(ORDER_POLICIES), rel=st.sampled_from([1, 2]))
def test_every_measure_under_an_order_policy_is_trec_on_the_run_in_that_order(case, ties, rel):
    qrels, run = case
    in_order = {query: rescored(policy_order(qrels.get(query, {}), scores, ties)) for query, scores in run.items()}
    assert_close(values(qrels, run, EVERY_MEASURE, rel=rel, ties=ties),
                 values(qrels, in_order, EVERY_MEASURE, rel=rel, ties="trec"))


def orderings(judgments: dict, scores: dict):
    """Every order of the documents that keeps the scores descending: each tie group permuted every way."""
    groups = defaultdict(list)
    for doc, score in scores.items():
        groups[score].append(doc)
    per_group = [list(itertools.permutations(groups[score])) for score in sorted(groups, reverse=True)]
    for choice in itertools.product(*per_group):
        yield [doc for group in choice for doc in group]


def brute_force_mean(qrels, run, measures, **options) -> dict[tuple[str, str], float]:
    """Each query's every ordering as a run of its own (run_id query#n), evaluated with ties='trec' and the
    options, then averaged (each such run holds one query: disjoint from the qrels when the query is unjudged)."""
    rows = defaultdict(list)
    count = {}
    for query, scores in run.items():
        for number, order in enumerate(orderings(qrels.get(query, {}), scores)):
            for doc, score in rescored(order).items():
                for column, value in (("run_id", f"{query}#{number}"), ("query_id", query), ("doc_id", doc),
                                      ("score", score)):
                    rows[column].append(value)
            count[query] = number + 1
    result = sqlrank.evaluate(qrels, pa.table(rows), measures, missing="skip", allow_disjoint=True, **options)
    sums = defaultdict(float)
    for row in result.to_arrow().to_pylist():
        query = row["run_id"].split("#")[0]
        if row["query_id"] == query:
            sums[(query, row["measure"])] += row["value"]
    return {(query, measure): total / count[query] for (query, measure), total in sums.items()}


@st.composite
def small_cases(draw):
    """At most 6 documents a query, so that every ordering can be enumerated (6! = 720)."""
    return draw(cases(max_docs=6))


@settings(max_examples=6, deadline=None)
@given(case=batches(small_cases(), 2), rel=st.sampled_from([1, 2]))
def test_average_is_the_mean_over_every_ordering_of_the_tie_groups(case, rel):
    qrels, run = case
    # the measures spelled with their rel (P(rel=2)@3), so that the brute force reads the same ones
    measures = [str(m) for m in sqlrank.parse_measures(AVERAGED, rel=rel)]
    ours = {(query, measure): value for (_, query, measure), value in
            values(qrels, run, measures, ties="average").items() if query in run}
    assert_close(ours, brute_force_mean(qrels, run, measures))


@settings(max_examples=4, deadline=None)
@given(case=batches(small_cases(), 2))
def test_optimistic_is_at_least_average_which_is_at_least_pessimistic(case):
    qrels, run = case
    averaged = [m for m in MONOTONE if REGISTRY[m.split("@")[0]].ties_average]
    best = values(qrels, run, MONOTONE, ties="optimistic")
    worst = values(qrels, run, MONOTONE, ties="pessimistic")
    mean = values(qrels, run, averaged, ties="average")
    for key, value in best.items():
        assert value >= worst[key] - TOL, key
        if key in mean:
            assert best[key] + TOL >= mean[key] >= worst[key] - TOL, key


def test_the_worked_example_of_the_docs():
    """One query, three tied documents judged a = 2, b = 0, c = 1: the table of docs/tie-policies.md (the README
    quotes its nDCG@3 range)."""
    qrels = {"q": {"a": 2, "b": 0, "c": 1}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 1.0}}
    table = {"trec": (0.7602, 0.8333, 1, 1), "docid_asc": (0.9502, 0.8333, 1, 1), "optimistic": (1, 1, 1, 1),
             "pessimistic": (0.6199, 0.5833, 0.5, 0), "average": (0.8100, 0.8056, 0.8333, 0.6667)}
    for ties, expected in table.items():
        got = values(qrels, run, ["nDCG@3", "AP", "RR", "P@1"], ties=ties)
        shown = tuple(round(got[("run", "q", m)], 4) for m in ("nDCG@3", "AP", "RR", "P@1"))
        assert shown == pytest.approx(expected, abs=1e-12), ties
    average = values(qrels, run, ["RR", "P@1"], ties="average")
    assert average[("run", "q", "RR")] == pytest.approx((2 / 3) * 1 + (1 / 3) * (1 / 2), abs=TOL)
    assert average[("run", "q", "P@1")] == pytest.approx(2 / 3, abs=TOL)


def test_every_measure_says_whether_average_is_defined():
    """The registry declares it; a measure without an expectation is refused by name, not computed wrongly."""
    for definition in REGISTRY.values():
        assert definition.ties_average in TIES_AVERAGE + (None,), definition.name
    qrels, run = {"q": {"a": 1}}, {"q": {"a": 1.0, "b": 1.0}}
    for definition in REGISTRY.values():
        measure = spelling(definition, 3)
        if definition.ties_average is None:
            with pytest.raises(MeasureError, match=f"not defined yet for {definition.name} "):
                sqlrank.evaluate(qrels, run, [measure], ties="average")
        else:
            assert sqlrank.evaluate(qrels, run, [measure], ties="average").to_arrow().num_rows == 2
    with pytest.raises(MeasureError, match=r"AP\(denominator=retrieved\)"):
        sqlrank.evaluate(qrels, run, ["AP(denominator=retrieved)"], ties="average")


def test_unknown_policy_and_average_bpref_with_a_depth_are_refused():
    qrels, run = {"q": {"a": 1}}, {"q": {"a": 1.0}}
    with pytest.raises(EvaluationError, match="unknown ties 'random'"):
        sqlrank.evaluate(qrels, run, ["AP"], ties="random")
    with pytest.raises(MeasureError, match="with a depth is not defined yet for bpref"):
        sqlrank.evaluate(qrels, run, ["bpref"], ties="average", depth=10)


@pytest.mark.parametrize("ties", ORDER_POLICIES[1:] + ("average",))
def test_float32_decides_which_scores_tie_under_every_policy(ties):
    """1.0 and 1.0000000001 are one score in float32: a tie group there, two groups in double."""
    qrels = {"q": {"a": 1}}
    run = {"q": {"a": 1.0, "b": 1.0000000001}}
    double = values(qrels, run, ["RR"], ties=ties)[("run", "q", "RR")]
    single = sqlrank.evaluate(qrels, run, ["RR"], ties=ties, score_precision="float32")
    assert double == 0.5
    expected = {"docid_asc": 1.0, "optimistic": 1.0, "pessimistic": 0.5, "average": 0.75}[ties]
    assert single.to_arrow().column("value")[0].as_py() == pytest.approx(expected, abs=TOL)
    assert single.notices() == [f"run 'run': 1 tie group (documents of equal score in one query) holding 2 "
                                f"documents, under ties='{ties}'"]
    assert sqlrank.evaluate(qrels, run, ["RR"], ties=ties).notices() == []


def test_trec_says_nothing_new():
    """The default keeps its output: no tie notice, the same values as before the policies."""
    result = sqlrank.evaluate({"q": {"b": 1}}, {"q": {"a": 1.0, "b": 1.0}}, ["RR"])
    assert result.notices() == []
    assert result.to_arrow().column("value").to_pylist() == [1.0, 1.0]  # b above a: doc id descending


def test_the_shell_macros_accept_exactly_the_python_policies():
    """The policies are declared in Python (TIE_POLICIES); the shell's macros check the same words."""
    con = sqlrank.connect()
    con.execute("CREATE TABLE qrels AS SELECT 'q' AS query_id, 'a' AS doc_id, 1 AS relevance")
    # a rank column, which only ties := 'input' reads (b first)
    con.execute("CREATE TABLE run AS SELECT 'q' AS query_id, unnest(['a', 'b']) AS doc_id, 1.0 AS score, "
                "unnest([2, 1]) AS rank")
    values = {ties: con.execute("SELECT value FROM sqlrank.rr('qrels', 'run', ties := ?)", [ties]).fetchone()[0]
              for ties in TIE_POLICIES}
    assert values == {"trec": 0.5, "docid_asc": 1.0, "optimistic": 1.0, "pessimistic": 0.5, "average": 0.75,
                      "input": 0.5}
    with pytest.raises(duckdb.Error, match="sqlrank: unknown ties 'bogus'"):
        con.execute("SELECT * FROM sqlrank.rr('qrels', 'run', ties := 'bogus')").fetchall()
    with pytest.raises(duckdb.Error, match="not defined yet for IPrec"):
        con.execute("SELECT * FROM sqlrank.iprec('qrels', 'run', recall := 0.5, ties := 'average')").fetchall()


@pytest.mark.parametrize("ties", ["docid_asc", "pessimistic", "average"])
def test_a_table_of_many_runs_is_ordered_run_by_run(ties):
    """A run_id column: each run's ties are its own, and so is its notice (run y has none)."""
    qrels = {"q": {"a": 2, "b": 0, "c": 1}}
    runs = pa.table({"run_id": ["x"] * 3 + ["y"] * 3, "query_id": ["q"] * 6, "doc_id": list("abc") * 2,
                     "score": [1.0, 1.0, 1.0, 1.0, 2.0, 3.0]})
    result = sqlrank.evaluate(qrels, runs, ["nDCG@3"], ties=ties)
    got = {row["run_id"]: row["value"] for row in result.to_arrow().to_pylist() if row["query_id"] == "all"}
    tied = {"docid_asc": 0.9502, "pessimistic": 0.6199, "average": 0.8100}[ties]
    assert round(got["x"], 4) == tied and round(got["y"], 4) == 0.7602  # y: c, b, a whatever the policy
    assert result.notices() == [f"run 'x': 1 tie group (documents of equal score in one query) holding 3 documents, "
                                f"under ties='{ties}'"]
