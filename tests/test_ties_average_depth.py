"""ties='average' with depth (and judged_only): the expectation of each measure on the cut ranking.

depth keeps the first `depth` documents of each ordering, so a tie group across the depth is kept
in part, a different part in each ordering. The brute force evaluates every ordering of every tie
group as a run of its own under ties='trec' with the same depth (nothing tied there: the first
`depth` documents of that ordering) and averages; ties='average' must equal it to 1e-12. With
judged_only (and no depth) the tie groups are those of the judged run: the brute force runs
judged_only on every ordering of the whole run, which orders the judged documents every way
equally often. The measures whose expectation under a depth is not defined yet are refused by name.
"""

from __future__ import annotations

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sqlrank
from batched import batches
from sqlrank.errors import EvaluationError, MeasureError
from sqlrank.registry import REGISTRY
from test_ties import assert_close, brute_force_mean, small_cases, spelling, values

# every measure the average takes with a depth, at cutoffs below, at and beyond the depths drawn
CUT = [m for m in [spelling(d, 3) for d in REGISTRY.values()] + [spelling(d, 1) for d in REGISTRY.values() if d.cutoff]
       + [d.name for d in REGISTRY.values() if d.cutoff]
       if REGISTRY[m.split("@")[0]].ties_average and REGISTRY[m.split("@")[0]].ties_average_depth]
CUT += ["nDCG(gain=exp)@2", "AP(denominator=min_R_k)@4", "P(rel=2)@2", "RBP(p=0.5)", "SetF(beta=0.5)"]
# the measures that read only the judged documents' order fit judged_only; every averaged one takes it
JUDGED_ONLY = [m for m in [spelling(d, 3) for d in REGISTRY.values()] + [d.name for d in REGISTRY.values() if d.cutoff]
               if REGISTRY[m.split("@")[0]].ties_average]


def averaged(qrels, run, measures, **options) -> dict[tuple[str, str], float]:
    return {(query, measure): value for (_, query, measure), value in
            values(qrels, run, measures, ties="average", allow_disjoint=True, **options).items() if query in run}


@settings(max_examples=5, deadline=None)
@given(case=batches(small_cases(), 2), rel=st.sampled_from([1, 2]), depth=st.integers(1, 5))
def test_average_with_a_depth_is_the_mean_over_every_ordering_of_the_cut_ranking(case, rel, depth):
    qrels, run = case
    measures = [str(m) for m in sqlrank.parse_measures(CUT, rel=rel)]
    assert_close(averaged(qrels, run, measures, depth=depth), brute_force_mean(qrels, run, measures, depth=depth))


@settings(max_examples=4, deadline=None)
@given(case=batches(small_cases(), 2), rel=st.sampled_from([1, 2]))
def test_average_with_judged_only_is_the_mean_over_every_ordering_of_the_judged_run(case, rel):
    qrels, run = case
    measures = [str(m) for m in sqlrank.parse_measures(JUDGED_ONLY, rel=rel)]
    judged = {query: scores for query, scores in run.items()
              if any(qrels.get(query, {}).get(doc, -1) >= 0 for doc in scores)}
    if not judged:  # judged_only refuses a run without a judged document
        return
    assert_close(averaged(qrels, judged, measures, judged_only=True),
                 brute_force_mean(qrels, judged, measures, judged_only=True))


def test_a_tie_group_across_the_depth_by_hand():
    """d alone first, then a = 2, b = 0, c = 1 tied, depth 2: rank 2 holds each of them with chance 1/3."""
    qrels = {"q": {"a": 2, "b": 0, "c": 1}}
    run = {"q": {"d": 2.0, "a": 1.0, "b": 1.0, "c": 1.0}}
    got = values(qrels, run, ["P@3", "AP", "RR", "NumRet", "Utility"], ties="average", depth=2)
    assert got[("run", "q", "P@3")] == pytest.approx((2 / 3) / 3, abs=1e-12)  # 3 stays P's denominator
    assert got[("run", "q", "AP")] == pytest.approx((2 / 3) * (1 / 2) / 2, abs=1e-12)
    assert got[("run", "q", "RR")] == pytest.approx((2 / 3) * (1 / 2), abs=1e-12)
    assert got[("run", "q", "NumRet")] == 2
    assert got[("run", "q", "Utility")] == pytest.approx(2 / 3 - (2 - 2 / 3), abs=1e-12)


@pytest.mark.parametrize("measure", ["bpref", "GMbpref", "binG", "nDCGrel", "RBPResidual", "SetAP",
                                     "nDCG(ideal=run)@3", "IDCG(ideal=run)"])
def test_the_measures_not_defined_under_a_depth_are_refused_by_name(measure):
    name = measure.split("(")[0].split("@")[0]
    with pytest.raises(MeasureError, match=rf"with a depth is not defined yet for {name}"):
        sqlrank.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0, "b": 1.0}}, [measure], ties="average", depth=1)
    # without a depth they are defined
    assert sqlrank.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0, "b": 1.0}}, [measure], ties="average").to_arrow()


def test_judged_only_with_a_depth_is_refused():
    with pytest.raises(EvaluationError, match="judged_only with a depth"):
        sqlrank.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["AP"], ties="average", judged_only=True, depth=5)


def test_the_shell_macros_take_the_depth_and_judged_only_as_python_does():
    con = sqlrank.connect()
    con.execute("CREATE TABLE qrels AS SELECT 'q' AS query_id, unnest(['a', 'b', 'c']) AS doc_id, "
                "unnest([2, 0, 1]) AS relevance")
    con.execute("CREATE TABLE run AS SELECT 'q' AS query_id, unnest(['a', 'b', 'c', 'd', 'e']) AS doc_id, "
                "unnest([1.0, 1.0, 1.0, 2.0, 0.5]) AS score")
    qrels = {"q": {"a": 2, "b": 0, "c": 1}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 1.0, "d": 2.0, "e": 0.5}}
    cases = [("ap", "AP", "depth := 2", {"depth": 2}), ("p", "P@3", "k := 3, depth := 3", {"depth": 3}),
             ("err", "ERR", "depth := 3", {"depth": 3}), ("ap", "AP", "judged_only := true", {"judged_only": True}),
             ("judged", "Judged@2", "k := 2, judged_only := true", {"judged_only": True})]
    for macro, measure, shell_options, options in cases:
        shell = con.execute(f"SELECT value FROM sqlrank.{macro}('qrels', 'run', ties := 'average', {shell_options})")
        python = sqlrank.evaluate(qrels, run, [measure], ties="average", **options).to_arrow().column("value")
        assert shell.fetchone()[0] == pytest.approx(python[0].as_py(), abs=1e-12), (macro, shell_options)
    with pytest.raises(duckdb.Error, match="with a depth is not defined yet for bpref"):
        con.execute("SELECT * FROM sqlrank.bpref('qrels', 'run', ties := 'average', depth := 2)").fetchall()
