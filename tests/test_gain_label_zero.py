"""A gain map that names label 0 (ir_measures' gains={0:1,...}, trec_eval's ndcg.0=1,1=2): judged non-relevant
documents get that gain, in the run's DCG and in the ideal ranking, through Python and the SQL macros.

Checked against trec_eval 10 to 17 digits (tests/data/trec_eval/README.md, "A gain for label 0") and against
ir_measures (its pytrec_eval provider).
"""

from __future__ import annotations

import math

import pytest

import sqlrank
from sqlrank.measures import trec_name

GAINS = "{0:1,1:2}"
# trec_eval's measure, sqlrank's shell macro (sqlrank.<macro>('qrels', 'run', gain := ...))
MEASURES = {"ndcg": "ndcg", "dcg": "dcg", "ideal_dcg": "idcg", "G": "g", "Rndcg": "rndcg", "ndcg_rel": "ndcg_rel",
            "rbp": "graded_rbp"}


@pytest.fixture(scope="module")
def trec_eval_values(trec_data) -> dict[tuple[str, str], float]:
    """(trec_eval's measure name, query id) -> its 17-digit value."""
    lines = (trec_data / "out.rel_level.gain0_full").read_text().splitlines()
    return {(name.strip(), query): float(value) for name, query, value in (line.split("\t") for line in lines)}


def test_the_python_door_equals_trec_eval(trec_data, trec_eval_values):
    result = sqlrank.evaluate(trec_data / "qrels.rel_level", trec_data / "results.test",
                              [f"{name}.{GAINS[1:-1].replace(':', '=')}" for name in MEASURES])
    got = {(trec_name(result.measure(row["measure"])), row["query_id"]): row["value"]
           for row in result.rows(per_query=True).to_pylist()}
    assert len(trec_eval_values) == 28 and set(got) == set(trec_eval_values)
    assert {key: value for key, value in got.items()
            if not math.isclose(value, trec_eval_values[key], rel_tol=1e-12, abs_tol=1e-12)} == {}
    assert round(got[("ndcg_0=1,1=2", "all")], 4) == 0.2949  # without label 0's gain it would be 0.2802


def test_the_sql_macros_equal_trec_eval(trec_data, trec_eval_values):
    """nDCG (whose ideal ranking IDCG, RnDCG and nDCGrel share) and G (which filters the documents with a gain)."""
    con = sqlrank.connect()
    con.execute(f"CREATE TABLE qrels AS SELECT query_id, doc_id, relevance FROM read_csv("
                f"'{trec_data / 'qrels.rel_level'}', delim=' ', header=false, columns={{'query_id': 'VARCHAR', "
                "'iter': 'VARCHAR', 'doc_id': 'VARCHAR', 'relevance': 'DOUBLE'})")
    con.execute(f"CREATE TABLE run AS FROM sqlrank.read_trec_run('{trec_data / 'results.test'}')")
    calls = " UNION ALL ".join(f"SELECT '{name}_0=1,1=2' AS measure, * FROM sqlrank.{macro}('qrels', 'run', "
                               f"gain := '{GAINS}')" for name, macro in MEASURES.items() if name in ("ndcg", "G"))
    rows = con.execute(calls).fetchall()
    con.close()
    assert len(rows) == 6
    assert {(measure, query): value for measure, query, value in rows
            if not math.isclose(value, trec_eval_values[(measure, query)], rel_tol=1e-12, abs_tol=1e-12)} == {}


def test_ndcg_equals_ir_measures(trec_data):
    import ir_measures
    from ir_measures import nDCG

    qrels = list(ir_measures.read_trec_qrels(str(trec_data / "qrels.rel_level")))
    run = list(ir_measures.read_trec_run(str(trec_data / "results.test")))
    asked = [nDCG(gains={0: 1, 1: 2}), nDCG(gains={0: 1, 1: 2}) @ 10, nDCG(gains={0: 1})]
    expected = ir_measures.pytrec_eval.calc_aggregate(asked, qrels, run)
    result = sqlrank.evaluate(trec_data / "qrels.rel_level", trec_data / "results.test", asked)
    assert result.summary == {str(m): pytest.approx(expected[m], rel=1e-12) for m in asked}


def test_label_zero_is_read_only_when_a_map_names_it():
    from sqlrank.engine import names_label_zero, reads_zero_labels

    assert names_label_zero("{0:1,1:2}") and names_label_zero("{2:9,0:0.5}")
    assert not names_label_zero("{1:3,10:9}") and not names_label_zero("linear")
    assert reads_zero_labels(sqlrank.parse_measures([f"nDCG(gains={GAINS})@10"]))
    assert not reads_zero_labels(sqlrank.parse_measures(["nDCG(gains={1:3,10:9})@10"]))
