"""One pass: however many measures and cutoffs, evaluate() reads the run once and computes them in one statement.

How it is checked: evaluate() is given a connection that writes down every SQL
statement it runs. The evaluation proper starts with the statement that calls
sqlrank.judged_ranking (the documented single pass over the run); what comes
before it is loading and validating the inputs. For every statement from there
on, DuckDB's own physical plan (EXPLAIN, JSON form) is searched for operators
reading the Parquet run: there must be exactly one in all of them together
when every measure has a small cutoff (the heap plan). The full ranking sorts
the run once (one window) and reads it twice, the second time only to count
each ranking's documents, which is cheaper than counting in the window
(sql/11_judged_ranking.sql); both reads are in that one statement.
Then exactly one of those statements must produce the measure values, and
running that statement alone must give the whole result table.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import sqlrank
from sqlrank.engine import RESULT_TABLE

DATA = Path(__file__).resolve().parent.parent / "data"
TEN_MEASURES = ["nDCG", "DCG", "IDCG", "CG", "AP", "RR", "P", "R", "Success", "NumRelRet"]
CUTOFFS = [5, 10, 20]


class RecordingConnection:
    """A DuckDB connection that notes every statement it is asked to run (and otherwise is the connection)."""

    def __init__(self, con: duckdb.DuckDBPyConnection):
        self._con = con
        self.statements: list[str] = []

    def execute(self, query, *args, **kwargs):
        self.statements.append(query)
        return self._con.execute(query, *args, **kwargs)

    def sql(self, query, *args, **kwargs):
        self.statements.append(query)
        return self._con.sql(query, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._con, name)


def write_parquet_run(path: Path, source: Path) -> int:
    rows = [line.split() for line in source.read_text().splitlines() if line.strip()]
    pq.write_table(pa.table({"query_id": [r[0] for r in rows], "doc_id": [r[2] for r in rows],
                             "score": [float(r[4]) for r in rows]}), path)
    return len(rows)


def parquet_scans(con: RecordingConnection, statement: str) -> int:
    """Operators reading a Parquet file in DuckDB's physical plan of `statement` (not recorded itself)."""
    (_, plan), = con._con.execute("EXPLAIN (FORMAT json) " + statement).fetchall()

    def count(node) -> int:
        if isinstance(node, list):
            return sum(count(child) for child in node)
        if not isinstance(node, dict):
            return 0
        labels = [node.get(key) for key in ("name", "operator_type", "operator_name")]
        labels.append((node.get("extra_info") or {}).get("Function"))
        here = any(isinstance(label, str) and "PARQUET" in label.upper() for label in labels)
        return int(here) + count(node.get("children", []))

    return count(json.loads(plan))


def evaluate_recorded(qrels, run, measures) -> tuple[sqlrank.Result, RecordingConnection, list[str]]:
    """evaluate() on a recording connection; returns the result, the connection and the evaluation statements."""
    con = RecordingConnection(sqlrank.connect())
    result = sqlrank.evaluate(qrels, run, measures, connection=con)
    # the first call with a table name (the macro library itself mentions it with parameter names)
    start = next(i for i, s in enumerate(con.statements)
                 if "sqlrank.judged_ranking('" in s or "sqlrank.judged_full_ranking('" in s)
    return result, con, con.statements[start:]


def test_thirty_measures_one_scan_one_statement(tmp_path):
    rows = write_parquet_run(tmp_path / "bm25.parquet", DATA / "bm25.trec")
    measures = [f"{m}@{k}" for m in TEN_MEASURES for k in CUTOFFS]
    result, con, evaluation = evaluate_recorded(DATA / "qrels.txt", tmp_path / "bm25.parquet", measures)
    assert len(result.measures) == 30

    # the run (a Parquet file) is read by exactly one operator of one statement after loading
    scans = [parquet_scans(con, statement) for statement in evaluation]
    assert sum(scans) == 1
    assert scans[0] == 1  # the ranking pass (sqlrank.judged_full_ranking)

    # exactly one statement names the measures, and it alone computes the whole result table (the table it makes)
    computing = [s for s in evaluation if all(f"'{m}'" in s for m in result.measures)]
    assert len(computing) == 1
    con._con.execute(f"DROP TABLE {RESULT_TABLE}")
    con._con.execute(computing[0])
    assert con.table(RESULT_TABLE).to_arrow_table().to_pylist() == result.to_arrow().to_pylist()
    # 3 judged queries x 30 measures, plus the 30 `all` rows
    assert len(result) == 3 * 30 + 30
    assert rows == 14


def test_the_full_ranking_sorts_the_run_once_in_one_statement(tmp_path):
    write_parquet_run(tmp_path / "bm25.parquet", DATA / "bm25.trec")
    _, con, evaluation = evaluate_recorded(DATA / "qrels.txt", tmp_path / "bm25.parquet", ["AP", "nDCG", "RR"])
    scans = [parquet_scans(con, statement) for statement in evaluation]
    assert scans[0] == 2 and sum(scans) == 2  # the ranking read and the count read, one statement
    (_, plan), = con._con.execute("EXPLAIN " + evaluation[0]).fetchall()
    assert plan.upper().count("WINDOW") == 1


def test_the_window_reads_the_run_directly(tmp_path):
    """Nothing but projections between the Parquet scan and the window: no join with the judgments, no check table.

    Then DuckDB may rank a large run in slices of query_ids (partitioned execution), which any other
    operator there prevents (sql/10_ranked.sql; 100M rows under 4GB: 15.6 s instead of 20.0 s).
    """
    write_parquet_run(tmp_path / "bm25.parquet", DATA / "bm25.trec")
    _, con, evaluation = evaluate_recorded(DATA / "qrels.txt", tmp_path / "bm25.parquet", ["AP", "nDCG", "RR"])
    (_, plan), = con._con.execute("EXPLAIN (FORMAT json) " + evaluation[0]).fetchall()

    def windows(node):
        if node.get("name") == "WINDOW":
            yield node
        for child in node.get("children", []):
            yield from windows(child)

    (window,) = [found for root in json.loads(plan) for found in windows(root)]
    between, node = [], window["children"]
    while len(node) == 1 and "PARQUET" not in str(node[0].get("extra_info", {}).get("Function", "")).upper():
        between.append(node[0]["name"])
        node = node[0]["children"]
    assert len(node) == 1, f"the window's input branches: {between}"
    assert set(between) <= {"PROJECTION"}, between


def test_the_number_of_statements_does_not_grow_with_the_measures(tmp_path):
    write_parquet_run(tmp_path / "bm25.parquet", DATA / "bm25.trec")
    _, _, one = evaluate_recorded(DATA / "qrels.txt", tmp_path / "bm25.parquet", ["nDCG@10"])
    many_measures = [f"{m}@{k}" for m in TEN_MEASURES for k in CUTOFFS] + ["AP(rel=2)", "nDCG(gain=exp)@10", "bpref"]
    _, _, many = evaluate_recorded(DATA / "qrels.txt", tmp_path / "bm25.parquet", many_measures)
    assert len(many) == len(one)


def test_many_runs_are_each_read_once(tmp_path):
    write_parquet_run(tmp_path / "bm25.parquet", DATA / "bm25.trec")
    write_parquet_run(tmp_path / "dense.parquet", DATA / "dense.trec")
    measures = [f"{m}@{k}" for m in TEN_MEASURES for k in CUTOFFS]
    result, con, evaluation = evaluate_recorded(
        DATA / "qrels.txt", {"bm25": tmp_path / "bm25.parquet", "dense": tmp_path / "dense.parquet"}, measures)
    assert sum(parquet_scans(con, statement) for statement in evaluation) == 2  # one per file
    assert result.runs == ["bm25", "dense"]
    alone = sqlrank.evaluate(DATA / "qrels.txt", tmp_path / "dense.parquet", measures)
    assert result.means["dense"] == alone.summary


@pytest.mark.parametrize("measure", ["nDCG@10", "AP", "P@5"])
def test_engine_measures_sql_is_public(measure):
    """engine.measures_sql stays public: one statement text for any list of measures."""
    from sqlrank import engine
    from sqlrank.measures import parse_all

    text = engine.measures_sql(parse_all([measure, "RR@10"]))
    assert text.lstrip().startswith("WITH") and ";" not in text
    assert f"'{parse_all([measure])[0]}'" in text
