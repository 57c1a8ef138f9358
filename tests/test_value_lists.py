"""trec_eval's value-list parameters and custom gain maps, in trec_eval's and ir_measures' spellings.

`out.test.meas_params` (tests/data/trec_eval/README.md gives its trec_eval command line) holds
custom cutoffs, recall levels, R multiples, utility weights, 11pt_avg levels and the gain map
1->3, 2->9, 4->4.5: `sqlrank eval -f trec` with the same -m arguments prints it byte for byte.
"""

from __future__ import annotations

import math

import pytest

import sqlrank
from sqlrank.cli import run

MEAS_PARAMS = ["-miprec_at_recall..10,.20,.25,.75,.50", "-m", "P.5,7,3", "-m", "recall.20,2000", "-m",
               "Rprec_mult.5.0,0.2,0.35", "-mutility.2,-1,0,0", "-m", "11pt_avg..25,.5,.75", "-mndcg.1=3,2=9,4=4.5",
               "-mndcg_cut.10,20,23.4", "-msuccess.2,5,20"]


def test_meas_params_byte_for_byte(trec_data, capsysbinary):
    assert run(["eval", "-q", "-f", "trec", *MEAS_PARAMS, str(trec_data / "qrels.test"),
                str(trec_data / "results.test")]) == 0
    assert capsysbinary.readouterr().out.decode() == (trec_data / "out.test.meas_params").read_text()


@pytest.mark.parametrize("trec, ir_measures", [
    ("utility.2,-1,0,0", "Utility(relevant_retrieved=2)"),
    ("set_F.0.5", "SetF(beta=0.5)"),
    ("11pt_avg..25,.5,.75", "AvgIPrec(levels=[0.25,0.5,0.75])"),
    ("ndcg.1=3,2=9,4=4.5", "nDCG(gains={1:3,2:9,4:4.5})"),
    ("dcg.1=3,2=9", "DCG(gains={1:3,2:9})"),
    ("ideal_dcg.2=5", "IDCG(gains={2:5})"),
    ("CG.1=0.5", "CG(gains={1:0.5})"),
    ("iprec_at_recall..20,.10", "IPrec@0.1"),
    ("Rprec_mult.5.0,0.2", "RprecMult@0.2"),
])
def test_trec_value_lists_mean_the_ir_measures_spelling(trec, ir_measures):
    assert str(sqlrank.parse_measures(trec)[0]) == ir_measures
    assert str(sqlrank.parse_measures(ir_measures)[0]) == ir_measures


QRELS = {"q": {"a": 1, "b": 2, "c": 4, "d": 3, "e": 0}}
RUN = {"q": {"a": 5.0, "e": 4.0, "b": 3.0, "c": 2.0}}  # ranks a, e, b, c


def test_gain_map_numbers_by_hand():
    # gains a=3 (1->3), b=9 (2->9), c=4.5 (4->4.5), d=3 (3 is not named: linear), e=0
    dcg = 3 + 0 + 9 / math.log2(4) + 4.5 / math.log2(5)
    ideal = 9 + 4.5 / math.log2(3) + 3 / math.log2(4) + 3 / math.log2(5)  # sorted by gain, not by label
    result = sqlrank.evaluate(QRELS, RUN, ["DCG(gains={1:3,2:9,4:4.5})", "IDCG(gains={1:3,2:9,4:4.5})",
                                           "ndcg.1=3,2=9,4=4.5", "CG(gains={1:3,2:9,4:4.5})@2"])
    assert list(result.summary.values()) == pytest.approx([dcg, ideal, dcg / ideal, 3.0], abs=1e-12)


def test_gain_map_in_the_shell_macros(con):
    expected = sqlrank.evaluate(QRELS, RUN, ["nDCG(gains={1:3,2:9,4:4.5})@3"]).summary
    con.execute("CREATE TABLE qrels AS SELECT * FROM (VALUES ('q', 'a', 1), ('q', 'b', 2), ('q', 'c', 4), "
                "('q', 'd', 3), ('q', 'e', 0)) t(query_id, doc_id, relevance)")
    con.execute("CREATE TABLE run AS SELECT * FROM (VALUES ('q', 'a', 5.0), ('q', 'e', 4.0), ('q', 'b', 3.0), "
                "('q', 'c', 2.0)) t(query_id, doc_id, score)")
    value = con.execute("SELECT value FROM sqlrank.ndcg('qrels', 'run', k := 3, gain := '{1:3,2:9,4:4.5}')").fetchone()[0]
    assert value == pytest.approx(expected["nDCG(gains={1:3,2:9,4:4.5})@3"], abs=1e-12)


def test_set_f_beta_and_utility_by_hand():
    # relevant: a, b, c, d (R = 4); retrieved 4, relevant retrieved 3 -> P = 3/4, R = 3/4
    result = sqlrank.evaluate(QRELS, RUN, ["set_F.0.5", "utility.2,-1,0,0", "utility.1,-1,-2,0"])
    p = r = 3 / 4
    assert list(result.summary.values()) == pytest.approx([1.5 * p * r / (0.5 * p + r), 2 * 3 - 1, 3 - 1 - 2])


@pytest.mark.parametrize("spelling, message", [
    ("utility.2,-1,0,1", "collection.s size"),
    ("utility.2,-1", "takes 4 value"),
    ("ndcg.-1=1", "label >= 0"),  # label 0 takes a gain (tests/test_gain_label_zero.py)
    ("nDCG(gains={1:3,1:4})", "two gains"),
    ("nDCG(gains={1:x})", "must be a number"),
    ("nDCG(gain=exp,gains={1:3})", "not both"),
    ("AvgIPrec(levels=[0.5,2])", "from 0 to 1"),
])
def test_bad_value_lists_are_refused(spelling, message):
    with pytest.raises(sqlrank.MeasureError, match=message):
        sqlrank.parse_measures(spelling)
