"""What the multi-judge measures' test files share (AP_avgjg, P_avgjg, RprecMult_avgjg: trec_eval's *_avgjg):
the docs' worked example and the edge cases, evaluated once through Python and once through the shell's
table macros, which must agree."""

from __future__ import annotations

import functools

import pyarrow as pa

import sqlrank

# the worked example of docs/measures.md#multi-judge-measures: judge 1 finds a and b relevant, judge 2 c; ranking a c b
ROWS = [("q", "1", "a", 1), ("q", "1", "b", 1), ("q", "2", "c", 1)]
RUN = {"q": {"a": 3.0, "c": 2.0, "b": 1.0}}
# the edge cases, each a query of its own:
#   norel    judge 1 finds a relevant, judge 2 judges b non-relevant and a -1 (unjudged): judge 2 adds 0, counts in J
#   missed   in the judgments, not in the run; graded: labels 2 and 1 (rel=2 keeps the 2s only)
#   short    one judge, one relevant document, a run of one document: P_avgjg@5 still divides by 5
EDGE_ROWS = [("norel", "1", "a", 1), ("norel", "2", "b", 0), ("norel", "2", "a", -1),
             ("missed", "1", "a", 1),
             ("graded", "x", "a", 2), ("graded", "x", "b", 1), ("graded", "y", "b", 2),
             ("short", "0", "a", 1)]
EDGE_RUN = {"norel": {"a": 2.0, "b": 1.0}, "graded": {"a": 2.0, "b": 1.0}, "short": {"a": 1.0}}
ASKED = ("AP_avgjg", "AP_avgjg(rel=2)", "P_avgjg@1", "P_avgjg@2", "P_avgjg@5", "P_avgjg()", "RprecMult_avgjg@1",
         "RprecMult_avgjg@0.2", "RprecMult_avgjg(rel=2)@1")


def judges(rows):
    return pa.table({name: list(column) for name, column in
                     zip(("query_id", "judge_id", "doc_id", "relevance"), zip(*rows))})


@functools.cache
def _values() -> dict[tuple[str, str], float]:
    """{(measure, query): value} of every measure asked over the example and the edge cases, Python and shell."""
    rows, run = ROWS + EDGE_ROWS, RUN | EDGE_RUN
    result = sqlrank.evaluate(None, run, list(ASKED), judge_qrels=judges(rows))
    python = {(row["measure"], row["query_id"]): row["value"] for row in result.per_query.to_pylist()}
    with sqlrank.connect() as con:
        con.register("judges", judges(rows))
        sqlrank.load_run(con, run, "run")
        for measure in ASKED:
            (parsed,) = sqlrank.parse_measures([measure])
            named = {"k": parsed.k} if parsed.definition.cutoff else {}
            named |= {name: parsed.param(name) for name in parsed.definition.params}
            arguments = ", ".join(f"{name} := {value}" for name, value in named.items() if value is not None)
            shell = dict(con.execute(f"SELECT query_id, value FROM sqlrank.{parsed.definition.macro}"
                                     f"('judges', 'run'{', ' + arguments if arguments else ''})").fetchall())
            assert shell == {query: value for (name, query), value in python.items() if name == measure}, measure
    return python


def judged(measure: str, query: str = "q") -> float:
    """One measure's value for one query of the example and the edge cases."""
    return _values()[(measure, query)]
