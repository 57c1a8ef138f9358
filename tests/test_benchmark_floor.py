"""The benchmark's hand-written statements compute what sqlrank computes.

Every ratio in benchmarks/results.md is sqlrank's time over a floor's, so the
floors must compute the same numbers: this runs them on the benchmark's own
generated data (the smallest size: 1,000 queries with ties, graded labels,
run-only and qrels-only queries) and compares every value, per query and
mean, with sqlrank.evaluate to 1e-9.
"""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

import sqlrank

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import generate  # noqa: E402

FIVE = ["nDCG@10", "AP", "RR", "P@10", "R@100"]
CUTOFFS = ["nDCG@10", "P@10", "RR@10"]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict:
    return generate.generate("100k", tmp_path_factory.mktemp("bench"))


def floor_values(name: str, files: dict, out: Path, fmt: str = "parquet") -> dict[tuple[str, str], float]:
    subprocess.run([sys.executable, str(BENCHMARKS / "contenders.py"), name, str(files[f"qrels_{fmt}"]),
                    str(files[f"run_{fmt}"]), "-o", str(out)], check=True, capture_output=True)
    with out.open(newline="") as handle:
        return {(row["query_id"], row["measure"]): float(row["value"]) for row in csv.DictReader(handle)}


def sqlrank_values(files: dict, measures: list[str]) -> dict[tuple[str, str], float]:
    table = sqlrank.evaluate(files["qrels_parquet"], files["run_parquet"], measures).to_arrow().to_pylist()
    return {(row["query_id"], row["measure"]): row["value"] for row in table}


# each floor with the files it reads: the same data as Parquet or as TREC text
@pytest.mark.parametrize("name, measures, fmt", [("floor", FIVE, "parquet"), ("floor-checked", FIVE, "parquet"),
                                                  ("floor-cutoffs", CUTOFFS, "parquet"), ("floor-trec", FIVE, "trec")])
def test_the_floor_gives_sqlranks_numbers(files, tmp_path, name, measures, fmt):
    floor = floor_values(name, files, tmp_path / f"{name}.csv", fmt)
    ours = sqlrank_values(files, measures)
    assert floor.keys() == ours.keys()
    # 1,000 run queries, 10 of them run-only, plus 10 qrels-only ones: 1,000 judged queries and the mean
    assert len({query for query, _ in ours}) == 1001
    worst = max(abs(floor[key] - ours[key]) for key in ours)
    assert worst <= 1e-9, worst
    assert 0.05 < ours[("all", measures[0])] < 0.5  # real numbers, not an empty evaluation


def test_the_floor_of_many_runs_gives_sqlranks_numbers_for_each_run(files, tmp_path):
    """floor-trec-runs (one statement over a folder of runs, the query ids prefixed with the run's name) gives each
    run the numbers sqlrank gives it, the queries each run missed and each run's mean included."""
    import duckdb

    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "first.trec").write_bytes(files["run_trec"].read_bytes())
    # the second run: the scores reversed, and its first query's documents left out (a query it missed)
    with files["run_trec"].open() as handle:
        missed = handle.readline().split(" ")[0]
    duckdb.sql(f"COPY (SELECT query_id, q0, doc_id, rank, -score, tag FROM read_csv('{files['run_trec']}', "
               "delim = ' ', header = false, columns = {'query_id': 'VARCHAR', 'q0': 'VARCHAR', 'doc_id': 'VARCHAR', "
               f"'rank': 'VARCHAR', 'score': 'DOUBLE', 'tag': 'VARCHAR'}}) WHERE query_id <> '{missed}') "
               f"TO '{runs / 'second.trec'}' (FORMAT csv, DELIMITER ' ', HEADER false, QUOTE '')")
    out = tmp_path / "floor.csv"
    subprocess.run([sys.executable, str(BENCHMARKS / "contenders.py"), "floor-trec-runs", str(files["qrels_trec"]),
                    str(runs), "-o", str(out)], check=True, capture_output=True)
    with out.open(newline="") as handle:
        floor = {(row["run_id"], row["query_id"], row["measure"]): float(row["value"])
                 for row in csv.DictReader(handle)}
    table = sqlrank.evaluate(files["qrels_trec"], sorted(runs.glob("*.trec")), FIVE).to_arrow().to_pylist()
    ours = {(row["run_id"], row["query_id"], row["measure"]): row["value"] for row in table}
    assert floor.keys() == ours.keys()
    assert max(abs(floor[key] - ours[key]) for key in ours) <= 1e-9
    assert ours[("first", "all", "AP")] != ours[("second", "all", "AP")]  # two runs, each with its own numbers
    assert ours[("second", missed, "AP")] == 0 < ours[("first", missed, "AP")]  # the query the second run missed


def test_the_checked_floor_stops_on_a_duplicate(files, tmp_path):
    import duckdb

    doubled = tmp_path / "run.parquet"
    duckdb.sql(f"COPY (SELECT * FROM read_parquet('{files['run_parquet']}') UNION ALL "
               f"(SELECT * FROM read_parquet('{files['run_parquet']}') LIMIT 1)) TO '{doubled}' (FORMAT parquet)")
    done = subprocess.run([sys.executable, str(BENCHMARKS / "contenders.py"), "floor-checked",
                           str(files["qrels_parquet"]), str(doubled), "-o", str(tmp_path / "out.csv")],
                          capture_output=True, text=True)
    assert done.returncode != 0
    assert "1 equal pair hashes" in done.stderr


def test_the_checked_floor_streams_a_large_input_as_sqlrank_does(files, monkeypatch):
    import duckdb

    import contenders

    con = duckdb.connect()
    fetched = contenders.check_file(con, str(files["run_parquet"]), "score")
    pair_screen = contenders.sqlrank_pair_screen()
    assert pair_screen.__file__ == str(BENCHMARKS.parent / "sqlrank" / "checks" / "pair_screen.py")  # sqlrank's own screen
    monkeypatch.setattr(pair_screen, "STREAM_FROM_ROWS", 1000)  # the 100k rows now come in batches
    streamed = contenders.check_file(con, str(files["run_parquet"]), "score")
    assert streamed[0] == fetched[0] == 100_000
    assert streamed == fetched == (100_000, 0, 0)
