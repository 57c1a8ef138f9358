"""Measures users define (sqlrank.define, the CLI's --define, the shell's two macros): docs/custom-measures.md.

The independent reference is trec_eval 10: built-in measures written again as SQL expressions over the ranking
struct ("twins") give trec_eval's own numbers on every conformance case of tests/data/trec_eval/ (and the
built-in's, bit for bit); the measure the catalogue lacks is checked on a hand-worked example.
"""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

import sqlrank
from cli_runner import invoke
from test_conformance import read_full_csv, read_trec_text
from tolerances import printed

DOCS = Path(__file__).parent.parent / "docs" / "custom-measures.md"

# built-in measures written again from the shared pieces of sql/21_ranking_parts.sql, as a user would
TWINS = {
    "MyP": ("P", "coalesce(CAST(len(sqlrank.relevant_ranks(ranking, k, rel)) AS DOUBLE)"
                 " / NULLIF(coalesce(k, ranking.num_ret), 0), 0)"),
    "MyR": ("R", "coalesce(CAST(len(sqlrank.relevant_ranks(ranking, k, rel)) AS DOUBLE)"
                 " / NULLIF(sqlrank.num_relevant(ranking, rel), 0), 0)"),
    "MyRR": ("RR", "coalesce(1.0 / NULLIF(sqlrank.relevant_ranks(ranking, k, rel)[1], 0), 0)"),
    "MyAP": ("AP", "coalesce(sqlrank.precision_sum(ranking, k, rel) / NULLIF(sqlrank.num_relevant(ranking, rel), 0), 0)"),
    "MynDCG": ("nDCG", "least(coalesce(sqlrank.dcg_of(ranking, k, 'linear', 'log2', 2) / NULLIF(sqlrank.ideal_dcg("
                       "sqlrank.ideal_gains(ranking, 'linear', 'qrels'), k, 'log2', 2), 0), 0), 1.0)"),
}
# trec_eval's names of each built-in, whole list and at a cutoff
TREC_NAMES = {"P": ("set_P", "P_{k}"), "R": ("set_recall", "recall_{k}"), "RR": ("recip_rank", None),
              "AP": ("map", "map_cut_{k}"), "nDCG": ("ndcg", "ndcg_cut_{k}")}
CUTOFFS = (None, 5, 10, 100)

# every case of trec_eval's conformance data (tests/data/trec_eval/README.md), as few evaluations as they allow:
# {evaluation: (qrels, {run name: (run file, trec_eval's output for it)}, evaluate's options)}
CASES = {
    "binary_and_missing_query_c": ("qrels.test", {"results.test": ("results.test", "expected_all_trec_full.csv"),
                                                  "results.trunc": ("results.trunc",
                                                                    "expected_all_trec_c_trunc_full.csv")}, {}),
    "graded": ("qrels.rel_level", {"results.test": ("results.test", "expected_all_trec_rel_level_full.csv")}, {}),
    "rel_2": ("qrels.rel_level", {"results.test": ("results.test", "out.test.aql")}, {"rel": 2}),  # trec_eval -l2
    "depth_100": ("qrels.test", {"results.trunc": ("results.trunc", "out.test.aqcM")}, {"depth": 100}),  # -c -M100
    "comment_ids": ("qrels.comment.test", {"results.comment.test": ("results.comment.test.gz",
                                                                    "expected_all_trec_comment_full.csv")}, {}),
}


@pytest.fixture(scope="module")
def twins():
    """The twins, defined for this module's tests and forgotten after them."""
    for name, (_, expression) in TWINS.items():
        sqlrank.define(name, expression, params=() if name == "MynDCG" else ("rel",))
    yield TWINS
    for name in TWINS:
        sqlrank.undefine(name)


def asked(name: str, k) -> str:
    return name if k is None else f"{name}@{k}"


def trec_name(builtin: str, k) -> str | None:
    whole, family = TREC_NAMES[builtin]
    return whole if k is None else family and family.format(k=k)


@pytest.mark.parametrize("case", list(CASES))
def test_each_twin_equals_its_built_in_and_trec_eval_on_every_conformance_case(twins, trec_data, case):
    qrels, runs, options = CASES[case]
    measures = [asked(name, k) for name in twins for k in CUTOFFS] + \
        [asked(builtin, k) for builtin, _ in twins.values() for k in CUTOFFS]
    result = sqlrank.evaluate(trec_data / qrels, {name: trec_data / run for name, (run, _) in runs.items()}, measures,
                              **options)
    values = {(row["run_id"], row["measure"], row["query_id"]): row["value"] for row in result.to_arrow().to_pylist()}
    checked = 0
    for run, (_, expected_file) in runs.items():
        if expected_file.endswith(".csv"):  # 17 digits, else trec_eval's 4 decimals
            expected, tolerance = read_full_csv(trec_data / expected_file), 1e-9
        else:
            expected, tolerance = read_trec_text(trec_data / expected_file), printed(4)
        for name, (builtin, _) in twins.items():
            for k in CUTOFFS:
                for query in {query for _, query in expected}:
                    twin = values[(run, asked(name, k), query)]
                    assert twin == values[(run, asked(builtin, k), query)], (run, name, k, query)
                    if (trec_name(builtin, k), query) in expected:
                        assert twin == pytest.approx(expected[(trec_name(builtin, k), query)], abs=tolerance), \
                            (run, name, k, query)
                        checked += 1
    assert checked >= 40 * len(runs)  # trec_eval printed most of them: an emptied comparison cannot pass


@pytest.mark.parametrize("ties", ["docid_asc", "optimistic", "pessimistic", "input"])
def test_a_twin_equals_its_built_in_under_every_order_policy(twins, trec_data, ties):
    # results.test has 10 pairs of equal scores, which these policies order each its own way
    measures = ["MyAP", "AP", "MyRR@10", "RR@10", "MyP@5", "P@5", "MynDCG@10", "nDCG@10"]
    result = sqlrank.evaluate(trec_data / "qrels.rel_level", trec_data / "results.test", measures, ties=ties)
    values = {(row["measure"], row["query_id"]): row["value"] for row in result.to_arrow().to_pylist()}
    for query in ("301", "302", "303", "all"):
        for twin, builtin in zip(measures[::2], measures[1::2]):
            assert values[(twin, query)] == values[(builtin, query)], (twin, query, ties)


def test_the_shell_macros_equal_the_built_in_ones_and_the_python_door(twins, con, trec_data):
    # the contract of docs/custom-measures.md, as `sqlrank sql --define` writes it
    for name in ("MyAP", "MyP"):
        con.execute(sqlrank.defined.shell_sql(sqlrank.defined.lookup(name)))
    sqlrank.load_qrels(con, trec_data / "qrels.rel_level", name="qrels")
    sqlrank.load_run(con, trec_data / "results.test", name="run")
    rows = con.execute(
        "SELECT query_id, twin.value, builtin.value FROM sqlrank.myap('qrels', 'run', ties := 'optimistic') AS twin "
        "JOIN sqlrank.ap('qrels', 'run', ties := 'optimistic') AS builtin USING (query_id) "
        "UNION ALL SELECT query_id, twin.value, builtin.value FROM sqlrank.myp('qrels', 'run', k := 10, rel := 2) "
        "AS twin JOIN sqlrank.p('qrels', 'run', k := 10, rel := 2) AS builtin USING (query_id) ORDER BY ALL").fetchall()
    assert len(rows) == 6 and all(twin == builtin for _, twin, builtin in rows)
    python = sqlrank.evaluate(trec_data / "qrels.rel_level", trec_data / "results.test", ["MyAP", "MyP(rel=2)@10"],
                              ties="optimistic", names="canonical")
    by_query = {(row["measure"], row["query_id"]): row["value"] for row in python.to_arrow().to_pylist()}
    assert sorted([by_query[("MyAP", q)] for q in ("301", "302", "303")] +
                  [by_query[("MyP(rel=2)@10", q)] for q in ("301", "302", "303")]) == sorted(v for _, v, _ in rows)


def test_a_defined_measure_takes_parameters_options_and_the_all_row_it_declares(twins, trec_data):
    # a defined measure that sums: the number of relevant documents within k, against NumRelRet's sum
    sqlrank.define("RelRetDefined", "len(sqlrank.relevant_ranks(ranking, k, rel))", aggregate="sum",
                   params=("rel",), needs=())
    try:
        result = sqlrank.evaluate(trec_data / "qrels.rel_level", trec_data / "results.test",
                                  ["MyP(rel=2)@10", "P(rel=2)@10", "MyAP@100", "AP@100", "RelRetDefined@100",
                                   "NumRelRet@100"], rel=3, missing="skip")
    finally:
        sqlrank.undefine("RelRetDefined")
    assert result.summary["MyP(rel=2)@10"] == result.summary["P(rel=2)@10"]
    assert result.summary["MyAP@100"] == result.summary["AP@100"]  # rel=3 from the option, for both
    assert result.summary["RelRetDefined@100"] == result.summary["NumRelRet@100"]
    by_query = {row["query_id"]: row["value"] for row in result.to_arrow().to_pylist()
                if row["measure"] == "RelRetDefined@100"}
    assert by_query["all"] == by_query["301"] + by_query["302"] + by_query["303"] > 0


# ---------------------------------------------------------------- bad definitions, through each door

BAD_DEFINITIONS = [
    # (name, expression, keywords, the message)
    ("Bad", "ranking.nope", {}, 'Bad: its SQL expression fails in DuckDB: Binder Error: Could not find key "nope" in '
                                "struct (expression: ranking.nope)"),
    ("Bad", "foo(ranking)", {}, "Bad: its SQL expression fails in DuckDB: Catalog Error: Scalar Function with name foo "
                                "does not exist! (expression: foo(ranking))"),
    ("Bad", "len(", {}, 'Bad: its SQL expression fails in DuckDB: Parser Error: syntax error at or near "AS" '
                        "(expression: len()"),
    ("Bad", "list_sum(list_transform(ranking.documents, lambda d: d.label))", {},
     "Bad: its expression gave NULL for a ranking of 0 retrieved documents; a measure gives a finite number for every "
     "query: write a quotient as coalesce(x / NULLIF(y, 0), 0)"),
    ("Bad", "1 / ranking.num_ret", {}, "Bad: its expression gave inf for a ranking of 0 retrieved documents; a measure "
                                       "gives a finite number for every query: write a quotient as "
                                       "coalesce(x / NULLIF(y, 0), 0)"),
    ("Bad", "1); SELECT (2", {}, "Bad: the expression must be one SQL expression, without ';': 1); SELECT (2"),
    ("Bad", " ", {}, "Bad: the expression is the measure's SQL, e.g. 'len(sqlrank.relevant_ranks(ranking, k, 1))'; "
                     "got ' '"),
    ("Bad", "1", {"aggregate": "median"}, "Bad: unknown aggregate 'median' (expected one of: mean, sum, gm)"),
    ("Bad", "1", {"params": ("relevance",)}, "Bad: unknown params 'relevance' (expected some of: "
                                             f"{', '.join(sqlrank.MEASURE_PARAMETERS)})"),
    ("map", "1", {}, "map is already a name of sqlrank's own measures (it reads as AP); give the measure you define "
                     "another name (`sqlrank measures` lists the built-in ones)"),
    ("ndcg_cut_10", "1", {}, "ndcg_cut_10 is already a name of sqlrank's own measures (it reads as nDCG@10); give the "
                             "measure you define another name (`sqlrank measures` lists the built-in ones)"),
    ("HITS", "1", {}, "HITS is already a name of sqlrank's own measures (it reads as Hits); give the measure you "
                      "define another name (`sqlrank measures` lists the built-in ones)"),
    ("my-p", "1", {}, "a defined measure's name is a letter then letters, digits or _, e.g. MyP; got 'my-p'"),
]


def test_a_bad_definition_is_refused_naming_the_measure_and_duckdbs_message():
    for name, expression, keywords, message in BAD_DEFINITIONS:
        with pytest.raises(sqlrank.MeasureError) as refused:
            sqlrank.define(name, expression, **keywords)
        assert str(refused.value) == message
        assert sqlrank.defined.lookup(name) is None or name == "HITS"


def test_what_a_defined_measure_cannot_take_is_refused_by_name(twins, trec_data):
    qrels, run = trec_data / "qrels.test", trec_data / "results.test"
    with pytest.raises(sqlrank.MeasureError, match=re.escape(
            "ties='average' is not defined for MyP, a measure defined in SQL: its expression gives the value of one "
            "order, not the expectation over the orderings of tie groups; use another ties policy (trec, docid_asc, "
            "optimistic, pessimistic, input)")):
        sqlrank.evaluate(qrels, run, ["P@10", "MyP@10"], ties="average")
    with pytest.raises(sqlrank.MeasureError, match=re.escape("MyP(rel=two)@10: rel must be a number, got 'two'")):
        sqlrank.evaluate(qrels, run, ["MyP(rel=two)@10"])
    sqlrank.define("WholeList", "ranking.num_ret", cutoff=False)
    # an expression that fails on data the trials did not have is an evaluation error naming the defined measures
    sqlrank.define("Picky", "CASE WHEN ranking.num_ret > 100 THEN error('too long a ranking') ELSE 1 END")
    try:
        with pytest.raises(sqlrank.MeasureError, match=re.escape("WholeList@10: WholeList takes no cutoff (@k)")):
            sqlrank.evaluate(qrels, run, ["WholeList@10"])
        with pytest.raises(sqlrank.MeasureError, match=re.escape(
                "evaluation failed in a defined measure's SQL (Picky): Invalid Input Error: too long a ranking")):
            sqlrank.evaluate(qrels, run, ["Picky"])
    finally:
        sqlrank.undefine("WholeList")
        sqlrank.undefine("Picky")


def test_the_shell_table_macro_refuses_what_the_python_door_refuses(twins, con, trec_data):
    con.execute(sqlrank.defined.shell_sql(sqlrank.defined.lookup("MyP")))
    con.execute("CREATE MACRO sqlrank.measure_nothing(ranking, k) AS CAST(NULL AS DOUBLE)")
    # a hand-written table macro after the contract: the one of shell_sql, its name and formula changed
    con.execute(re.sub(r"sqlrank\.number_ok\(rel, [^)]*\)", "true",
                       sqlrank.defined.shell_sql(sqlrank.defined.lookup("MyP")).split(";", 1)[1]
                       .replace("sqlrank.myp(", "sqlrank.nothing(").replace("measure_myp", "measure_nothing")
                       .replace("'MyP'", "'Nothing'").replace(", rel := 1", "")
                       .replace(", TRY_CAST(rel AS DOUBLE)", "")))
    qrels, run = (sqlgen_literal(trec_data / name) for name in ("qrels.test", "results.test"))
    refusals = {
        f"sqlrank.myp({qrels}, {run}, ties := 'average')":
            "ties := 'average' is not defined for MyP, a measure defined in SQL",
        f"sqlrank.myp({qrels}, {run}, k := 0)": "MyP: the cutoff must be a whole number >= 1, got '0'",
        f"sqlrank.myp({qrels}, {run}, rel := 'two')": "sqlrank.myp: rel must be a number, got 'two'",
        f"sqlrank.nothing({qrels}, {run})": "Nothing: its expression gave NULL for a ranking of 500 retrieved documents",
    }
    for call, message in refusals.items():
        with pytest.raises(duckdb.Error, match=re.escape("sqlrank: " + message)):
            con.execute(f"SELECT * FROM {call}").fetchall()


def sqlgen_literal(path: Path) -> str:
    return sqlrank.sqlgen.literal(str(path))


# ---------------------------------------------------------------- the command line: --define FILE

DEFINITIONS = """
# P@k written again
[FileP]
expression = '''
coalesce(CAST(len(sqlrank.relevant_ranks(ranking, k, rel)) AS DOUBLE)
         / NULLIF(coalesce(k, ranking.num_ret), 0), 0)
'''
params = ["rel"]
"""


def test_the_cli_evaluates_a_measure_of_a_definitions_file(tmp_path, trec_data):
    definitions = tmp_path / "defs.toml"
    definitions.write_text(DEFINITIONS, encoding="utf-8")
    try:
        done = invoke("eval", trec_data / "qrels.test", trec_data / "results.test", "--define", definitions,
                      "-m", "FileP@10", "-m", "P@10", "-m", "FileP(rel=2)", "-q", "-f", "csv")
        assert done.exit_code == 0, done.stderr
        rows = [line.replace('"', "").split(",") for line in done.stdout.splitlines()[1:]]  # run, query, measure, value
        values = {(query, measure): float(value) for _, query, measure, value in rows}
        for query in ("301", "302", "303", "all"):
            assert values[(query, "FileP@10")] == values[(query, "P@10")]
        assert values[("all", "FileP@10")] == pytest.approx(0.3)  # trec_eval's P_10 (expected_all_trec_full.csv)
        sql = invoke("sql", "--define", definitions)
        assert sql.exit_code == 0 and "CREATE OR REPLACE MACRO sqlrank.filep(qrels_table, run_table, k := NULL" in sql.stdout
    finally:
        sqlrank.undefine("FileP")


@pytest.mark.parametrize(("text", "message"), [
    ("[MyP]\nexpression = 'ranking.nope'\n",
     "defs.toml: [MyP]: MyP: its SQL expression fails in DuckDB: Binder Error: Could not find key \"nope\" in struct"),
    ("[MyP]\nexpresion = '1'\n", "defs.toml: [MyP]: unknown key 'expresion' (expected some of: expression, cutoff, "
                                 "aggregate, params, needs, definition, better); did you mean 'expression'?"),
    ("[MyP]\ncutoff = true\n", "defs.toml: [MyP]: no expression; give the measure's SQL as expression = '''...'''"),
    ("[map]\nexpression = '1'\n", "defs.toml: [map]: map is already a name of sqlrank's own measures"),
    ("[MyP]\nexpression = '1'\ncutoff = yes\n", "defs.toml: not a TOML file of definitions: Invalid value (at line 3, "
                                               "column 10)"),
    ("MyP = '1'\n", "defs.toml: 'MyP' is a value, not a table; each measure is a table"),
])
def test_a_bad_definitions_file_is_one_line_naming_the_file_and_the_measure(tmp_path, trec_data, text, message):
    definitions = tmp_path / "defs.toml"
    definitions.write_text(text, encoding="utf-8")
    done = invoke("eval", trec_data / "qrels.test", trec_data / "results.test", "--define", definitions, "-m", "P@10")
    assert done.exit_code in (1, 2) and done.stdout == ""
    assert done.stderr.startswith("sqlrank: error: " + str(tmp_path) + "/" + message), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


# ---------------------------------------------------------------- Spark: the same SQL, in each worker

def test_spark_computes_a_defined_measure_as_the_single_machine(twins, spark, trec_data):
    from sqlrank import spark as sqlrank_spark

    qrels, run = trec_data / "qrels.rel_level", trec_data / "results.test"
    measures = ["MyAP", "AP", "MynDCG@10", "MyP(rel=2)@10"]
    # the workers are other Python processes: they define the driver's measures from the job's options
    result = sqlrank_spark.evaluate(str(qrels), str(run), measures, spark=spark, buckets=2).to_arrow().to_pylist()
    single = sqlrank.evaluate(qrels, run, measures).to_arrow().to_pylist()
    assert [(r["query_id"], r["measure"]) for r in result] == [(r["query_id"], r["measure"]) for r in single]
    assert all(got["value"] == pytest.approx(expected["value"], rel=1e-12, abs=0)
               for got, expected in zip(result, single))
    assert {r["query_id"]: r["value"] for r in result if r["measure"] == "MyAP"} == \
        {r["query_id"]: r["value"] for r in result if r["measure"] == "AP"}
    with pytest.raises(sqlrank.MeasureError, match=re.escape("ties='average' is not defined for MyAP")):
        sqlrank_spark.evaluate(str(qrels), str(run), ["MyAP"], spark=spark, ties="average")


# ---------------------------------------------------------------- docs/custom-measures.md, evaluated

def test_the_documented_definitions_give_the_documented_numbers(tmp_path):
    toml = re.search(r"```toml\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.DOTALL).group(1)
    definitions = tmp_path / "defs.toml"
    definitions.write_text(toml, encoding="utf-8")
    before = [m.keywords() for m in sqlrank.defined.defined_measures() if m.name == "MyP"]
    assert [m.name for m in sqlrank.define_file(definitions)] == ["MyP", "SearchLength"]
    # the worked examples' judgments and rankings (scores falling with the rank)
    qrels = pa.table({"query_id": ["q1"] * 4 + ["q2", "q2", "q3"], "doc_id": ["a", "b", "c", "x", "d", "x", "e"],
                      "relevance": [1, 1, 1, 0, 1, 0, 1]})
    rankings = {"q1": "a x b y z w c", "q2": "u x d", "q3": "u v"}
    run = pa.table({"query_id": [q for q, docs in rankings.items() for _ in docs.split()],
                    "doc_id": [d for docs in rankings.values() for d in docs.split()],
                    "score": [10.0 - place for docs in rankings.values() for place in range(len(docs.split()))]})
    try:
        result = sqlrank.evaluate(qrels, run, ["MyP@5", "P@5", "MyP", "P", "SearchLength@5"])
    finally:
        sqlrank.undefine("SearchLength")
        sqlrank.undefine("MyP")
        sqlrank.defined.redefine(before)  # the twins' MyP, where this module's fixture made it
    values = {(row["measure"], row["query_id"]): row["value"] for row in result.to_arrow().to_pylist()}
    assert values[("MyP@5", "q1")] == values[("P@5", "q1")] == 2 / 5
    assert values[("MyP", "q1")] == values[("P", "q1")] == 3 / 7 == 0.42857142857142855
    assert [values[("SearchLength@5", q)] for q in ("q1", "q2", "q3", "all")] == \
        [1 - 1, 3 - 1, min(5, 2), (0 + 2 + 2) / 3]
    assert (0 + 2 + 2) / 3 == 1.3333333333333333
