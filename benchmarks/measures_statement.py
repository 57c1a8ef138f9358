"""Time the measures statement alone: every measure from the judged table, after the ranking pass.

    python benchmarks/measures_statement.py benchmarks/.data/10M --set five|wide [--repeat 5]
    python benchmarks/measures_statement.py benchmarks/.data/1M --cutoffs 50,100,200,400,800

The inputs are read and ranked once; then the statement runs `--repeat` times and the median wall
and CPU time (user + system of this process, all DuckDB threads) are printed. CPU time is the work
done, and the figure to compare on a machine that is not idle. `--cutoffs N,...` evaluates
P@1..N/2 and R@1..N/2 (N measure/cutoff pairs) for each N, to show how the statement grows with the
number of measures. Run it with PYTHONPATH naming another checkout to compare two versions.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import sqlrank
from sqlrank import engine, readers
from sqlrank.measures import parse_all

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import MEASURES, WIDE_SET  # noqa: E402

SETS = {"five": MEASURES, "wide": WIDE_SET}


def time_statement(folder: Path, names: list[str], repeat: int) -> tuple[float, float]:
    measures = parse_all(names)
    con = sqlrank.connect()
    report = readers.load_inputs(con, folder / "qrels.parquet", folder / "run.parquet", {})
    for statement in engine._judged_sql(report.run_tables, engine.ranking_depth(measures, None), "double",
                                        engine.reads_zero_labels(measures)):
        con.execute(statement)
    sql = engine.measures_sql(measures, run_order=list(report.runs) or None)
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        con.sql(sql).to_arrow_table()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a size folder made by benchmarks/generate.py")
    parser.add_argument("--set", choices=SETS, default="five")
    parser.add_argument("--cutoffs", help="comma-separated numbers of measure/cutoff pairs")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if args.cutoffs:
        for pairs in (int(n) for n in args.cutoffs.split(",")):
            names = [f"{m}@{k}" for m in ("P", "R") for k in range(1, pairs // 2 + 1)]
            wall, cpu = time_statement(args.folder, names, args.repeat)
            print(f"{pairs} pairs: wall {wall:.3f} s, CPU {cpu:.3f} s", flush=True)
    else:
        wall, cpu = time_statement(args.folder, SETS[args.set], args.repeat)
        print(f"{args.set}: wall {wall:.3f} s, CPU {cpu:.3f} s")


if __name__ == "__main__":
    main()
