"""Subtopic qrels (query_id, subtopic_id, doc_id, relevance), the diversity measures' third input kind:
read by the qrels' readers, given through every door, refused with a clear message where they cannot go."""

from __future__ import annotations

import duckdb
import pandas as pd
import polars as pl
import pytest

import sqlrank
from cli_runner import invoke
from sqlrank.errors import EvaluationError, InputError, MeasureError

# the worked example of docs/measures.md#diversity-measures: a {1, 2}, b {2}, c {3}; ranking a, c, x, b
TREC = "q 1 a 1\nq 2 a 1\nq 2 b 1\nq 3 c 1\nq 1 d 0\n"
RUN = "q Q0 a 1 4 r\nq Q0 c 2 3 r\nq Q0 x 3 2 r\nq Q0 b 4 1 r\n"
ROWS = [line.split() for line in TREC.splitlines()]
MEASURES = ["alpha-nDCG@4", "NRBP", "P-IA@4", "nDCG@4"]
# by hand (docs/measures.md): the first three; nDCG@4 reads each document's highest label (a, b, c 1; d 0)
EXPECTED = {"alpha-nDCG@4": 0.9879685643426975, "NRBP": 0.640625, "P-IA@4": 1 / 3,
            "nDCG@4": (1 + 1 / 2 ** 0 * 0 + 1 / 1.584962500721156 + 1 / 2.321928094887362)
                      / (1 + 1 / 1.584962500721156 + 1 / 2)}


def means(result) -> dict[str, float]:
    return result.summary


@pytest.fixture(name="paths")
def paths_fixture(tmp_path):
    frame = pd.DataFrame(ROWS, columns=["qid", "iteration", "docno", "rel"]).astype({"rel": int})
    trec, run = tmp_path / "qrels.diversity", tmp_path / "run.txt"
    trec.write_text(TREC)
    run.write_text(RUN)
    frame.to_csv(tmp_path / "subtopics.csv", index=False)
    frame.to_parquet(tmp_path / "subtopics.parquet")
    return {"trec": trec, "run": run, "csv": tmp_path / "subtopics.csv", "parquet": tmp_path / "subtopics.parquet",
            "pandas": frame, "polars": pl.from_pandas(frame)}


def test_every_format_reads_the_same_rows_and_they_give_the_numbers_worked_by_hand(paths):
    from sqlrank.readers import load

    with duckdb.connect() as con:  # the readers need none of sqlrank's macros
        for kind in ("trec", "csv", "parquet", "pandas", "polars"):
            loaded = load(con, paths[kind], f"subtopics_{kind}", "subtopic_qrels", {})
            rows = con.execute(f"SELECT query_id, subtopic_id, doc_id, relevance FROM {loaded.table}").fetchall()
            assert sorted(rows) == sorted((q, s, d, float(r)) for q, s, d, r in ROWS), kind
    result = sqlrank.evaluate(None, paths["run"], MEASURES, subtopic_qrels=paths["parquet"])
    assert means(result) == pytest.approx(EXPECTED, abs=1e-12)


def test_the_command_line_gives_the_same_numbers(paths):
    done = invoke("eval", "--subtopic-qrels", paths["trec"], paths["run"], *[f"-m{m}" for m in MEASURES],
                  "-f", "csv")
    assert done.exit_code == 0, done.stderr
    rows = [line.split(",") for line in done.stdout.splitlines()[1:]]
    assert {measure.strip('"'): float(value) for _, _, measure, value in rows} == pytest.approx(EXPECTED, abs=1e-12)


def test_a_subtopic_column_of_another_name(paths):
    renamed = paths["pandas"].rename(columns={"iteration": "facet_no"})
    with pytest.raises(InputError, match=r"missing column 'subtopic_id' \(found qid, facet_no, docno, rel\); did you "
                                         r"mean subtopic_qrels_columns=\{'subtopic_id': 'facet_no'\}"):
        sqlrank.evaluate(None, paths["run"], MEASURES, subtopic_qrels=renamed)
    result = sqlrank.evaluate(None, paths["run"], MEASURES, subtopic_qrels=renamed, subtopic_col="facet_no")
    assert means(result) == pytest.approx(EXPECTED, abs=1e-12)
    with pytest.raises(InputError, match="missing column 'wrong'"):  # the input's own mapping wins
        sqlrank.evaluate(None, paths["run"], MEASURES, subtopic_qrels=renamed, subtopic_col="facet_no",
                         subtopic_qrels_columns={"subtopic_id": "wrong"})


def test_bad_lines_and_duplicates_are_refused_by_where_they_are(tmp_path, paths):
    bad = tmp_path / "bad.diversity"
    bad.write_text("q 1 a 1\nq a 1\n")
    with pytest.raises(InputError, match=r"bad.diversity:2: expected 4 fields \('51 2 clueweb09-en0000-00-00000 1' "
                                         r"\(qid subtopic docno relevance\)\), found 3"):
        sqlrank.evaluate(None, paths["run"], MEASURES, subtopic_qrels=bad)
    twice = tmp_path / "twice.diversity"
    twice.write_text(TREC + "q 2 a 0\n")
    with pytest.raises(InputError, match="duplicate"):
        sqlrank.evaluate(None, paths["run"], MEASURES, subtopic_qrels=twice)
    # the same document for two subtopics is no duplicate; the first of a repeated one kept on request
    kept = sqlrank.evaluate(None, paths["run"], MEASURES, subtopic_qrels=twice, duplicates="first")
    assert means(kept) == pytest.approx(EXPECTED, abs=1e-12)


def test_a_diversity_measure_without_subtopic_qrels_and_both_kinds_together_are_refused(paths):
    with pytest.raises(MeasureError, match=r"alpha_nDCG@4: the diversity measures read subtopic qrels .* pass subtopic_qrels=<path or table> "
                                           r"\(and qrels=None\)"):
        sqlrank.evaluate({"q": {"a": 1}}, paths["run"], ["alpha-nDCG@4"])
    with pytest.raises(EvaluationError, match="subtopic qrels are given in place of the qrels, not beside them"):
        sqlrank.evaluate({"q": {"a": 1}}, paths["run"], MEASURES, subtopic_qrels=paths["trec"])
    done = invoke("eval", paths["trec"], paths["run"], "-m", "alpha-nDCG@4")
    assert done.exit_code != 0
    assert "pass --subtopic-qrels (the QRELS file then holds them)" in done.stderr


def test_ties_average_and_spark_refuse_them_by_name(paths):
    from sqlrank.spark.checks import check_options

    with pytest.raises(MeasureError, match="ties='average' is not defined yet for alpha_nDCG"):
        sqlrank.evaluate(None, paths["run"], ["alpha-nDCG@4"], subtopic_qrels=paths["trec"], ties="average")
    with pytest.raises(MeasureError, match="the diversity measures are not computed on Spark yet"):
        check_options("zero", "error", None, "double", None, "trec", False, (), sqlrank.parse_measures(["NRBP"]))


def test_the_shell_macros_give_the_python_numbers(paths):
    """Each diversity measure's table macro, sqlrank.<macro>(subtopic_qrels, run, ...), as the shell user calls it."""
    asked = {"alpha_ndcg": "alpha-nDCG@4", "alpha_dcg": "alpha-DCG@4", "err_ia": "ERR-IA@4", "nerr_ia": "nERR-IA@4",
             "nrbp": "NRBP", "nnrbp": "nNRBP", "p_ia": "P-IA@4", "ap_ia": "AP_IA", "st_recall": "StRecall@1"}
    python = sqlrank.evaluate(None, paths["run"], list(asked.values()), subtopic_qrels=paths["trec"]).summary
    with sqlrank.connect() as con:
        con.register("subtopics", paths["pandas"].rename(columns={"qid": "query_id", "iteration": "subtopic_id",
                                                                  "docno": "doc_id", "rel": "relevance"}))
        sqlrank.load_run(con, paths["run"], "run")
        for macro, measure in asked.items():
            cutoff = f", k := {measure.split('@')[1]}" if "@" in measure else ""
            (value,) = con.execute(f"SELECT value FROM sqlrank.{macro}('subtopics', 'run'{cutoff})").fetchone()
            assert value == pytest.approx(python[measure], abs=1e-12), measure
        with pytest.raises(duckdb.Error, match="sqlrank: alpha_nDCG: ties := 'average' is not defined yet"):
            con.execute("SELECT * FROM sqlrank.alpha_ndcg('subtopics', 'run', k := 4, ties := 'average')").fetchall()
