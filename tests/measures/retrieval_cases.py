"""Random per-user cases for the recommender measures checked against torchmetrics' formulas by hand."""

import numpy as np
import pytest

import sqlrank


def assert_equal_to_by_hand(seed: int, name: str, by_hand) -> None:
    """sqlrank's per-user values of `name` (a random cutoff on odd seeds) equal by_hand(preds, target, top_k)
    on 8 users with 1-14 items each, distinct scores and 0/1 targets (torchmetrics' retrieval inputs)."""
    generator = np.random.default_rng(seed)
    qrels, run, expected = {}, {}, {}
    top_k = int(generator.integers(1, 12)) if seed % 2 else None
    for user in range(8):
        items = int(generator.integers(1, 15))
        preds = generator.permutation(items) + generator.random(items) / 2  # distinct scores
        target = generator.integers(0, 2, items)
        qrels[f"u{user}"] = {f"i{i}": int(target[i]) for i in range(items)}
        run[f"u{user}"] = {f"i{i}": float(preds[i]) for i in range(items)}
        expected[f"u{user}"] = by_hand(preds, target, top_k)
    measure = name + (f"@{top_k}" if top_k else "")
    assert sqlrank.evaluate(qrels, run, [measure]).per_query.to_pylist() == [
        {"run_id": "run", "query_id": user, "measure": measure, "value": pytest.approx(value, abs=1e-12)}
        for user, value in sorted(expected.items())]
