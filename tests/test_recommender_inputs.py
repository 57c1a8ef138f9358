"""A recommender engineer's data as it comes (issue 37, part 1), through Python and the CLI.

The example, worked by hand (binary gains, log2 discount):

    truth  user 1: items 10, 11    user 2: item 20    user 3: item 30
    run    user 1: [10, 12, 11]    user 2: [21, 20]   user 3: [31]

    nDCG@10  user 1: (1 + 1/log2 4) / (1 + 1/log2 3) = 1.5 / 1.6309297535714575 = 0.9197207891481876
             user 2: (1/log2 3) / 1 = 0.6309297535714575;  user 3: 0
             mean 0.5168835142398817
    Recall@2 user 1: 1/2, user 2: 1, user 3: 0; mean 0.5
"""

from __future__ import annotations

import json
import math

import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import sqlrank
from cli_runner import invoke

USER_1 = 1.5 / (1 + 1 / math.log2(3))
USER_2 = 1 / math.log2(3)
NDCG = (USER_1 + USER_2 + 0) / 3
EXPECTED = {"nDCG@10": pytest.approx(NDCG, abs=1e-15), "Recall@2": 0.5}
TRUTH = pd.DataFrame({"user_id": [1, 1, 2, 3], "item_id": [10, 11, 20, 30]})
RECS = pd.DataFrame({"user_id": [1, 2, 3], "items": [[10, 12, 11], [21, 20], [31]]})
UNLABELLED = ("<pandas DataFrame qrels>: no label column: every listed item is relevant with label 1 (graded "
              "labels: pass relevance_col=<name>, CLI: --relevance-col <name>)")


def evaluate(truth, run, **options):
    return sqlrank.evaluate(truth, run, ["nDCG@10", "Recall@2"], **options)


# ---------------------------------------------------------------- truth without a label, a list column of items

@pytest.mark.parametrize("shape", ["pandas", "polars", "arrow", "parquet"])
def test_a_list_column_of_items_per_user_is_ranked_in_list_order(shape, tmp_path):
    if shape == "polars":
        recs = pl.from_pandas(RECS)
    elif shape == "arrow":
        recs = pa.Table.from_pandas(RECS)
    else:
        recs = RECS
    if shape == "parquet":
        RECS.to_parquet(tmp_path / "recs.parquet")
        recs = tmp_path / "recs.parquet"
    result = evaluate(TRUTH, recs)
    assert result.summary == EXPECTED
    assert result.notices() == [UNLABELLED]  # said once, for the truth


def test_truth_as_a_list_column_and_as_dicts_of_lists():
    truth = pd.DataFrame({"user_id": [1, 2, 3], "items": [[10, 11], [20], [30]]})
    assert evaluate(truth, RECS).summary == EXPECTED
    by_user = evaluate({1: [10, 11], 2: [20], 3: [30]}, {1: [10, 12, 11], 2: [21, 20], 3: [31]})
    assert by_user.summary == EXPECTED
    assert by_user.notices() == [UNLABELLED.replace("<pandas DataFrame qrels>", "<dict qrels>")]
    assert str(by_user.per_query.schema.field("query_id").type) == "int64"  # a dict's integer users stay integers


def test_a_list_of_scores_beside_the_list_of_items_is_read_item_by_item():
    # the scores put item 11 first: user 1 ranks 11, 10, 12: (1 + 1/log2 3) / (1 + 1/log2 3) = 1
    recs = RECS.assign(scores=[[0.5, 0.1, 0.9], [0.2, 0.1], [1.0]])
    result = sqlrank.evaluate(TRUTH, recs, ["nDCG@10"], score_col="scores")
    assert result.summary["nDCG@10"] == pytest.approx((1 + USER_2) / 3, abs=1e-15)


def test_truth_with_an_unnamed_numeric_column_is_still_refused():
    # 'points' may be the labels: taking every item as relevant would drop them silently
    with pytest.raises(sqlrank.InputError, match=r"missing column 'relevance' \(found user_id, item_id, points\)"):
        evaluate(TRUTH.assign(points=[3, 1, 2, 5]), RECS)
    # a timestamp is no label
    assert evaluate(TRUTH.assign(timestamp=[1, 2, 3, 4]), RECS).summary == EXPECTED


# ---------------------------------------------------------------- a rank and no score

RANKED = pd.DataFrame({"user_id": [1, 1, 1, 2, 2, 3], "item_id": [10, 12, 11, 21, 20, 31], "rank": [3, 1, 2, 1, 2, 1]})
# user 1 ranks 12, 11, 10: (1/log2 3 + 1/log2 4) / (1 + 1/log2 3)
RANKED_NDCG = ((1 / math.log2(3) + 0.5) / (1 + 1 / math.log2(3)) + USER_2) / 3


@pytest.mark.parametrize("ties", ["trec", "docid_asc", "optimistic", "input"])
def test_a_run_with_a_rank_and_no_score_is_ranked_by_its_rank(ties):
    result = sqlrank.evaluate(TRUTH, RANKED, ["nDCG@10"], ties=ties)
    assert result.summary["nDCG@10"] == pytest.approx(RANKED_NDCG, abs=1e-15)


# ---------------------------------------------------------------- results in the user's terms

def test_results_are_keyed_by_the_users_own_column_and_type():
    result = evaluate(TRUTH, RECS)
    assert result.per_query.column_names == ["run_id", "user_id", "measure", "value"]
    assert str(result.per_query.schema.field("user_id").type) == "int64"
    users = pd.DataFrame({"user_id": [3, 1, 2], "segment": ["c", "a", "b"]})
    merged = users.merge(result.wide().to_pandas(), on="user_id")  # the merge of the issue, which raised KeyError
    assert merged[["segment", "nDCG@10"]].values.tolist() == [["c", 0.0], ["a", USER_1], ["b", USER_2]]
    # IR spellings of the query column (qid...) keep query_id, the long table too (it holds the `all` rows)
    assert evaluate(TRUTH.rename(columns={"user_id": "qid"}), RECS.rename(columns={"user_id": "qid"})) \
        .per_query.column_names[1] == "query_id"
    assert result.to_arrow().column_names[1] == "query_id"
    exported = json.loads(sqlrank.export.render(result, "json", per_query=True))  # exports: the user's name too
    assert [(row["user_id"], row["value"]) for row in exported if row["measure"] == "nDCG@10"][:2] == \
        [("1", USER_1), ("2", USER_2)]


# ---------------------------------------------------------------- rel and the measures that do not read it

RATED = pd.DataFrame({"user_id": [1, 1, 2, 3], "item_id": [10, 11, 20, 30], "rating": [5, 2, 4, 1]})


def test_rel_unread_by_a_measure_is_said_with_the_gain_map_that_reads_it():
    result = sqlrank.evaluate(RATED, RECS, ["nDCG@20", "Recall@2"], rel=4)
    assert result.notices()[0] == (
        "rel=4 is not read by nDCG@20: every positive label is a gain there; to give labels below 4 no gain, ask "
        "for e.g. nDCG(gain={1:0,2:0,3:0})@20")
    # the gain map asked for: user 1 has item 10 (5) at rank 1 and item 11 (2, now gain 0) at rank 3
    mapped = sqlrank.evaluate(RATED, RECS, ["nDCG(gain={1:0,2:0,3:0})@20"], rel=4)
    assert mapped.summary["nDCG(gain={1:0,2:0,3:0})@20"] == pytest.approx((1 + 4 / math.log2(3) / 4) / 3, abs=1e-15)
    assert not any(n.startswith("rel=") for n in mapped.notices())


# ---------------------------------------------------------------- users with no relevant item

def test_users_with_no_relevant_item_under_each_empty_policy():
    # rel=4: user 3 rated only 1. Recall@2: user 1 finds item 10, user 2 item 20
    zero = sqlrank.evaluate(RATED, RECS, ["Recall@2"], rel=4)
    assert zero.summary == {"Recall@2": pytest.approx(2 / 3, abs=1e-15)}
    assert ("<pandas DataFrame qrels>: 1 of 3 queries have no relevant judgment (label >= 4) (3): every measure "
            "scores them 0 (empty='zero', torchmetrics' empty_target_action='neg')") in zero.notices()
    skip = sqlrank.evaluate(RATED, RECS, ["Recall@2"], rel=4, empty="skip")
    assert skip.summary == {"Recall@2": 1.0}
    assert skip.per_query.column("user_id").to_pylist() == [1, 2]
    with pytest.raises(sqlrank.EvaluationError, match=r"1 of 3 queries have no relevant judgment .*empty='error'"):
        sqlrank.evaluate(RATED, RECS, ["Recall@2"], rel=4, empty="error")
    one = sqlrank.evaluate(RATED, RECS, ["Recall@2", "RR"], rel=4, empty="one")  # torchmetrics' 'pos'
    # RR: user 1 finds item 10 at rank 1, user 2 item 20 at rank 2, user 3 scores 1
    assert one.summary == {"Recall@2": 1.0, "RR": pytest.approx((1 + 1 / 2 + 1) / 3, abs=1e-15)}
    assert [row["value"] for row in one.per_query.to_pylist() if row["user_id"] == 3] == [1.0, 1.0]
    with pytest.raises(sqlrank.EvaluationError, match=r"empty='one' scores .* 1, which NumRel\(rel=4\) cannot take"):
        sqlrank.evaluate(RATED, RECS, ["NumRel"], rel=4, empty="one")
    with pytest.raises(sqlrank.SqlrankError, match="empty"):
        sqlrank.evaluate(RATED, RECS, ["Recall@2"], empty="pos")


# ---------------------------------------------------------------- the command line

def test_the_command_line_takes_the_same_shapes(tmp_path):
    TRUTH.to_csv(tmp_path / "truth.csv", index=False)
    RECS.to_parquet(tmp_path / "recs.parquet")
    RANKED.to_csv(tmp_path / "ranked.csv", index=False)
    RATED.to_csv(tmp_path / "rated.csv", index=False)
    listed = invoke("eval", tmp_path / "truth.csv", tmp_path / "recs.parquet", "-m", "nDCG@10", "--format", "csv")
    assert listed.exit_code == 0, listed.stderr
    assert listed.stdout.splitlines()[1].split(",")[-1] == repr(NDCG)
    assert "no label column: every listed item is relevant with label 1" in listed.stderr
    ranked = invoke("eval", tmp_path / "truth.csv", tmp_path / "ranked.csv", "-m", "nDCG@10", "--format", "csv")
    assert float(ranked.stdout.splitlines()[1].split(",")[-1]) == pytest.approx(RANKED_NDCG, abs=1e-15)
    skipped = invoke("eval", tmp_path / "rated.csv", tmp_path / "recs.parquet", "-m", "Recall@2", "-m", "nDCG@20",
                     "--rel", "4", "--empty", "skip", "--format", "csv")
    assert skipped.exit_code == 0, skipped.stderr
    assert float(skipped.stdout.splitlines()[1].split(",")[-1]) == 1.0
    assert "rel=4 is not read by nDCG@20" in skipped.stderr and "left out (empty='skip'" in skipped.stderr
    refused = invoke("eval", tmp_path / "rated.csv", tmp_path / "recs.parquet", "-m", "Recall@2", "--rel", "4",
                     "--empty", "error")
    assert refused.exit_code != 0 and "1 of 3 queries have no relevant judgment" in refused.stderr
    per_user = invoke("eval", tmp_path / "truth.csv", tmp_path / "recs.parquet", "-m", "nDCG@10", "-q", "-f", "csv")
    assert per_user.stdout.splitlines()[0] == '"run_id","user_id","measure","value"'
    assert float(per_user.stdout.splitlines()[1].split(",")[-1]) == USER_1


# ---------------------------------------------------------------- the SQL macros, over views loaded from Python

def test_the_sql_macros_read_the_same_shapes_once_loaded():
    import warnings

    con = sqlrank.connect()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sqlrank.load_qrels(con, TRUTH)
        sqlrank.load_run(con, RECS, name="run")
    assert [str(warning.message) for warning in caught] == [UNLABELLED]
    rows = con.execute("SELECT query_id, value FROM sqlrank.ndcg('qrels', 'run', k := 10) ORDER BY query_id").fetchall()
    assert rows == [("1", pytest.approx(USER_1, abs=1e-15)), ("2", pytest.approx(USER_2, abs=1e-15)), ("3", 0.0)]


def test_plots_read_a_result_keyed_by_user_id():
    import matplotlib

    matplotlib.use("Agg")
    result = sqlrank.evaluate(TRUTH, {"a": RECS, "b": RANKED}, ["nDCG@10"])
    bars = result.plot("delta").axes[0].patches  # one bar a user: b against a
    assert sorted(round(bar.get_height(), 12) for bar in bars) == sorted(
        round(value, 12) for value in [RANKED_NDCG * 3 - USER_2 - USER_1, 0.0, 0.0])
