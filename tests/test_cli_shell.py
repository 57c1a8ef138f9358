"""`sqlrank sql` feeds the real DuckDB shell (the `duckdb` binary of duckdb-cli), as a shell user would:

    sqlrank sql | duckdb            (the macros, then SQL that reads the files itself)
    sqlrank sql > sqlrank.sql       then  duckdb -cmd ".read sqlrank.sql"

The shell reads data/qrels.txt and data/bm25.trec with read_csv and must give
the numbers of sqlrank.evaluate on the same files.
"""

from __future__ import annotations

import csv
import io
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import sqlrank

ROOT = Path(__file__).resolve().parent.parent

# TREC files read by the shell's own CSV reader: space separated, no header
VIEWS = """
CREATE VIEW qrels AS SELECT query_id, doc_id, relevance FROM read_csv('data/qrels.txt', delim = ' ', header = false,
    columns = {'query_id': 'VARCHAR', 'iteration': 'VARCHAR', 'doc_id': 'VARCHAR', 'relevance': 'DOUBLE'});
CREATE VIEW run AS SELECT query_id, doc_id, score FROM read_csv('data/bm25.trec', delim = ' ', header = false,
    columns = {'query_id': 'VARCHAR', 'q0': 'VARCHAR', 'doc_id': 'VARCHAR', 'rank': 'INTEGER', 'score': 'DOUBLE',
               'tag': 'VARCHAR'});
"""
MEASURES = """
CREATE TEMP TABLE per_query AS
          SELECT 'nDCG@10' AS measure, query_id, value FROM sqlrank.ndcg('qrels', 'run', k := 10)
UNION ALL SELECT 'AP', query_id, value FROM sqlrank.ap('qrels', 'run')
UNION ALL SELECT 'RR', query_id, value FROM sqlrank.rr('qrels', 'run');
SELECT measure, query_id, value FROM per_query
UNION ALL SELECT measure, 'all', avg(value) FROM per_query GROUP BY measure
ORDER BY measure, query_id;
"""


def executable(name: str) -> str:
    """An executable installed next to this Python (the test environment), else on PATH."""
    here = Path(sys.executable).parent / (f"{name}.exe" if os.name == "nt" else name)
    found = str(here) if here.exists() else shutil.which(name)
    if not found:
        pytest.fail(f"`{name}` is not installed: pip install -e '.[test]' (duckdb-cli gives the duckdb shell)")
    return found


def shell_values(output: bytes) -> dict:
    return {(row["measure"], row["query_id"]): float(row["value"])
            for row in csv.DictReader(io.StringIO(output.decode()))}


@pytest.fixture(scope="module")
def expected() -> dict:
    result = sqlrank.evaluate(ROOT / "data" / "qrels.txt", ROOT / "data" / "bm25.trec", ["nDCG@10", "AP", "RR"])
    return {(row["measure"], row["query_id"]): row["value"] for row in result.to_arrow().to_pylist()}


@pytest.fixture(scope="module")
def macro_script() -> bytes:
    process = subprocess.run([executable("sqlrank"), "sql"], capture_output=True, check=True)
    return process.stdout


def test_piped_into_the_shell_gives_the_numbers_of_evaluate(macro_script, expected):
    shell = subprocess.run([executable("duckdb"), "-csv", "-bail"], input=macro_script + (VIEWS + MEASURES).encode(),
                           capture_output=True, cwd=ROOT, timeout=120)
    assert (shell.returncode, shell.stderr) == (0, b"")
    values = shell_values(shell.stdout)
    assert set(values) == set(expected)  # q1, q2, q3 and all, for each measure (q4 has no judgments)
    for key, value in expected.items():
        assert values[key] == pytest.approx(value, abs=1e-12), key
    # q1: bm25 ranks A, E, C, D, F (labels 3, 1, 2, 2, 1); ideal from the qrels [3, 3, 2, 2, 1, 1]
    dcg = 3 + 1 / math.log2(3) + 2 / math.log2(4) + 2 / math.log2(5) + 1 / math.log2(6)
    idcg = sum(label / math.log2(rank + 1) for rank, label in enumerate([3, 3, 2, 2, 1, 1], start=1))
    assert values[("nDCG@10", "q1")] == pytest.approx(dcg / idcg, abs=1e-12)
    # RR: q1 A at rank 1; q2 a at rank 1; q3 y, z tied at 0.9 (z first by doc id, -1: not relevant), x third
    assert values[("RR", "all")] == pytest.approx((1 + 1 + 1 / 3) / 3, abs=1e-12)


def test_read_from_a_file_in_the_shell(macro_script, expected, tmp_path):
    (tmp_path / "sqlrank.sql").write_bytes(macro_script)
    shell = subprocess.run([executable("duckdb"), "-csv", "-bail", "-cmd", f".read {tmp_path / 'sqlrank.sql'}"],
                           input=(VIEWS + MEASURES).encode(), capture_output=True, cwd=ROOT, timeout=120)
    assert (shell.returncode, shell.stderr) == (0, b"")
    values = shell_values(shell.stdout)
    assert values == {key: pytest.approx(value, abs=1e-12) for key, value in expected.items()}


def test_the_shell_reports_a_bad_call_of_a_macro(macro_script):
    # a wrong parameter value is refused by the macros themselves, in the shell too
    shell = subprocess.run([executable("duckdb"), "-csv", "-bail"],
                           input=macro_script + (VIEWS + "SELECT * FROM sqlrank.ndcg('qrels', 'run', gain := 'cubic');")
                           .encode(), capture_output=True, cwd=ROOT, timeout=120)
    assert shell.returncode == 1
    assert shell.stderr.decode().startswith("Invalid Input Error: sqlrank: unknown gain 'cubic' "
                                            "(expected one of: linear, exp)")
    assert shell.stdout == b""
