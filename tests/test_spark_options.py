"""sqlrank.spark.evaluate takes every option sqlrank.evaluate takes, with the same values and notices.

Each job sets several options at once (few Spark jobs: these tests run in CI), on data with tied
scores, unjudged documents and queries, missing queries and several runs, cut into several buckets.
The checks that look at a whole run (a run sharing no query with the qrels, a run of which no
document is judged, judged_only leaving nothing) must look at the whole job, not at a bucket.
"""

from __future__ import annotations

import math

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import sqlrank
from sqlrank import spark as sqlrank_spark

from cli_runner import invoke
from test_spark import assert_same_result, frame, make_data

pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")

BUCKETS = 5
MEASURES = ["nDCG@10", "AP", "P@5", "RR", "R@10", "bpref", "NumRet"]
AVERAGE_MEASURES = ["nDCG@10", "AP", "P@5", "RR", "R@10"]  # measures with an expectation over tie orderings

# one job per tie policy, each with other options beside it
OPTION_SETS = {
    "docid_asc, names asked, skip": dict(ties="docid_asc", names="asked", missing="skip"),
    "optimistic, judged only, depth": dict(ties="optimistic", judged_only=True, depth=8, aggregates=["median", "std"]),
    "pessimistic, float32, rel 2": dict(ties="pessimistic", score_precision="float32", rel=2,
                                        aggregates=["std_population", "stderr"]),
    "average, aggregates": dict(ties="average", aggregates=["std", "stderr", "median", "std_population"]),
}


def renamed(table: pa.Table, names: dict[str, str]) -> pa.Table:
    return table.rename_columns([names.get(name, name) for name in table.column_names])


def assert_same_aggregates(spark_result, single) -> None:
    got, expected = spark_result.to_result().aggregates, single.aggregates
    if expected is None:
        assert got is None
        return
    assert got.drop_columns(["value"]).equals(expected.drop_columns(["value"]))
    assert all(g == e or (g is not None and math.isclose(g, e, rel_tol=1e-12, abs_tol=1e-15))
               for g, e in zip(got["value"].to_pylist(), expected["value"].to_pylist()))


@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_every_tie_policy_with_other_options_equals_the_single_machine(spark, name):
    options = OPTION_SETS[name]
    qrels, run = make_data(seed=23)
    measures = AVERAGE_MEASURES if options["ties"] == "average" else MEASURES
    if options.get("names") == "asked":
        measures = ["ndcg_cut_10", "map", "P.5", "recip_rank", "bpref"]
    # the columns under the user's own names: the run's system in `model` (run_col), the qrels mapped
    run = renamed(run, {"run_id": "model", "query_id": "user", "score": "prediction"})
    qrels = renamed(qrels, {"query_id": "user", "relevance": "grade"})
    columns = dict(run_col="model", run_columns={"score": "prediction"}, query_col="user",
                   qrels_columns={"relevance": "grade"})
    single = sqlrank.evaluate(qrels, run, measures, **columns, **options)
    result = sqlrank_spark.evaluate(frame(spark, qrels), frame(spark, run), measures, spark=spark, buckets=BUCKETS,
                                    **columns, **options)
    assert result.runs == ["bm25", "dense", "mix"]
    assert any("tie groups" in notice for notice in single.notices())  # the data have ties the policy orders
    assert_same_result(result, single)
    assert_same_aggregates(result, single)
    if options.get("names") == "asked":
        assert result.measures == ["ndcg_cut_10", "map", "P.5", "recip_rank", "bpref"] == single.measures


def one_run(run: pa.Table, name: str) -> pa.Table:
    return run.filter(pc.equal(run["run_id"], name)).drop_columns(["run_id"])


def test_a_run_sharing_no_query_is_refused_over_the_whole_job_and_allowed_on_request(spark):
    qrels, run = make_data(seed=5)
    # a run of other queries (o1..o9) in several buckets, beside a run of the qrels' queries
    stranger = one_run(run, "mix").set_column(0, "query_id", pc.binary_replace_slice(
        one_run(run, "mix")["query_id"], 0, 1, "o"))
    runs = {"bm25": one_run(run, "bm25"), "stranger": stranger}
    with pytest.raises(sqlrank.EvaluationError) as single:
        sqlrank.evaluate(qrels, runs, ["AP"])
    with pytest.raises(sqlrank.EvaluationError) as on_spark:
        sqlrank_spark.evaluate(frame(spark, qrels), {k: frame(spark, v) for k, v in runs.items()}, ["AP"],
                               spark=spark, buckets=BUCKETS)
    assert "shares no query with the qrels (its 26 queries" in str(single.value)
    assert str(on_spark.value) == str(single.value)
    # allowed, and one run of qrels queries not retrieving any judged document: the whole job's warning
    unjudged = one_run(run, "dense").set_column(1, "doc_id", pc.binary_join_element_wise(
        "x", one_run(run, "dense")["doc_id"], ""))
    runs["unjudged"] = unjudged
    single = sqlrank.evaluate(qrels, runs, ["AP", "P@5"], allow_disjoint=True)
    result = sqlrank_spark.evaluate(frame(spark, qrels), {k: frame(spark, v) for k, v in runs.items()}, ["AP", "P@5"],
                                    spark=spark, buckets=BUCKETS, allow_disjoint=True)
    assert single.report.warnings and "run 'unjudged': not one of its retrieved documents is judged" in \
        single.report.warnings[0] and "column 'doc_id'" in single.report.warnings[0]
    assert_same_result(result, single)
    assert result.report.warnings == single.report.warnings


def test_judged_only_on_a_run_without_a_judged_document_is_the_engines_error(spark):
    qrels, run = make_data(seed=5)
    unjudged = one_run(run, "dense")
    unjudged = unjudged.set_column(1, "doc_id", pc.binary_join_element_wise("x", unjudged["doc_id"], ""))
    runs = {"bm25": one_run(run, "bm25"), "unjudged": unjudged}
    with pytest.raises(sqlrank.EvaluationError) as single:
        sqlrank.evaluate(qrels, runs, ["AP"], judged_only=True, depth=5)
    with pytest.raises(sqlrank.EvaluationError) as on_spark:
        sqlrank_spark.evaluate(frame(spark, qrels), {k: frame(spark, v) for k, v in runs.items()}, ["AP"],
                               spark=spark, buckets=BUCKETS, judged_only=True, depth=5)
    assert "no retrieved document has a judgment >= 0 in the top 5" in str(single.value)
    assert str(on_spark.value) == str(single.value).replace("<pyarrow Table run>", "<Spark DataFrame run>")


def test_ties_input_needs_a_rank_column_on_spark(spark):
    qrels, run = make_data()
    with pytest.raises(sqlrank.EvaluationError, match=r"ties='input' orders equally scored documents by the run's "
                       r"rank column, and this run has none \(found run_id, query_id, doc_id, score\); on Spark a DataFrame has "
                       r"no row order"):
        sqlrank_spark.evaluate(frame(spark, qrels), frame(spark, run), ["AP"], spark=spark, ties="input")


def test_ties_input_with_a_rank_column_equals_the_single_machine(spark):
    qrels, run = make_data(seed=29)
    # a rank that disagrees with the scores: the reverse of trec's order within each (run, query)
    ranks = [0] * run.num_rows
    order = sorted(range(run.num_rows), key=lambda i: (run["run_id"][i].as_py(), run["query_id"][i].as_py(),
                                                       run["score"][i].as_py(), run["doc_id"][i].as_py()))
    position: dict = {}
    for i in order:
        key = (run["run_id"][i].as_py(), run["query_id"][i].as_py())
        position[key] = position.get(key, 0) + 1
        ranks[i] = position[key]
    run = run.append_column("rank", pa.array(ranks, pa.int64()))
    single = sqlrank.evaluate(qrels, run, MEASURES, ties="input")
    assert single.means != sqlrank.evaluate(qrels, run.drop_columns(["rank"]), MEASURES).means
    result = sqlrank_spark.evaluate(frame(spark, qrels), frame(spark, run), MEASURES, spark=spark, buckets=BUCKETS,
                                    ties="input")
    assert_same_result(result, single)


def test_the_options_are_checked_before_any_job(spark):
    qrels, run = make_data()
    for options, message in [(dict(ties="average", depth=5, judged_only=True), "does not take judged_only with a depth"),
                             (dict(ties="input", depth=5, judged_only=True), "does not take judged_only with a depth"),
                             (dict(aggregates=["variance"]), "unknown aggregate 'variance'"),
                             (dict(names="both"), "unknown names 'both'"),
                             (dict(run_columns={"item": "doc"}), "run_columns: unknown canonical column 'item'")]:
        with pytest.raises(sqlrank.SqlrankError, match=message):
            sqlrank.evaluate(qrels, run, ["AP"], **options)
        with pytest.raises(sqlrank.SqlrankError, match=message):
            sqlrank_spark.evaluate(frame(spark, qrels), frame(spark, run), ["AP"], spark=spark, **options)


def test_cli_engine_spark_takes_ties_judged_only_and_column_maps(spark, tmp_path):
    import pyarrow.parquet as pq

    qrels, run = make_data(seed=29)
    pq.write_table(renamed(qrels, {"query_id": "topic"}), tmp_path / "qrels.parquet")
    pq.write_table(renamed(run, {"run_id": "system", "doc_id": "item"}), tmp_path / "runs.parquet")
    args = ["eval", tmp_path / "qrels.parquet", tmp_path / "runs.parquet", "-m", "nDCG@10", "-m", "AP", "-q",
            "--ties", "optimistic", "-J", "--run-col", "system", "--qrels-map", "query_id=topic",
            "--run-map", "doc_id=item"]
    single = invoke(*args)
    on_spark = invoke(*args, "--engine", "spark")
    assert single.exit_code == 0, single.stderr
    assert on_spark.exit_code == 0, on_spark.stderr
    lines = on_spark.stdout.splitlines()
    assert len(lines) > 60 and lines == single.stdout.splitlines()
    assert "under ties='optimistic'" in single.stderr and on_spark.stderr == single.stderr
