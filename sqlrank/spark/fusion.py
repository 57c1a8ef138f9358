"""Fusion on Spark: refused by name, with the way to do it (docs/fusion.md#spark)."""

from __future__ import annotations

from ..errors import EvaluationError

REFUSAL = ("fusion is not in the Spark door: fuse with sqlrank.fuse (or `sqlrank fuse`), which DuckDB runs out of "
           "core on one machine, write the fused run to a file (Parquet), and evaluate that file here "
           "(sqlrank.spark.evaluate) like any other run")


def fuse(*runs, **options):
    """Refused: see REFUSAL."""
    raise EvaluationError(REFUSAL)


def optimize_fusion(*arguments, **options):
    """Refused: see REFUSAL."""
    raise EvaluationError(REFUSAL)
