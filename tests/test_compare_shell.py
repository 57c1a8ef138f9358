"""The resampling macros in the real DuckDB shell give the numbers the Python door gives, for the same seed."""

from __future__ import annotations

import subprocess

import pyarrow as pa

import sqlrank
from test_cli_shell import executable

VALUES = {"a": [0.25, 0.5, 0.0, 0.75, 0.5, 0.125, 1.0, 0.0, 0.5, 0.25, 0.5, 0.75, 0.0, 0.25, 0.5, 1.0, 0.5, 0.25],
          "b": [0.0, 0.25, 0.125, 0.5, 0.5, 0.0, 0.75, 0.0, 0.25, 0.25, 0.5, 0.5, 0.125, 0.0, 0.25, 0.75, 0.5, 0.0],
          "c": [0.5, 0.125, 0.0, 0.25, 0.5, 0.5, 0.5, 0.25, 0.25, 0.0, 0.75, 0.5, 0.0, 0.5, 0.25, 0.5, 0.0, 0.25]}
ROWS = [(run, f"q{i:02d}", "AP", value) for run, values in VALUES.items() for i, value in enumerate(values)]
STATEMENTS = [
    # 18 queries: 2^18 > 10,000, so sampled
    "SELECT method, permutations, as_extreme, p_value FROM sqlrank.randomization_test('per_query', 'a', 'b', "
    "trials := 10000, seed := 7)",
    "SELECT as_extreme, ci_low, ci_high FROM sqlrank.bootstrap_test('per_query', 'a', 'b', trials := 2000, seed := 7)",
    "SELECT run_a, run_b, as_extreme FROM sqlrank.tukey_hsd('per_query', trials := 500, seed := 7) ORDER BY ALL",
]


def test_shell_and_python_give_the_same_resampled_numbers(tmp_path):
    library = subprocess.run([executable("sqlrank"), "sql"], capture_output=True, check=True).stdout
    inserts = ", ".join(f"('{run}', '{query}', '{measure}', {value})" for run, query, measure, value in ROWS)
    script = (library.decode() + "\nCREATE TABLE per_query(run_id VARCHAR, query_id VARCHAR, measure VARCHAR, value DOUBLE);\n"
              f"INSERT INTO per_query VALUES {inserts};\n" + "".join(f".print ===\n{s};\n" for s in STATEMENTS))
    shell = subprocess.run([executable("duckdb"), "-csv", "-bail"], input=script.encode(), capture_output=True,
                           timeout=120)
    assert (shell.returncode, shell.stderr) == (0, b"")
    from_shell = [block.strip().splitlines()[1:] for block in shell.stdout.decode().split("===")[1:]]
    table = pa.table({name: [row[i] for row in ROWS] for i, name in enumerate(("run_id", "query_id", "measure", "value"))})
    with sqlrank.connect() as con:
        con.register("per_query", table)
        from_python = [[",".join(_shell_text(value) for value in row) for row in con.execute(s).fetchall()] for s in STATEMENTS]
    assert from_shell == from_python
    assert from_shell[0][0].startswith("sampled,10000,")


def _shell_text(value) -> str:
    return repr(value) if isinstance(value, float) else str(value)
