"""sqlrank.running_sum (sql/21_ranking_parts.sql): the prefix sums G, nDCGrel and RnDCG index into."""

import itertools
import math
import random

import pytest

import sqlrank


@pytest.mark.parametrize("length", [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 100, 1000])
def test_running_sum_is_the_prefix_sums(con, length):
    terms = [random.Random(length).uniform(-3, 3) for _ in range(length)]
    got = con.execute("SELECT sqlrank.running_sum(CAST(? AS DOUBLE[]))", [terms]).fetchone()[0]
    # added in a tree, not one by one: equal to the loop's sums within rounding
    assert got == pytest.approx(list(itertools.accumulate(terms)), rel=1e-12, abs=1e-12)


def test_g_of_a_long_ranking_is_the_plain_loops():
    # 400 judged documents retrieved, so the prefix sums take nine doubling passes; m_G.c's loop written out
    labels = [(7 * i) % 4 for i in range(400)]
    qrels = {"q": {f"d{i}": label for i, label in enumerate(labels)}}
    run = {"q": {f"d{i}": 1000.0 - i for i in range(400)}}
    result = {row["measure"]: row["value"] for row in sqlrank.evaluate(qrels, run, ["G"]).per_query.to_pylist()}
    ideal = sorted((label for label in labels if label > 0), reverse=True)
    gained = cost = g = 0.0
    for rank, label in enumerate(labels, start=1):
        cost += max(ideal[rank - 1], 1) if rank <= len(ideal) else 1
        if label > 0:
            gained += label
            g += label / math.log2(2 + cost - gained)
    assert result["G"] == pytest.approx(g / sum(ideal), abs=1e-9)
