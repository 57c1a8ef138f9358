"""sqlrank compare against ranx's compare on trec_eval's conformance data (qrels.test, generated runs).

The t-test p-values agree to 1e-9 (both are a paired Student t over the same
per-query values; ranx's own nDCG and AP equal trec_eval's here). The
randomization p-values agree within Monte-Carlo error, not exactly: ranx draws
its own permutations (numpy's generator under numba, seed 42, 1,000 by default;
here 10,000), counts p = as_extreme / permutations without counting the observed
assignment, and compares |difference| >= |observed| without a rounding allowance;
sqlrank uses hashed sign flips, (as_extreme + 1) / (trials + 1), and is exact
when 2^queries <= trials.
"""

from __future__ import annotations

import math
import random

import pytest

import sqlrank

from ranx_reference import ranx


def generated_runs(trec_data, count: int = 3) -> dict[str, dict]:
    """results.test with its scores perturbed by seeded noise: runs that rank the same documents differently,
    with no tied scores inside a query (where ranx and sqlrank could order ties apart)."""
    lines = [line.split() for line in (trec_data / "results.test").read_text().splitlines() if line.strip()]
    runs = {}
    for number in range(count):
        rng = random.Random(number)
        run: dict = {}
        for query, _, doc, _, score, _ in lines:
            run.setdefault(query, {})[doc] = float(score) + rng.gauss(0, 0.5 * number + 0.01)
        runs[f"gen{number}"] = run
    return runs


def qrels_dict(trec_data) -> dict:
    qrels: dict = {}
    for query, _, doc, label in (line.split() for line in (trec_data / "qrels.test").read_text().splitlines()):
        qrels.setdefault(query, {})[doc] = int(label)
    return qrels


def ranx_p_values(qrels, runs, metric: str, stat_test: str) -> dict:
    report = ranx.compare(ranx.Qrels(qrels), [ranx.Run(run, name=name) for name, run in runs.items()],
                          metrics=[metric], stat_test=stat_test, n_permutations=10_000, random_seed=42)
    found = report.to_dict()
    return {name: found[name]["comparisons"] for name in runs}, {name: found[name]["scores"] for name in runs}


@pytest.mark.parametrize("ours, theirs", [("nDCG@10", "ndcg@10"), ("AP", "map")])
def test_t_test_and_randomization_agree_with_ranx(trec_data, ours, theirs):
    runs = generated_runs(trec_data)
    qrels = qrels_dict(trec_data)
    student, scores = ranx_p_values(qrels, runs, theirs, "student")
    fisher, _ = ranx_p_values(qrels, runs, theirs, "fisher")
    comparison = sqlrank.compare(qrels, runs, [ours], baseline="gen0", tests=["ttest", "randomization"],
                                 correction="none", trials=10_000)
    for name in ("gen1", "gen2"):
        row = comparison.row(name, ours)
        assert row["mean"] == pytest.approx(scores[name][theirs], abs=1e-9)
        assert row["ttest_p_value"] == pytest.approx(student["gen0"][name][theirs], abs=1e-9)
        p = row["randomization_p_value"]
        error = math.sqrt(max(p * (1 - p), 1e-4) / 10_000)
        assert abs(p - fisher["gen0"][name][theirs]) <= 5 * error + 2 / 10_000, (name, p, fisher["gen0"][name])
