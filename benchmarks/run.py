"""Benchmark harness: how fast can a big run be evaluated?

Times whole processes (interpreter start, imports, file reading, evaluation,
writing results) for sqlrank, a hand-written DuckDB statement (the practical
floor, floor.sql), the usual Python tools and two bare DuckDB queries that
show where the time goes.  Before timing, sqlrank and pytrec_eval are checked
against the floor to 1e-9.

  python benchmarks/run.py                      # 1M and 10M, 3 repetitions
  python benchmarks/run.py --quick              # 1M, 1 repetition
  python benchmarks/run.py --sizes 100M --contenders 'sqlrank-cli-parquet,floor,scan,window'

Writes benchmarks/results.md, benchmarks/results.json, benchmarks/time_vs_rows.png.
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib.metadata
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import duckdb

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import generate  # noqa: E402

MEASURES = ["nDCG@10", "AP", "RR", "P@10", "R@100"]
# Only cutoffs: sqlrank ranks just the top 10 of each query (a heap, no sort)
CUTOFF_SET = ["nDCG@10", "P@10", "RR@10"]
# 10 measure families x 3 cutoffs, all in ir_measures syntax (two of them at
# another relevance level, so the wide set also needs a second parameter set),
# and one measure of each family trec_eval's whole catalogue added
WIDE_SET = [
    f"{m}@{k}"
    for m in ["nDCG", "AP", "RR", "P", "R", "Success", "NumRelRet", "DCG", "P(rel=2)", "AP(rel=2)"]
    for k in (5, 10, 100)
] + ["G", "ndcg_rel", "Rndcg", "infAP", "binG", "bpref", "11pt_avg", "ERR@10", "Judged@10", "rbp", "set_F", "utility",
     "gm_map"]
TOLERANCE = 1e-9
EVERYDAY_SECTION = "## Everyday sizes"  # the part of results.md that everyday.py writes
# At 100M every DuckDB-based contender gets the same memory cap and spills.
BIG = "100M"
BIG_MEMORY_LIMIT = "4GB"
# The Python baselines keep everything in Python objects: at 100M rows they
# would need far more memory than 4GB and hours, so they stop at 10M.
BASELINE_SIZES = {"100k", "1M", "10M"}
ALL_SIZES = set(generate.SIZES)
FRAME_SIZES = {"1M", "10M", "100M"}


@dataclass
class Contender:
    name: str
    description: str
    sizes: set[str]
    # (files, out, opts) -> argv; files is generate.paths(), opts holds threads etc.
    argv: Callable[[dict, Path, dict], list[str]]
    needs_sqlrank: bool = False
    must_match: bool = False  # correctness check fails loudly on a difference
    checkable: bool = True  # writes query_id,measure,value comparable with the floor
    reference: str = "floor"  # the hand-written statement it is checked and timed against
    checked_floor: str = ""  # the same statement after sqlrank's input checks, a second ratio


def py(name: str, qrels: Path, run: Path, out: Path, opts: dict, *extra: str) -> list[str]:
    argv = [sys.executable, str(HERE / "contenders.py"), name, str(qrels), str(run), "-o", str(out), *extra]
    for key in ("threads", "memory_limit", "temp_directory"):
        if opts.get(key):
            argv += [f"--{key.replace('_', '-')}", str(opts[key])]
    return argv


def sqlrank_cli(qrels: Path, runs: list[Path], measures: list[str], out: Path, opts: dict) -> list[str]:
    argv = [*SQLRANK, "eval", str(qrels), *map(str, runs)]
    for m in measures:
        argv += ["-m", m]
    # -q: per-query rows too, as every other contender writes them
    argv += ["-q", "-f", "csv", "-o", str(out)]
    for key in ("threads", "memory_limit", "temp_directory"):
        if opts.get(key):
            argv += [f"--{key.replace('_', '-')}", str(opts[key])]
    return argv


def shown(argv: list[str]) -> str:
    """The command as a reader would type it from the repository root."""
    names = {sys.executable: "python", SQLRANK[0]: "sqlrank" if len(SQLRANK) == 1 else "python"}
    out = []
    for a in argv:
        if a in names:
            out.append(names[a])
        elif os.path.isabs(a):
            try:
                out.append(os.path.relpath(a))
            except ValueError:
                out.append(a)
        else:
            out.append(a)
    return shlex.join(out)


def find_sqlrank_cli() -> list[str]:
    # Prefer the console script installed next to this interpreter.
    exe = Path(sys.executable).with_name("sqlrank")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("sqlrank")
    return [found] if found else [sys.executable, "-m", "sqlrank"]


SQLRANK = find_sqlrank_cli()

CONTENDERS = [
    Contender("floor", "floor.sql via duckdb (Parquet)", ALL_SIZES,
              lambda f, o, k: py("floor", f["qrels_parquet"], f["run_parquet"], o, k)),
    Contender("floor-checked", "floor.sql after the input checks sqlrank makes (ids, numbers, duplicates; Parquet)",
              ALL_SIZES, lambda f, o, k: py("floor-checked", f["qrels_parquet"], f["run_parquet"], o, k)),
    Contender("floor-cutoffs", "floor_cutoffs.sql via duckdb (Parquet), nDCG@10, P@10, RR@10", ALL_SIZES,
              lambda f, o, k: py("floor-cutoffs", f["qrels_parquet"], f["run_parquet"], o, k),
              reference="floor-cutoffs"),
    Contender("floor-trec", "floor.sql via duckdb, reading the TREC text files (DuckDB's CSV reader)", ALL_SIZES,
              lambda f, o, k: py("floor-trec", f["qrels_trec"], f["run_trec"], o, k), reference="floor-trec"),
    Contender("floor-trec-checked", "floor-trec after the input checks sqlrank makes (the text read once into "
              "tables, then ids, numbers, duplicates)", ALL_SIZES,
              lambda f, o, k: py("floor-trec-checked", f["qrels_trec"], f["run_trec"], o, k), reference="floor-trec"),
    Contender("scan", "SELECT count(*), sum(score) over the run (Parquet)", ALL_SIZES,
              lambda f, o, k: py("scan", f["qrels_parquet"], f["run_parquet"], o, k), checkable=False),
    Contender("window", "ROW_NUMBER() ranking of the run, nothing else (Parquet)", ALL_SIZES,
              lambda f, o, k: py("window", f["qrels_parquet"], f["run_parquet"], o, k), checkable=False),
    Contender("sqlrank-cli-parquet", "sqlrank eval, 5 measures (Parquet)", ALL_SIZES,
              lambda f, o, k: sqlrank_cli(f["qrels_parquet"], [f["run_parquet"]], MEASURES, o, k),
              needs_sqlrank=True, must_match=True, checked_floor="floor-checked"),
    Contender("sqlrank-cli-cutoffs", "sqlrank eval, nDCG@10, P@10, RR@10 (Parquet)", ALL_SIZES,
              lambda f, o, k: sqlrank_cli(f["qrels_parquet"], [f["run_parquet"]], CUTOFF_SET, o, k),
              needs_sqlrank=True, must_match=True, reference="floor-cutoffs"),
    Contender("sqlrank-cli-trec", "sqlrank eval, 5 measures (TREC text)", ALL_SIZES,
              lambda f, o, k: sqlrank_cli(f["qrels_trec"], [f["run_trec"]], MEASURES, o, k),
              needs_sqlrank=True, must_match=True, reference="floor-trec", checked_floor="floor-trec-checked"),
    Contender("sqlrank-api-parquet", "sqlrank.evaluate(), 5 measures, to_pandas() (Parquet)", BASELINE_SIZES,
              lambda f, o, k: py("sqlrank-api", f["qrels_parquet"], f["run_parquet"], o, k),
              needs_sqlrank=True, must_match=True, checked_floor="floor-checked"),
    Contender("sqlrank-api-trec", "sqlrank.evaluate(), 5 measures, to_pandas() (TREC text)", BASELINE_SIZES,
              lambda f, o, k: py("sqlrank-api", f["qrels_trec"], f["run_trec"], o, k),
              needs_sqlrank=True, must_match=True, reference="floor-trec", checked_floor="floor-trec-checked"),
    Contender("sqlrank-cli-wide", f"sqlrank eval, {len(WIDE_SET)} measures (Parquet)", BASELINE_SIZES,
              lambda f, o, k: sqlrank_cli(f["qrels_parquet"], [f["run_parquet"]], WIDE_SET, o, k),
              needs_sqlrank=True, checkable=False, reference="sqlrank-cli-parquet"),
    Contender("sqlrank-cli-10runs", "sqlrank eval, 10 run files in one call, 5 measures (Parquet)",
              generate.VARIANT_SIZES,
              lambda f, o, k: sqlrank_cli(f["qrels_parquet"], f["runs10"], MEASURES, o, k),
              needs_sqlrank=True, checkable=False),
    Contender("pytrec_eval", "TREC files parsed into dicts, RelevanceEvaluator", BASELINE_SIZES,
              lambda f, o, k: py("pytrec_eval", f["qrels_trec"], f["run_trec"], o, {}), must_match=True,
              reference="floor-trec"),
    Contender("ir_measures", "ir_measures.iter_calc on the TREC files", BASELINE_SIZES,
              lambda f, o, k: py("ir_measures", f["qrels_trec"], f["run_trec"], o, {}), reference="floor-trec"),
    Contender("ranx", "ranx Qrels/Run.from_file(kind='trec') + evaluate", BASELINE_SIZES,
              lambda f, o, k: py("ranx", f["qrels_trec"], f["run_trec"], o, {}), reference="floor-trec"),
    # DataFrames in memory: nDCG@10 and R@20 (FRAME_MEASURES in contenders.py), the Parquet files read into
    # frames first; each prints the evaluation's own seconds, timed after its frames exist
    Contender("floor-polars", "hand-written polars pipeline, nDCG@10 and R@20, on polars frames", FRAME_SIZES,
              lambda f, o, k: py("floor-polars", f["qrels_parquet"], f["run_parquet"], o, k),
              reference="floor-polars"),
    *[Contender(f"sqlrank-frame-{kind}", f"sqlrank.evaluate(), nDCG@10 and R@20, on {what}", FRAME_SIZES,
                lambda f, o, k, kind=kind: py("sqlrank-frame", f["qrels_parquet"], f["run_parquet"], o, k,
                                              "--frame", kind),
                needs_sqlrank=True, must_match=True, reference="floor-polars")
      for kind, what in (("pandas", "pandas DataFrames in memory"), ("polars", "polars DataFrames in memory"),
                         ("arrow", "pyarrow Tables in memory"), ("parquet", "the Parquet files (the same data)"))],
    # ranx.from_df builds its dicts row by row in Python: 1.5 minutes at 1M rows, so 1M only
    Contender("ranx-frame", "ranx Qrels/Run.from_df on pandas frames + evaluate, nDCG@10 and R@20", {"1M"},
              lambda f, o, k: py("ranx-frame", f["qrels_parquet"], f["run_parquet"], o, {}),
              reference="floor-polars"),
]
BY_NAME = {c.name: c for c in CONTENDERS}


# --------------------------------------------------------------------- timing

TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None

# Fallback when there is no GNU time: a child that runs the command and
# reports the peak RSS of its own children (kB on Linux, bytes on macOS).
RUSAGE_WRAPPER = """
import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:])
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
rss = usage.ru_maxrss // 1024 if sys.platform == "darwin" else usage.ru_maxrss
open(sys.argv[1], "w").write(f"{rss} {usage.ru_utime + usage.ru_stime}")
sys.exit(rc)
"""


@dataclass
class Sample:
    seconds: float
    rss_mb: float
    stdout: str
    cpu_seconds: float  # user + system time of the process and its threads: the work, whatever else runs


INPUT_SUFFIXES = (".parquet", ".trec")


def warm_page_cache(argv: list[str]) -> None:
    """Read the input files a contender names, untimed, so that it starts from a warm page cache.

    The kernel may reclaim page cache it sees as cold between two runs (DAMON reclaim on the
    benchmark machine): a 380 MB TREC run then took 0.6 s to read from disk instead of 0.05 s
    from memory, and whichever contender read it first paid for the disk.
    """
    for arg in argv:
        path = Path(arg)
        if path.suffix in INPUT_SUFFIXES and path.is_file():
            with open(path, "rb") as handle:
                while handle.read(1 << 24):
                    pass


def run_once(argv: list[str]) -> Sample:
    warm_page_cache(argv)
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss_file:
        if TIME:
            wrapped = [TIME, "-v", "-o", rss_file.name, *argv]
        else:
            wrapped = [sys.executable, "-c", RUSAGE_WRAPPER, rss_file.name, *argv]
        t0 = time.perf_counter()
        proc = subprocess.run(wrapped, capture_output=True, text=True)
        seconds = time.perf_counter() - t0
        report = rss_file.read()
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip()
        print(f"    {shlex.join(argv)}\n    exit {proc.returncode}:\n{tail[-2000:]}", file=sys.stderr)
        # Only the last line (the error itself) goes into the reports.
        raise RuntimeError(f"exit {proc.returncode}: {tail.splitlines()[-1] if tail else ''}")
    if TIME:
        kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", report).group(1))
        cpu = sum(float(re.search(rf"{kind} time \(seconds\): ([0-9.]+)", report).group(1))
                  for kind in ("User", "System"))
    else:
        kb, cpu = int(report.split()[0]), float(report.split()[1])
    return Sample(seconds, kb / 1024, proc.stdout, cpu)


# ---------------------------------------------------------------- correctness

def load_long(con: duckdb.DuckDBPyConnection, path: Path, table: str) -> None:
    # all_varchar: query ids stay strings and values parse from their exact text.
    con.execute(
        f"""CREATE OR REPLACE TABLE {table} AS
            SELECT query_id::VARCHAR AS query_id, measure::VARCHAR AS measure, value::DOUBLE AS value
            FROM read_csv(?, header = true, all_varchar = true)""",
        [str(path)],
    )


def compare(floor_csv: Path, other_csv: Path, trec_c: bool) -> dict:
    """Max |difference| against the floor, per query and for the means.

    trec_c=True: the other tool follows trec_eval -c like the floor (judged
    queries without results are in its output and its mean), so every row
    must match.  trec_c=False (pytrec_eval and friends): the tool only
    reports queries that are in both files, so compare per query on those
    and recompute its mean over all judged queries with the missing ones as 0.
    """
    con = duckdb.connect()
    load_long(con, floor_csv, "f")
    load_long(con, other_csv, "o")
    if trec_c:
        missing, diff = con.execute(
            """SELECT count(*) FILTER (WHERE f.value IS NULL OR o.value IS NULL),
                      coalesce(max(abs(f.value - o.value)), 0)
               FROM f FULL JOIN o USING (query_id, measure)"""
        ).fetchone()
        mean_diff = con.execute(
            "SELECT coalesce(max(abs(f.value - o.value)), 0) FROM f JOIN o USING (query_id, measure) "
            "WHERE query_id = 'all'"
        ).fetchone()[0]
        return {"max_abs_diff": diff, "mean_max_abs_diff": mean_diff, "missing_rows": missing}
    missing, diff = con.execute(
        """SELECT count(*) FILTER (WHERE f.value IS NULL),
                  coalesce(max(abs(f.value - o.value)), 0)
           FROM o LEFT JOIN f USING (query_id, measure) WHERE o.query_id <> 'all'"""
    ).fetchone()
    mean_diff = con.execute(
        """WITH recomputed AS (
               SELECT f.measure, avg(coalesce(o.value, 0)) AS value
               FROM f LEFT JOIN o USING (query_id, measure)
               WHERE f.query_id <> 'all' GROUP BY f.measure)
           SELECT max(abs(f.value - r.value)) FROM f JOIN recomputed r USING (measure)
           WHERE f.query_id = 'all'"""
    ).fetchone()[0]
    return {"max_abs_diff": max(diff, mean_diff), "mean_max_abs_diff": mean_diff, "missing_rows": missing}


def check(size: str, chosen: list[Contender], files: dict, outdir: Path, opts: dict) -> dict:
    """Run the floors and the must-match contenders once (also warms the page
    cache) and stop the benchmark if any of them disagrees with its floor."""
    report = {}
    reference_out = {}
    for name in dict.fromkeys(c.reference for c in chosen if c.must_match or c.name == c.reference):
        reference_out[name] = outdir / f"check-{name}.csv"
        run_once(BY_NAME[name].argv(files, reference_out[name], opts))
    for c in chosen:
        if not c.must_match or c.name == c.reference:
            continue
        floor_out = reference_out[c.reference]
        if c.name == "pytrec_eval" and size != "1M":  # slow; checked once is enough
            continue
        out = outdir / f"check-{c.name}.csv"
        try:
            run_once(c.argv(files, out, opts))
        except RuntimeError as e:
            raise SystemExit(f"CHECK FAILED [{size}] {c.name} did not run: {e}")
        r = compare(floor_out, out, trec_c=c.needs_sqlrank)
        report[c.name] = r
        ok = r["max_abs_diff"] <= TOLERANCE and r["missing_rows"] == 0
        print(f"  check {c.name:22s} max |diff| vs {c.reference} = {r['max_abs_diff']:.3g} "
              f"(means {r['mean_max_abs_diff']:.3g}, missing rows {r['missing_rows']}) "
              f"{'ok' if ok else 'FAIL'}", flush=True)
        if not ok:
            raise SystemExit(
                f"CHECK FAILED [{size}]: {c.name} differs from the floor by {r['max_abs_diff']:.3g} "
                f"(> {TOLERANCE}) or has {r['missing_rows']} unmatched rows; see {out} and {floor_out}"
            )
    return report


# -------------------------------------------------------------------- reports

def _runs_per_size(results: list[dict]) -> str:
    """How many timed runs each size had, e.g. '3 runs (1M, 10M) or 1 run (100M)'."""
    counts: dict[int, list[str]] = {}
    for rec in sorted(results, key=lambda r: generate.SIZES[r["size"]]):
        if "seconds" in rec and rec["size"] not in counts.setdefault(len(rec["seconds"]), []):
            counts[len(rec["seconds"])].append(rec["size"])
    return " or ".join(f"{n} run{'s' if n != 1 else ''} ({', '.join(sizes)})" for n, sizes in counts.items())


def machine() -> dict:
    mem_kb = None
    cpu = platform.processor() or platform.machine()
    try:
        mem_kb = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1))
        cpu = re.search(r"model name\s*:\s*(.*)", Path("/proc/cpuinfo").read_text()).group(1)
    except (OSError, AttributeError):
        pass

    def version(pkg: str) -> str | None:
        try:
            return importlib.metadata.version(pkg)
        except importlib.metadata.PackageNotFoundError:
            return None

    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gb": round(mem_kb / 1024**2, 1) if mem_kb else None,
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "versions": {p: version(p) for p in
                     ["sqlrank", "duckdb", "pytrec-eval-terrier", "ir-measures", "ranx", "numba"]},
    }


PEERS = ("pytrec_eval", "ir_measures", "ranx")


def _peer_memory(results: list[dict]) -> str:
    """Why the Python tools stop at 10M, from their measured peak RSS: it grows with the rows."""
    rss = {(r["contender"], r["size"]): r["peak_rss_mb"] for r in results if r.get("peak_rss_mb")}
    shown = [f"{name} {rss[name, '1M']:,.0f} MB at 1M and {rss[name, '10M']:,.0f} MB at 10M "
             f"(~{rss[name, '10M'] * 10 / 1024:,.0f} GB at {BIG})"
             for name in PEERS if (name, "1M") in rss and (name, "10M") in rss]
    if not shown:
        return f"at {BIG} their in-memory Python structures would need far more memory than this benchmark allows."
    return ("their peak RSS grows with the rows (the text is held in Python dicts), " + "; ".join(shown) +
            f": more than the machine's memory, shared with the {BIG} DuckDB runs.")


def write_reports(results: list[dict], checks: dict, info: dict) -> None:
    (HERE / "results.json").write_text(json.dumps(
        {"machine": info["machine"], "command": info["command"], "checks": checks, "results": results},
        indent=2))

    m = info["machine"]
    lines = [
        "# sqlrank benchmark results", "",
        f"Command: `{info['command']}`", "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gb']} GB RAM, {m['os']}; "
        f"Python {m['python']}; " + ", ".join(f"{k} {v}" for k, v in m["versions"].items() if v), "",
        f"Median wall time and median CPU time (user + system, all threads) of {_runs_per_size(results)} "
        "of the whole process, peak RSS of the largest process, ratio to the floor at the same size (of the "
        "wall times and of the CPU times; on a machine shared with other work the CPU times are the ones to "
        "compare), and of the CPU times to the floor after sqlrank's input checks (floor-checked, "
        "floor-trec-checked; for the DataFrame contenders floor-polars). The floor: floor.sql, floor_cutoffs.sql for the "
        "cutoff-only set (sqlrank-cli-cutoffs), floor.sql reading TREC text (floor-trec) for every contender "
        "that reads the TREC files. Warm page cache: the inputs are read, untimed, before every run.",
        f"At {BIG} every DuckDB contender runs with memory_limit {BIG_MEMORY_LIMIT} and a spill "
        "directory. pytrec_eval, ir_measures and ranx only run up to 10M: " + _peer_memory(results), "",
        "| contender | rows | median s | median CPU s | peak RSS MB | x floor | x floor, CPU | x checked floor, CPU "
        "| what |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        if r.get("error"):
            error = r["error"][:100].replace("|", "\\|")
            lines.append(f"| {r['contender']} | {r['rows']:,} | failed | | | | | | {error} |")
            continue
        ratios = [f"{r[key]:.2f}" if r.get(key) else ""
                  for key in ("ratio_to_floor", "cpu_ratio_to_floor", "cpu_ratio_to_checked")]
        cpu = f"{r['median_cpu_s']:.2f}" if r.get("median_cpu_s") is not None else ""
        lines.append(f"| {r['contender']} | {r['rows']:,} | {r['median_s']:.2f} | {cpu} | "
                     f"{r['peak_rss_mb']:,.0f} | {' | '.join(ratios)} | {r['description']} |")
    ranx = [r for r in results if r.get("ranx_load_s") is not None]
    if ranx:
        lines += ["", "ranx inside its process (median): numba JIT warm-up on a toy input, "
                  "loading the TREC files, evaluating:", ""]
        for r in ranx:
            lines.append(f"- {r['rows']:,} rows: warm-up {r['ranx_jit_s']:.2f}s, load {r['ranx_load_s']:.2f}s, "
                         f"evaluate {r['ranx_eval_s']:.2f}s")
    frames = [r for r in results if r.get("eval_s") is not None]
    if frames:
        floors = {r["size"]: r["eval_cpu_s"] for r in frames if r["contender"] == "floor-polars"}
        lines += ["", "The DataFrame contenders inside their process (median): making the frames from Parquet "
                  "(wall), then the evaluation alone, timed after the frames exist (wall and CPU), and its CPU "
                  "time's ratio to floor-polars':", ""]
        for r in frames:
            ratio = f" ({r['eval_cpu_s'] / floors[r['size']]:.2f}x floor-polars)" if r["size"] in floors else ""
            jit = f", numba warm-up {r['ranx_jit_s']:.2f}s apart" if r.get("ranx_jit_s") is not None else ""
            lines.append(f"- {r['contender']} @ {r['rows']:,}: frames {r['frames_s']:.2f}s, evaluation "
                         f"{r['eval_s']:.2f}s, CPU {r['eval_cpu_s']:.2f}s{ratio}{jit}")
    diffs = [r for r in results if r.get("diff_vs_floor")]
    if diffs:
        lines += ["", "Max |difference| from its floor (per query on common queries, and means "
                  "over all judged queries with missing queries as 0):", ""]
        for r in diffs:
            d = r["diff_vs_floor"]
            lines.append(f"- {r['contender']} @ {r['rows']:,}: {d['max_abs_diff']:.3g} "
                         f"(means {d['mean_max_abs_diff']:.3g})")
    if info.get("notes"):
        lines += ["", *info["notes"]]
    # everyday.py's section, measured by its own command, stays as it is
    previous = (HERE / "results.md").read_text() if (HERE / "results.md").exists() else ""
    everyday = previous[previous.find(EVERYDAY_SECTION):] if EVERYDAY_SECTION in previous else ""
    (HERE / "results.md").write_text("\n".join(lines) + "\n" + ("\n" + everyday if everyday else ""))

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5.5))
    names = list(dict.fromkeys(r["contender"] for r in results))
    colors = plt.cm.tab20(range(len(names)))  # one distinct colour per contender (the default cycle repeats)
    for name, color in zip(names, colors):
        pts = sorted((r["rows"], r["median_cpu_s"]) for r in results
                     if r["contender"] == name and not r.get("error"))
        if pts:
            ax.plot(*zip(*pts), marker="o", label=name, color=color,
                    linestyle="--" if name.startswith("floor") or name in ("scan", "window") else "-")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("run rows")
    # CPU time: on a machine shared with other work the wall times stretch with the load, the work does not
    ax.set_ylabel("median CPU time (s, user + system), whole process")
    ax.set_title("nDCG@10, AP, RR, P@10, R@100 (DataFrame contenders: nDCG@10, R@20)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(HERE / "time_vs_rows.png", dpi=120)


# ----------------------------------------------------------------------- main

def merge(paths: list[Path]) -> None:
    """results.json with the (size, contender) results of `paths` added (theirs win), and the reports rewritten."""
    merged = json.loads((HERE / "results.json").read_text())
    for path in paths:
        other = json.loads(path.read_text())
        added = {(r["size"], r["contender"]) for r in other["results"]}
        merged["results"] = [r for r in merged["results"] if (r["size"], r["contender"]) not in added]
        merged["results"] += other["results"]
        for size, report in other["checks"].items():
            merged["checks"][size] = {**merged["checks"].get(size, {}), **report}
        merged["command"] = f"{merged['command']}; {other['command']}"
    merged["results"].sort(key=lambda r: generate.SIZES[r["size"]])
    # a result merged in may have been run without its floor: its ratios come from the floor's run here
    medians = {(r["size"], r["contender"]): r for r in merged["results"] if r.get("median_s")}
    for r in merged["results"]:
        contender = BY_NAME.get(r["contender"])
        floor = medians.get((r["size"], contender.reference)) if contender and r.get("median_s") else None
        if floor and "ratio_to_floor" not in r:
            r["reference"] = contender.reference
            r["ratio_to_floor"] = r["median_s"] / floor["median_s"]
            r["cpu_ratio_to_floor"] = r["median_cpu_s"] / floor["median_cpu_s"]
    write_reports(merged["results"], merged["checks"], {"machine": merged["machine"], "command": merged["command"]})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1M,10M", help="comma-separated: " + ",".join(generate.SIZES))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--contenders", default="*",
                    help="comma-separated names or globs: " + ",".join(BY_NAME))
    ap.add_argument("--threads", type=int, help="DuckDB threads for sqlrank and the DuckDB contenders")
    ap.add_argument("--quick", action="store_true", help="1M only, 1 repetition")
    ap.add_argument("--workdir", default="benchmarks/.data", type=Path,
                    help="generated data, outputs and spill files")
    ap.add_argument("--keep", action="store_true",
                    help="keep the results already in results.json of the sizes and contenders not run now "
                         "(e.g. add 100M to 1M,10M)")
    ap.add_argument("--merge", nargs="+", type=Path, metavar="RESULTS_JSON",
                    help="run nothing: add the results in these results.json files (e.g. a 100M run made at the "
                         "same time from a copy of this folder) to results.json and rewrite the reports")
    args = ap.parse_args()
    if args.merge:
        merge(args.merge)
        return
    if args.quick:
        args.sizes, args.repeat = "1M", 1
    sizes = sorted(generate.parse_sizes(args.sizes), key=generate.SIZES.get)
    patterns = [p.strip() for p in args.contenders.split(",") if p.strip()]
    chosen = [c for c in CONTENDERS if any(fnmatch.fnmatch(c.name, p) for p in patterns)]
    if not chosen:
        raise SystemExit(f"no contender matches {args.contenders!r}; known: {', '.join(BY_NAME)}")

    notes = []
    # Ask a child interpreter, as the contenders will: the harness's own
    # sys.path (benchmarks/ first) is not theirs.
    has_sqlrank = subprocess.run([sys.executable, "-c", "import sqlrank; sqlrank.evaluate"],
                                 capture_output=True).returncode == 0
    if not has_sqlrank:
        notes.append("sqlrank is not importable (pip install -e .): its contenders were skipped.")
        print(notes[-1])
        chosen = [c for c in chosen if not c.needs_sqlrank]
    if any(s == BIG for s in sizes) and any(BIG not in c.sizes for c in chosen):
        print(f"note: pytrec_eval, ir_measures, ranx and the sqlrank API contenders skip {BIG} "
              "(too much memory and time for in-process Python structures).")

    command = "python benchmarks/run.py " + shlex.join(sys.argv[1:])
    info = {"machine": machine(), "command": command.strip(), "repeat": args.repeat, "notes": notes}
    results: list[dict] = []
    checks: dict = {}
    if args.keep and (HERE / "results.json").exists():
        kept = json.loads((HERE / "results.json").read_text())
        # keep every (size, contender) not measured again now
        rerun = {(size, c.name) for size in sizes for c in chosen if size in c.sizes}
        results = [r for r in kept["results"] if (r["size"], r["contender"]) not in rerun]
        checks = kept["checks"]
        info["command"] = f"{kept['command']}; {info['command']}"

    for size in sizes:
        files = generate.generate(size, args.workdir, args.threads)
        outdir = args.workdir / "out" / size
        outdir.mkdir(parents=True, exist_ok=True)
        opts = {"threads": args.threads}
        if size == BIG:
            spill = args.workdir / "spill"
            spill.mkdir(parents=True, exist_ok=True)
            opts |= {"memory_limit": BIG_MEMORY_LIMIT, "temp_directory": spill}
        here = [c for c in chosen if size in c.sizes]
        checks[size] = {**checks.get(size, {}), **check(size, here, files, outdir, opts)}

        # Rounds: every contender runs once per round, so each one's runs sit next to its
        # floor's in time (pair by pair) and a drift of the machine's speed hits all alike.
        # the floors first in each round, then the checked floors, then the rest
        order = sorted(here, key=lambda c: (c.name != c.reference, not c.name.startswith("floor")))
        argvs = {c.name: c.argv(files, outdir / f"{c.name}.csv", opts) for c in order}
        samples: dict[str, list[Sample]] = {c.name: [] for c in order}
        failed: dict[str, str] = {}
        for i in range(args.repeat):
            for c in order:
                if c.name in failed:
                    continue
                try:
                    sample = run_once(argvs[c.name])
                except RuntimeError as e:
                    print(f"  [{size}] {c.name} FAILED: {e}", flush=True)
                    failed[c.name] = str(e)
                    continue
                samples[c.name].append(sample)
                print(f"  [{size}] {c.name:22s} round {i + 1}/{args.repeat}: "
                      f"{sample.seconds:7.2f}s (CPU {sample.cpu_seconds:7.2f}s) {sample.rss_mb:8,.0f} MB", flush=True)

        reference_median: dict[str, float] = {}
        for c in order:
            out = outdir / f"{c.name}.csv"
            rec = {"contender": c.name, "size": size, "rows": generate.SIZES[size],
                   "description": c.description, "command": shown(argvs[c.name])}
            if opts.get("memory_limit"):  # only DuckDB-based contenders run at BIG
                rec["description"] += f", memory_limit {BIG_MEMORY_LIMIT} + spill dir"
            if c.name in failed:
                rec["error"] = failed[c.name]
                results.append(rec)
                continue
            rec["seconds"] = [sample.seconds for sample in samples[c.name]]
            rec["median_s"] = statistics.median(rec["seconds"])
            rec["cpu_seconds"] = [sample.cpu_seconds for sample in samples[c.name]]
            rec["median_cpu_s"] = statistics.median(rec["cpu_seconds"])
            rec["peak_rss_mb"] = max(sample.rss_mb for sample in samples[c.name])
            reference_median[c.name] = (rec["median_s"], rec["median_cpu_s"])
            if c.reference in reference_median:
                rec["reference"] = c.reference
                rec["ratio_to_floor"] = rec["median_s"] / reference_median[c.reference][0]
                rec["cpu_ratio_to_floor"] = rec["median_cpu_s"] / reference_median[c.reference][1]
            if c.checked_floor in reference_median:
                rec["checked_floor"] = c.checked_floor
                rec["cpu_ratio_to_checked"] = rec["median_cpu_s"] / reference_median[c.checked_floor][1]
            extra = [json.loads(sample.stdout.strip().splitlines()[-1])
                     for sample in samples[c.name] if sample.stdout.strip()]
            for key in {k for e in extra for k in e}:
                rec[key] = statistics.median(e[key] for e in extra)
            reference_csv = outdir / f"{c.reference}.csv"
            if c.checkable and c.name != c.reference and reference_csv.exists():
                d = rec["diff_vs_floor"] = compare(reference_csv, out, trec_c=c.needs_sqlrank)
                if c.must_match and d["max_abs_diff"] > TOLERANCE:
                    print(f"  WARNING [{size}] {c.name} differs from the floor by {d['max_abs_diff']:.3g}")
            results.append(rec)
        write_reports(results, checks, info)  # after every size, so a long run leaves partial results

    print(f"\nwrote {HERE / 'results.md'}, results.json, time_vs_rows.png")
    print((HERE / "results.md").read_text())


if __name__ == "__main__":
    main()
