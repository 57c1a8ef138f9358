"""Fusion: sqlrank.fuse against ranx.fuse (warm: its numba code compiled and its Runs built before timing).

    python benchmarks/fusion.py --queries 10000 --docs 100     # 5 runs of 1M rows each

Times (wall and CPU of this process, median of --repeat): fusing 5 runs (wsum over min-max, and rrf) and
evaluating the fused run (nDCG@10); optimize_fusion (wsum, ranx's default grid: 11 points) for two runs;
with --grids, also optimize_fusion over ranx's 100-point grids for two runs: rbc (phi) and slidefuse (w).
sqlrank reads the runs from Parquet files (its reading is timed); ranx gets its Runs built from dicts
beforehand (untimed), and one warm-up call of each function before the timed ones.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import warnings

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq


def make_runs(queries: int, docs: int, count: int, seed: int = 0) -> list[pa.Table]:
    """`count` runs: every query retrieves `docs` of 2*docs documents, overlapping from run to run."""
    rng = np.random.default_rng(seed)
    runs = []
    for _ in range(count):
        query_ids = np.repeat(np.arange(queries), docs).astype(str)
        doc_numbers = np.concatenate([rng.choice(2 * docs, docs, replace=False) for _ in range(queries)])
        runs.append(pa.table({"query_id": query_ids, "doc_id": np.char.add("d", doc_numbers.astype(str)),
                              "score": rng.random(queries * docs)}))
    return runs


def make_qrels(queries: int, docs: int, seed: int = 1) -> pa.Table:
    rng = np.random.default_rng(seed)
    query_ids = np.repeat(np.arange(queries), 10).astype(str)
    doc_numbers = np.concatenate([rng.choice(2 * docs, 10, replace=False) for _ in range(queries)])
    return pa.table({"query_id": query_ids, "doc_id": np.char.add("d", doc_numbers.astype(str)),
                     "relevance": rng.integers(0, 3, queries * 10)})


def timed(function, repeat: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        function()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def as_dict(table: pa.Table, value: str) -> dict:
    out: dict = {}
    for query_id, doc_id, score in zip(*(table.column(c).to_pylist() for c in ("query_id", "doc_id", value))):
        out.setdefault(query_id, {})[doc_id] = score
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=int, default=10000)
    parser.add_argument("--docs", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-ranx", action="store_true")
    parser.add_argument("--grids", action="store_true", help="also the 100-point grids (rbc, slidefuse)")
    options = parser.parse_args()
    import sqlrank

    runs, qrels = make_runs(options.queries, options.docs, 5), make_qrels(options.queries, options.docs)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for number, run in enumerate(runs):
            paths.append(os.path.join(folder, f"run{number}.parquet"))
            pq.write_table(run, paths[-1])
        named = {f"run{n}": path for n, path in enumerate(paths)}

        def sqlrank_fuse(method, norm):
            fused = sqlrank.fuse(named, method=method, norm=norm)
            return sqlrank.evaluate(qrels, fused, ["nDCG@10"]).summary

        for method, norm in (("wsum", "min-max"), ("rrf", "none")):
            rows.append((f"sqlrank.fuse {method}/{norm} + evaluate, 5 runs", *timed(lambda: sqlrank_fuse(method, norm), options.repeat)))
        two = {"run0": paths[0], "run1": paths[1]}
        rows.append(("sqlrank.optimize_fusion wsum, 2 runs, 11 points",
                     *timed(lambda: sqlrank.optimize_fusion(qrels, two, "nDCG@10", method="wsum"), options.repeat)))
        grids = ("rbc", "slidefuse") if options.grids else ()
        for method in grids:
            rows.append((f"sqlrank.optimize_fusion {method}, 2 runs, 100 points",
                         *timed(lambda: sqlrank.optimize_fusion(qrels, two, "nDCG@10", method=method), options.repeat)))
        if not options.skip_ranx:
            import ranx

            warnings.simplefilter("ignore")
            ranx_runs = [ranx.Run(as_dict(run, "score"), name=f"run{n}") for n, run in enumerate(runs)]
            ranx_qrels = ranx.Qrels(as_dict(qrels, "relevance"))

            def ranx_fuse(method, norm):
                fused = ranx.fuse(ranx_runs, norm=norm, method=method,
                                  params={"weights": [1.0] * 5} if method == "wsum" else {})
                return ranx.evaluate(ranx_qrels, fused, "ndcg@10")

            for method, norm in (("wsum", "min-max"), ("rrf", None)):
                ranx_fuse(method, norm)  # warm: numba compiled
                rows.append((f"ranx.fuse {method}/{norm or 'none'} + evaluate, 5 runs (warm)",
                             *timed(lambda: ranx_fuse(method, norm), options.repeat)))
            optimize = lambda: ranx.optimize_fusion(ranx_qrels, ranx_runs[:2], norm="min-max", method="wsum",
                                                    metric="ndcg@10", show_progress=False)
            optimize()
            rows.append(("ranx.optimize_fusion wsum, 2 runs, 11 points (warm)", *timed(optimize, options.repeat)))
            for method in grids:
                optimize = lambda: ranx.optimize_fusion(ranx_qrels, ranx_runs[:2], norm="min-max", method=method,
                                                        metric="ndcg@10", show_progress=False)
                optimize()
                rows.append((f"ranx.optimize_fusion {method}, 2 runs, 100 points (warm)", *timed(optimize, options.repeat)))
    size = options.queries * options.docs
    print(f"| what | rows per run | median s | median CPU s |\n|---|---:|---:|---:|")
    for what, wall, cpu in rows:
        print(f"| {what} | {size:,} | {wall:.2f} | {cpu:.2f} |")


if __name__ == "__main__":
    main()
