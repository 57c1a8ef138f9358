"""The SQL door held to the Python door's standard, in the real DuckDB shell (duckdb-cli).

The shell macros read TREC files (sqlrank.read_trec_run / read_trec_qrels, or a TREC path given to a
measure macro), map columns (qrels_columns / run_columns), and refuse what the Python door refuses
(duplicates, NULL and NaN values, empty ids, a missing column, bad parameters) with the same message
text, both made from sqlrank.checks.messages. Before, the macros read nothing but tables with the
canonical columns and checked nothing: duplicated run rows changed nDCG@10, NaN scores ranked first,
k := 1.5 was k := 2 and depth := -5 an internal error.
"""

from __future__ import annotations

import gzip
import math
import subprocess

import duckdb
import pytest

import sqlrank
from sqlrank.macros import parameter_check, registry_sql
from sqlrank.registry import PARAMETERS, REGISTRY
from test_duckdb_shell import duckdb_binary, run_shell

TOL = 1e-9


def shell_error(script: str, tmp_path) -> str:
    """The DuckDB shell's error for `script` (after `.read` of the macro library); the shell must fail."""
    library = tmp_path / "sqlrank.sql"
    library.write_text(sqlrank.sql_script(), encoding="utf-8")
    done = subprocess.run([duckdb_binary(), "-csv", "-bail", ":memory:"], input=f'.read "{library}"\n{script}\n',
                          capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert done.returncode != 0, done.stdout
    return done.stderr.strip()


def python_error(qrels, run, measures=("nDCG@10",), **options) -> str:
    with pytest.raises(sqlrank.SqlrankError) as raised:
        sqlrank.evaluate(qrels, run, list(measures), **options)
    return str(raised.value)


@pytest.fixture
def inputs(tmp_path):
    """A qrels and a run as CSV files, and TREC text with tabs, double spaces, comments, blank lines, gzip."""
    qrels_rows = [("q1", "a", 2), ("q1", "b", 0), ("q1", "c", 1), ("q2", "a", 1), ("q2", "d", 1)]
    run_rows = [("q1", "a", 0.5), ("q1", "b", 0.9), ("q1", "c", 0.1), ("q2", "d", 0.4), ("q2", "e", 0.8)]
    (tmp_path / "qrels.csv").write_text("query_id,doc_id,relevance\n"
                                        + "".join(f"{q},{d},{r}\n" for q, d, r in qrels_rows))
    (tmp_path / "run.csv").write_text("query_id,doc_id,score\n" + "".join(f"{q},{d},{s}\n" for q, d, s in run_rows))
    (tmp_path / "judgments.qrels").write_text(
        "# judged by hand\n\n" + "".join(f"{q}\t0  {d} {r}\n" for q, d, r in qrels_rows))
    with gzip.open(tmp_path / "system.run.gz", "wt") as handle:
        handle.write("".join(f"{q} Q0\t{d}  {i} {s} sys\n" for i, (q, d, s) in enumerate(run_rows, start=1)))
    return tmp_path


def test_trec_files_are_read_by_the_macros_with_the_python_doors_numbers(inputs, tmp_path):
    qrels, run = inputs / "judgments.qrels", inputs / "system.run.gz"
    rows = run_shell(
        f"CREATE VIEW qrels AS FROM sqlrank.read_trec_qrels('{qrels}');\n"
        f"CREATE VIEW run AS FROM sqlrank.read_trec_run('{run}');\n"
        "SELECT 'views' AS way, query_id, value FROM sqlrank.ndcg('qrels', 'run', k := 10)\n"
        f"UNION ALL SELECT 'paths', query_id, value FROM sqlrank.ndcg('{qrels}', '{run}', k := 10)\n"
        "UNION ALL SELECT 'rows', 'count', count(*) FROM run;", tmp_path)
    python = {row["query_id"]: row["value"]
              for row in sqlrank.evaluate(qrels, run, ["nDCG@10"]).to_arrow().to_pylist() if row["query_id"] != "all"}
    # q1 ranks b (0), a (2), c (1); q2 ranks e (unjudged), d (1)
    assert python["q1"] == pytest.approx((2 / math.log2(3) + 1 / 2) / (2 + 1 / math.log2(3)), abs=1e-15)
    for way in ("views", "paths"):
        shell = {row["query_id"]: float(row["value"]) for row in rows if row["way"] == way}
        assert shell == pytest.approx(python, abs=TOL)
    assert [float(row["value"]) for row in rows if row["way"] == "rows"] == [5]


def test_trec_conformance_files_by_path_equal_the_python_door(trec_data, tmp_path):
    # trec_eval's own test files (tab-separated run, space-separated qrels), named by path
    qrels, run = trec_data / "qrels.test", trec_data / "results.test"
    rows = run_shell(f"SELECT query_id, value FROM sqlrank.ap('{qrels}', '{run}');", tmp_path)
    python = {row["query_id"]: row["value"] for row in sqlrank.evaluate(qrels, run, ["AP"]).to_arrow().to_pylist()}
    assert len(rows) == 3
    for row in rows:
        assert float(row["value"]) == pytest.approx(python[row["query_id"]], abs=TOL)


def test_a_bad_trec_line_is_named_as_the_python_door_names_it(inputs, tmp_path):
    bad = inputs / "bad.run"
    bad.write_text("q1 Q0 a 1 0.5 sys\nq1 0 b 1\n")
    shell = shell_error(f"SELECT * FROM sqlrank.read_trec_run('{bad}');", tmp_path)
    python = python_error(inputs / "qrels.csv", bad)
    # the same sentence; the shell cannot tell the line number (file:2)
    assert python.startswith(f"{bad}:2: expected 6 fields")
    assert f"sqlrank: {python.replace(f'{bad}:2:', f'{bad}:', 1)}" in shell


def test_columns_are_mapped_and_a_missing_one_is_named_with_its_table_and_mapping(inputs, tmp_path):
    script = ("CREATE TABLE hits AS SELECT query_id AS qid, doc_id AS docno, score AS sim "
              f"FROM read_csv('{inputs / 'run.csv'}');\n")
    error = shell_error(script + f"SELECT * FROM sqlrank.ndcg('{inputs / 'qrels.csv'}', 'hits');", tmp_path)
    assert ("sqlrank: hits: missing column 'query_id' (found qid, docno, sim); "
            "map it: run_columns := {'query_id': 'qid'}") in error
    error = shell_error(script + f"SELECT * FROM sqlrank.ndcg('{inputs / 'qrels.csv'}', 'hits', "
                                 "run_columns := {'query_id': 'qid'});", tmp_path)
    assert "sqlrank: hits: missing column 'doc_id' (found qid, docno, sim); map it: run_columns := {'doc_id': 'docno'}" \
        in error
    rows = run_shell(script + f"SELECT query_id, value FROM sqlrank.ndcg('{inputs / 'qrels.csv'}', 'hits', k := 10, "
                              "run_columns := {'query_id': 'qid', 'doc_id': 'docno', 'score': 'sim'});", tmp_path)
    python = sqlrank.evaluate(inputs / "qrels.csv", inputs / "run.csv", ["nDCG@10"]).to_arrow().to_pylist()
    assert {row["query_id"]: float(row["value"]) for row in rows} == pytest.approx(
        {row["query_id"]: row["value"] for row in python if row["query_id"] != "all"}, abs=TOL)


@pytest.mark.parametrize("case, extra_row", [
    ("NaN score", "q1,z,nan"),
    ("empty score", "q1,z,"),
    ("empty query id", ",z,0.3"),
])
def test_bad_rows_get_the_python_doors_message(inputs, tmp_path, case, extra_row):
    run = inputs / "bad_run.csv"
    run.write_text((inputs / "run.csv").read_text() + extra_row + "\n")
    python = python_error(inputs / "qrels.csv", run)
    assert python.startswith(f"{run}: row 6")  # the row is named in both doors
    shell = shell_error(f"SELECT * FROM sqlrank.ndcg('{inputs / 'qrels.csv'}', '{run}', k := 10);", tmp_path)
    assert f"Invalid Input Error: sqlrank: {python}" in shell, (case, shell)


@pytest.mark.parametrize("kind", ["run", "qrels"])
def test_duplicates_are_refused_with_the_python_doors_message(inputs, tmp_path, kind):
    path = inputs / f"{kind}.csv"
    duplicated = inputs / f"duplicated_{kind}.csv"
    lines = path.read_text().splitlines()
    duplicated.write_text("\n".join(lines + [lines[1]]) + "\n")
    qrels, run = (inputs / "qrels.csv", duplicated) if kind == "run" else (duplicated, inputs / "run.csv")
    python = python_error(qrels, run)
    shell = shell_error(f"SELECT * FROM sqlrank.ndcg('{qrels}', '{run}', k := 10);", tmp_path)
    said = f"{duplicated}: duplicate (query_id, doc_id) rows, e.g. query 'q1' doc 'a' (2 rows); each document may appear once per query."
    assert python.startswith(said) and f"sqlrank: {said}" in shell
    # what to do differs by door: the Python door has a policy option, the shell a QUALIFY
    value = "score" if kind == "run" else "relevance"
    assert f"QUALIFY row_number() OVER (PARTITION BY query_id, doc_id ORDER BY {value} DESC) = 1" in shell


def test_validate_false_skips_the_input_checks(inputs, tmp_path):
    run = inputs / "duplicated.csv"
    run.write_text((inputs / "run.csv").read_text() + "q2,d,0.95\n")
    rows = run_shell(f"SELECT query_id, value FROM sqlrank.ndcg('{inputs / 'qrels.csv'}', '{run}', k := 10, "
                     "validate := false) ORDER BY query_id;", tmp_path)
    # unchecked, q2's relevant d is retrieved twice (0.95 and 0.4) and counted twice, DCG 1 + 1/log2(4): the
    # number the check prevents
    assert float(rows[1]["value"]) == pytest.approx((1 + 1 / 2) / (1 + 1 / math.log2(3)), abs=TOL)


@pytest.mark.parametrize("call, python_measure, python_options", [
    ("sqlrank.ndcg('qrels', 'run', k := 1.5)", "nDCG@1.5", {}),
    ("sqlrank.ndcg('qrels', 'run', discount := 'jarvelin', base := CAST('nan' AS DOUBLE))",
     "nDCG(discount=jarvelin,base=nan)", {}),
    ("sqlrank.ndcg('qrels', 'run', discount := 'jarvelin', base := 1)", "nDCG(discount=jarvelin,base=1)", {}),
    ("sqlrank.ap('qrels', 'run', rel := 'two')", "AP(rel=two)", {}),
    ("sqlrank.ndcg('qrels', 'run', depth := -5)", "nDCG", {"depth": -5}),
])
def test_bad_parameters_get_the_python_doors_message(inputs, tmp_path, call, python_measure, python_options):
    python = python_error(inputs / "qrels.csv", inputs / "run.csv", [python_measure], **python_options)
    reason = python.removeprefix(f"{python_measure}: ")
    script = (f"CREATE VIEW qrels AS FROM '{inputs / 'qrels.csv'}';\n"
              f"CREATE VIEW run AS FROM '{inputs / 'run.csv'}';\nSELECT * FROM {call};")
    shell = shell_error(script, tmp_path)
    measure = "" if "depth" in python_options else call.split("(")[0] + ": "
    assert f"Invalid Input Error: sqlrank: {measure}{reason}" in shell, shell


def test_rel_null_is_refused_not_scored_zero():
    con = sqlrank.connect()
    con.execute("CREATE TABLE qrels AS SELECT 'q1' AS query_id, 'a' AS doc_id, 1 AS relevance")
    con.execute("CREATE TABLE run AS SELECT 'q1' AS query_id, 'a' AS doc_id, 1.0 AS score")
    with pytest.raises(duckdb.InvalidInputException, match="sqlrank: sqlrank.ap: rel must be a number, got 'NULL'"):
        con.execute("SELECT * FROM sqlrank.ap('qrels', 'run', rel := NULL)").fetchall()
    assert con.execute("SELECT value FROM sqlrank.ap('qrels', 'run', rel := 1)").fetchall() == [(1.0,)]


def _number_parameters(definition) -> list[str]:
    return [name for name in definition.params if not PARAMETERS[name].choices]


def test_every_table_macro_checks_each_of_its_number_parameters():
    """Every measure's table macro holds the check registry.PARAMETERS makes for each of its number parameters
    (read in the generated SQL: the next test runs the check of each parameter in the shell)."""
    library = registry_sql()
    for definition in REGISTRY.values():
        name = f"sqlrank.{definition.macro}"
        macro = library.split(f"CREATE OR REPLACE MACRO {name}(", 1)[1].split("CREATE OR REPLACE MACRO", 1)[0]
        for parameter in _number_parameters(definition):
            assert parameter_check(parameter, name) in macro, (name, parameter)


def test_every_number_parameter_of_the_registry_is_checked_in_the_shell():
    """A parameter added to registry.PARAMETERS is checked by the macros without a line of SQL: each number
    parameter, once in a macro of each kind that takes it (the diversity macros read subtopic qrels and are
    made apart), called with a bad value."""
    con = sqlrank.connect()
    con.execute("CREATE TABLE qrels AS SELECT 'q1' AS query_id, 'a' AS doc_id, 1 AS relevance")
    con.execute("CREATE TABLE run AS SELECT 'q1' AS query_id, 'a' AS doc_id, 1.0 AS score")
    con.execute("CREATE TABLE subtopics AS SELECT 'q1' AS query_id, '1' AS subtopic_id, 'a' AS doc_id, 1 AS relevance")
    callers = {}  # (parameter, the judgments the macro reads) -> the first macro taking it
    for definition in REGISTRY.values():
        judgments = "subtopics" if "subtopics" in definition.needs else "qrels"
        for name in _number_parameters(definition):
            callers.setdefault((name, judgments), definition.macro)
    for (name, judgments), macro in callers.items():
        listed = isinstance(PARAMETERS[name].default, tuple)  # a list of numbers (levels)
        value = "[CAST('inf' AS DOUBLE)]" if listed else "CAST('inf' AS DOUBLE)"
        expected = "must be a list of finite numbers" if listed else "must be a finite number"
        with pytest.raises(duckdb.InvalidInputException, match=rf"sqlrank: sqlrank.{macro}: {name} {expected}"):
            con.execute(f"SELECT * FROM sqlrank.{macro}('{judgments}', 'run', {name} := {value})").fetchall()
    assert {name for name, _ in callers} == {name for name, parameter in PARAMETERS.items() if not parameter.choices}
