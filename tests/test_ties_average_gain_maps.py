"""ties='average' with a gain map: the mean over every order of the tie groups (test_ties' brute force)."""

from __future__ import annotations

import sqlrank
from test_ties import assert_close, brute_force_mean

# q1: a, b, c tied at 2.0, then d and x tied; q2: e, f tied, then g, h tied (h unjudged)
QRELS = {"q1": {"a": 2, "b": 1, "c": 0, "d": 3}, "q2": {"e": 1, "f": 2, "g": 0}}
RUN = {"q1": {"a": 2.0, "b": 2.0, "c": 2.0, "d": 1.0, "x": 1.0}, "q2": {"e": 5.0, "f": 5.0, "g": 4.0, "h": 4.0}}
MEASURES = ["ERR(gains={1:2,2:3})@3", "ndcg_rel.1=3,2=0.5", "Rndcg.2=5", "rbp.1=-1,3=2", "ERR@10"]


def test_average_with_gain_maps_is_the_mean_over_every_order():
    averaged = sqlrank.evaluate(QRELS, RUN, MEASURES, ties="average")
    values = {(row["query_id"], row["measure"]): row["value"]
              for row in averaged.per_query.to_pylist()}
    assert_close(values, brute_force_mean(QRELS, RUN, MEASURES))
    # the maps matter: the tie groups hold labels the maps change
    plain = sqlrank.evaluate(QRELS, RUN, ["ERR@3", "ndcg_rel", "Rndcg", "rbp"], ties="average").per_query.to_pylist()
    assert sorted(row["value"] for row in plain) != sorted(
        value for (_, measure), value in values.items() if measure != "ERR@10")
