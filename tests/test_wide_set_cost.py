"""A wide measure set costs about the sum of its measures: no pair of measures interacts (docs/performance.md).

Counted, not timed: the statements an evaluation runs, and the size of the plan DuckDB makes for the
measures statement. `-m all_trec` once took 9 s where Rprec_mult alone took 1.6 s and infAP alone 1.0 s:
infAP keeps the judged non-relevant documents in the rankings, and Rprec_mult counted R again inside a
lambda, once per document; its value is pinned here on a ranking with judged non-relevant documents.

The data (labels by rank): q1: [2, 0, 1, 0] and one relevant document not retrieved, R = 3;
q2: [0, 1], R = 1.
"""

from __future__ import annotations

import collections
import json

import pandas as pd
import pytest

import sqlrank
from sqlrank.engine import measures_sql
from sqlrank.measures import parse_all

QRELS = pd.DataFrame({"query_id": ["q1"] * 5 + ["q2"] * 2, "doc_id": ["a", "b", "c", "d", "e", "x", "y"],
                      "relevance": [2, 0, 1, 0, 1, 1, 0]})
RUN = pd.DataFrame({"query_id": ["q1"] * 4 + ["q2"] * 2, "doc_id": ["a", "b", "c", "d", "y", "x"],
                    "score": [4.0, 3.0, 2.0, 1.0, 2.0, 1.0]})


class Counting:
    """A DuckDB connection that counts the statements run through it."""

    def __init__(self, con):
        self.con, self.statements = con, 0

    def __getattr__(self, name):
        method = getattr(self.con, name)
        if name not in ("execute", "sql"):
            return method

        def counted(*args, **kwargs):
            self.statements += 1
            return method(*args, **kwargs)
        return counted


def statements(measures: list[str]) -> int:
    counting = Counting(sqlrank.connect())
    sqlrank.evaluate(QRELS, RUN, measures, connection=counting)
    return counting.statements


def test_every_measure_of_trec_eval_runs_the_statements_of_one_measure():
    # relstring, trec_eval's text line of labels, is read by a statement of its own
    assert statements(["all_trec"]) == statements(["Rprec_mult", "relstring"]) == statements(["infAP", "relstring"])
    assert statements(["Rprec_mult"]) == statements(["infAP"]) == statements(["P@10"])


def plan_size(con, measures) -> int:
    return len(con.execute("EXPLAIN (FORMAT json) " + measures_sql(measures)).fetchall()[0][1])


def test_the_plan_of_every_measure_is_no_larger_than_the_plans_of_its_families_together():
    con = sqlrank.connect()
    sqlrank.evaluate(QRELS, RUN, ["all_trec"], connection=con)  # leaves the judged table of every measure
    every = parse_all(["all_trec"])
    families = collections.defaultdict(list)
    for measure in every:
        families[measure.definition.name].append(measure)
    base = plan_size(con, parse_all(["NumQ"]))  # reading the rankings, one value
    assert plan_size(con, every) - base <= sum(plan_size(con, family) - base for family in families.values())
    assert json.loads(con.execute("EXPLAIN (FORMAT json) " + measures_sql(every)).fetchall()[0][1])


def test_rprec_mult_beside_infap_keeps_its_values():
    result = sqlrank.evaluate(QRELS, RUN, ["Rprec_mult", "infAP", "Rprec"], names="canonical")
    values = {(row["query_id"], row["measure"]): row["value"] for row in result.per_query.to_pylist()}
    # q1, R = 3: c = (long)(m * 3 + 0.9); relevant ranks 1 and 3 among 4 retrieved
    assert values["q1", "RprecMult@0.2"] == pytest.approx(1 / 1, abs=1e-15)  # c = 1: [2]
    assert values["q1", "RprecMult@1"] == pytest.approx(2 / 3, abs=1e-15)    # c = 3: [2, 0, 1]
    assert values["q1", "RprecMult@2"] == pytest.approx(2 / 6, abs=1e-15)    # c = 6: [2, 0, 1, 0, -, -]
    assert values["q1", "Rprec"] == pytest.approx(2 / 3, abs=1e-15)
    # q2, R = 1: c = 1 at 0.2 and 1 ([0]), c = 2 at 1.4 ([0, 1])
    assert values["q2", "RprecMult@0.2"] == 0.0
    assert values["q2", "RprecMult@1.4"] == pytest.approx(1 / 2, abs=1e-15)
