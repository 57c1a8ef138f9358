"""A recommender engineer's tables in the DuckDB shell's macros (issue 37, part 1): the numbers and the
refusals of the Python door (tests/test_recommender_inputs.py), on the same data.

The example, worked by hand there (binary gains, log2 discount):

    truth  user 1: items 10, 11    user 2: item 20    user 3: item 30
    run    user 1: [10, 12, 11]    user 2: [21, 20]   user 3: [31]

    nDCG@10  user 1: 1.5 / (1 + 1/log2 3) = 0.9197207891481876,  user 2: 1/log2 3,  user 3: 0
    Recall@2 user 1: 1/2, user 2: 1, user 3: 0
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

import sqlrank
from sqlrank.errors import SqlrankError
from test_duckdb_shell import run_shell

USER_1 = 1.5 / (1 + 1 / math.log2(3))
BY_HAND = {("nDCG@10", "1"): USER_1, ("nDCG@10", "2"): 1 / math.log2(3), ("nDCG@10", "3"): 0.0,
           ("Recall@2", "1"): 0.5, ("Recall@2", "2"): 1.0, ("Recall@2", "3"): 0.0}
MACROS = {"nDCG@10": "ndcg", "Recall@2": "recall"}
CUTOFFS = {"nDCG@10": 10, "Recall@2": 2}

TRUTHS = {
    "pairs": pd.DataFrame({"user_id": [1, 1, 2, 3], "item_id": [10, 11, 20, 30]}),
    "lists": pd.DataFrame({"user_id": [1, 2, 3], "item_id": [[10, 11], [20], [30]]}),
    "text pairs with a timestamp": pd.DataFrame({"user_id": ["1", "1", "2", "3"], "item_id": ["10", "11", "20", "30"],
                                                 "timestamp": [5, 6, 7, 8]}),
}
RUNS = {
    "integer lists": pd.DataFrame({"user_id": [1, 2, 3], "item_id": [[10, 12, 11], [21, 20], [31]]}),
    "text lists": pd.DataFrame({"user_id": ["1", "2", "3"], "item_id": [["10", "12", "11"], ["21", "20"], ["31"]]}),
    # a NULL list recommends nothing: the user scores 0, as an empty list
    "a NULL list": pd.DataFrame({"user_id": [1, 2, 3], "item_id": [[10, 12, 11], [21, 20], None]}),
}
# bad shapes: the Python door's message, its label `<pandas DataFrame run>` the shell's table name
BAD_RUNS = {
    "floats": pd.DataFrame({"user_id": [1, 2], "item_id": [[1.5, 2.5], [3.5]]}),
    "structs": pd.DataFrame({"user_id": [1, 2], "item_id": [[{"a": 1}], [{"a": 2}]]}),
    "duplicates": pd.DataFrame({"user_id": [1, 2], "item_id": [[10, 11, 10], [20]]}),
    "a NULL item": pd.DataFrame({"user_id": [1, 2], "item_id": [[10, None], [20]]}),
}
COLUMNS = "{'query_id': 'user_id', 'doc_id': 'item_id'}"


def shell_values(con, truth: str, run: str, ties: str = "trec") -> dict:
    values = {}
    for measure, macro in MACROS.items():
        rows = con.execute(f"SELECT query_id, value FROM sqlrank.{macro}('{truth}', '{run}', k := {CUTOFFS[measure]}, "
                           f"qrels_columns := {COLUMNS}, run_columns := {COLUMNS}, ties := '{ties}')").fetchall()
        values |= {(measure, str(query)): value for query, value in rows}
    return values


def python_values(truth: pd.DataFrame, run: pd.DataFrame, ties: str = "trec") -> dict:
    result = sqlrank.evaluate(truth, run, list(MACROS), ties=ties)
    return {(row["measure"], str(row["user_id"])): row["value"] for row in result.per_query.to_pylist()}


def test_list_runs_and_unlabelled_truth_give_the_python_doors_numbers(con):
    for name, frame in (TRUTHS | RUNS).items():
        con.register(name.replace(" ", "_"), frame)
    # each truth against one run, each run against one truth: the shapes are read independently of each other
    pairs = [(truth, "integer lists") for truth in TRUTHS] + [("pairs", run) for run in RUNS if run != "integer lists"]
    for truth_name, run_name in pairs:
        shell = shell_values(con, truth_name.replace(" ", "_"), run_name.replace(" ", "_"))
        if truth_name == "pairs":
            assert shell == pytest.approx(python_values(TRUTHS[truth_name], RUNS[run_name]), abs=1e-15), run_name
        if run_name != "a NULL list":
            assert shell == pytest.approx(BY_HAND, abs=1e-15), (truth_name, run_name)
    assert shell_values(con, "pairs", "a_NULL_list")[("nDCG@10", "3")] == 0.0


def test_a_run_of_ranks_or_of_lists_is_ranked_in_its_order_under_the_tie_policies(con):
    """A run with a rank and no score is ranked by its rank, a list run by its list, whatever the policy (none has a
    tie to break); with a score beside the rank, the score ranks it and ties := 'input' takes the rank."""
    ranked = pd.DataFrame({"user_id": [1, 1, 1, 2, 2, 3], "item_id": [11, 10, 12, 20, 21, 31], "rank": [3, 1, 2, 2, 1, 1]})
    scored = ranked.assign(score=[0.9, 0.1, 0.5, 0.7, 0.2, 0.3])  # by score: user 1 gets 11, 12, 10; user 2 20, 21
    for name, frame in {"pairs": TRUTHS["pairs"], "ranked": ranked, "scored": scored,
                        "recs": RUNS["integer lists"]}.items():
        con.register(name, frame)
    for ties in ("trec", "docid_asc", "optimistic", "pessimistic", "average", "input"):
        for run in ("ranked", "recs") if ties != "input" else ("ranked",):
            rows = con.execute(f"SELECT query_id, value FROM sqlrank.ndcg('pairs', '{run}', k := 10, qrels_columns := "
                               f"{COLUMNS}, run_columns := {COLUMNS}, ties := '{ties}')").fetchall()
            assert {("nDCG@10", str(query)): value for query, value in rows} == pytest.approx(
                {key: value for key, value in BY_HAND.items() if key[0] == "nDCG@10"}, abs=1e-15), (run, ties)
    # a list run under ties := 'input' (Python takes it: the list's order) is refused with the policy that gives it
    with pytest.raises(Exception, match="recs: ties := 'input' orders a run by its rank column, and its items are lists"):
        con.execute(f"FROM sqlrank.ndcg('pairs', 'recs', run_columns := {COLUMNS}, ties := 'input')")
    for ties in ("trec", "input"):
        python = python_values(TRUTHS["pairs"], scored, ties)
        assert shell_values(con, "pairs", "scored", ties) == pytest.approx(python, abs=1e-15), ties
        assert (python == pytest.approx(BY_HAND, abs=1e-15)) == (ties == "input"), ties


def test_users_with_no_relevant_item_under_each_empty_policy_as_in_python(con):
    """empty := zero | one | skip | error, the level the macro's rel (the Python door's evaluate-wide rel): user 2's
    only rating is below 4."""
    rated = pd.DataFrame({"user_id": [1, 1, 2, 3], "item_id": [10, 11, 20, 30], "rating": [5, 2, 1, 4]})
    con.register("rated", rated)
    con.register("recs", RUNS["integer lists"])
    maps = "qrels_columns := {'query_id': 'user_id', 'doc_id': 'item_id', 'relevance': 'rating'}, " \
           f"run_columns := {COLUMNS}"
    for empty in ("zero", "one", "skip"):
        shell = con.execute(f"SELECT query_id, value FROM sqlrank.recall('rated', 'recs', k := 2, rel := 4, {maps}, "
                            f"empty := '{empty}') ORDER BY query_id").fetchall()
        python = sqlrank.evaluate(rated, RUNS["integer lists"], ["Recall@2"], rel=4, relevance_col="rating",
                                  empty=empty).per_query.to_pylist()
        assert shell == [(str(row["user_id"]), row["value"]) for row in python], empty
        assert len(shell) == (2 if empty == "skip" else 3) and dict(shell).get("2") == {"zero": 0.0, "one": 1.0}.get(empty)
    with pytest.raises(SqlrankError) as python:
        sqlrank.evaluate(rated, RUNS["integer lists"], ["Recall@2"], rel=4, relevance_col="rating", empty="error")
    with pytest.raises(Exception) as shell:
        con.execute(f"FROM sqlrank.recall('rated', 'recs', k := 2, rel := 4, {maps}, empty := 'error')")
    sentence = str(python.value).replace("<pandas DataFrame qrels>", "rated").split(": refused")[0]
    assert sentence == "rated: 1 of 3 queries have no relevant judgment (label >= 4) (2)" and sentence in str(shell.value)
    with pytest.raises(Exception, match="empty := 'one' scores a query with no relevant judgment 1, which NumRel"):
        con.execute(f"FROM sqlrank.num_rel('rated', 'recs', {maps}, empty := 'one')")


def test_bad_list_runs_are_refused_in_the_python_doors_words(con):
    con.register("pairs", TRUTHS["pairs"])
    for name, run in BAD_RUNS.items():
        table = name.replace(" ", "_")
        con.register(table, run)
        with pytest.raises(SqlrankError) as python:
            sqlrank.evaluate(TRUTHS["pairs"], run, ["nDCG@10"])
        with pytest.raises(Exception) as shell:
            shell_values(con, "pairs", table)
        expected = str(python.value).replace("<pandas DataFrame run>", table)
        if name == "duplicates":  # each door offers its own remedy after the same sentence
            expected = expected.split(" Remove them")[0]
        assert expected in str(shell.value), name


def test_a_truth_with_another_column_still_needs_its_label_named(con):
    """Only the two ids (and a timestamp) are read as unlabelled truth: `points` could be the labels."""
    con.register("pointed", pd.DataFrame({"user_id": [1], "item_id": [10], "points": [3]}))
    con.register("recs", RUNS["integer lists"])
    with pytest.raises(Exception, match="pointed: missing column 'relevance'"):
        shell_values(con, "pointed", "recs")


def test_the_duckdb_shell_reads_a_list_run_and_unlabelled_truth(tmp_path):
    script = ("CREATE TABLE truth AS SELECT * FROM (VALUES (1, 10), (1, 11), (2, 20), (3, 30)) t(user_id, item_id);\n"
              "CREATE TABLE recs AS SELECT * FROM (VALUES (1, [10, 12, 11]), (2, [21, 20]), (3, [31])) t(user_id, item_id);\n"
              f"SELECT query_id, value FROM sqlrank.ndcg('truth', 'recs', k := 10, qrels_columns := {COLUMNS}, "
              f"run_columns := {COLUMNS}) ORDER BY query_id;")
    rows = run_shell(script, tmp_path)
    assert {("nDCG@10", row["query_id"]): float(row["value"]) for row in rows} == \
        pytest.approx({key: value for key, value in BY_HAND.items() if key[0] == "nDCG@10"}, abs=1e-15)


def test_the_list_measures_macros_read_a_list_run_as_its_rows(con):
    """The beyond-accuracy macros read the run as the others do: a list run gives the numbers of its rows, and
    of the Python door. Serendipity reads the unlabelled truth as relevance 1."""
    truth = pd.DataFrame({"query_id": [1, 1, 2, 3], "doc_id": [10, 11, 20, 30]})
    recs = pd.DataFrame({"query_id": [1, 2, 3], "doc_id": [[10, 12, 11], [21, 20], [31]]})
    train = pd.DataFrame({"query_id": [1, 2, 3, 4, 4, 5], "doc_id": [10, 10, 12, 20, 12, 21]})
    for name, frame in {"truth": truth, "recs": recs, "train": train}.items():
        con.register(name, frame)
    con.execute("CREATE TEMP TABLE rows AS SELECT query_id, unnest(doc_id) AS doc_id, "
                "-unnest(range(1, len(doc_id) + 1)) AS score FROM recs")
    calls = {"Novelty@2": "novelty", "Diversity@2": "diversity", "Serendipity@2": "serendipity",
             "Personalization@2": "personalization"}
    python = sqlrank.evaluate(truth, recs, list(calls), train=train)
    expected = {(row["measure"], str(row["query_id"])): row["value"] for row in python.to_arrow().to_pylist()}
    for measure, macro in calls.items():
        train_option = "" if macro == "personalization" else ", train := 'train'"
        listed, rows = (con.execute(f"SELECT query_id, value FROM sqlrank.{macro}('truth', '{run}'{train_option}, "
                                    "k := 2) ORDER BY ALL").fetchall() for run in ("recs", "rows"))
        assert listed == rows, measure
        assert {(measure, query): value for query, value in listed} == \
            pytest.approx({key: value for key, value in expected.items() if key[0] == measure}, abs=1e-12), measure
