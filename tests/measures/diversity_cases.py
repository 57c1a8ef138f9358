"""What the diversity measures' test files share: the docs' worked example and one comparison with ndeval.

ndeval is run through pyndeval (ir_measures' pyndeval provider; a test dependency), once for all the
measures, on subtopic qrels and a run generated with a fixed seed.
"""

from __future__ import annotations

import functools
import math
import random

import pytest

import sqlrank

# the worked example of sql/measures/alpha_dcg.sql and docs/measures.md: subtopics 1, 2 and 3 covered by
# a {1, 2}, b {2} and c {3}; d judged for subtopic 1 but not relevant to it; ranking a, c, x, b
SUBTOPIC_QRELS = [("q", "1", "a", 1), ("q", "2", "a", 1), ("q", "2", "b", 1), ("q", "3", "c", 1), ("q", "1", "d", 0)]
RUN = {"q": {"a": 4.0, "c": 3.0, "x": 2.0, "b": 1.0}}


def frame(rows):
    import pyarrow as pa

    return pa.table({name: list(column) for name, column in
                     zip(("query_id", "subtopic_id", "doc_id", "relevance"), zip(*rows))})


# the edge cases, each a query of its own beside the worked example's q, evaluated with it:
#   tie     a {1, 2}, b {3, 4}, c {1, 3} all gain 2 first: ndeval's greedy ideal takes the larger doc_id, c,
#           then b and a gain 1.5 each: ideal gains 2, 1.5, 1.5 (not the best order, a, b, c: 2, 2, 1)
#   none    judged, no judgment covers a subtopic; missed: not in the run; graded: a judgment of 2 and one of 1
EDGE_ROWS = [("tie", "1", "a", 1), ("tie", "2", "a", 1), ("tie", "3", "b", 1), ("tie", "4", "b", 1),
             ("tie", "1", "c", 1), ("tie", "3", "c", 1),
             ("none", "1", "a", 0), ("missed", "1", "a", 1), ("graded", "1", "a", 2), ("graded", "2", "b", 1)]
EDGE_RUN = {"tie": {"a": 3.0, "b": 2.0, "c": 1.0}, "none": {"a": 1.0}, "graded": {"a": 1.0}}
# every measure the test files ask: evaluated together, once (each evaluation costs)
ASKED = ("AP_IA", "ERR-IA@1", "ERR-IA@4", "ERR_IA(alpha=1)@4", "NRBP", "NRBP(patience=0.8)", "P-IA",
         "P-IA@10", "P-IA@4", "StRecall@1", "alpha-DCG@1", "alpha-DCG@4", "alpha-nDCG@1", "alpha-nDCG@3",
         "alpha-nDCG@4", "alpha-nDCG@10", "alpha_nDCG(alpha=0)@2", "alpha_DCG(rel=2)@1", "nERR-IA@2", "nERR-IA@4",
         "nERR-IA@5", "nNRBP", "strec@2")


def diversity(measure: str, query: str = "q") -> float:
    """The value of one diversity measure (one of ASKED) for one query of the worked example and the edge cases."""
    return _evaluated()[measure][query]


@functools.lru_cache(maxsize=None)
def _evaluated() -> dict[str, dict[str, float]]:
    return _values(sqlrank.evaluate(None, {**RUN, **EDGE_RUN}, list(ASKED),
                                    subtopic_qrels=frame(SUBTOPIC_QRELS + EDGE_ROWS)))


def _values(result) -> dict[str, dict[str, float]]:
    """{measure: {query_id: value}} of a result's per-query rows."""
    values: dict[str, dict[str, float]] = {}
    for row in result.per_query.to_pylist():
        values.setdefault(row["measure"], {})[row["query_id"]] = row["value"]
    return values


# ndeval's names of the measures, and sqlrank's
NDEVAL = {"alpha-nDCG": "alpha_nDCG", "alpha-DCG": "alpha_DCG", "ERR-IA": "ERR_IA", "nERR-IA": "nERR_IA",
          "P-IA": "P_IA", "strec": "StRecall", "NRBP": "NRBP", "nNRBP": "nNRBP", "MAP-IA": "AP_IA"}
CUTOFFS = (5, 10, 20)  # ndeval's


def generated(seed: int = 38):
    """Subtopic qrels and a run (no tied scores) over 8 queries: 1-4 subtopics, graded labels, a query
    with judgments but no relevant one, and documents judged for several subtopics."""
    rng = random.Random(seed)
    qrels, run = [], {}
    for number in range(8):
        query = f"q{number}"
        documents = [f"d{number}-{i:02d}" for i in range(30)]
        for subtopic in range(1, rng.randint(1, 4) + 1):
            for doc in rng.sample(documents, 8):
                label = 0 if number == 7 else rng.choice((0, 1, 1, 2))
                qrels.append((query, str(subtopic), doc, label))
        scores = rng.sample(range(1, 1000), 25)
        run[query] = {doc: float(score) for doc, score in zip(rng.sample(documents, 25), scores)}
    return qrels, run


@functools.lru_cache(maxsize=None)
def against_ndeval() -> dict[str, tuple[dict, dict]]:
    """{sqlrank measure asked: ({query: sqlrank's value}, {query: ndeval's value})} for every measure at ndeval's
    cutoffs, each tool called once."""
    pyndeval = pytest.importorskip("pyndeval")
    qrels, run = generated()
    asked = [f"{name}@{k}" for name in NDEVAL if name not in ("NRBP", "nNRBP", "MAP-IA") for k in CUTOFFS]
    asked += ["NRBP", "nNRBP", "MAP-IA"]
    theirs = pyndeval.ndeval(qrels, [(q, d, s) for q, docs in run.items() for d, s in docs.items()], asked)
    ours = _values(sqlrank.evaluate(None, run, asked, subtopic_qrels=frame(qrels)))
    return {name: (ours[name], {query: values[name] for query, values in theirs.items()}) for name in asked}


def check_against_ndeval(measure: str) -> None:
    """Every asked spelling of `measure` (its ndeval name) equal to ndeval's on every query, to ndeval's 6 digits
    and closer; ndeval's nan (nNRBP of a query without a relevant judgment, 0 / 0) is 0 here."""
    compared = {name: pair for name, pair in against_ndeval().items() if name.split("@")[0] == measure}
    assert compared
    for name, (ours, theirs) in compared.items():
        assert ours.keys() == theirs.keys(), name
        for query, value in theirs.items():
            expected = 0.0 if math.isnan(value) else value
            assert ours[query] == pytest.approx(expected, abs=1e-12), (name, query)
        assert any(value > 0 for value in ours.values()), name  # the comparison saw real numbers
