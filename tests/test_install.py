"""Installing the macros: once per connection, again when the library changed, safe inside a transaction."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

import sqlrank
from sqlrank import macros

DATA = Path(__file__).resolve().parent.parent / "data"


class Recording:
    """A connection that notes the statements it runs."""

    def __init__(self, con):
        self.con = con
        self.statements: list[str] = []

    def execute(self, query, *args):
        self.statements.append(query)
        return self.con.execute(query, *args)

    def __getattr__(self, name):
        return getattr(self.con, name)


def library_runs(recording: Recording) -> int:
    return sum("CREATE OR REPLACE MACRO sqlrank.gain(" in statement for statement in recording.statements)


def test_a_connection_gets_the_library_once():
    recording = Recording(duckdb.connect())
    macros.install(recording)
    macros.install(recording)
    assert library_runs(recording) == 1
    assert recording.con.execute("SELECT sqlrank.gain(3, kind := 'exp')").fetchall() == [(7.0,)]


def test_another_version_of_the_library_is_replaced():
    con = duckdb.connect()
    con.execute("CREATE SCHEMA sqlrank")
    con.execute("CREATE MACRO sqlrank.installed_library() AS 'an older sqlrank'")
    con.execute("CREATE MACRO sqlrank.gain(relevance, kind := 'linear') AS 42")
    recording = Recording(con)
    macros.install(recording)
    assert library_runs(recording) == 1
    assert con.execute("SELECT sqlrank.gain(3), sqlrank.installed_library()").fetchall() == [(3.0, macros._fingerprint())]


def test_evaluating_on_one_connection_installs_once_and_gives_the_same_numbers():
    con = sqlrank.connect()
    recording = Recording(con)
    qrels, run = DATA / "qrels.txt", DATA / "bm25.trec"
    first = sqlrank.evaluate(qrels, run, ["nDCG@10", "AP"], connection=con).summary
    again = sqlrank.evaluate(qrels, run, ["nDCG@10", "AP"], connection=recording).summary
    assert again == first and first["AP"] > 0
    assert library_runs(recording) == 0


def test_installing_inside_an_open_transaction_keeps_it_usable():
    con = duckdb.connect()
    con.execute("BEGIN TRANSACTION")
    macros.install(con)
    macros.install(con)
    assert con.execute("SELECT sqlrank.discount(1)").fetchall() == [(1.0,)]
    con.execute("COMMIT")


def test_a_connection_made_by_connect_is_not_looked_up_again(monkeypatch):
    """connect() installs the library as it opens the connection; install() then has nothing to look up
    (the catalog lookup, duckdb_functions(), costs 17 ms)."""
    con = sqlrank.connect()

    def no_lookup():
        raise AssertionError("looked up the catalog")

    monkeypatch.setattr(macros, "_fingerprint", no_lookup)
    assert macros.install(con) is con
    with pytest.raises(AssertionError, match="looked up the catalog"):  # a connection of the caller's is
        macros.install(duckdb.connect())


def test_a_rolled_back_install_is_installed_again():
    con = duckdb.connect()
    con.execute("BEGIN TRANSACTION")
    macros.install(con)
    con.execute("ROLLBACK")
    macros.install(con)
    assert con.execute("SELECT sqlrank.gain(3, kind := 'exp')").fetchall() == [(7.0,)]
