"""The habits of DataFrame users (PyTerrier, ranx, ir_measures, recommender frames), each as sqlrank meets them.

The example data is data/qrels.txt + data/bm25.trec (see data/README.md):
q1 labels A=3 B=3 C=2 D=2 E=1 F=1 G=0, bm25 ranks A, E, C, D, F;
q2 labels a=1 b=1 c=1 d=0, bm25 ranks a, x, y, b, z;
q3 labels x=2 y=0 z=-1, bm25 ties y and z at 0.9 (z ranks first), then x; q4 is unjudged.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import sqlrank

DATA = Path(__file__).resolve().parent.parent / "data"


def trec_rows(path: Path) -> list[list[str]]:
    return [line.split() for line in path.read_text().splitlines() if line.strip()]


QRELS = pd.DataFrame([(q, d, int(rel)) for q, _, d, rel in trec_rows(DATA / "qrels.txt")],
                     columns=["qid", "docno", "label"])
BM25 = trec_rows(DATA / "bm25.trec")


def pyterrier_frame() -> pd.DataFrame:
    """bm25 as PyTerrier's transform() gives it: Terrier's internal integer docid beside the docno."""
    return pd.DataFrame({
        "qid": [q for q, *_ in BM25],
        "docid": list(range(1000, 1000 + len(BM25))),
        "docno": [d for _, _, d, *_ in BM25],
        "rank": [int(r) - 1 for *_, r, _, _ in BM25],
        "score": [float(s) for *_, s, _ in BM25],
        "query": ["some words"] * len(BM25),
    })


# ---------------------------------------------------------------- 1: PyTerrier's frame

def test_a_pyterrier_frame_is_read_by_its_docno():
    expected = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", ["AP", "nDCG@10"]).summary
    result = sqlrank.evaluate(QRELS, pyterrier_frame(), ["AP", "nDCG@10"])
    assert result.summary == expected
    assert result.summary["AP"] > 0.5


def test_a_run_whose_retrieved_documents_are_all_unjudged_says_so_loudly():
    run = pyterrier_frame().drop(columns="docno")  # the internal ids only: nothing can match
    result = sqlrank.evaluate(QRELS, run, ["AP"])
    assert result.summary == {"AP": 0.0}
    assert result.notices()[0] == (
        "run 'run': not one of its retrieved documents is judged, so every measure is 0: the document ids "
        "likely come from the wrong column (doc_id read from column 'docid', e.g. '1000'; the qrels have "
        "e.g. 'A') or the qrels are of another collection")


# ---------------------------------------------------------------- 2: a run sharing no query with the qrels

DISJOINT = pd.DataFrame({"qid": ["301", "302"], "docno": ["A", "B"], "score": [2.0, 1.0]})
DISJOINT_ERROR = (
    "run 'run': shares no query with the qrels (its 2 queries, e.g. '301'; the qrels have e.g. 'q1'): it is "
    "most likely not a run of these qrels, or its query ids are written otherwise; pass allow_disjoint=True "
    "(CLI: --allow-disjoint) to evaluate it anyway")


def test_a_run_sharing_no_query_with_the_qrels_is_an_error():
    for missing in ("zero", "skip", "error"):
        with pytest.raises(sqlrank.EvaluationError) as error:
            sqlrank.evaluate(QRELS, DISJOINT, ["AP"], missing=missing)
        assert str(error.value) == DISJOINT_ERROR


def test_a_disjoint_run_is_scored_when_asked_for():
    result = sqlrank.evaluate(QRELS, DISJOINT, ["AP"], allow_disjoint=True)
    assert result.summary == {"AP": 0.0}  # q1, q2, q3 each scored 0 (missing='zero')
    assert result.notices()[0] == (
        "run 'run': 3 of 3 qrels queries have no documents (q1, q2, q3): scored 0 (missing='zero')")


def test_the_command_line_exits_1_on_a_disjoint_run(tmp_path):
    from typer.testing import CliRunner

    from sqlrank.cli import app

    (tmp_path / "qrels.txt").write_text((DATA / "qrels.txt").read_text())
    (tmp_path / "preds.trec").write_text("301 Q0 A 1 2.0 r\n")
    refused = CliRunner().invoke(app, ["eval", str(tmp_path / "qrels.txt"), str(tmp_path / "preds.trec"), "-m", "AP"])
    assert refused.exit_code == 1
    assert "run 'preds': shares no query with the qrels (its 1 query, e.g. '301';" in refused.output
    allowed = CliRunner().invoke(app, ["eval", str(tmp_path / "qrels.txt"), str(tmp_path / "preds.trec"), "-m", "AP",
                                       "--allow-disjoint"])
    assert allowed.exit_code == 0, allowed.output
    assert "0.0000" in allowed.output


# ---------------------------------------------------------------- 8: the relevance column's common names

@pytest.mark.parametrize("name", ["rating", "grade", "judgment", "target"])
def test_common_names_of_the_relevance_column_are_recognised(name):
    qrels = pd.DataFrame({"user_id": [1, 1, 2], "item_id": [10, 11, 10], name: [5, 0, 3]})
    run = pd.DataFrame({"user_id": [1, 1, 2], "item_id": [11, 10, 10], "score": [2.0, 1.0, 1.0]})
    # user 1: 11 (0) then 10 (5) -> RR 1/2; user 2: 10 (3) -> RR 1
    assert sqlrank.evaluate(qrels, run, ["RR"]).summary == {"RR": (1 / 2 + 1) / 2}


# ---------------------------------------------------------------- 9: errors name the argument; swapped inputs

RUN = pd.DataFrame({"qid": [q for q, *_ in BM25], "docno": [d for _, _, d, *_ in BM25],
                    "score": [float(s) for *_, s, _ in BM25]})


def error_text(qrels, run, **options) -> str:
    with pytest.raises(sqlrank.SqlrankError) as error:
        sqlrank.evaluate(qrels, run, ["AP"], **options)
    return str(error.value)


def test_a_dataframe_error_names_the_argument():
    assert error_text(QRELS, RUN.rename(columns={"score": "points"})) == (
        "<pandas DataFrame run>: missing column 'score' (found qid, docno, points); pass score_col=<name> "
        "(CLI: --score-col <name>)")
    assert error_text(QRELS.rename(columns={"label": "points"}), RUN) == (
        "<pandas DataFrame qrels>: missing column 'relevance' (found qid, docno, points); pass relevance_col=<name> "
        "(CLI: --relevance-col <name>)")


def test_swapped_dataframes_and_parquet_files_say_the_qrels_come_first(tmp_path):
    # a column `score` is ranx's and BEIR's name for the labels: a run's fractions there name the swap
    assert error_text(RUN, QRELS) == (
        "<pandas DataFrame qrels>: its column 'score' would be the labels (as ranx and BEIR name them), but it holds "
        "fractions (0.4): this looks like a run; the qrels come first, then the run (labels in another column: "
        "qrels_columns={'relevance': <name>})")
    RUN.to_parquet(tmp_path / "run.parquet")
    QRELS.to_parquet(tmp_path / "qrels.parquet")
    assert error_text(tmp_path / "run.parquet", tmp_path / "qrels.parquet") == (
        f"{tmp_path / 'run.parquet'}: its column 'score' would be the labels (as ranx and BEIR name them), but it "
        "holds fractions (0.4): this looks like a run; the qrels come first, then the run (labels in another column: "
        "qrels_columns={'relevance': <name>})")
    # qrels whose labels pass as scores ('rating' is both): the run side names the swap
    assert error_text(QRELS, QRELS.rename(columns={"label": "points"})) == (
        "<pandas DataFrame run>: missing column 'score' (found qid, docno, points); pass score_col=<name> "
        "(CLI: --score-col <name>)")
    assert error_text(QRELS, QRELS) == (
        "<pandas DataFrame run>: missing column 'score' (found qid, docno, label); pass score_col=<name> "
        "(CLI: --score-col <name>); this looks like qrels (a relevance column 'label'): the qrels come first, "
        "then the run")


# ---------------------------------------------------------------- 10: column names per input

def test_each_input_maps_its_own_columns():
    expected = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", ["AP", "nDCG@10"]).summary
    qrels = QRELS.rename(columns={"qid": "topic", "docno": "doc"})
    run = RUN.rename(columns={"qid": "query_number", "docno": "document", "score": "bm25"})
    result = sqlrank.evaluate(qrels, run, ["AP", "nDCG@10"], qrels_columns={"query_id": "topic"},
                              run_columns={"query_id": "query_number", "doc_id": "document", "score": "bm25"})
    assert result.summary == expected
    # a shared option still applies to both; the input's own wins
    both = sqlrank.evaluate(qrels, run.rename(columns={"query_number": "topic"}), ["AP", "nDCG@10"], query_col="topic",
                            run_columns={"doc_id": "document", "score": "bm25"})
    assert both.summary == expected


def test_a_per_input_mapping_of_an_unknown_column_is_refused():
    assert error_text(QRELS, RUN, run_columns={"relevance": "label"}) == (
        "run_columns: unknown canonical column 'relevance' (expected query_id, doc_id, score, run_id); map them as "
        "{'query_id': 'qid', ...}")


def test_the_command_line_maps_columns_per_input(tmp_path):
    from typer.testing import CliRunner

    from sqlrank.cli import app

    QRELS.rename(columns={"qid": "topic"}).to_csv(tmp_path / "qrels.csv", index=False)
    RUN.rename(columns={"qid": "user"}).to_csv(tmp_path / "bm25.csv", index=False)
    outcome = CliRunner().invoke(app, ["eval", str(tmp_path / "qrels.csv"), str(tmp_path / "bm25.csv"), "-m", "AP",
                                       "--qrels-map", "query_id=topic", "--run-map", "query_id=user"])
    assert outcome.exit_code == 0, outcome.output
    assert "0.5556" in outcome.output  # bm25's AP: data/README.md


# ---------------------------------------------------------------- 4: the means, one shape each

def test_means_has_one_shape_whatever_the_number_of_runs():
    one = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", ["AP"])
    two = sqlrank.evaluate(DATA / "qrels.txt", {"bm25": DATA / "bm25.trec", "dense": DATA / "dense.trec"}, ["AP"])
    assert one.means == {"bm25": {"AP": 0.5555555555555556}}  # data/README.md
    assert two.means["bm25"] == one.means["bm25"] and list(two.means) == ["bm25", "dense"]
    assert one.summary == {"AP": 0.5555555555555556}
    with pytest.raises(sqlrank.EvaluationError) as error:
        two.summary
    assert str(error.value) == ("result.summary is the means of one run, and 2 runs were evaluated (bm25, dense): "
                                "use result.means[run] ({run: {measure: mean}})")


def test_a_run_left_without_queries_keeps_its_place_in_the_means():
    runs = {"bm25": DATA / "bm25.trec", "elsewhere": {"q9": {"A": 1.0}}}
    result = sqlrank.evaluate(DATA / "qrels.txt", runs, ["AP"], missing="skip", allow_disjoint=True)
    assert result.means == {"bm25": {"AP": 0.5555555555555556}, "elsewhere": {}}
    with pytest.raises(sqlrank.EvaluationError):
        result.summary  # two runs were given: not the one-run shape


# ---------------------------------------------------------------- 14: wide per-query values; the cutoff as a number

def test_the_long_result_carries_each_measure_s_family_and_cutoff():
    result = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", ["nDCG@5", "AP", "nDCG(gain=exp)@10", "P@2"])
    rows = result.to_arrow(cutoff=True).to_pylist()
    assert result.to_arrow(cutoff=True).column_names == ["run_id", "query_id", "measure", "family", "cutoff", "value"]
    assert {(r["measure"], r["family"], r["cutoff"]) for r in rows} == {
        ("nDCG@5", "nDCG", 5), ("AP", "AP", None), ("nDCG(gain=exp)@10", "nDCG(gain=exp)", 10), ("P@2", "P", 2)}
    assert [r["value"] for r in rows] == result.to_arrow().column("value").to_pylist()  # same rows, same order
    assert str(result.to_arrow(cutoff=True).schema.field("cutoff").type) == "int64"
    assert list(result.to_pandas(cutoff=True).columns) == ["run_id", "query_id", "measure", "family", "cutoff", "value"]
    assert result.to_arrow().column_names == ["run_id", "query_id", "measure", "value"]  # unchanged by default


def test_per_query_values_in_wide_form():
    result = sqlrank.evaluate(DATA / "qrels.txt", {"bm25": DATA / "bm25.trec", "dense": DATA / "dense.trec"},
                              ["AP", "RR"])
    wide = result.wide()
    assert wide.column_names == ["run_id", "query_id", "AP", "RR"]
    long = {(r["run_id"], r["query_id"], r["measure"]): r["value"] for r in result.per_query.to_pylist()}
    assert wide.num_rows == len(long) // 2 == 6  # q1-q3 for each run
    for row in wide.to_pylist():
        assert row["AP"] == long[(row["run_id"], row["query_id"], "AP")]
        assert row["RR"] == long[(row["run_id"], row["query_id"], "RR")]
    assert [(r["run_id"], r["query_id"]) for r in wide.to_pylist()][:3] == [("bm25", "q1"), ("bm25", "q2"), ("bm25", "q3")]
    with_means = result.wide(means=True).to_pylist()
    assert with_means[3] == {"run_id": "bm25", "query_id": "all", "AP": result.means["bm25"]["AP"],
                             "RR": result.means["bm25"]["RR"]}


def test_the_cutoff_plot_reads_the_cutoff_column_not_the_names():
    pytest.importorskip("matplotlib")
    import pyarrow as pa

    # labels that say nothing of their cutoff (trec_eval's, or the user's own): the columns do
    table = pa.table({"run_id": ["bm25"] * 4, "query_id": ["q1", "q1", "q2", "q2"],
                      "measure": ["ndcg_cut_5", "ndcg_cut_10"] * 2, "family": ["nDCG"] * 4, "cutoff": [5, 10, 5, 10],
                      "value": [0.2, 0.4, 0.6, 1.0]})
    line = sqlrank.plot(table, "cutoff").axes[0].get_lines()[0]
    assert list(line.get_xdata()) == [5, 10]
    assert list(line.get_ydata()) == pytest.approx([(0.2 + 0.6) / 2, (0.4 + 1.0) / 2])


# ---------------------------------------------------------------- 12: query ids in their own type

def test_integer_query_ids_come_back_as_integers_in_natural_order():
    # users 2 and 10: as text, '10' would sort before '2'
    qrels = pd.DataFrame({"user_id": [2, 10, 10], "item_id": [7, 7, 8], "rating": [1, 1, 0]})
    run = pd.DataFrame({"user_id": [2, 10, 10], "item_id": [7, 8, 7], "score": [1.0, 2.0, 1.0]})
    result = sqlrank.evaluate(qrels, run, ["RR"])
    per_query = result.per_query
    assert str(per_query.schema.field("user_id").type) == "int64"  # the inputs' own name and type
    assert per_query.column("user_id").to_pylist() == [2, 10]
    assert per_query.column("value").to_pylist() == [1.0, 0.5]
    assert result.wide().column("user_id").to_pylist() == [2, 10]
    users = pd.DataFrame({"user_id": [10, 2], "group": ["b", "a"]})  # the merge a recommender does
    merged = users.merge(result.wide().to_pandas(), on="user_id")
    assert merged[["group", "RR"]].values.tolist() == [["b", 0.5], ["a", 1.0]]
    assert result.to_arrow().column("query_id").to_pylist() == ["10", "2", "all"]  # the long table keeps 'all'


def test_query_ids_stay_text_unless_every_input_has_the_same_integer_type():
    qrels = pd.DataFrame({"user_id": [2, 10], "item_id": [7, 7], "rating": [1, 1]})
    run = pd.DataFrame({"user_id": ["2", "10"], "item_id": [7, 7], "score": [1.0, 1.0]})
    assert sqlrank.evaluate(qrels, run, ["RR"]).per_query.column("user_id").to_pylist() == ["10", "2"]
    narrow = pd.DataFrame({"user_id": pd.Series([2, 10], dtype="int32"), "item_id": [7, 7], "score": [1.0, 1.0]})
    assert sqlrank.evaluate(qrels, narrow, ["RR"]).per_query.column("user_id").to_pylist() == ["10", "2"]


# ---------------------------------------------------------------- 18: empty inputs follow the policies

EMPTY_RUN = pd.DataFrame({"qid": pd.Series([], dtype=str), "docno": pd.Series([], dtype=str),
                          "score": pd.Series([], dtype=float)})


@pytest.mark.parametrize("empty", [EMPTY_RUN, {}], ids=["frame", "dict"])
def test_an_empty_run_scores_every_qrels_query_0_and_says_so(empty):
    result = sqlrank.evaluate(QRELS, empty, ["AP", "NumRel"])
    assert result.summary == {"AP": 0.0, "NumRel": 6.0 + 3.0 + 1.0}  # label >= 1: q1 A-F, q2 a-c, q3 x
    assert {r["query_id"] for r in result.per_query.to_pylist()} == {"q1", "q2", "q3"}
    assert result.notices() == [  # one notice: its queries are missing because it has no rows
        "run 'run': the run has no rows: every qrels query is scored 0 (missing='zero')"]


def test_an_empty_run_under_skip_or_error():
    skipped = sqlrank.evaluate(QRELS, {"bm25": DATA / "bm25.trec", "empty": EMPTY_RUN}, ["AP"], missing="skip")
    assert skipped.means == {"bm25": {"AP": 0.5555555555555556}, "empty": {}}
    with pytest.raises(sqlrank.EvaluationError, match=r"run 'empty': 3 of 3 qrels queries have no documents"):
        sqlrank.evaluate(QRELS, {"bm25": DATA / "bm25.trec", "empty": EMPTY_RUN}, ["AP"], missing="error")


def test_empty_qrels_are_an_error_that_says_what_is_empty(tmp_path):
    assert error_text({}, RUN) == ("<dict qrels>: no rows: the qrels are empty, so nothing can be evaluated; "
                                   "expected rows of query_id, doc_id, relevance")
    assert error_text(QRELS.iloc[:0], RUN) == (
        "<pandas DataFrame qrels>: no rows: the qrels are empty, so nothing can be evaluated; expected rows of "
        "query_id, doc_id, relevance")


# ---------------------------------------------------------------- 13: lazy and streamed tables

def test_lazy_and_streamed_tables_are_inputs(tmp_path):
    import polars as pl
    import pyarrow as pa
    import pyarrow.dataset as ds

    expected = sqlrank.evaluate(QRELS, RUN, ["AP", "nDCG@10"]).summary
    arrow_run = pa.Table.from_pandas(RUN, preserve_index=False)
    RUN.to_parquet(tmp_path / "run.parquet")
    for run in (pl.from_pandas(RUN).lazy(), arrow_run.to_reader(max_chunksize=4),
                ds.dataset(tmp_path / "run.parquet"), ds.dataset(arrow_run)):
        assert sqlrank.evaluate(QRELS, run, ["AP", "nDCG@10"]).summary == expected, type(run)
    assert sqlrank.evaluate(pl.from_pandas(QRELS).lazy(), RUN, ["AP", "nDCG@10"]).summary == expected


# ---------------------------------------------------------------- 11: several systems in one long table

def test_a_long_table_of_several_systems_is_split_by_run_col():
    dense = trec_rows(DATA / "dense.trec")
    long = pd.DataFrame({
        "model": ["bm25"] * len(BM25) + ["dense"] * len(dense),
        "qid": [q for q, *_ in BM25 + dense], "docno": [d for _, _, d, *_ in BM25 + dense],
        "score": [float(s) for *_, s, _ in BM25 + dense]})
    separate = sqlrank.evaluate(DATA / "qrels.txt", {"bm25": DATA / "bm25.trec", "dense": DATA / "dense.trec"},
                                ["AP", "nDCG@10"])
    together = sqlrank.evaluate(QRELS, long, ["AP", "nDCG@10"], run_col="model")
    assert together.means == separate.means
    # without it, the duplicates error says how
    assert error_text(QRELS, long).endswith(
        "; if one column names the system of each row (a table of several runs), pass run_col=<name> "
        "(CLI: --run-col <name>); other columns: model")


def test_run_col_names_a_column_that_exists():
    assert error_text(QRELS, RUN, run_col="model") == (
        "<pandas DataFrame run>: missing column 'model' (found qid, docno, score); pass run_col=<name> "
        "(CLI: --run-col <name>)")
