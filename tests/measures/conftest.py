"""What every measure's test file uses: one measure's per-query values through the Python and the SQL doors."""

from __future__ import annotations

import functools

import pytest

import sqlrank
from sqlrank import sqlgen


@functools.cache
def shell_connection():
    """One connection with the shell's table macros per test process: installing them takes seconds, and
    every call replaces the qrels and run views it reads."""
    return sqlrank.connect()


def score(measure: str, qrels: dict, run: dict, **options) -> dict[str, float]:
    """{query_id: value} of one measure, from sqlrank.evaluate and from the shell's table macro, which must agree.

    qrels and run are pytrec_eval-style dicts; options are evaluate()'s (missing, depth, ...).
    """
    result = sqlrank.evaluate(qrels, run, [measure], **options)
    python = {row["query_id"]: row["value"] for row in result.per_query.to_pylist()}
    (parsed,) = sqlrank.parse_measures([measure])
    definition = parsed.definition
    named = {name: parsed.param(name) for name in definition.params}
    if definition.cutoff:
        named = {"k": parsed.k, **named}
    con = shell_connection()
    sqlrank.load_qrels(con, qrels, "qrels")
    sqlrank.load_run(con, run, "run")
    call = sqlgen.call(f"sqlrank.{definition.macro}", "'qrels'", "'run'", **named, **options)
    shell = dict(con.execute(f"SELECT query_id, value FROM {call}").fetchall())
    assert shell == python
    return python


@pytest.fixture(name="score")
def score_fixture():
    return score
