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
* sqlrank-ttest: sqlrank.compare with the paired t-test only, Holm;
* pyterrier (when `pip install python-terrier` installed it): what pyterrier.Experiment does
  once it has the per-query values (its RenderFromPerQuery, given the same values: scipy's
  ttest_rel against the baseline, statsmodels' Holm), no Java needed for that part.
  Experiment has no randomization test: it is timed against sqlrank-ttest, and every one of
  its 45 p-values (raw and Holm-adjusted) is checked against sqlrank's.
Prints one line per contender; not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import resource
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
comparison = sqlrank.compare(table, baseline="run0", tests={tests}, trials={trials}, correction="holm")
seconds = time.perf_counter() - start
rows = comparison.to_arrow().to_pylist()
print(json.dumps({{"seconds": seconds, "rows": len(rows),
                  "p": comparison.row("run1", "m0")[{tests}[-1] + "_p_adjusted"],
                  "ttest": {{row["run_id"] + "|" + row["measure"]: [row["ttest_p_value"], row["ttest_p_adjusted"]]
                            for row in rows if row["run_id"] != "run0"}}}}))
"""

PYTERRIER = SETUP + """
import time, json
start = time.perf_counter()
from pyterrier._evaluation._rendering import RenderFromPerQuery  # what pt.Experiment renders its per-query values with
from scipy import stats
imported = time.perf_counter() - start
qids = [f"q{{q:05d}}" for q in range(Q)]
renderer = RenderFromPerQuery(list(values), baseline=0, test_fn=stats.ttest_rel, correction="holm")
for number, run in enumerate(values):
    renderer.add_metrics(number, {{qid: {{name: float(values[run][m][q]) for m, name in enumerate(names)}}
                                  for q, qid in enumerate(qids)}}, 0.0)
table = renderer.averages()
seconds = time.perf_counter() - start
ttest = {{row["name"] + "|" + name: [row[name + " p-value"], row[name + " p-value corrected"]]
         for _, row in table.iterrows() if row["name"] != "run0" for name in names}}
print(json.dumps({{"seconds": seconds, "import_seconds": imported, "ttest": ttest}}))
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
    """Run `code` in a fresh process: its JSON line, plus the process's wall and CPU (user + system) seconds."""
    start, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["no output"])[-1]}
    found = json.loads(done.stdout.strip().splitlines()[-1])
    found["process_seconds"] = time.perf_counter() - start
    found["process_cpu_seconds"] = _children_cpu() - cpu
    return found


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=7000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--measures", type=int, default=5)
    parser.add_argument("--trials", type=int, default=10_000)
    parser.add_argument("--contenders", default="sqlrank,ranx,sqlrank-ttest,pyterrier")
    options = vars(parser.parse_args())
    codes = {"sqlrank": SQLRANK.format(tests=["ttest", "randomization"], **options), "ranx": RANX.format(**options),
             "sqlrank-ttest": SQLRANK.format(tests=["ttest"], **options), "pyterrier": PYTERRIER.format(**options)}
    found = {}
    for name in options["contenders"].split(","):
        found[name] = timed(codes[name])
        shown = {key: round(value, 4) if isinstance(value, float) else value for key, value in found[name].items()
                 if key != "ttest"}
        print(name, json.dumps(shown), flush=True)
    ours = found.get("sqlrank-ttest", found.get("sqlrank", {})).get("ttest")
    if ours and "ttest" in found.get("pyterrier", {}):
        theirs = found["pyterrier"]["ttest"]
        assert theirs.keys() == ours.keys()
        raw = max(abs(ours[key][0] - theirs[key][0]) for key in ours)
        adjusted = max(abs(ours[key][1] - theirs[key][1]) for key in ours)
        print(f"t-test p-values, sqlrank against pyterrier over {len(ours)} comparisons: largest difference "
              f"{raw:.3g} (raw), {adjusted:.3g} (Holm)")


if __name__ == "__main__":
    main()
