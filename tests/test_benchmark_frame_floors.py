"""The floors of the TREC-checked and DataFrame benchmark rows compute what sqlrank computes.

As tests/test_benchmark_floor.py does for the Parquet floors: on the benchmark's own generated
data (100k rows), every value, per query and mean, compared with sqlrank.evaluate to 1e-9.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

import sqlrank

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import generate  # noqa: E402

FIVE = ["nDCG@10", "AP", "RR", "P@10", "R@100"]
FRAME = ["nDCG@10", "R@20"]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict:
    return generate.generate("100k", tmp_path_factory.mktemp("bench"))


def contender(name: str, files: dict, out: Path, fmt: str, *extra: str) -> tuple[dict, dict]:
    """(its values by (query_id, measure), the JSON it printed)."""
    done = subprocess.run([sys.executable, str(BENCHMARKS / "contenders.py"), name, str(files[f"qrels_{fmt}"]),
                           str(files[f"run_{fmt}"]), "-o", str(out), *extra], check=True, capture_output=True,
                          text=True)
    with out.open(newline="") as handle:
        values = {(row["query_id"], row["measure"]): float(row["value"]) for row in csv.DictReader(handle)}
    return values, json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else {}


def sqlrank_values(files: dict, measures: list[str]) -> dict[tuple[str, str], float]:
    table = sqlrank.evaluate(files["qrels_parquet"], files["run_parquet"], measures).to_arrow().to_pylist()
    return {(row["query_id"], row["measure"]): row["value"] for row in table}


@pytest.mark.parametrize("name, measures, fmt, extra", [
    ("floor-trec-checked", FIVE, "trec", ()),
    ("floor-polars", FRAME, "parquet", ()),
    ("sqlrank-frame", FRAME, "parquet", ("--frame", "polars")),
    ("sqlrank-frame", FRAME, "parquet", ("--frame", "pandas")),
])
def test_the_contender_gives_sqlranks_numbers(files, tmp_path, name, measures, fmt, extra):
    values, printed = contender(name, files, tmp_path / "out.csv", fmt, *extra)
    ours = sqlrank_values(files, measures)
    assert values.keys() == ours.keys()
    assert len({query for query, _ in ours}) == 1001  # 1,000 judged queries and the mean
    worst = max(abs(values[key] - ours[key]) for key in ours)
    assert worst <= 1e-9, worst
    assert 0.05 < ours[("all", measures[0])] < 0.5
    if name != "floor-trec-checked":  # the DataFrame rows time their evaluation apart from making the frames
        assert printed["eval_cpu_s"] > 0 and printed["eval_s"] > 0
