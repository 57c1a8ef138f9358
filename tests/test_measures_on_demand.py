"""A database made for evaluations from the library's SQL gets each measure macro when an evaluation first asks for it.

connect(table_macros=False) (the process's database, `sqlrank eval`'s connection), where it installs the library from
its SQL rather than copying it from its file (tests/test_library_file.py), leaves out the measure files, a third of
its install time (docs/performance.md, "Everyday sizes, round two"); evaluate() installs the files of the measures it
computes (macros.install_measures), each once per database. Every test here turns the library file off.

The numbers are the worked example of sql/measures/ndcg.sql: judgments A=3, B=3, C=2, D=2, E=1, F=1, ranking
A, E, C, D, F:
    nDCG@5 = (3 + 1/log2 3 + 2/2 + 2/log2 5 + 1/log2 6) / (3 + 3/log2 3 + 2/2 + 2/log2 5 + 1/log2 6) = 0.8232936061974518
    P@5 = 5/5 = 1, AP = (1/1 + 2/2 + 3/3 + 4/4 + 5/5) / 6 = 5/6 (B, relevant, is not retrieved)
"""

from __future__ import annotations

import threading

import pandas as pd
import pytest

import sqlrank
from sqlrank import library_file, macros
from sqlrank.registry import REGISTRY

QRELS = pd.DataFrame({"query_id": "q", "doc_id": list("ABCDEF"), "relevance": [3, 3, 2, 2, 1, 1]})
RUN = pd.DataFrame({"query_id": "q", "doc_id": list("AECDF"), "score": [5.0, 4.0, 3.0, 2.0, 1.0]})
NDCG_5 = 0.8232936061974518


@pytest.fixture(autouse=True)
def installed_from_sql(monkeypatch):
    """The path these tests check: no library file, so the database for evaluations is installed from SQL."""
    monkeypatch.setenv(library_file.FOLDER_VARIABLE, "off")


def measure_macros(con) -> set[str]:
    """The sqlrank.measure_* and sqlrank.average_* macros in con's catalog."""
    return {name for (name,) in con.execute(
        "SELECT DISTINCT function_name FROM duckdb_functions() WHERE schema_name = 'sqlrank' "
        "AND (function_name LIKE 'measure\\_%' ESCAPE '\\' OR function_name LIKE 'average\\_%' ESCAPE '\\') "
        "AND function_name <> 'measure_aggregate'").fetchall()}


def test_a_connection_for_evaluations_gets_the_measures_it_is_asked_for_and_the_same_numbers():
    con = sqlrank.connect(table_macros=False)
    assert measure_macros(con) == set()
    assert sqlrank.evaluate(QRELS, RUN, ["nDCG@5"], connection=con).summary == {"nDCG@5": pytest.approx(NDCG_5, abs=1e-15)}
    assert measure_macros(con) == {"measure_ndcg", "average_ndcg"}
    summary = sqlrank.evaluate(QRELS, RUN, ["nDCG@5", "P@5", "AP"], connection=con).summary
    assert summary == {"nDCG@5": pytest.approx(NDCG_5, abs=1e-15), "P@5": 1.0, "AP": pytest.approx(5 / 6, abs=1e-15)}
    assert measure_macros(con) == {"measure_ndcg", "average_ndcg", "measure_p", "average_p", "measure_ap", "average_ap"}
    # ties='average' calls the expectations, from the same files
    average = sqlrank.evaluate(QRELS, RUN, ["nDCG@5", "AP"], connection=con, ties="average").summary
    assert average == {"nDCG@5": pytest.approx(NDCG_5, abs=1e-15), "AP": pytest.approx(5 / 6, abs=1e-15)}


def test_every_measure_file_installs_alone_on_the_library_without_them():
    """What install_measures relies on: a measure file calls the shared parts only, so it binds without the others."""
    con = sqlrank.connect(table_macros=False)
    for definition in REGISTRY.values():
        con.execute("BEGIN TRANSACTION")
        macros.install_measures(con, [definition.macro])  # DuckDB binds a macro's calls as it creates it
        con.execute("ROLLBACK")
        held = macros._MEASURES_ON_DEMAND[con]  # rolled back: the next file finds none of them, nor their parts
        held.installed.clear()
        held.parts.clear()
    assert measure_macros(con) == set()


def test_calls_in_threads_each_install_what_they_ask_for_once(monkeypatch):
    """The process's database is shared by calls in threads: each measure file goes in once, under a lock."""
    files_read: list[str] = []
    read = macros.measure_file_sql
    monkeypatch.setattr(macros, "measure_file_sql", lambda name: files_read.append(name) or read(name))
    asked = [["nDCG@5", "AP"], ["AP", "P@5"], ["nDCG@5"], ["P@5", "AP", "nDCG@5"]]
    monkeypatch.setattr(macros, "_process_database", None)  # a new one for this test, made by the first call
    results: dict[int, dict] = {}

    def call(number: int) -> None:
        results[number] = sqlrank.evaluate(QRELS, RUN, asked[number]).summary

    threads = [threading.Thread(target=call, args=(number,)) for number in range(len(asked))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    expected = {"nDCG@5": pytest.approx(NDCG_5, abs=1e-15), "P@5": 1.0, "AP": pytest.approx(5 / 6, abs=1e-15)}
    assert {number: results.get(number) for number in range(len(asked))} == \
        {number: {name: expected[name] for name in names} for number, names in enumerate(asked)}
    assert sorted(files_read) == ["ap", "ndcg", "p"]  # once each


def test_the_shared_files_only_some_evaluations_call_come_alone_when_asked():
    """macros.PARTS_ON_DEMAND: a database for evaluations holds none of them (half its install time), each group
    installs by itself into a fresh one (its files call only the library and the files listed before them)."""
    one_macro = {"subtopics": "subtopic_rankings", "judges": "judge_split_rankings", "preferences": "prefs_rankings",
                 "lists": "list_weights", "comparison": "randomization", "fusion": "fuse"}
    assert set(one_macro) == set(macros.PARTS_ON_DEMAND)

    def held(con) -> set[str]:
        names = {name for (name,) in con.execute("SELECT function_name FROM duckdb_functions() WHERE schema_name = "
                                                 "'sqlrank'").fetchall()}
        return {group for group, name in one_macro.items() if name in names}

    for group in one_macro:
        con = sqlrank.connect(table_macros=False)
        assert held(con) == set(), group
        macros.install_parts(con, [group])
        assert group in held(con), group
    macros.install_parts(con, list(macros.PARTS_ON_DEMAND))  # then the rest beside the last one
    assert held(con) == set(one_macro)
    assert held(sqlrank.connect()) == set(one_macro)  # the whole library has all of them
