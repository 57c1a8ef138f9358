"""ties='input': the run's own order (a TREC run's rank field, a `rank` column, else the row order).

Every measure of the registry under ties='input' must give exactly what ties='trec' gives on the
same run re-scored so that nothing is tied and the documents come in the order the input gives,
an order computed here in plain Python: by the rank column when there is one (lowest first,
whatever the scores say), else by the rows' order. RR@10 of a TREC file whose ranks disagree with
its scores follows the MS MARCO evaluator's rule (the rank decides). Where the order is not
defined (a DuckDB relation or a SQL table without a rank column) or not an order (a rank given
twice in a query, a rank that is no number), it is refused with a message that says so.
"""

from __future__ import annotations

import math
import random

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sqlrank
from sqlrank.errors import EvaluationError
from cli_runner import invoke
from test_ties import DOC_IDS, EVERY_MEASURE, QUERY_IDS, TOL, assert_close, values

def given_order(rows: list[dict]) -> dict[str, list[str]]:
    """Each query's documents in the order the input gives: by `rank` when the rows have one, else row order."""
    ordered = sorted(rows, key=lambda row: row["rank"]) if "rank" in rows[0] else rows  # sorted() is stable
    order: dict[str, list[str]] = {}
    for row in ordered:
        order.setdefault(row["query_id"], []).append(row["doc_id"])
    return order


def in_order(order: dict[str, list[str]]) -> dict[str, dict[str, float]]:
    """The run re-scored so that ties='trec' ranks each query's documents in `order`, nothing tied."""
    return {query: {doc: float(len(docs) - place) for place, doc in enumerate(docs)} for query, docs in order.items()}


@st.composite
def cases(draw, ranked=None):
    """Qrels with every label kind; run rows of interleaved queries, scores from a few values (many ties),
    and maybe (or as `ranked` says) a rank column: distinct numbers per query, in an order of their own (not
    the rows', nor the scores')."""
    qrels, rows = {}, []
    queries = draw(st.lists(st.sampled_from(QUERY_IDS), min_size=1, max_size=3, unique=True))
    for query in queries:
        qrels[query] = draw(st.dictionaries(st.sampled_from(DOC_IDS), st.sampled_from([-1, 0, 0, 1, 1, 2, 3]),
                                            min_size=1, max_size=8))
        docs = draw(st.lists(st.sampled_from(DOC_IDS), min_size=1, max_size=10, unique=True))
        rows += [{"query_id": query, "doc_id": doc, "score": draw(st.sampled_from([0.0, 1.0, 2.0, 2.5]))}
                 for doc in docs]
    rows = draw(st.permutations(rows))  # the queries' rows interleaved: only each query's own order counts
    if draw(st.booleans()) if ranked is None else ranked:
        ranks = draw(st.lists(st.integers(-5, 1000), min_size=len(rows), max_size=len(rows), unique=True))
        rows = [dict(row, rank=rank + draw(st.sampled_from([0, 0.5]))) for row, rank in zip(rows, ranks)]
    return qrels, rows


@st.composite
def batches(draw, size):
    """`size` cases in one, each query renamed apart (tests/batched.py), all with a rank column or none."""
    ranked = draw(st.booleans())
    qrels, rows = {}, []
    for number in range(size):
        case_qrels, case_rows = draw(cases(ranked))
        qrels.update({f"{number}|{query}": judgments for query, judgments in case_qrels.items()})
        rows += [dict(row, query_id=f"{number}|{row['query_id']}") for row in case_rows]
    return qrels, rows


@settings(max_examples=5, deadline=None)
@given(case=batches(3), rel=st.sampled_from([1, 2]), kind=st.sampled_from(["pandas", "polars", "arrow"]))
def test_every_measure_under_input_is_trec_on_the_run_in_the_given_order(case, rel, kind):
    qrels, rows = case
    frame = pd.DataFrame(rows)
    run = {"pandas": frame, "polars": pl.from_pandas(frame), "arrow": pa.Table.from_pandas(frame)}[kind]
    assert_close(values(qrels, run, EVERY_MEASURE, rel=rel, ties="input"),
                 values(qrels, in_order(given_order(rows)), EVERY_MEASURE, rel=rel, ties="trec"))


@settings(max_examples=4, deadline=None)
@given(case=batches(3))
def test_input_order_is_the_same_from_every_file_format(case, tmp_path_factory):
    """TREC (its rank field: the row order numbered when the case has no rank), CSV, JSON lines and Parquet."""
    qrels, rows = case
    folder = tmp_path_factory.mktemp("formats")
    frame = pd.DataFrame(rows)
    ranks = frame["rank"] if "rank" in frame else range(1, len(frame) + 1)
    trec = "".join(f"{r.query_id} Q0 {r.doc_id} {rank} {r.score} tag\n" for r, rank in zip(frame.itertuples(), ranks))
    (folder / "run.trec").write_text(trec, encoding="utf-8")
    frame.to_csv(folder / "run.csv", index=False)
    frame.to_json(folder / "run.jsonl", orient="records", lines=True, force_ascii=False)
    frame.to_parquet(folder / "run.parquet")
    expected = values(qrels, in_order(given_order(rows)), ["nDCG@3", "AP", "RR", "bpref"], ties="trec")
    for name in ("run.trec", "run.csv", "run.jsonl", "run.parquet"):
        got = values(qrels, folder / name, ["nDCG@3", "AP", "RR", "bpref"], ties="input")
        assert_close({(r"run", q, m): v for (_, q, m), v in got.items()}, expected)


def msmarco_mrr_at_10(qrels: dict[str, set[str]], lines: list[str]) -> dict[str, float]:
    """MS MARCO's evaluator's rule (msmarco_eval.py), in plain Python: each document goes to place rank - 1 of its
    query's list, whatever its score; the first relevant document among the first 10 places gives 1 / place."""
    candidates: dict[str, list] = {}
    for line in lines:
        query, _, doc, rank, _, _ = line.split()
        candidates.setdefault(query, [None] * 1000)[int(rank) - 1] = doc
    return {query: next((1 / (place + 1) for place, doc in enumerate(places[:10]) if doc in qrels.get(query, ())), 0.0)
            for query, places in candidates.items()}


def test_rr_at_10_of_a_file_whose_ranks_disagree_with_its_scores_follows_the_msmarco_rule(tmp_path):
    rng = random.Random(22)
    qrels, lines = {}, []
    for number in range(40):
        query = f"q{number}"
        docs = [f"p{rng.randrange(500)}" for _ in range(30)]
        docs = list(dict.fromkeys(docs))
        qrels[query] = set(rng.sample(docs, 2))
        scores = [round(rng.uniform(0, 20), 1) for _ in docs]  # the ranks below ignore them
        lines += [f"{query} Q0 {doc} {rank} {score} run" for rank, (doc, score) in enumerate(zip(docs, scores), 1)]
    rng.shuffle(lines)  # the line order does not matter either: the rank field decides
    path = tmp_path / "run.trec"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    judged = {query: {doc: 1 for doc in docs} for query, docs in qrels.items()}
    got = values(judged, path, ["RR@10"], ties="input")
    expected = msmarco_mrr_at_10(qrels, lines)
    assert_close({query: v for (_, query, _), v in got.items() if query != "all"}, expected)
    assert got[("run", "all", "RR@10")] == pytest.approx(sum(expected.values()) / len(expected), abs=TOL)
    by_score = values(judged, path, ["RR@10"])[("run", "all", "RR@10")]
    assert abs(by_score - got[("run", "all", "RR@10")]) > 0.05  # the scores would have given another number


def test_the_worked_example_of_the_docs():
    """One query, three documents scored 1.0 each (a = 2, b = 0, c = 1), listed c, a, b: the docs' table row."""
    qrels = {"q": {"a": 2, "b": 0, "c": 1}}
    rows = pa.table({"query_id": ["q"] * 3, "doc_id": ["c", "a", "b"], "score": [1.0] * 3})
    got = values(qrels, rows, ["nDCG@3", "AP", "RR", "P@1"], ties="input")
    shown = tuple(round(got[("run", "q", m)], 4) for m in ("nDCG@3", "AP", "RR", "P@1"))
    assert shown == (0.8597, 1, 1, 1)
    assert got[("run", "q", "nDCG@3")] == pytest.approx((1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)), abs=TOL)


@pytest.mark.parametrize("kind", ["pandas", "polars", "arrow", "dict", "record batches", "lazy polars"])
def test_a_dataframe_is_ranked_in_its_row_order_and_says_so(kind):
    """Rows d, b, a, c of one query, all scored alike and their scores against that order: RR 1/3 (a is third)."""
    qrels = {"q": {"a": 1}}
    frame = pd.DataFrame({"query_id": ["q"] * 4, "doc_id": ["d", "b", "a", "c"], "score": [0.0, 1.0, 2.0, 3.0]})
    arrow = pa.Table.from_pandas(frame)
    run = {"pandas": frame, "polars": pl.from_pandas(frame), "arrow": arrow,
           "dict": {"q": {"d": 0.0, "b": 1.0, "a": 2.0, "c": 3.0}},
           "record batches": pa.RecordBatchReader.from_batches(arrow.schema, arrow.to_batches()),
           "lazy polars": pl.from_pandas(frame).lazy()}[kind]
    result = sqlrank.evaluate(qrels, run, ["RR", "P@2"], ties="input")
    assert result.to_arrow().column("value").to_pylist()[:2] == [pytest.approx(1 / 3, abs=TOL), 0.0]
    assert result.notices()[-1].endswith("ranked by its row order (the first row of a query ranks first), not by "
                                         "score (ties='input')")
    assert sqlrank.evaluate(qrels, run if kind not in ("record batches",) else arrow, ["RR"]).to_arrow() \
        .column("value")[0].as_py() == 0.5  # by score: c, a, b, d


def test_a_rank_column_wins_over_the_rows_order_and_a_duckdb_relation_needs_one():
    qrels = {"q": {"a": 1}}
    frame = pd.DataFrame({"query_id": ["q"] * 3, "doc_id": ["a", "b", "c"], "score": [3.0, 2.0, 1.0],
                          "Rank": [30, 10, 20]})
    assert values(qrels, frame, ["RR"], ties="input")[("run", "q", "RR")] == pytest.approx(1 / 3, abs=TOL)
    relation = duckdb.sql("SELECT * FROM frame")
    assert values(qrels, relation, ["RR"], ties="input")[("run", "q", "RR")] == pytest.approx(1 / 3, abs=TOL)


def test_a_table_of_several_runs_is_ordered_run_by_run():
    qrels = {"q": {"a": 1}}
    runs = pa.table({"run_id": ["x", "y", "x", "y"], "query_id": ["q"] * 4, "doc_id": ["b", "a", "a", "b"],
                     "score": [1.0] * 4})
    got = values(qrels, runs, ["RR"], ties="input")
    assert got[("x", "q", "RR")] == 0.5 and got[("y", "q", "RR")] == 1.0


@pytest.mark.parametrize("score_precision", ["double", "float32"])
def test_scores_and_score_precision_are_not_read(score_precision):
    """1.0 and 1.0000000001 tie in float32 only; under input the rows' order decides either way."""
    qrels = {"q": {"a": 1}}
    run = pa.table({"query_id": ["q", "q"], "doc_id": ["b", "a"], "score": [1.0, 1.0000000001]})
    assert values(qrels, run, ["RR"], ties="input", score_precision=score_precision)[("run", "q", "RR")] == 0.5


def test_the_default_path_keeps_no_order():
    """The readers keep a rank or the row order only when ties='input' asks: the trec run table is what it was."""
    con = sqlrank.connect()
    frame = pd.DataFrame({"query_id": ["q"], "doc_id": ["a"], "score": [1.0], "rank": [1]})
    sqlrank.evaluate({"q": {"a": 1}}, frame, ["RR"], connection=con)
    assert [row[0] for row in con.execute("DESCRIBE sqlrank_run_0").fetchall()] == ["query_id", "doc_id", "score"]
    sqlrank.evaluate({"q": {"a": 1}}, frame, ["RR"], connection=con, ties="input")
    assert [row[0] for row in con.execute("DESCRIBE sqlrank_run_0").fetchall()] == \
        ["query_id", "doc_id", "score", "input_rank"]


def test_the_command_line_takes_ties_input(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q 0 a 1\n", encoding="utf-8")
    run = tmp_path / "run.trec"
    run.write_text("q Q0 a 2 9.0 r\nq Q0 b 1 1.0 r\n", encoding="utf-8")
    outcome = invoke("eval", qrels, run, "-m", "RR", "--ties", "input", "-f", "csv")
    assert outcome.exit_code == 0, outcome.stderr
    assert '"run","all","RR",0.5' in outcome.stdout
    assert "ranked by its rank field (the 4th of a TREC run line), not by score (ties='input')" in outcome.stderr


def test_the_shell_macros_read_a_trec_files_ranks_and_a_tables_rank_column(tmp_path):
    run = tmp_path / "run.trec"
    run.write_text("q Q0 a 3 1.0 t\nq Q0 b 1 1.0 t\nq Q0 c 2 1.0 t\n", encoding="utf-8")
    con = sqlrank.connect()
    con.execute("CREATE TABLE qrels AS SELECT 'q' AS query_id, unnest(['a', 'b', 'c']) AS doc_id, "
                "unnest([2, 0, 1]) AS relevance")
    ndcg = "SELECT value FROM sqlrank.ndcg('qrels', ?, k := 3, ties := 'input')"
    pessimistic = 0.6199062332840657  # b, c, a: the ranks' order here
    assert con.execute(ndcg.replace("?", f"'{run}'")).fetchone()[0] == pytest.approx(pessimistic, abs=TOL)
    con.execute(f"CREATE VIEW run AS FROM sqlrank.read_trec_run('{run}')")
    assert con.execute("SELECT * FROM run ORDER BY doc_id").fetchall() == [("q", "a", 1.0, 3.0), ("q", "b", 1.0, 1.0),
                                                                            ("q", "c", 1.0, 2.0)]
    assert con.execute(ndcg.replace("?", "'run'")).fetchone()[0] == pytest.approx(pessimistic, abs=TOL)
    # the default still ranks by score, then doc id descending: c, b, a
    assert con.execute("SELECT value FROM sqlrank.ndcg('qrels', 'run', k := 3)").fetchone()[0] == \
        pytest.approx(0.7601875334318685, abs=TOL)
    con.execute("CREATE TABLE placed AS SELECT 'q' AS query_id, unnest(['a', 'b', 'c']) AS doc_id, 1.0 AS score, "
                "unnest([1, 3, 2]) AS place")
    assert con.execute("SELECT value FROM sqlrank.rr('qrels', 'placed', ties := 'input', "
                       "run_columns := {'rank': 'place'})").fetchone()[0] == 1.0


# ---------------------------------------------------------------- refusals

def refusal(qrels, run, **options) -> str:
    with pytest.raises(sqlrank.SqlrankError) as raised:
        sqlrank.evaluate(qrels, run, ["RR"], ties="input", **options)
    return str(raised.value)


def test_input_order_of_a_duckdb_relation_or_a_pyarrow_dataset_without_a_rank_column_is_refused():
    frame = pa.table({"query_id": ["q", "q"], "doc_id": ["a", "b"], "score": [1.0, 1.0]})
    message = refusal({"q": {"a": 1}}, duckdb.sql("SELECT * FROM frame"))
    assert message == ("<duckdb DuckDBPyRelation run>: ties='input' takes the run's own order, but this is a DuckDB "
                       "relation (a query, whose rows have no order without ORDER BY) and has no rank column; add a "
                       "column 'rank' (lowest first), pass a pandas, polars or pyarrow table in its order, or choose "
                       "another ties policy")
    message = refusal({"q": {"a": 1}}, ds.dataset(frame))
    assert "but this is a pyarrow Dataset (scanned from its files in parallel) and has no rank column" in message


def test_input_order_with_a_rank_given_twice_in_a_query_is_refused(tmp_path):
    run = tmp_path / "run.trec"
    run.write_text("q Q0 a 0 2.0 r\nq Q0 b 0 1.0 r\nq2 Q0 a 0 1.0 r\n", encoding="utf-8")  # rank 0 on every line
    assert refusal({"q": {"a": 1}}, run) == (
        f"{run}: ties='input' orders the run by its rank field (the 4th of a TREC run line), but query 'q' gives the "
        "rank 0 to 2 documents (e.g. 'a'), which then have no order; give each document of a query its own rank, "
        "or choose another ties policy (trec orders by score, then doc id)")
    several = pa.table({"run_id": ["x", "x"], "query_id": ["q", "q"], "doc_id": ["a", "b"], "score": [1.0, 1.0],
                        "rank": [1, 1]})
    assert "but run 'x', query 'q' gives the rank 1 to 2 documents" in refusal({"q": {"a": 1}}, several)


def test_input_order_with_a_rank_that_is_no_number_is_refused(tmp_path):
    run = tmp_path / "run.trec"
    run.write_text("q Q0 a 1 2.0 r\nq Q0 b x 1.0 r\n", encoding="utf-8")
    assert refusal({"q": {"a": 1}}, run) == (
        f"{run}: ties='input' orders the run by its rank field (the 4th of a TREC run line), but query 'q', "
        "document 'b' has no number there; give every document a finite rank, or choose another ties policy")
    frame = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "score": [1.0, 1.0], "rank": [1.0, None]})
    assert refusal({"q": {"a": 1}}, frame) == (
        "<pandas DataFrame run>: ties='input' orders the run by its column 'rank', but query 'q', document 'b' has no "
        "number there; give every document a finite rank, or choose another ties policy")
    frame["rank"] = [1.0, math.inf]
    assert "document 'b' has the rank inf there" in refusal({"q": {"a": 1}}, frame)


def test_input_order_with_judged_only_and_a_depth_is_refused():
    with pytest.raises(EvaluationError, match=r"ties='input' does not take judged_only with a depth yet"):
        sqlrank.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["RR"], ties="input", judged_only=True, depth=5)
    # without a depth it is the run's judged documents in the input's order
    run = pd.DataFrame({"query_id": ["q"] * 3, "doc_id": ["x", "b", "a"], "score": [1.0] * 3})
    got = values({"q": {"a": 1, "b": 0}}, run, ["RR"], ties="input", judged_only=True)
    assert got[("run", "q", "RR")] == 0.5  # x (unjudged) gone: b, a


def test_input_order_of_a_sql_table_without_a_rank_column_is_refused_in_the_shell():
    con = sqlrank.connect()
    con.execute("CREATE TABLE qrels AS SELECT 'q' AS query_id, 'a' AS doc_id, 1 AS relevance")
    con.execute("CREATE TABLE run AS SELECT 'q' AS query_id, unnest(['a', 'b']) AS doc_id, 1.0 AS score")
    with pytest.raises(duckdb.Error) as raised:
        con.execute("SELECT * FROM sqlrank.rr('qrels', 'run', ties := 'input')").fetchall()
    assert ("sqlrank: run: ties := 'input' orders the run by its rank (a TREC run's 4th field, or the column 'rank' "
            "or the one run_columns maps to rank: a SQL table has no row order), but query 'q', document 'a' has no "
            "number there; give every document a finite rank, or choose another ties policy") in str(raised.value)
    con.execute("CREATE TABLE ranked AS SELECT *, 1 AS rank FROM run")
    with pytest.raises(duckdb.Error, match="gives the rank 1 to 2 documents"):
        con.execute("SELECT * FROM sqlrank.rr('qrels', 'ranked', ties := 'input')").fetchall()
    con.execute("CREATE TABLE placed AS SELECT *, row_number() OVER (ORDER BY doc_id) AS rank FROM run")
    with pytest.raises(duckdb.Error, match="ties := 'input' does not take judged_only with a depth yet"):
        con.execute("SELECT * FROM sqlrank.rr('qrels', 'placed', ties := 'input', judged_only := true, "
                    "depth := 2)").fetchall()
