"""The benchmark's reports: results of runs made at the same time merged into one table, and why the
Python tools stop at 10M said from their measured memory.

A 100M run takes an hour where the 1M and 10M runs take half of one, so the two can run at the same
time from copies of benchmarks/ and be merged (`run.py --merge`); the merged table must keep every
result once and give a result run without its floor its ratio to the floor's run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
pytest.importorskip("matplotlib")  # the reports draw the plot
import run  # noqa: E402


def record(contender: str, size: str, wall: float, cpu: float, rss: float, **extra) -> dict:
    return {"contender": contender, "size": size, "rows": run.generate.SIZES[size], "description": contender,
            "median_s": wall, "median_cpu_s": cpu, "peak_rss_mb": rss, **extra}


def results_file(path: Path, command: str, results: list[dict]) -> Path:
    machine = {"cpu": "cpu", "cores": 2, "memory_gb": 8, "os": "os", "python": "3", "versions": {}}
    path.write_text(json.dumps({"machine": machine, "command": command, "checks": {}, "results": results}))
    return path


def test_merge_adds_the_other_runs_and_gives_them_their_floors_ratios(tmp_path, monkeypatch):
    monkeypatch.setattr(run, "HERE", tmp_path)
    results_file(tmp_path / "results.json", "python benchmarks/run.py --sizes 1M,10M", [
        record("floor-trec", "10M", 10.0, 4.0, 800),
        record("pytrec_eval", "1M", 3.0, 1.0, 230),
        record("pytrec_eval", "10M", 30.0, 10.0, 2000),
        record("ranx", "10M", 1.0, 1.0, 1),  # replaced by the merged run's ranx
    ])
    other = results_file(tmp_path / "other.json", "python benchmarks/run.py --sizes 10M --contenders ranx", [
        record("ranx", "10M", 50.0, 20.0, 4096),
        record("ranx", "1M", 5.0, 2.0, 410),
    ])

    run.merge([other])

    merged = json.loads((tmp_path / "results.json").read_text())
    assert [(r["size"], r["contender"]) for r in merged["results"]] == [
        ("1M", "pytrec_eval"), ("1M", "ranx"), ("10M", "floor-trec"), ("10M", "pytrec_eval"), ("10M", "ranx")]
    ranx = merged["results"][-1]
    assert ranx["median_s"] == 50.0
    assert ranx["ratio_to_floor"] == pytest.approx(5.0) and ranx["cpu_ratio_to_floor"] == pytest.approx(5.0)
    assert merged["command"].endswith("; python benchmarks/run.py --sizes 10M --contenders ranx")
    report = (tmp_path / "results.md").read_text()
    # the peers' memory at 1M and 10M, and ten times the 10M peak for 100M
    assert "pytrec_eval 230 MB at 1M and 2,000 MB at 10M (~20 GB at 100M)" in report
    assert "ranx 410 MB at 1M and 4,096 MB at 10M (~40 GB at 100M)" in report
    assert (tmp_path / "time_vs_rows.png").stat().st_size > 0
