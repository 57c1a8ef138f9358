"""evaluate() without a connection works in one database per process, installed once (docs/performance.md).

Each call gets a connection of its own to that database (macros.library_connection): the calls share the
macros and nothing else. The data (labels by rank in the comments):

    qrels  q1: a=2 b=0 c=1      q2: x=1 y=0
    run A  q1: a, b, c -> labels [2, 0, 1]: AP (1/1 + 2/3) / 2 = 5/6     q2: y, x -> [0, 1]: AP (1/2) / 1 = 1/2
    run B  q1: c, b, a -> labels [1, 0, 2]: AP (1/1 + 2/3) / 2 = 5/6     q2: x, y -> [1, 0]: AP 1/1 = 1
"""

from __future__ import annotations

import threading

import duckdb
import pandas as pd
import pytest

import sqlrank
from sqlrank import macros

QRELS = pd.DataFrame({"query_id": ["q1", "q1", "q1", "q2", "q2"], "doc_id": ["a", "b", "c", "x", "y"],
                      "relevance": [2, 0, 1, 1, 0]})
RUN_A = pd.DataFrame({"query_id": ["q1", "q1", "q1", "q2", "q2"], "doc_id": ["a", "b", "c", "y", "x"],
                      "score": [3.0, 2.0, 1.0, 2.0, 1.0]})
RUN_B = RUN_A.assign(doc_id=["c", "b", "a", "x", "y"])
MAP_A = (5 / 6 + 1 / 2) / 2
MAP_B = (5 / 6 + 1 / 1) / 2


def temporary_tables() -> list[str]:
    with macros.library_connection() as con:
        return [name for (name,) in con.execute("SELECT table_name FROM duckdb_tables() WHERE temporary").fetchall()]


def test_the_library_is_installed_once_per_process(monkeypatch):
    sqlrank.evaluate(QRELS, RUN_A, ["AP"])  # the process's database exists from here on
    installs = []
    monkeypatch.setattr(macros, "_install_library", lambda con, *_, **__: installs.append(con) or con)
    for _ in range(3):
        assert sqlrank.evaluate(QRELS, RUN_A, ["AP"]).summary["AP"] == pytest.approx(MAP_A, abs=1e-15)
    assert installs == []


def test_a_call_leaves_no_table_behind_for_the_next():
    sqlrank.evaluate(QRELS, RUN_A, ["AP"])
    assert temporary_tables() == []
    assert sqlrank.evaluate(QRELS, RUN_B, ["AP"]).summary["AP"] == pytest.approx(MAP_B, abs=1e-15)


def test_calls_in_threads_each_read_their_own_inputs():
    results, failures = {}, []

    def evaluate(name, run):
        try:
            for round_ in range(5):
                results[name, round_] = sqlrank.evaluate(QRELS, run, ["AP"]).summary["AP"]
        except Exception as error:  # noqa: BLE001 - reported below with the thread's name
            failures.append((name, error))

    threads = [threading.Thread(target=evaluate, args=(name, run)) for name, run in (("A", RUN_A), ("B", RUN_B))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert [results["A", r] for r in range(5)] == pytest.approx([MAP_A] * 5, abs=1e-15)
    assert [results["B", r] for r in range(5)] == pytest.approx([MAP_B] * 5, abs=1e-15)


def test_a_refused_input_leaves_the_optimizer_setting_as_it_found_it():
    with pytest.raises(sqlrank.InputError, match="row 2: the score"):
        sqlrank.evaluate(QRELS, RUN_A.assign(score=[3.0, float("nan"), 1.0, 2.0, 1.0]), ["AP"])
    with macros.library_connection() as con:
        assert con.execute("SELECT current_setting('disabled_optimizers')").fetchone()[0] == ""


def test_resource_settings_get_a_database_of_their_own():
    sqlrank.evaluate(QRELS, RUN_A, ["AP"], threads=1)
    with macros.library_connection() as con:
        assert con.execute("SELECT current_setting('threads')").fetchone()[0] == duckdb.connect().execute(
            "SELECT current_setting('threads')").fetchone()[0]
