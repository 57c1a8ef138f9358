"""sqlrank.spark on inputs the single machine notes or refuses: the same notices and the same errors.

A bucket's rows are numbered within the bucket, which means nothing to the user: a refused row is found
again over the whole input, by its row (a table) or its line (a TREC file), and worded by the
single-machine reader. Each error here is made with several buckets and the bad row far from the first,
and must equal sqlrank.evaluate's, the input's label aside (`<Spark DataFrame run>` for `<pyarrow Table run>`).
"""

from __future__ import annotations

import re

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import sqlrank
from sqlrank import spark as sqlrank_spark

from test_spark import assert_same_result, frame

pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")

BUCKETS = 4


def tables(rows: int = 40):
    """Qrels and a run of 8 queries, 5 documents each, every row valid."""
    qids = [f"q{i % 8}" for i in range(rows)]
    docs = [f"d{i // 8}" for i in range(rows)]
    qrels = pa.table({"query_id": qids, "doc_id": docs, "relevance": [float(i % 3) for i in range(rows)]})
    run = pa.table({"query_id": qids, "doc_id": docs, "score": [float(rows - i) for i in range(rows)]})
    return qrels, run


def replaced(table: pa.Table, column: str, row: int, value) -> pa.Table:
    values = table[column].to_pylist()
    values[row] = value
    return table.set_column(table.schema.get_field_index(column), column,
                            pa.array(values, table.schema.field(column).type))


def errors_of(qrels, run, spark_qrels, spark_run, spark, **options):
    with pytest.raises(sqlrank.SqlrankError) as single:
        sqlrank.evaluate(qrels, run, ["AP"], **options)
    with pytest.raises(sqlrank.SqlrankError) as on_spark:
        sqlrank_spark.evaluate(spark_qrels, spark_run, ["AP"], spark=spark, buckets=BUCKETS, **options)
    assert type(on_spark.value) is type(single.value)
    return str(single.value), str(on_spark.value)


BAD_TABLES = {  # (input, how it is broken): the row of the single-machine message
    "NaN score": ("run", lambda t: replaced(t, "score", 29, float("nan")), "row 30"),
    "empty doc_id": ("run", lambda t: replaced(t, "doc_id", 17, ""), "row 18"),
    "missing query_id": ("qrels", lambda t: replaced(t, "query_id", 33, None), "row 34"),
    "score that is no number": ("run", lambda t: t.set_column(2, "score", pa.array(
        [str(v) for v in t["score"].to_pylist()[:25]] + ["n/a"] + [str(v) for v in t["score"].to_pylist()[26:]])),
        "row 26"),
    "missing run_id": ("run", lambda t: t.append_column("run_id", pa.array(["r"] * 20 + [None] + ["r"] * 19)),
                       "row 21"),
}


@pytest.mark.parametrize("case", list(BAD_TABLES))
def test_a_bad_row_is_named_by_its_row_in_the_input(spark, case):
    which, break_it, row = BAD_TABLES[case]
    qrels, run = tables()
    qrels, run = (break_it(qrels), run) if which == "qrels" else (qrels, break_it(run))
    single, on_spark = errors_of(qrels, run, frame(spark, qrels), frame(spark, run), spark)
    assert re.search(rf"<pyarrow Table (run|qrels)>: {re.escape(row)}", single)
    assert on_spark == re.sub(r"<pyarrow Table( run| qrels)>", r"<Spark DataFrame\1>", single)


def test_a_bad_row_of_a_parquet_file_gives_the_identical_message(spark, tmp_path):
    qrels, run = tables(4000)
    run = replaced(run, "score", 3210, float("nan"))
    pq.write_table(qrels, tmp_path / "qrels.parquet")
    pq.write_table(run, tmp_path / "run.parquet", row_group_size=500)  # several row groups, several partitions
    paths = str(tmp_path / "qrels.parquet"), str(tmp_path / "run.parquet")
    # the single machine on the same rows as tables: with DuckDB 2.0.1 its Parquet scan skips a row group
    # whose statistics leave the NaN out when filtering on isnan, and the file is evaluated as if it had none
    single, on_spark = errors_of(qrels, run, *paths, spark)
    assert "<pyarrow Table run>: row 3211, column 'score': the score is NaN" in single
    assert on_spark == single.replace("<pyarrow Table run>", paths[1])


def test_a_mapped_column_is_named_as_the_input_names_it(spark):
    qrels, run = tables()
    qrels = qrels.rename_columns(["qid", "docno", "relevance"])  # the column options apply to both inputs
    run = replaced(run, "score", 12, float("nan")).rename_columns(["qid", "docno", "points"])
    single, on_spark = errors_of(qrels, run, frame(spark, qrels), frame(spark, run), spark, query_col="qid",
                                 doc_col="docno", score_col="points")
    assert "row 13, column 'points'" in single
    assert on_spark == re.sub(r"<pyarrow Table( run| qrels)>", r"<Spark DataFrame\1>", single)


def test_duplicates_in_several_buckets_name_the_first_three_of_the_whole_input(spark):
    qrels, run = tables()
    run = pa.concat_tables([run, run.take([39, 3, 22, 11])])  # four queries, in different buckets
    single, on_spark = errors_of(qrels, run, frame(spark, qrels), frame(spark, run), spark)
    assert "e.g. query 'q3' doc 'd0' (2 rows), query 'q3' doc 'd1' (2 rows), query 'q6' doc 'd2' (2 rows)" in single
    assert on_spark == re.sub(r"<pyarrow Table( run| qrels)>", r"<Spark DataFrame\1>", single)


def test_the_qrels_are_explained_before_the_run(spark):
    qrels, run = tables()
    qrels, run = replaced(qrels, "relevance", 38, float("nan")), replaced(run, "score", 2, float("nan"))
    single, on_spark = errors_of(qrels, run, frame(spark, qrels), frame(spark, run), spark)
    assert "row 39, column 'relevance'" in single
    assert on_spark == re.sub(r"<pyarrow Table( run| qrels)>", r"<Spark DataFrame\1>", single)


# ---------------------------------------------------------------- TREC text read by Spark

QRELS_LINES = ["# judged by hand", "", *[f"q{q} 0 d{d} {(q + d) % 3}" for q in range(6) for d in range(4)]]
RUN_LINES = ["", "# a run", *[f"q{q} Q0 d{d} {d + 1} {10 - d} tag" for q in range(6) for d in range(5)]]

BAD_LINES = {  # (file, line index, text): the line as the single-machine reader refuses it
    "NaN score": ("run", 20, "q3 Q0 d3 4 nan tag"),
    "score that is no number": ("run", 25, "q4 Q0 d3 4 seven tag"),
    "score atof would misread": ("run", 11, "q1 Q0 d4 5 1_000 tag"),
    "run line with four fields": ("run", 30, "q5 0 d3 1"),
    "qrels label that is no number": ("qrels", 17, "q3 0 d3 high"),
    "qrels line with six fields": ("qrels", 9, "q1 Q0 d3 4 1.5 tag"),
    "unit separator": ("run", 14, "q2 Q0 d2 3 8\x1f tag"),
}


def trec_files(tmp_path, qrels_lines, run_lines):
    (tmp_path / "qrels.txt").write_text("\n".join(qrels_lines) + "\n")
    (tmp_path / "run.txt").write_text("\n".join(run_lines) + "\n")
    return str(tmp_path / "qrels.txt"), str(tmp_path / "run.txt")


@pytest.mark.parametrize("case", list(BAD_LINES))
def test_a_bad_trec_line_is_named_by_its_line_in_the_file(spark, tmp_path, case):
    which, index, text = BAD_LINES[case]
    qrels_lines, run_lines = list(QRELS_LINES), list(RUN_LINES)
    (qrels_lines if which == "qrels" else run_lines)[index] = text
    paths = trec_files(tmp_path, qrels_lines, run_lines)
    single, on_spark = errors_of(*paths, *paths, spark)
    assert f"{which}.txt:{index + 1}: " in single
    assert on_spark == single


def test_duplicate_trec_lines_give_the_identical_message(spark, tmp_path):
    paths = trec_files(tmp_path, QRELS_LINES, RUN_LINES + RUN_LINES[9:12])
    single, on_spark = errors_of(*paths, *paths, spark)
    assert "duplicate (query_id, doc_id) rows" in single
    assert on_spark == single


def test_trec_qrels_labels_cut_to_integers_give_the_same_notice(spark, tmp_path):
    qrels_lines = list(QRELS_LINES)
    for index, label in ((2, "1.9"), (7, "0.5"), (12, "+2"), (20, "3.0"), (25, "-1")):  # +2 and -1 are whole
        fields = qrels_lines[index].split()
        qrels_lines[index] = " ".join(fields[:3] + [label])
    paths = trec_files(tmp_path, qrels_lines, RUN_LINES)
    single = sqlrank.evaluate(*paths, ["AP", "nDCG@3", "NumRel"])
    result = sqlrank_spark.evaluate(*paths, ["AP", "nDCG@3", "NumRel"], spark=spark, buckets=BUCKETS)
    assert single.notices()[0].startswith(f"{paths[0]}: 3 relevance label(s) are not whole numbers")
    assert_same_result(result, single)  # the notices identical, label and all
