"""The SQL macros in the real DuckDB shell, as a shell user runs them.

The `duckdb` binary comes from the duckdb-cli package (a declared test
dependency), whose DuckDB version is not the Python module's (1.5.x against
2.0 when this was written), so this also proves the SQL works in both. The
macro file is `sqlrank.sql_script()` loaded with `.read`; the tables are read
from trec_eval's test files with read_csv inside the shell; the numbers must
equal `sqlrank.evaluate` in Python and trec_eval's own output.
"""

from __future__ import annotations

import csv
import io
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

import sqlrank
from every_measure_sql import every_measure
from sqlrank.macros import sql_files

TOL = 1e-9

QRELS_COLUMNS = "{'query_id': 'VARCHAR', 'iter': 'VARCHAR', 'doc_id': 'VARCHAR', 'relevance': 'DOUBLE'}"
RUN_COLUMNS = ("{'query_id': 'VARCHAR', 'iter': 'VARCHAR', 'doc_id': 'VARCHAR', 'rank': 'INTEGER', "
               "'score': 'DOUBLE', 'tag': 'VARCHAR'}")

# (measure label = what sqlrank.evaluate and trec_eval call it, the shell's macro call)
SHELL_MEASURES = [
    ("ndcg", "sqlrank.ndcg('qrels', 'run')"),
    ("ndcg_cut_10", "sqlrank.ndcg('qrels', 'run', k := 10)"),
    ("map", "sqlrank.ap('qrels', 'run')"),
    ("map_cut_100", "sqlrank.ap('qrels', 'run', k := 100)"),
    ("recip_rank", "sqlrank.rr('qrels', 'run')"),
    ("P_5", "sqlrank.p('qrels', 'run', k := 5)"),
    ("recall_100", "sqlrank.recall('qrels', 'run', k := 100)"),
    ("Rprec", "sqlrank.rprec('qrels', 'run')"),
    ("bpref", "sqlrank.bpref('qrels', 'run')"),
    ("success_10", "sqlrank.success('qrels', 'run', k := 10)"),
    ("num_ret", "sqlrank.num_ret('qrels', 'run')"),
    ("num_rel", "sqlrank.num_rel('qrels', 'run')"),
    ("num_rel_ret", "sqlrank.num_rel_ret('qrels', 'run')"),
    ("dcg", "sqlrank.dcg('qrels', 'run')"),
    ("ideal_dcg", "sqlrank.idcg('qrels', 'run')"),
    # parameters trec_eval does not have: checked against Python only
    ("CG@10", "sqlrank.cg('qrels', 'run', k := 10)"),
    ("nDCG(gain=exp,discount=jarvelin)@10", "sqlrank.ndcg('qrels', 'run', k := 10, gain := 'exp', discount := 'jarvelin')"),
    ("nDCG(ideal=run)@5", "sqlrank.ndcg('qrels', 'run', k := 5, ideal := 'run')"),
    ("AP(rel=2)", "sqlrank.ap('qrels', 'run', rel := 2)"),
    ("AP(denominator=min_R_k)@10", "sqlrank.ap('qrels', 'run', k := 10, denominator := 'min_R_k')"),
]


def duckdb_binary() -> str:
    """The DuckDB shell: on PATH, or beside the running Python (a virtualenv's bin/)."""
    found = shutil.which("duckdb") or shutil.which("duckdb", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail("the DuckDB shell `duckdb` was not found on PATH nor next to the Python interpreter; it is a "
                    "declared test dependency: pip install duckdb-cli (or pip install -e '.[test]')")
    return found


def run_shell(script: str, tmp_path: Path) -> list[dict]:
    """Run `script` in the DuckDB shell after `.read` of the macro file; the rows of its last result (-csv)."""
    macro_file = tmp_path / "sqlrank.sql"
    macro_file.write_text(sqlrank.sql_script(), encoding="utf-8")
    completed = subprocess.run(
        [duckdb_binary(), "-csv", "-bail", ":memory:"],
        input=f'.read "{macro_file}"\n{script}\n', capture_output=True, text=True, encoding="utf-8", timeout=300,
    )
    assert completed.returncode == 0 and not completed.stderr.strip(), \
        f"duckdb shell failed (exit {completed.returncode}): {completed.stderr.strip()}"
    return list(csv.DictReader(io.StringIO(completed.stdout)))


def create_tables_sql(qrels: Path, run: Path) -> str:
    """trec_eval's files read by DuckDB's own CSV reader: qrels space separated, runs tab separated."""
    return (
        f"CREATE TABLE qrels AS SELECT query_id, doc_id, relevance FROM read_csv('{qrels}', delim = ' ', "
        f"header = false, columns = {QRELS_COLUMNS});\n"
        f"CREATE TABLE run AS SELECT query_id, doc_id, score FROM read_csv('{run}', delim = '\t', "
        f"header = false, columns = {RUN_COLUMNS});\n"
    )


def measures_script(qrels: Path, run: Path) -> str:
    """Every SHELL_MEASURES macro into one long table, then the per-query rows and sqlrank.summary's `all` rows."""
    branches = "\nUNION ALL ".join(f"SELECT '{label}' AS measure, query_id, value FROM {call}" for label, call in SHELL_MEASURES)
    return (
        create_tables_sql(qrels, run)
        + f"CREATE TABLE per_query AS {branches};\n"
        + "SELECT measure, query_id, value FROM per_query\n"
        + "UNION ALL SELECT measure, query_id, value FROM sqlrank.summary('per_query');\n"
    )


def python_values(qrels: Path, run: Path) -> dict:
    """{(label, query_id): value} from sqlrank.evaluate for the same measures."""
    labels = [label for label, _ in SHELL_MEASURES]
    canonical = {str(sqlrank.parse_measures(label)[0]): label for label in labels}
    result = sqlrank.evaluate(qrels, run, labels, names="canonical")
    return {(canonical[row["measure"]], row["query_id"]): row["value"] for row in result.to_arrow().to_pylist()}


def trec_eval_values(*paths: Path) -> dict:
    values = {}
    for path in paths:
        with open(path, newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                if row["measure"] in {label for label, _ in SHELL_MEASURES}:
                    values[(row["measure"], row["query_id"])] = float(row["value"])
    return values


CASES = {
    # graded labels with -1s: trec_eval -q -m all_trec (and -m dcg -m ideal_dcg -m ndcg) qrels.rel_level results.test
    "graded": ("qrels.rel_level", "results.test",
               ["expected_all_trec_rel_level_full.csv", "expected_dcg_rel_level_full.csv"]),
    # query 302 missing from the run, the macros' default missing := 'zero' = trec_eval -c
    "missing_query": ("qrels.test", "results.trunc", ["expected_all_trec_c_trunc_full.csv"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_shell_numbers_equal_python_and_trec_eval(trec_data, tmp_path, case):
    qrels_name, run_name, expected_files = CASES[case]
    qrels, run = trec_data / qrels_name, trec_data / run_name
    rows = run_shell(measures_script(qrels, run), tmp_path)
    shell = {(row["measure"], row["query_id"]): float(row["value"]) for row in rows}
    assert len(shell) == len(rows) == len(SHELL_MEASURES) * 4  # 301, 302, 303 and all

    python = python_values(qrels, run)
    assert set(shell) == set(python)
    for key, value in python.items():
        assert shell[key] == pytest.approx(value, abs=TOL), key

    expected = trec_eval_values(*(trec_data / name for name in expected_files))
    checked = [key for key in expected if key in shell]
    assert len(checked) >= 13 * 4  # every trec_eval-named measure, 3 queries and all
    for key in checked:
        assert shell[key] == pytest.approx(expected[key], abs=TOL), key


def test_every_registry_macro_gives_evaluates_numbers_in_the_shell(tmp_path):
    """Each measure's table macro, with its defaults, in the shell's DuckDB: the Python door's per-query values."""
    # written exactly as the registry (and the README) names them, unquoted: a macro named
    # after an SQL keyword (`sqlrank.precision`) parses in CREATE but not in FROM
    # the diversity measures' macros read subtopic qrels (tests/test_subtopic_qrels.py)
    plain = {name: definition for name, definition in sqlrank.REGISTRY.items() if "subtopics" not in definition.needs}
    spelled = {name: f"{name}@0.5" if definition.at else name for name, definition in plain.items()}  # IPrec@0.5
    # a statement each: one UNION of every macro is a plan DuckDB takes minutes over
    inserts = "".join(
        f"INSERT INTO shell SELECT '{spelled[name]}', query_id, value FROM sqlrank.{definition.macro}('qrels', 'run'"
        f"{f', {definition.at} := 0.5' if definition.at else ''});\n" for name, definition in plain.items())
    # two queries, each with a relevant, a judged non-relevant and an unjudged document retrieved
    tables = ("CREATE TABLE qrels AS FROM (VALUES ('q1', 'a', 1), ('q1', 'b', 0), ('q1', 'c', 2), ('q2', 'd', 1), "
              "('q2', 'e', 0)) t(query_id, doc_id, relevance);\n"
              "CREATE TABLE run AS FROM (VALUES ('q1', 'b', 3.0), ('q1', 'x', 2.0), ('q1', 'a', 1.0), ('q2', 'd', 2.0), "
              "('q2', 'e', 2.0), ('q2', 'y', 1.0)) t(query_id, doc_id, score);\n")
    shell = {(row["measure"], row["query_id"]): float(row["value"]) for row in run_shell(
        tables + "CREATE TABLE shell (measure VARCHAR, query_id VARCHAR, value DOUBLE);\n" + inserts + "FROM shell;", tmp_path)}
    qrels = {"q1": {"a": 1, "b": 0, "c": 2}, "q2": {"d": 1, "e": 0}}
    run = {"q1": {"b": 3.0, "x": 2.0, "a": 1.0}, "q2": {"d": 2.0, "e": 2.0, "y": 1.0}}
    result = sqlrank.evaluate(qrels, run, list(spelled.values()))
    python = {(row["measure"], row["query_id"]): row["value"] for row in result.per_query.to_pylist()}
    assert shell.keys() == python.keys() and len(python) == 2 * len(plain)
    for key, value in python.items():
        assert shell[key] == pytest.approx(value, rel=1e-12, abs=1e-12), key


def test_shell_reports_unknown_parameter_values(trec_data, tmp_path):
    # the macros validate their kind parameters themselves: a shell user has no Python in front
    script = create_tables_sql(trec_data / "qrels.test", trec_data / "results.test")
    for call, message in [
        ("sqlrank.ndcg('qrels', 'run', ideal := 'best')", "sqlrank: unknown ideal 'best' (expected one of: qrels, run)"),
        ("sqlrank.ap('qrels', 'run', denominator := 'k')", "sqlrank: unknown denominator 'k'"),
        ("sqlrank.rr('qrels', 'run', score_precision := 'half')", "sqlrank: unknown score_precision 'half'"),
        ("sqlrank.ndcg('qrels', 'run', gain := 'expo')", "sqlrank: unknown gain 'expo' (expected one of: linear, exp)"),
    ]:
        macro_file = tmp_path / "sqlrank.sql"
        macro_file.write_text(sqlrank.sql_script(), encoding="utf-8")
        completed = subprocess.run([duckdb_binary(), "-csv", "-bail", ":memory:"],
                                   input=f'.read "{macro_file}"\n{script}SELECT * FROM {call};\n',
                                   capture_output=True, text=True, encoding="utf-8", timeout=300)
        assert completed.returncode != 0 and message in completed.stderr, (call, completed.stderr)


# ---------------------------------------------------------------- portable SQL, checked in the source

def sql_code_lines():
    """(file name, line number, code) of every macro file line, comments and string literals removed."""
    for path in sql_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            code = re.sub(r"'(?:[^']|'')*'", "''", line.split("--", 1)[0])
            if code.strip():
                yield path.name, number, code


def test_sql_is_close_to_standard_sql():
    # The SQL must run in DuckDB 1.x (the shell) and 2.0 (Python): no `->` lambdas, which
    # newer DuckDB deprecates; CAST(x AS t) rather than the `::` shorthand; and a NULLIF on
    # every denominator, because x / 0 is NULL in DuckDB 1.x but infinity in 2.0.
    offending = []
    for name, number, code in sql_code_lines():
        if "->" in code or "::" in code:
            offending.append(f"{name}:{number}: {code.strip()}")
        for denominator in re.findall(r"/\s*(\S{0,7})", code):
            if not denominator.upper().startswith("NULLIF("):
                offending.append(f"{name}:{number}: division by '{denominator}...' without NULLIF: {code.strip()}")
    assert not offending, "\n".join(offending)


def test_macros_read_numbers_held_as_text_and_name_text_that_is_not_one():
    """A CSV column read as VARCHAR (one stray value is enough for DuckDB's sniffer) holds labels or scores
    as text: the macros read them as the numbers they are, as the Python API does (sql/05_input_types.sql).
    Before, the shell stopped at a binder error about a comparison (VARCHAR and INTEGER_LITERAL) or
    abs(VARCHAR). Text that is not a number is refused with DuckDB's conversion error, which quotes it."""
    con = sqlrank.connect()
    con.execute("CREATE TABLE qrels_text AS SELECT * FROM (VALUES ('q1', 'a', '2'), ('q1', 'b', '0'), "
                "('q1', 'c', '1'), ('q2', 'a', '1')) AS t(query_id, doc_id, relevance)")
    con.execute("CREATE TABLE run_text AS SELECT * FROM (VALUES ('q1', 'a', '0.5'), ('q1', 'b', '0.9'), "
                "('q1', 'c', '1e-1'), ('q2', 'a', '3')) AS t(query_id, doc_id, score)")
    con.execute("CREATE TABLE qrels AS SELECT query_id, doc_id, CAST(relevance AS INTEGER) AS relevance FROM qrels_text")
    con.execute("CREATE TABLE run AS SELECT query_id, doc_id, CAST(score AS DOUBLE) AS score FROM run_text")
    for precision in ("double", "float32"):
        for k in ("2", "NULL"):
            as_text, typed = (con.execute(every_measure(f"sqlrank.run_rankings('{qrels}', '{run}', "
                                                    f"score_precision := '{precision}')", k=k) + " ORDER BY ALL"
                                      ).fetchall() for qrels, run in (("qrels_text", "run_text"), ("qrels", "run")))
            assert as_text == typed
    # q1 ranks b (label 0), a (2), c (1): AP = (1/2 + 2/3) / 2
    assert dict(con.execute("SELECT * FROM sqlrank.ap('qrels_text', 'run_text')").fetchall())["q1"] == (1 / 2 + 2 / 3) / 2
    con.execute("CREATE TABLE qrels_word AS SELECT 'q1' AS query_id, 'a' AS doc_id, 'high' AS relevance")
    with pytest.raises(duckdb.ConversionException, match=r"Could not convert string 'high' to DOUBLE"):
        con.execute("SELECT * FROM sqlrank.ndcg('qrels_word', 'run')").fetchall()
    con.execute("CREATE TABLE run_word AS SELECT 'q1' AS query_id, 'a' AS doc_id, 'n/a' AS score")
    with pytest.raises(duckdb.ConversionException, match=r"Could not convert string 'n/a' to DOUBLE"):
        con.execute("SELECT * FROM sqlrank.ndcg('qrels', 'run_word')").fetchall()


@pytest.mark.parametrize("qrels_ids, run_ids", [("INTEGER", "INTEGER"), ("INTEGER", "VARCHAR"),
                                                ("VARCHAR", "INTEGER"), ("BIGINT", "VARCHAR")])
def test_macros_take_integer_ids_as_their_text(qrels_ids, run_ids):
    """A shell user's tables may type their ids as integers, on one side or both: ids are compared as text,
    as in the Python API (sql/05_input_types.sql). Before, integers on both sides failed to bind, and mixed
    types matched no judged document below rank 1: query 1's nDCG@10 came out 0, silently."""
    con = sqlrank.connect()
    con.execute(f"CREATE TABLE qrels AS SELECT CAST(q AS {qrels_ids}) AS query_id, CAST(d AS {qrels_ids}) AS doc_id, "
                "r AS relevance FROM (VALUES (1, 10, 1), (1, 11, 0), (2, 10, 2), (2, 9, 1)) AS t(q, d, r)")
    con.execute(f"CREATE TABLE run AS SELECT CAST(q AS {run_ids}) AS query_id, CAST(d AS {run_ids}) AS doc_id, "
                "s AS score FROM (VALUES (1, 10, 0.5), (1, 11, 0.9), (2, 10, 0.1), (2, 9, 0.1)) AS t(q, d, s)")
    ndcg = dict(con.execute("SELECT * FROM sqlrank.ndcg('qrels', 'run', k := 10)").fetchall())
    ap = dict(con.execute("SELECT * FROM sqlrank.ap('qrels', 'run')").fetchall())
    # query 1: doc 11 (label 0) ranks above doc 10 (label 1)
    assert ndcg["1"] == pytest.approx(1 / math.log2(3), abs=1e-15) and ap["1"] == 0.5
    # query 2: a tie broken by doc id descending as text, '9' before '10' (as numbers 10 would come first)
    assert ndcg["2"] == pytest.approx((1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)), abs=1e-15)
    assert ap["2"] == 1.0
