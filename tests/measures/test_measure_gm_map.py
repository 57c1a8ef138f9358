"""GMAP (sql/measures/gm_map.sql), trec_eval's gm_map: AP per query, geometric mean in the `all` row."""

import math

import pytest

import sqlrank

# q1: R = 2, relevant at ranks 1 and 4 -> AP = (1 + 2/4) / 2 = 0.75; q2: nothing relevant retrieved -> 0;
# q3: judged, not in the run -> 0 (missing="zero", trec_eval -c)
QRELS = {"q1": {"a": 1, "d": 1}, "q2": {"z": 1}, "q3": {"a": 1}}
RUN = {"q1": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}, "q2": {"a": 1.0}}


def test_per_query_it_is_ap(score):
    assert score("GMAP", QRELS, RUN) == {"q1": 0.75, "q2": 0.0, "q3": 0.0}


def test_the_all_row_is_the_geometric_mean_floored_at_1e_5():
    summary = sqlrank.evaluate(QRELS, RUN, ["gm_map", "AP"]).summary
    assert summary["gm_map"] == pytest.approx(math.exp((math.log(0.75) + 2 * math.log(1e-5)) / 3), rel=1e-12)
    assert summary["AP"] == pytest.approx(0.75 / 3, rel=1e-12)
    skipped = sqlrank.evaluate(QRELS, RUN, ["GMAP"], missing="skip").summary
    assert skipped["GMAP"] == pytest.approx(math.exp((math.log(0.75) + math.log(1e-5)) / 2), rel=1e-12)


def test_the_sql_summary_uses_the_same_aggregate():
    with sqlrank.connect() as con:
        con.execute("CREATE TABLE results AS SELECT * FROM (VALUES ('q1', 'GMAP', 0.5), ('q2', 'GMAP', 0.02),"
                    " ('q3', 'GMAP', 0.0)) AS t(query_id, measure, value)")
        (value,) = con.execute("SELECT value FROM sqlrank.summary('results')").fetchone()
    assert value == pytest.approx(math.exp((math.log(0.5) + math.log(0.02) + math.log(1e-5)) / 3), rel=1e-12)
