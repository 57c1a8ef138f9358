"""The registry and the SQL agree: every declared measure has its macro, its parameters and its choices.

A measure is one SQL file (sql/measures/<macro>.sql), one registry entry (sqlrank/registry.py) and one
test file (tests/measures/test_measure_<macro>.py); these tests fail when one of the three is missing
or disagrees with another, and when a measure's name is written into the code anywhere else.
"""

from __future__ import annotations

import ast
import math
import re
from pathlib import Path

import duckdb
import pytest

import sqlrank
from sqlrank.macros import sql_dir
from sqlrank.registry import AGGREGATES, NEEDS, PARAMETERS, REGISTRY

ROOT = Path(__file__).resolve().parent.parent
MEASURE_FILES = sorted((sql_dir() / "measures").glob("*.sql"))


@pytest.fixture(scope="module")
def con():
    with sqlrank.connect() as connection:
        yield connection


def macro_parameters(con, name: str) -> list[list[str]]:
    return [row[0] for row in con.execute(
        "SELECT parameters FROM duckdb_functions() WHERE schema_name = 'sqlrank' AND function_name = ?", [name]
    ).fetchall()]


def test_every_measure_has_its_file_its_macro_and_its_test_file_and_nothing_else_is_there(con):
    assert sorted(path.stem for path in MEASURE_FILES) == sorted(m.macro for m in REGISTRY.values())
    for definition in REGISTRY.values():
        assert macro_parameters(con, f"measure_{definition.macro}") == [["ranking", "k", *definition.params]]
        assert (ROOT / "tests" / "measures" / f"test_measure_{definition.macro}.py").is_file(), definition.name


def test_every_measure_file_defines_only_its_own_macro_and_teaches(con):
    for path in MEASURE_FILES:
        text = path.read_text(encoding="utf-8")
        # and its expectation under ties='average' where the registry says it has one (docs/tie-policies.md)
        averaged = any(d.macro == path.stem and d.ties_average == "average" for d in REGISTRY.values())
        # and the weight of each query in the `all` row where the registry says it is a weighted mean (GAUC)
        weighted = any(d.macro == path.stem and d.aggregate == "weighted" for d in REGISTRY.values())
        assert re.findall(r"CREATE OR REPLACE MACRO (\S+)\(", text) == [f"sqlrank.measure_{path.stem}"] + (
            [f"sqlrank.average_{path.stem}"] if averaged else []) + (
            [f"sqlrank.weight_{path.stem}"] if weighted else []), path.name
        assert text.startswith(f"-- sqlrank.measure_{path.stem}(ranking, k"), path.name  # the signature first
        assert "-- Example" in text, path.name  # a worked example with its arithmetic
        # measure macros call only the shared parts: macros are bound when created, in no set order
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("--"))
        assert not re.search(r"sqlrank\.measure_(?!" + path.stem + r"\()", code), path.name


def test_declarations_use_only_known_parameters_aggregates_and_needs():
    for definition in REGISTRY.values():
        assert set(definition.params) <= set(PARAMETERS), definition.name
        assert definition.aggregate in AGGREGATES, definition.name
        assert set(definition.needs) <= set(NEEDS), definition.name
        for (parameter, value), needs in definition.needs_when.items():
            assert parameter in definition.params and value in PARAMETERS[parameter].choices, definition.name
            assert set(needs) <= set(NEEDS), definition.name


@pytest.mark.parametrize("parameter", [p for p in PARAMETERS.values() if p.choices], ids=lambda p: p.name)
def test_the_sql_accepts_exactly_the_registry_choices(con, parameter):
    """The choices live in the registry; the SQL checks them too (a shell user calls the macros directly)."""
    con.execute("CREATE OR REPLACE TABLE qrels AS SELECT 'q' AS query_id, 'a' AS doc_id, 1 AS relevance")
    con.execute("CREATE OR REPLACE TABLE run AS SELECT 'q' AS query_id, 'a' AS doc_id, 1.0 AS score")
    for definition in (m for m in REGISTRY.values() if parameter.name in m.params):
        for choice in parameter.choices:
            con.execute(f"SELECT * FROM sqlrank.{definition.macro}('qrels', 'run', {parameter.name} := ?)",
                        [choice]).fetchall()
        with pytest.raises(duckdb.Error, match=f"sqlrank: unknown {parameter.name} 'bogus'"):
            con.execute(f"SELECT * FROM sqlrank.{definition.macro}('qrels', 'run', {parameter.name} := 'bogus')"
                        ).fetchall()


def test_the_sql_aggregates_are_the_registry_aggregates(con):
    for aggregate in AGGREGATES:
        assert con.execute("SELECT sqlrank.summarize(6.0, 3, ?)", [aggregate]).fetchone()[0] in (2.0, 6.0, math.exp(2))
    with pytest.raises(duckdb.Error, match="sqlrank: unknown aggregate 'bogus'"):
        con.execute("SELECT sqlrank.summarize(6.0, 3, 'bogus')").fetchall()
    for definition in REGISTRY.values():
        for spelling in {definition.name, *definition.aliases, definition.trec_name} - {None}:
            for written in (spelling, f"{spelling}@10", f"{spelling}(rel=2)"):
                assert con.execute("SELECT sqlrank.measure_aggregate(?)", [written]).fetchone()[0] == \
                    definition.aggregate, written
        if definition.trec_family:
            assert con.execute("SELECT sqlrank.measure_aggregate(?)", [f"{definition.trec_family}_10"]
                               ).fetchone()[0] == definition.aggregate


def named_measures(text: str, python: bool) -> list[tuple[int, str]]:
    """(line, value) of every string value in the code that is exactly a measure's spelling (or with @k).

    Names inside longer text (a docstring, an example in a message) are not logic; a string equal to a
    name, in Python or as a SQL literal, is the code deciding something by that name.
    """
    spellings = {s.lower() for m in REGISTRY.values() for s in (m.name, m.macro, *m.aliases, m.trec_name,
                                                                 m.trec_family) if s}

    def is_name(value: str) -> bool:
        return re.sub(r"@[0-9]+$", "", value).lower() in spellings

    if python:
        return [(node.lineno, node.value) for node in ast.walk(ast.parse(text))
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and is_name(node.value)]
    return [(number, value) for number, line in enumerate(text.splitlines(), start=1)
            if not line.lstrip().startswith("--") for value in re.findall(r"'([^']*)'", line) if is_name(value)]


def test_no_measure_is_named_in_the_code_outside_its_file_and_its_registry_entry():
    found = [f"{path.relative_to(ROOT)}:{line}: {value!r}"
             for path in [p for p in (ROOT / "sqlrank").rglob("*.py") if p.name != "registry.py"]
             for line, value in named_measures(path.read_text(encoding="utf-8"), python=True)]
    found += [f"{path.relative_to(ROOT)}:{line}: {value!r}"
              for path in sql_dir().rglob("*.sql") if path.parent.name != "measures"
              for line, value in named_measures(path.read_text(encoding="utf-8"), python=False)]
    assert found == []


@pytest.mark.parametrize(("option", "choices"), [("missing", sqlrank.MISSING_POLICIES),
                                                 ("score_precision", sqlrank.SCORE_PRECISIONS)])
def test_the_sql_accepts_exactly_the_python_policies(con, option, choices):
    """The policies are declared in Python; the shell's macros check the same words."""
    con.execute("CREATE OR REPLACE TABLE qrels AS SELECT 'q' AS query_id, 'a' AS doc_id, 1 AS relevance")
    con.execute("CREATE OR REPLACE TABLE run AS SELECT 'q' AS query_id, 'a' AS doc_id, 1.0 AS score")
    for choice in choices:
        con.execute(f"SELECT * FROM sqlrank.ap('qrels', 'run', {option} := ?)", [choice]).fetchall()
    with pytest.raises(duckdb.Error, match=f"sqlrank: unknown {option} 'bogus'"):
        con.execute(f"SELECT * FROM sqlrank.ap('qrels', 'run', {option} := 'bogus')").fetchall()
