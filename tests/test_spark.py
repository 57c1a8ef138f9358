"""sqlrank.spark against sqlrank.evaluate: the same per-query values, `all` rows, notices and errors.

One local SparkSession (local[2], UI off, 2 shuffle partitions; tests/conftest.py) serves every Spark test. Without
pyspark or Java the module is skipped locally and fails in CI (the environment variable CI set).
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

import sqlrank
from sqlrank import EvaluationError
from sqlrank import spark as sqlrank_spark
from sqlrank.spark import result as spark_result, runtime

from fresh_python import run_fresh
from test_conformance import CASES, REQUIRED, SUMMARY_ONLY, TOL, read_full_csv

REL_TOL = 1e-12
# pyspark 4 warns about pandas 3 when its Arrow conversions load; these tests hand it Arrow tables only
pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")


# ---------------------------------------------------------------- data with every case the policies see

def make_data(seed: int = 7):
    """Graded qrels of 30 queries; three runs in one table (run_id) with ties, missing and unjudged queries."""
    rng = np.random.default_rng(seed)
    qrels_rows, run_rows = [], []
    for query in range(30):
        qid = f"q{query:02d}"
        for doc in rng.choice(60, size=int(rng.integers(3, 15)), replace=False):
            qrels_rows.append((qid, f"d{doc}", float(rng.integers(0, 4))))
    for run_id in ("bm25", "dense", "mix"):
        for query in range(33):  # q30..q32 have no judgments
            if rng.random() < 0.15:  # this run misses the query
                continue
            qid = f"q{query:02d}"
            for doc in rng.choice(60, size=int(rng.integers(1, 25)), replace=False):
                run_rows.append((run_id, qid, f"d{doc}", float(rng.integers(0, 6)) / 2))  # ties
    qrels = pa.table({name: list(column) for name, column in zip(("query_id", "doc_id", "relevance"), zip(*qrels_rows))})
    run = pa.table({name: list(column) for name, column in zip(("run_id", "query_id", "doc_id", "score"), zip(*run_rows))})
    return qrels, run


def every_measure() -> list[str]:
    """Every measure of the registry, with and without a cutoff, and the parameters that change the SQL."""
    names = []
    for name, definition in sqlrank.REGISTRY.items():
        if {"subtopics", "preferences"} & set(definition.needs):  # refused on Spark (test_subtopic_qrels.py, test_prefs.py)
            continue
        # a measure whose @ is a real number (IPrec@0.5) has no value without one
        names.append(f"{name}@0.5" if definition.at else name)
        if definition.cutoff:
            names.append(f"{name}@5")
    return names + ["nDCG(gain=exp)@10", "nDCG(ideal=run)", "nDCG(discount=jarvelin,base=3)@5",
                    "AP(denominator=min_R_k)@5", "AP(rel=2)", "P(rel=2)@3"]


def frame(spark, table: pa.Table):
    return spark.createDataFrame(table)  # from Arrow: a NaN stays NaN (through pandas it would become null)


def assert_same_result(spark_result, single) -> None:
    """Per-query rows equal, in the same order; `all` rows within 1e-12 relative; notices identical."""
    got, expected = spark_result.to_arrow().to_pylist(), single.to_arrow().to_pylist()
    assert [(r["run_id"], r["query_id"], r["measure"]) for r in got] == \
        [(r["run_id"], r["query_id"], r["measure"]) for r in expected]
    per_query = [(g, e) for g, e in zip(got, expected) if e["query_id"] != "all"]
    assert per_query and all(g["value"] == e["value"] for g, e in per_query), \
        [(g, e) for g, e in per_query if g["value"] != e["value"]][:5]
    means = [(g, e) for g, e in zip(got, expected) if e["query_id"] == "all"]
    assert means and all(math.isclose(g["value"], e["value"], rel_tol=REL_TOL, abs_tol=1e-300) for g, e in means)
    assert [n.replace("<Spark DataFrame", "<pyarrow Table") for n in spark_result.notices()] == single.notices()
    assert spark_result.runs == single.runs


OPTION_SETS = {
    "defaults": {},
    "skip": {"missing": "skip"},
    "depth_rel": {"depth": 7, "rel": 2},
    "float32": {"score_precision": "float32", "missing": "skip"},
}


@pytest.mark.parametrize("options", list(OPTION_SETS))
def test_every_measure_equals_the_single_machine_engine(spark, options):
    qrels, run = make_data()
    measures = every_measure()
    single = sqlrank.evaluate(qrels, run, measures, **OPTION_SETS[options])
    result = sqlrank_spark.evaluate(frame(spark, qrels), frame(spark, run), measures, spark=spark, buckets=3,
                                    **OPTION_SETS[options])
    assert result.runs == ["bm25", "dense", "mix"]
    assert any("have no documents" in n for n in single.notices())  # the data exercise the missing policy
    assert_same_result(result, single)


def test_the_bucket_count_does_not_change_a_value(spark):
    qrels, run = make_data(seed=11)
    single = sqlrank.evaluate(qrels, run, ["nDCG@10", "AP", "NumRel", "bpref"])
    for buckets in (1, 24):  # 24 buckets: many hold no query of some run, some none at all
        result = sqlrank_spark.evaluate(frame(spark, qrels), frame(spark, run), ["nDCG@10", "AP", "NumRel", "bpref"],
                                        spark=spark, buckets=buckets)
        assert_same_result(result, single)


def test_named_runs_and_duplicates_policies(spark):
    qrels, run = make_data(seed=3)
    runs = {name: run.filter(pa.compute.equal(run["run_id"], name)).drop_columns(["run_id"])
            for name in ("mix", "bm25")}  # given out of alphabetical order: kept as given
    doubled = pa.concat_tables([runs["mix"], runs["mix"].slice(0, 4).set_column(
        2, "score", pa.array([9.0, 0.0, 9.0, 0.0]))])
    runs["mix"] = doubled
    qrels_doubled = pa.concat_tables([qrels, qrels.slice(0, 2)])
    for policy in ("max", "first"):
        single = sqlrank.evaluate(qrels_doubled, runs, ["AP", "RR@10", "NumRet"], duplicates=policy)
        result = sqlrank_spark.evaluate(frame(spark, qrels_doubled), {name: frame(spark, t) for name, t in runs.items()},
                                        ["AP", "RR@10", "NumRet"], duplicates=policy, spark=spark, buckets=4)
        assert any("duplicate run rows dropped" in n for n in single.notices())
        assert any("duplicate judgment rows dropped" in n for n in single.notices())
        assert result.runs == ["mix", "bm25"]
        assert_same_result(result, single)


def test_the_dataframe_is_the_long_table_with_all_rows(spark):
    """`dataframe` and `aggregates_dataframe` make the `all` rows and aggregates in Spark, which to_result makes on
    the driver: each aggregate kind, a mean (AP), a sum (NumRel), a geometric mean (gm_map) and a weighted mean
    (GAUC), and each spread equal the single machine's."""
    qrels, run = make_data()
    measures = ["AP", "NumRel", "gm_map", "GAUC"]
    spreads = ["std", "stderr", "median", "std_population"]
    result = sqlrank_spark.evaluate(frame(spark, qrels), frame(spark, run), measures, spark=spark, aggregates=spreads)
    single = sqlrank.evaluate(qrels, run, measures, aggregates=spreads)
    assert result.dataframe.columns == ["run_id", "query_id", "measure", "value"]
    means = {(r.run_id, r.measure): r.value for r in result.dataframe.filter("query_id = 'all'").collect()}
    assert means.keys() == {(run_id, m) for run_id in single.means for m in measures}
    for (run_id, measure), value in means.items():
        assert value == pytest.approx(single.means[run_id][measure], rel=REL_TOL), (run_id, measure)
    got = {(r.run_id, r.measure, r.aggregate): r.value for r in result.aggregates_dataframe.collect()}
    expected = {(r["run_id"], r["measure"], r["aggregate"]): r["value"] for r in single.aggregates.to_pylist()}
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, rel=REL_TOL), key


def test_the_aggregate_comes_from_the_registry_geometric_mean_included(spark, monkeypatch):
    qrels, run = make_data()
    aggregates = {"AP": "gm", "NumRel": "sum", "RR": "mean"}
    # patched where SparkResult reads it
    monkeypatch.setattr(spark_result, "aggregate_of", lambda measure: aggregates[str(measure)])
    result = sqlrank_spark.evaluate(frame(spark, qrels), frame(spark, run), list(aggregates), spark=spark)
    rows = result.to_arrow().to_pylist()
    for measure, rule in aggregates.items():
        values = [r["value"] for r in rows if r["run_id"] == "dense" and r["measure"] == measure and r["query_id"] != "all"]
        expected = {"gm": math.exp(sum(math.log(max(v, 1e-5)) for v in values) / len(values)),
                    "sum": sum(values), "mean": sum(values) / len(values)}[rule]
        [got] = [r["value"] for r in rows if r["run_id"] == "dense" and r["measure"] == measure and r["query_id"] == "all"]
        assert got == pytest.approx(expected, rel=REL_TOL)


def test_aggregate_of_reads_the_registry():
    ap, num_rel = sqlrank.parse_measures(["AP@10", "NumRel"])
    assert (sqlrank_spark.aggregate_of(ap), sqlrank_spark.aggregate_of(num_rel)) == ("mean", "sum")


def test_a_table_name_and_a_parquet_path_are_read_through_the_session(spark, tmp_path):
    import pyarrow.parquet as pq

    qrels, run = make_data(seed=5)
    one_run = run.filter(pa.compute.equal(run["run_id"], "dense")).drop_columns(["run_id"])
    pq.write_table(qrels, tmp_path / "qrels.parquet")
    frame(spark, one_run).createOrReplaceTempView("dense_run")
    result = sqlrank_spark.evaluate(str(tmp_path / "qrels.parquet"), "dense_run", ["AP", "nDCG@10"], spark=spark)
    single = sqlrank.evaluate(qrels, {"dense_run": one_run}, ["AP", "nDCG@10"])
    assert result.runs == ["dense_run"]  # named after the table, as a path is named after its file
    assert result.to_arrow().drop_columns(["value"]).equals(single.to_arrow().drop_columns(["value"]))
    per_query = [(g, e) for g, e in zip(result.to_arrow().to_pylist(), single.to_arrow().to_pylist())
                 if e["query_id"] != "all"]
    assert all(g == e for g, e in per_query)


# ---------------------------------------------------------------- trec_eval's own files, read by Spark

@pytest.mark.parametrize("case", list(CASES))
def test_trec_eval_conformance_files_through_spark(spark, trec_data, case):
    qrels, run, expected_file, missing = CASES[case]
    expected = read_full_csv(trec_data / expected_file)
    names = sorted({measure for measure, _ in expected})
    assert REQUIRED <= set(names)
    result = sqlrank_spark.evaluate(str(trec_data / qrels), str(trec_data / run), names, missing=missing, spark=spark)
    single = sqlrank.evaluate(trec_data / qrels, trec_data / run, names, missing=missing)
    assert_same_result(result, single)
    # each measure under trec_eval's name, as asked; trec_eval prints only the `all` line of a summary-only
    # measure (gm_map, num_q, ...)
    got = {(r["measure"], r["query_id"]): r["value"] for r in result.to_arrow().to_pylist()
           if r["query_id"] == "all" or r["measure"] not in SUMMARY_ONLY}
    assert set(got) == set(expected)
    assert all(abs(got[key] - value) <= TOL for key, value in expected.items())


# ---------------------------------------------------------------- bad input: the single-machine errors

def spark_error_text(error: Exception) -> str:
    """The Spark path's message with its label back to the single-machine one, to compare the rest."""
    text = str(error)
    text = re.sub(r"<Spark DataFrame( run| qrels)?>( \(query bucket 0 of 1\))?", r"<pyarrow Table\1>", text)
    return text


BAD_INPUTS = {
    "duplicate run rows": lambda q, r: (q, pa.concat_tables([r, r.slice(0, 1)])),
    "duplicate qrels rows": lambda q, r: (pa.concat_tables([q, q.slice(3, 1)]), r),
    "NaN score": lambda q, r: (q, r.set_column(2, "score", pa.array([float("nan")] + r["score"].to_pylist()[1:]))),
    "missing score column": lambda q, r: (q, r.rename_columns(["query_id", "doc_id", "points"])),
    "query named all": lambda q, r: (q.set_column(0, "query_id", pa.array(["all"] * q.num_rows)), r),
}


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_bad_input_gives_the_single_machine_error(spark, case):
    qrels = pa.table({"query_id": ["1", "1", "2", "2"], "doc_id": ["a", "b", "a", "c"], "relevance": [1.0, 0.0, 2.0, 1.0]})
    run = pa.table({"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "c"], "score": [1.0, 2.0, 3.0]})
    qrels, run = BAD_INPUTS[case](qrels, run)
    with pytest.raises(sqlrank.SqlrankError) as single:
        sqlrank.evaluate(qrels, run, ["AP"])
    with pytest.raises(sqlrank.SqlrankError) as on_spark:
        sqlrank_spark.evaluate(frame(spark, qrels), frame(spark, run), ["AP"], spark=spark, buckets=1)
    assert type(on_spark.value) is type(single.value)
    assert spark_error_text(on_spark.value) == str(single.value)
    assert "<pyarrow Table" not in str(on_spark.value)


def test_missing_error_refuses_with_the_whole_jobs_counts(spark, trec_data):
    with pytest.raises(EvaluationError) as single:
        sqlrank.evaluate(trec_data / "qrels.test", trec_data / "results.trunc", ["map"], missing="error")
    with pytest.raises(EvaluationError) as on_spark:
        sqlrank_spark.evaluate(str(trec_data / "qrels.test"), str(trec_data / "results.trunc"), ["map"],
                               missing="error", spark=spark, buckets=3)
    assert str(on_spark.value) == str(single.value)
    assert "1 of 3 qrels queries have no documents in the run (302)" in str(on_spark.value)


def test_a_bucket_too_large_for_its_worker_says_to_use_more_buckets(spark):
    # DuckDB's memory limit in each bucket stands for a worker's memory: 50k rows do not fit in 2 MB
    rows = 50_000
    qrels = pa.table({"query_id": [str(i % 500) for i in range(rows)], "doc_id": [str(i) for i in range(rows)],
                      "relevance": [1.0] * rows})
    run = qrels.rename_columns(["query_id", "doc_id", "score"])
    with pytest.raises(sqlrank.ResourceError, match=r"a bucket of \d+ run rows and \d+ qrels rows does not fit in a "
                                                    r"worker's memory; pass more buckets \(buckets=\.\.\., CLI: --spark-buckets\)"):
        sqlrank_spark.evaluate(frame(spark, qrels), frame(spark, run), ["AP"], spark=spark, buckets=1,
                               memory_limit="2MB")


# ---------------------------------------------------------------- what must be installed

def test_without_pyspark_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspark", None)
    monkeypatch.setitem(sys.modules, "pyspark.sql", None)
    with pytest.raises(EvaluationError, match=r"needs pyspark 4 \(not installed\): in the sqlrank checkout, \.venv/bin/pip install -e '\.\[spark\]'$"):
        sqlrank_spark.evaluate("qrels.parquet", "run.parquet", ["AP"])


def test_without_java_the_error_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("JAVA_HOME", raising=False)
    with pytest.raises(EvaluationError, match=r"needs Java 17 or newer"):
        runtime.require_java()


def test_importing_the_spark_package_imports_no_pyspark():
    """pyspark is imported when the engine is used, so that sqlrank and every Spark module import without it."""
    script = ("import pkgutil, sys\n"
              "import sqlrank.spark\n"
              "for module in pkgutil.iter_modules(sqlrank.spark.__path__):\n"
              "    __import__(f'sqlrank.spark.{module.name}')\n"
              "print('pyspark' in sys.modules)\n")
    assert run_fresh(script) == "False\n"


def test_docs_name_every_module_of_the_spark_package():
    """docs/spark.md's "Where the code is" lists the package's modules: none missing, none that is gone."""
    package = Path(sqlrank_spark.__file__).parent
    text = (package.parent.parent / "docs" / "spark.md").read_text(encoding="utf-8")
    section = text.split("## Where the code is", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\* `(\w+\.py)`", section, re.MULTILINE))
    assert listed == {path.name for path in package.glob("*.py")} - {"__init__.py"}


# ---------------------------------------------------------------- the command line

def test_cli_engine_spark_prints_the_single_machine_table(spark, trec_data, capsys):
    import gc

    from sqlrank import cli

    args = ["eval", str(trec_data / "qrels.test"), str(trec_data / "results.trunc"), "-m", "map", "-m", "P_5",
            "-m", "num_rel", "-q"]
    try:
        assert cli.run(args) == 0
        single = capsys.readouterr()
        assert cli.run([*args, "--engine", "spark", "--spark-master", "local[2]"]) == 0
        on_spark = capsys.readouterr()
    finally:
        gc.enable()  # cli.run turns the collector off for the one command of a process
    assert on_spark.out == single.out and "302" in single.out
    assert on_spark.err == single.err and "have no documents (302)" in single.err
