"""evaluate(..., names="asked"): each measure under the name it was asked by; the canonical one on request."""

from __future__ import annotations

import pytest

import sqlrank

QRELS = {"q": {"a": 1, "b": 2}}
RUN = {"q": {"a": 2.0, "b": 1.0}}


def test_the_names_asked_for():
    result = sqlrank.evaluate(QRELS, RUN, ["map", "HitRate@10", "P.5,10", "nDCG@10,20", "AP", "ndcg_cut_10"],
                              names="asked")
    # AP and ndcg_cut_10 are map and nDCG@10 again: kept once, under the first name
    assert result.measures == ["map", "HitRate@10", "P_5", "P_10", "nDCG@10", "nDCG@20"]
    assert list(result.summary) == result.measures
    assert [result.canonical(name) for name in result.measures] == ["AP", "Success@10", "P@5", "P@10", "nDCG@10",
                                                                    "nDCG@20"]
    assert {row["measure"] for row in result.to_arrow().to_pylist()} == set(result.measures)
    # the trec layout still prints trec_eval's names
    assert sqlrank.export.render(result, "trec").decode().splitlines()[0].startswith("map ")


def test_names_as_asked_by_default_canonical_on_request_and_the_choice_checked():
    assert list(sqlrank.evaluate(QRELS, RUN, ["map", "P.5", "HitRate@10"]).summary) == ["map", "P.5", "HitRate@10"]
    assert list(sqlrank.evaluate(QRELS, RUN, ["map", "P.5", "HitRate@10"], names="canonical").summary) == \
        ["AP", "P@5", "Success@10"]
    with pytest.raises(sqlrank.EvaluationError, match="unknown names 'mine'"):
        sqlrank.evaluate(QRELS, RUN, ["map"], names="mine")


def test_aggregates_follow_the_names():
    result = sqlrank.evaluate(QRELS, RUN, ["map"], names="asked", aggregates=["median"])
    assert result.aggregates.to_pylist() == [{"run_id": "run", "measure": "map", "aggregate": "median",
                                              "value": pytest.approx(1.0)}]
