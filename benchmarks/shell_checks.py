"""The cost of the DuckDB shell macros' input checks: one measure, checked (the default) against validate := false.

    python benchmarks/shell_checks.py --size 10M --repeat 3 [--baseline-sql OLD.sql]

In the real `duckdb` shell (pip install duckdb-cli), the generated data's qrels and run are loaded
into tables, then `SELECT avg(value) FROM sqlrank.ndcg('qrels', 'run', k := 10)` is timed with the
shell's `.timer on` (real, user and sys seconds of that statement alone). Each round runs every
variant once, so a change in the machine's load hits all alike; the medians are printed.
--baseline-sql adds a variant with another macro library (e.g. an older commit's `sqlrank sql`).
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import sqlrank  # noqa: E402  (the checkout's sqlrank, not an installed one)

STATEMENT = "SELECT avg(value) FROM sqlrank.ndcg('qrels', 'run', k := 10{options});"


def timed(duckdb: str, library: Path, data: Path, options: str) -> tuple[float, float, float]:
    """(real, user, sys) seconds of the measure statement in a fresh shell."""
    script = (f".read '{library}'\n"
              f"CREATE TABLE qrels AS FROM read_parquet('{data / 'qrels.parquet'}');\n"
              f"CREATE TABLE run AS FROM read_parquet('{data / 'run.parquet'}');\n"
              ".timer on\n" + STATEMENT.format(options=options) + "\n")
    done = subprocess.run([duckdb, "-csv", "-bail", ":memory:"], input=script, capture_output=True, text=True,
                          check=True)
    real, user, system = map(float, re.findall(r"Run Time \(s\): real ([0-9.]+) user ([0-9.]+) sys ([0-9.]+)",
                                               done.stdout)[-1])
    return real, user, system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default="10M")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workdir", type=Path, default=HERE / ".data")
    parser.add_argument("--baseline-sql", type=Path, help="another macro library to time beside this one")
    arguments = parser.parse_args()
    duckdb = shutil.which("duckdb") or shutil.which("duckdb", path=str(Path(sys.executable).parent))
    if duckdb is None:
        sys.exit("the DuckDB shell `duckdb` is missing: pip install duckdb-cli")
    data = arguments.workdir / arguments.size
    with tempfile.TemporaryDirectory() as folder:
        library = Path(folder) / "sqlrank.sql"
        library.write_text(sqlrank.sql_script(), encoding="utf-8")
        variants = {"checked (default)": (library, ""), "validate := false": (library, ", validate := false")}
        if arguments.baseline_sql:
            variants["baseline library"] = (arguments.baseline_sql.resolve(), "")
        times: dict[str, list[tuple[float, float, float]]] = {name: [] for name in variants}
        for round_number in range(arguments.repeat):
            for name, (path, options) in variants.items():
                times[name].append(timed(duckdb, path, data, options))
                print(f"round {round_number + 1} {name}: real {times[name][-1][0]:.2f} s, "
                      f"user+sys {sum(times[name][-1][1:]):.2f} s", flush=True)
    print(f"\n{arguments.size} rows, median of {arguments.repeat}: variant | CPU (user+sys) s | real s")
    for name, rows in times.items():
        print(f"{name} | {statistics.median(u + s for _, u, s in rows):.2f} | {statistics.median(r for r, _, _ in rows):.2f}")


if __name__ == "__main__":
    main()
