"""Deterministic synthetic qrels and runs for the sqlrank benchmarks.

Everything is generated inside DuckDB from range() and hash(), so 100M rows
take minutes rather than hours and the same DuckDB version always writes the
same data.

Shape of a size with N run rows (Q = N / 100 queries):

* run: every query 0..Q-1 retrieves exactly 100 documents.  The score falls
  with the position p, and about one step in eight is flat, so each query has
  a dozen or so tied pairs; ties are resolved by doc_id DESC, which is not the
  file order, so tie handling really is tested.  Scores are k/16 + b/8 with
  small integers k, b: exactly representable in float32, so tools that
  compare scores as float32 (trec_eval, pytrec_eval) rank like the ones
  that compare them as double.
* qrels: each query has a pool of 120 documents (the 100 retrieved plus 20
  that were not); about 1 in 8 pool documents is judged (~15 per query),
  with labels 0-3 that are more likely high near the top of the ranking.
  Queries with q % 100 == 99 have no judgements (run-only queries); Q/100
  extra queries Q.. have judgements but no run rows (qrels-only queries).

Files per size, under WORKDIR/<size>/:
  run.parquet (query_id VARCHAR, doc_id VARCHAR, score DOUBLE)
  run.trec    (qid Q0 docno rank score tag)
  qrels.parquet (query_id VARCHAR, doc_id VARCHAR, relevance INTEGER)
  qrels.trec  (qid 0 docno rel)
  runs10/run01.parquet .. run10.parquet (1M only: the run re-scored with 10
    seeds, for the "many runs in one call" benchmark)

Usage: python benchmarks/generate.py --rows 1M,10M [--workdir benchmarks/.data]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import duckdb

DEPTH = 100  # documents retrieved per query
POOL = 120  # judged-pool candidates per query: DEPTH retrieved + 20 not
N_VARIANTS = 10  # runs for the "10 runs in one call" benchmark
VARIANT_SIZES = {"1M"}

SIZES = {"100k": 100_000, "1M": 1_000_000, "10M": 10_000_000, "100M": 100_000_000}

# Document ids are shared across queries like a real collection: (q, j) maps to
# one of ~10M ids.  p is prime and 104729 < p, so within one query the 120
# pool slots j get distinct ids.
DOC_ID = "'D' || lpad(((q * 7919 + j * 104729) % 10000019)::VARCHAR, 8, '0')"

# Base score of a run row at position j (0 = best) of query q; see module doc.
# The "+ 2" makes position j tie with position j-1.
SCORE = """(hash(q, 0, 3) % 1024) / 8.0
    + (2 * (100 - j) + CASE WHEN j > 0 AND hash(q, j, 4) % 8 = 0 THEN 2 ELSE 0 END) / 16.0"""


def parse_sizes(text: str) -> list[str]:
    sizes = [s.strip() for s in text.split(",") if s.strip()]
    for s in sizes:
        if s not in SIZES:
            raise SystemExit(f"unknown size {s!r}; choose from {', '.join(SIZES)}")
    return sizes


def size_dir(workdir: Path, size: str) -> Path:
    return Path(workdir) / size


def paths(workdir: Path, size: str) -> dict[str, Path]:
    d = size_dir(workdir, size)
    return {
        "run_parquet": d / "run.parquet",
        "run_trec": d / "run.trec",
        "qrels_parquet": d / "qrels.parquet",
        "qrels_trec": d / "qrels.trec",
        "runs10": [d / "runs10" / f"run{i:02d}.parquet" for i in range(1, N_VARIANTS + 1)],
    }


def _copy(con: duckdb.DuckDBPyConnection, select: str, target: Path, options: str) -> None:
    """COPY to a temporary name, then rename, so an interrupted run never
    leaves a half-written file that a later run would mistake for done."""
    if target.exists():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    t0 = time.perf_counter()
    con.execute(f"COPY ({select}) TO '{tmp}' ({options})")
    os.replace(tmp, target)
    mb = target.stat().st_size / 1e6
    print(f"  wrote {target} ({mb:,.0f} MB) in {time.perf_counter() - t0:.1f}s", flush=True)


def generate(size: str, workdir: Path, threads: int | None = None, text: bool = True) -> dict[str, Path]:
    rows = SIZES[size]
    q_count = rows // DEPTH
    extra = max(q_count // 100, 1)  # qrels-only queries
    p = paths(workdir, size)
    con = duckdb.connect()
    if threads:
        con.execute(f"SET threads = {int(threads)}")
    # Rows must come out in range() order (query by query, best first).
    con.execute("SET preserve_insertion_order = true")

    # One flat range split into (q, j) parallelises better than a cross join.
    run_rows = f"""
        SELECT q::VARCHAR AS query_id, {DOC_ID} AS doc_id, ({SCORE})::DOUBLE AS score,
               j + 1 AS rank
        FROM (SELECT i // {DEPTH} AS q, i % {DEPTH} AS j FROM range({rows}) t(i))"""

    # The label leans on the pool slot j: t grows with j, high labels need small t.
    qrels_rows = f"""
        SELECT q::VARCHAR AS query_id, {DOC_ID} AS doc_id, label::INTEGER AS relevance
        FROM (
            SELECT q, j,
                   CASE WHEN t < 25 THEN 3 WHEN t < 45 THEN 2 WHEN t < 70 THEN 1 ELSE 0 END AS label
            FROM (SELECT i // {POOL} AS q, i % {POOL} AS j,
                         hash(i // {POOL}, i % {POOL}, 2) % 100 + (i % {POOL}) // 2 AS t
                  FROM range({(q_count + extra) * POOL}) t(i))
            WHERE hash(q, j, 1) % 8 = 0                 -- ~15 judged per query
              AND (q >= {q_count} OR q % 100 <> 99)     -- run-only queries: no judgements
        )"""

    print(f"[{size}] {rows:,} run rows, {q_count:,} run queries, {extra:,} qrels-only queries")
    _copy(con, f"SELECT query_id, doc_id, score FROM ({run_rows})", p["run_parquet"], "FORMAT parquet")
    if text:
        _copy(
            con,
            f"SELECT query_id, 'Q0', doc_id, rank, score, 'synthetic' FROM ({run_rows})",
            p["run_trec"],
            "FORMAT csv, DELIMITER ' ', HEADER false, QUOTE ''",
        )
    _copy(con, qrels_rows, p["qrels_parquet"], "FORMAT parquet")
    if text:
        _copy(
            con,
            f"SELECT query_id, 0, doc_id, relevance FROM ({qrels_rows})",
            p["qrels_trec"],
            "FORMAT csv, DELIMITER ' ', HEADER false, QUOTE ''",
        )

    if size in VARIANT_SIZES:
        # Re-scored runs: the base score plus seeded noise of up to two steps,
        # which reorders neighbours differently in every variant.
        for k, target in enumerate(p["runs10"], start=1):
            _copy(
                con,
                f"""SELECT q::VARCHAR AS query_id, {DOC_ID} AS doc_id,
                           (({SCORE}) + (hash(q, j, 100 + {k}) % 32) / 16.0)::DOUBLE AS score
                    FROM (SELECT i // {DEPTH} AS q, i % {DEPTH} AS j FROM range({rows}) t(i))""",
                target,
                "FORMAT parquet",
            )
    con.close()
    return p


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", default="1M", help="comma-separated sizes: " + ",".join(SIZES))
    ap.add_argument("--workdir", default="benchmarks/.data", type=Path)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--parquet-only", action="store_true",
                    help="skip the TREC text files (the Spark benchmark reads Parquet; 100M rows of text are ~4 GB)")
    args = ap.parse_args()
    for size in parse_sizes(args.rows):
        generate(size, args.workdir, args.threads, text=not args.parquet_only)


if __name__ == "__main__":
    main()
