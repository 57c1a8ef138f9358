"""Many measures in one evaluation: past engine.DIRECT_CALLS_UP_TO the measures are mapped over their cutoffs.

Both ways must give the same numbers, in the order asked for, bit for bit.
"""

from __future__ import annotations

import random

import sqlrank
from sqlrank import engine

QRELS = {f"q{q}": {f"d{d}": (q * 7 + d) % 4 - (1 if d % 11 == 0 else 0) for d in range(0, 40, 3)} for q in range(6)}
RUN = {f"q{q}": {f"d{d}": float((q * 13 + d * 5) % 17) for d in range(30)} for q in range(5)}


def test_more_measures_than_direct_calls_give_the_same_numbers_in_the_order_asked():
    families = ["nDCG", "AP", "RR", "P", "R", "Success", "NumRelRet", "DCG(gain=exp)", "P(rel=2)", "NumRet"]
    names = [f"{family}@{k}" for family in families for k in (1, 3, 5, 10, 20)] + ["bpref", "Rprec", "NumRel", "AP"]
    random.Random(7).shuffle(names)
    assert len(names) > engine.DIRECT_CALLS_UP_TO
    together = sqlrank.evaluate(QRELS, RUN, names)
    assert together.measures == [str(m) for m in sqlrank.parse_measures(names)]
    rows = together.to_arrow().to_pylist()
    for name in names:
        alone = {(row["query_id"]): row["value"] for row in sqlrank.evaluate(QRELS, RUN, [name]).to_arrow().to_pylist()}
        canonical = str(sqlrank.parse_measures([name])[0])
        assert {row["query_id"]: row["value"] for row in rows if row["measure"] == canonical} == alone, name
    # per query, the measures come in the order asked for
    first_query = [row["measure"] for row in rows if row["query_id"] == rows[0]["query_id"]]
    assert first_query == together.measures
