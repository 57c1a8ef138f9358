"""Benchmark of sqlrank.compare against ranx's randomization test on the same per-query values.

    python benchmarks/compare.py [--queries 7000] [--runs 10] [--measures 5] [--trials 10000]

Makes a per-query table (run_id, query_id, measure, value) of `runs` runs over `queries`
queries and `measures` measures (seeded numpy draws, each run a shifted copy of the
baseline plus noise), then times, each in its own fresh process:
* sqlrank: sqlrank.compare(table, tests=["ttest", "randomization"], trials=N) with Holm over
  the runs compared with the baseline (one SQL statement for all 45 randomization tests);
* ranx: ranx.statistical_tests.fisher_randomization_test (what ranx.compare calls for
  stat_test="fisher", numba-compiled) for the same 9 x 5 comparisons with the same N,
  plus statsmodels' Holm (ranx has none). Its numba compilation is timed apart.
Prints one line per contender; not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

SETUP = """
import numpy as np, pyarrow as pa
rng = np.random.default_rng(0)
Q, R, M = {queries}, {runs}, {measures}
base = rng.beta(2, 5, size=(M, Q))
values = {{f"run{{r}}": np.clip(base + 0.01 * r + rng.normal(0, 0.1, size=(M, Q)), 0, 1) for r in range(R)}}
names = [f"m{{m}}" for m in range(M)]
"""

SQLRANK = SETUP + """
import time, json
start = time.perf_counter()
import sqlrank
table = pa.table({{
    "run_id": np.repeat(list(values), M * Q),
    "query_id": np.tile([f"q{{q:05d}}" for q in range(Q)], R * M),
    "measure": np.tile(np.repeat(names, Q), R),
    "value": np.concatenate([values[run].ravel() for run in values]),
}})
comparison = sqlrank.compare(table, baseline="run0", tests=["ttest", "randomization"], trials={trials},
                             correction="holm")
print(json.dumps({{"seconds": time.perf_counter() - start, "rows": comparison.to_arrow().num_rows,
                  "p": comparison.row("run1", "m0")["randomization_p_adjusted"]}}))
"""

RANX = SETUP + """
import time, json
from ranx.statistical_tests import fisher_randomization_test
from statsmodels.stats.multitest import multipletests
compile_start = time.perf_counter()
fisher_randomization_test(values["run0"][0][:10], values["run1"][0][:10], 10, 0.01, 42)
compiled = time.perf_counter() - compile_start
start = time.perf_counter()
p = {{}}
for m in range(M):
    ps = [fisher_randomization_test(values["run0"][m], values[run][m], {trials}, 0.01, 42)[0]
          for run in list(values)[1:]]
    p[m] = multipletests(ps, method="holm")[1]
print(json.dumps({{"seconds": time.perf_counter() - start, "compile_seconds": compiled, "p": float(p[0][0])}}))
"""


def timed(code: str) -> dict:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    found = json.loads(out.strip().splitlines()[-1])
    found["process_seconds"] = time.perf_counter() - start
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=7000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--measures", type=int, default=5)
    parser.add_argument("--trials", type=int, default=10_000)
    options = vars(parser.parse_args())
    for name, code in (("sqlrank", SQLRANK), ("ranx", RANX)):
        found = timed(code.format(**options))
        print(name, json.dumps({key: round(value, 4) if isinstance(value, float) else value
                                for key, value in found.items()}), flush=True)


if __name__ == "__main__":
    main()
