"""The cost of each tie policy against `trec`: CPU time (user + sys) of `sqlrank eval` on the benchmark data.

    python benchmarks/ties.py --rows 10M --repeat 3

Each round runs every policy once, in turn, as its own process (`python -m sqlrank eval`,
Parquet, the five default measures, every per-query value written as CSV to /dev/null), so
that a change in the machine's load hits every policy alike; the median CPU time and wall time
of the rounds are printed as a Markdown table. CPU time, not wall time, is the figure to read
on a shared machine. Data: benchmarks/generate.py (generated on first use by run.py).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

POLICIES = ("trec", "docid_asc", "optimistic", "pessimistic", "average", "input")


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one(data: Path, ties: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one `sqlrank eval` process."""
    command = [sys.executable, "-m", "sqlrank", "eval", str(data / "qrels.parquet"), str(data / "run.parquet"),
               "-q", "-f", "csv", "-o", "/dev/null", "--ties", ties]
    before, start = cpu_seconds(), time.perf_counter()
    subprocess.run(command, check=True, stderr=subprocess.DEVNULL)
    return cpu_seconds() - before, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="10M")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workdir", type=Path, default=Path(__file__).parent / ".data")
    args = parser.parse_args()
    data = args.workdir / args.rows
    times = {ties: [] for ties in POLICIES}
    for _ in range(args.repeat):
        for ties in POLICIES:
            times[ties].append(one(data, ties))
    trec_cpu = statistics.median(cpu for cpu, _ in times["trec"])
    print(f"| ties ({args.rows} run rows, median of {args.repeat}) | CPU s | × trec | wall s |")
    print("| --- | ---: | ---: | ---: |")
    for ties, rounds in times.items():
        cpu = statistics.median(c for c, _ in rounds)
        wall = statistics.median(w for _, w in rounds)
        print(f"| {ties} | {cpu:.2f} | {cpu / trec_cpu:.2f} | {wall:.2f} |")


if __name__ == "__main__":
    main()
