"""sqlrank.evaluate over every kind of input, the Result it returns, many runs at once, load_run/load_qrels.

The example data is data/qrels.txt + data/bm25.trec (see data/README.md):
q1 labels A=3 B=3 C=2 D=2 E=1 F=1 G=0, bm25 ranks A, E, C, D, F;
q2 labels a=1 b=1 c=1 d=0, bm25 ranks a, x, y, b, z;
q3 labels x=2 y=0 z=-1, bm25 ties y and z at 0.9 (z ranks first: doc id descending), then x;
q4 is retrieved by bm25 but has no judgments.
"""

from __future__ import annotations

import gzip
import math
import shutil
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import sqlrank
from sqlrank.errors import EvaluationError, InputError

DATA = Path(__file__).resolve().parent.parent / "data"
MEASURES = ["nDCG@5", "nDCG", "AP", "RR", "P@5", "R@10", "Rprec", "bpref", "Success@1", "NumRet", "NumRelRet"]


def trec_rows(path: Path) -> list[list[str]]:
    return [line.split() for line in path.read_text().splitlines() if line.strip()]


QRELS_ROWS = [(q, d, float(rel)) for q, _, d, rel in trec_rows(DATA / "qrels.txt")]
RUN_ROWS = [(q, d, float(score)) for q, _, d, _, score, _ in trec_rows(DATA / "bm25.trec")]


def frame(rows, value: str) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["query_id", "doc_id", value])


def nested(rows) -> dict:
    out: dict = {}
    for q, d, v in rows:
        out.setdefault(q, {})[d] = v
    return out


def write_text(path: Path, text: str) -> Path:
    if path.suffix == ".gz":
        with gzip.open(path, "wt") as handle:
            handle.write(text)
    else:
        path.write_text(text)
    return path


def build_variant(kind: str, folder: Path, rows, value: str, name: str):
    """The same rows as the input kind `kind`."""
    df = frame(rows, value)
    if kind == "pandas":
        return df
    if kind == "polars":
        return pl.from_pandas(df)
    if kind == "pyarrow":
        return pa.Table.from_pandas(df, preserve_index=False)
    if kind == "duckdb":
        return duckdb.connect().from_arrow(pa.Table.from_pandas(df, preserve_index=False))
    if kind == "dict":
        return nested(rows)
    if kind == "parquet":
        path = folder / f"{name}.parquet"
        pq.write_table(pa.Table.from_pandas(df, preserve_index=False), path)
        return path
    base, gz = kind.removesuffix(".gz"), kind.endswith(".gz")
    suffix = {"csv": ".csv", "tsv": ".tsv", "jsonl": ".jsonl", "trec": ".txt"}[base] + (".gz" if gz else "")
    if base == "csv":
        text = df.to_csv(index=False)
    elif base == "tsv":
        text = df.to_csv(index=False, sep="\t")
    elif base == "jsonl":
        text = df.to_json(orient="records", lines=True)
    elif value == "score":  # TREC run: qid Q0 docno rank score tag
        text = "".join(f"{q} Q0 {d} {i} {s!r} tag\n" for i, (q, d, s) in enumerate(rows, start=1))
    else:  # TREC qrels: qid iter docno rel
        text = "".join(f"{q} 0 {d} {int(r)}\n" for q, d, r in rows)
    return write_text(folder / f"{name}{suffix}", text)


KINDS = ["pandas", "polars", "pyarrow", "duckdb", "dict", "parquet", "csv", "tsv", "jsonl", "trec",
         "csv.gz", "tsv.gz", "jsonl.gz", "trec.gz"]


def per_query_rows(result: sqlrank.Result) -> list[tuple]:
    """(query_id, measure, value) rows; the run_id is left out since paths are named after their file."""
    return sorted((r["query_id"], r["measure"], r["value"]) for r in result.per_query.to_pylist())


@pytest.fixture(scope="module")
def reference() -> sqlrank.Result:
    return sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", MEASURES)


def test_reference_numbers(reference):
    values = {(q, m): v for q, m, v in per_query_rows(reference)}
    # q1: labels by rank [3, 1, 2, 2, 1]; ideal [3, 3, 2, 2, 1] (docs/measures.md#e4, system 1)
    dcg = 3 + 1 / math.log2(3) + 2 / 2 + 2 / math.log2(5) + 1 / math.log2(6)
    idcg = 3 + 3 / math.log2(3) + 2 / 2 + 2 / math.log2(5) + 1 / math.log2(6)
    assert values[("q1", "nDCG@5")] == pytest.approx(dcg / idcg, abs=1e-12)
    assert values[("q1", "nDCG@5")] == pytest.approx(0.8232936061974518, abs=1e-12)
    # q2: a, x, y, b, z with a, b relevant and R = 3: AP = (1/1 + 2/4) / 3
    assert values[("q2", "AP")] == pytest.approx((1 + 2 / 4) / 3, abs=1e-12)
    # q3: z (-1, unjudged), y (0), x (2): the first relevant is at rank 3
    assert values[("q3", "RR")] == pytest.approx(1 / 3, abs=1e-12)
    assert not any(q == "q4" for q, _, _ in per_query_rows(reference))  # no judgments: left out


@pytest.mark.parametrize("kind", KINDS)
def test_every_input_kind_gives_the_same_per_query_table(kind, tmp_path, reference):
    qrels = build_variant(kind, tmp_path, QRELS_ROWS, "relevance", "qrels")
    run = build_variant(kind, tmp_path, RUN_ROWS, "score", "run")
    result = sqlrank.evaluate(qrels, run, MEASURES)
    assert per_query_rows(result) == per_query_rows(reference)
    # exactly: the means are summed in query order whatever order the rows came in
    assert result.summary == reference.summary


@pytest.mark.parametrize("kind", ["parquet", "csv", "jsonl", "trec.gz"])
def test_mixed_kinds_give_the_same_table(kind, tmp_path, reference):
    """Qrels in one form, the run in another."""
    run = build_variant(kind, tmp_path, RUN_ROWS, "score", "run")
    result = sqlrank.evaluate(frame(QRELS_ROWS, "relevance"), run, MEASURES)
    assert per_query_rows(result) == per_query_rows(reference)


def test_integer_ids_match_string_ids(tmp_path):
    # qrels with integer query and doc ids (pandas int64), run as TREC text with the same ids as text
    qrels = pd.DataFrame({"query_id": [1, 1, 2], "doc_id": [10, 11, 20], "relevance": [1, 0, 1]})
    run = write_text(tmp_path / "run.txt", "1 Q0 11 1 2.0 t\n1 Q0 10 2 1.0 t\n2 Q0 20 1 5.0 t\n")
    result = sqlrank.evaluate(qrels, run, ["RR"])
    # query 1: doc 11 (label 0) then doc 10 (label 1) -> RR 1/2; query 2: doc 20 first -> RR 1
    assert result.summary == {"RR": pytest.approx((1 / 2 + 1) / 2, abs=1e-12)}
    assert result.notices() == []
    # the other way round: integer ids in a Parquet run, string keys in a dict of qrels
    pq.write_table(pa.table({"query_id": [1, 1, 2], "doc_id": [11, 10, 20], "score": [2.0, 1.0, 5.0]}),
                   tmp_path / "run.parquet")
    other = sqlrank.evaluate({"1": {"10": 1, "11": 0}, "2": {"20": 1}}, tmp_path / "run.parquet", ["RR"])
    assert other.summary == result.summary


def test_leading_zero_ids_are_different_ids():
    # ids compare as text, byte for byte (trec_eval): '01' is not 1
    with pytest.raises(EvaluationError, match="its 1 query, e.g. '1'; the qrels have e.g. '01'"):
        sqlrank.evaluate({"01": {"A": 1}}, pd.DataFrame({"query_id": [1], "doc_id": ["A"], "score": [1.0]}), ["RR"])
    result = sqlrank.evaluate({"01": {"A": 1}}, pd.DataFrame({"query_id": [1], "doc_id": ["A"], "score": [1.0]}),
                              ["RR"], allow_disjoint=True)
    assert result.summary == {"RR": 0.0}
    assert result.notices() == [
        "run 'run': 1 of 1 qrels queries have no documents (01): scored 0 (missing='zero')",
        "run 'run': 1 query without judgments left out",
    ]


def test_common_column_names_are_recognised(reference):
    run = pd.DataFrame(RUN_ROWS, columns=["qid", "docno", "sim"])
    qrels = pd.DataFrame(QRELS_ROWS, columns=["qid", "docno", "label"])
    assert per_query_rows(sqlrank.evaluate(qrels, run, MEASURES)) == per_query_rows(reference)


def test_column_mapping(tmp_path, reference):
    run = pd.DataFrame(RUN_ROWS, columns=["topic", "document", "s"])
    qrels = pd.DataFrame(QRELS_ROWS, columns=["topic", "document", "grade_level"])
    result = sqlrank.evaluate(qrels, run, MEASURES, query_col="topic", doc_col="document", score_col="s",
                              relevance_col="grade_level")
    assert per_query_rows(result) == per_query_rows(reference)


def test_missing_column_names_the_columns_found(tmp_path):
    run = pd.DataFrame(RUN_ROWS, columns=["topic", "document", "s"])
    with pytest.raises(InputError) as error:
        sqlrank.evaluate(DATA / "qrels.txt", run, ["AP"])
    assert str(error.value) == ("<pandas DataFrame run>: missing columns 'query_id', 'doc_id', 'score' (found topic, "
                                "document, s); did you mean run_columns={'query_id': 'topic', 'doc_id': 'document'}, "
                                "and which column is the score?")
    path = tmp_path / "run.csv"
    run.to_csv(path, index=False)
    with pytest.raises(InputError) as error:
        sqlrank.evaluate(DATA / "qrels.txt", path, ["AP"], query_col="topic", doc_col="docid")
    assert str(error.value) == (f"{path}: missing columns 'docid', 'score' (found topic, document, s); "
                                "did you mean run_columns={'doc_id': 'document'}, and which column is the score?")


def test_unsupported_object_is_refused():
    with pytest.raises(InputError) as error:
        sqlrank.evaluate(DATA / "qrels.txt", [("q1", "A", 1.0)], ["AP"])
    assert str(error.value) == (
        "<builtins tuple>: cannot use a tuple as the run; pass a file path, a pandas or polars DataFrame, "
        "a pyarrow Table, a DuckDB relation, a dict {query_id: {doc_id: value}} or an iterable of ir_measures' "
        "Qrel / ScoredDoc named tuples"
    )


# ---------------------------------------------------------------- the Result

def test_result_table_and_conversions():
    result = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", ["nDCG@5", "AP"])
    arrow = result.to_arrow()
    assert arrow.column_names == ["run_id", "query_id", "measure", "value"]
    # 3 judged queries x 2 measures, then the 2 `all` rows
    assert arrow.num_rows == 3 * 2 + 2
    rows = arrow.to_pylist()
    assert [(r["query_id"], r["measure"]) for r in rows] == [
        ("q1", "nDCG@5"), ("q1", "AP"), ("q2", "nDCG@5"), ("q2", "AP"), ("q3", "nDCG@5"), ("q3", "AP"),
        ("all", "nDCG@5"), ("all", "AP"),
    ]
    assert {r["run_id"] for r in rows} == {"bm25"}  # named after the file
    assert result.to_pandas().to_dict("records") == rows
    assert result.to_polars().to_dicts() == rows
    assert result.per_query.num_rows == 6
    # q1: AP = (1 + 2/2 + 3/3 + 4/4 + 5/5) / 6 (5 relevant retrieved at the top, R = 6);
    # q2: (1/1 + 2/4) / 3; q3: (1/3) / 1
    ap = ((5 / 6) + (1 + 2 / 4) / 3 + (1 / 3) / 1) / 3
    assert result.summary["AP"] == pytest.approx(ap, abs=1e-12)
    assert list(result.summary) == ["nDCG@5", "AP"]


def test_result_is_readable():
    result = sqlrank.evaluate(DATA / "qrels.txt", {"bm25": DATA / "bm25.trec", "dense": DATA / "dense.trec"},
                              ["nDCG@5", "AP"])
    text = str(result)
    assert text.splitlines()[0].split() == ["measure", "bm25", "dense"]
    assert text.splitlines()[2].split()[0] == "nDCG@5"
    assert f"{result.means['dense']['AP']:.4f}" in text
    html = result._repr_html_()
    assert html.startswith("<table>") and "<th>dense</th>" in html and "<td>AP</td>" in html
    assert repr(result).startswith("<sqlrank.Result 2 run(s), 2 measure(s)>")


# ---------------------------------------------------------------- many runs at once

def test_many_runs_equal_each_run_alone():
    runs = {"bm25": DATA / "bm25.trec", "dense": DATA / "dense.trec"}
    together = sqlrank.evaluate(DATA / "qrels.txt", runs, MEASURES)
    assert together.runs == ["bm25", "dense"]
    for name, path in runs.items():
        alone = sqlrank.evaluate(DATA / "qrels.txt", path, MEASURES)
        mine = [row for row in together.to_arrow().to_pylist() if row["run_id"] == name]
        assert mine == alone.to_arrow().to_pylist()
        assert together.means[name] == alone.summary
    # q1 of dense ranks A, B, C, G, E (docs/measures.md#e4, system 2): nDCG@5 = 0.8793791209851007
    dense_q1 = [r["value"] for r in together.per_query.to_pylist()
                if (r["run_id"], r["query_id"], r["measure"]) == ("dense", "q1", "nDCG@5")]
    assert dense_q1 == [pytest.approx(0.8793791209851007, abs=1e-12)]


def test_many_runs_as_one_table_with_run_id_and_as_a_list(tmp_path):
    runs = {"bm25": DATA / "bm25.trec", "dense": DATA / "dense.trec"}
    expected = sqlrank.evaluate(DATA / "qrels.txt", runs, MEASURES).to_arrow().to_pylist()
    stacked = pd.concat(
        [pd.DataFrame([(name, q, d, float(s)) for q, _, d, _, s, _ in trec_rows(path)],
                      columns=["run_id", "query_id", "doc_id", "score"]) for name, path in runs.items()]
    )
    assert sqlrank.evaluate(DATA / "qrels.txt", stacked, MEASURES).to_arrow().to_pylist() == expected
    # a Parquet file with a run_id column keeps its run ids (not the file's name)
    stacked.to_parquet(tmp_path / "all_runs.parquet", index=False)
    assert sqlrank.evaluate(DATA / "qrels.txt", tmp_path / "all_runs.parquet", MEASURES).to_arrow().to_pylist() \
        == expected
    # a list of paths: each run named after its file
    copies = [shutil.copy(path, tmp_path / f"{name}.trec") for name, path in runs.items()]
    assert sqlrank.evaluate(DATA / "qrels.txt", copies, MEASURES).to_arrow().to_pylist() == expected
    # several pytrec_eval-style dicts
    nested_runs = {name: nested([(q, d, float(s)) for q, _, d, _, s, _ in trec_rows(path)])
                   for name, path in runs.items()}
    assert sqlrank.evaluate(DATA / "qrels.txt", nested_runs, MEASURES).to_arrow().to_pylist() == expected


def test_runs_come_in_the_order_given():
    """As in ir_measures and ranx: a dict's keys and a list's files keep their order in every output;
    a table with its own run_id column names its runs in no chosen order, so those come by run_id."""
    given = {"zeta": DATA / "bm25.trec", "alpha": DATA / "dense.trec"}
    result = sqlrank.evaluate(DATA / "qrels.txt", given, ["AP"])
    assert result.runs == ["zeta", "alpha"]
    assert list(result.means) == ["zeta", "alpha"]
    assert result.means["zeta"]["AP"] == pytest.approx(0.5555555555555556, abs=1e-15)  # bm25, data/README.md
    run_ids = result.to_arrow().column("run_id").to_pylist()
    assert run_ids == ["zeta"] * run_ids.count("zeta") + ["alpha"] * run_ids.count("alpha")
    assert str(result).splitlines()[0].split() == ["measure", "zeta", "alpha"]
    listed = sqlrank.evaluate(DATA / "qrels.txt", [DATA / "dense.trec", DATA / "bm25.trec"], ["AP"])
    assert listed.runs == ["dense", "bm25"]
    stacked = pd.DataFrame([(name, q, d, float(s)) for name, path in given.items()
                            for q, _, d, _, s, _ in trec_rows(path)], columns=["run_id", "query_id", "doc_id", "score"])
    assert sqlrank.evaluate(DATA / "qrels.txt", stacked, ["AP"]).runs == ["alpha", "zeta"]


def test_run_names_must_be_distinct(tmp_path):
    (tmp_path / "a").mkdir()
    copy = shutil.copy(DATA / "bm25.trec", tmp_path / "a" / "bm25.trec")
    with pytest.raises(EvaluationError) as error:
        sqlrank.evaluate(DATA / "qrels.txt", [DATA / "bm25.trec", copy], ["AP"])
    assert str(error.value) == "two runs have the same name (bm25); pass a dict {name: run} with distinct names"


def test_a_named_table_with_its_own_run_ids_is_ambiguous():
    stacked = pd.DataFrame({"run_id": ["x"], "query_id": ["q1"], "doc_id": ["A"], "score": [1.0]})
    with pytest.raises(EvaluationError) as error:
        sqlrank.evaluate(DATA / "qrels.txt", {"mine": stacked}, ["AP"])
    assert str(error.value) == (
        "<pandas DataFrame run>: has a run_id column and is also given the name 'mine'; pass it on its own "
        "(run=table) to use its run_id column, or drop the column to call it by the name given"
    )


# ---------------------------------------------------------------- load_run / load_qrels for SQL users

def test_load_run_and_qrels_register_canonical_views(tmp_path):
    pq.write_table(pa.Table.from_pandas(frame(RUN_ROWS, "score"), preserve_index=False), tmp_path / "run.parquet")
    con = sqlrank.connect()
    assert sqlrank.load_qrels(con, DATA / "qrels.txt") == "qrels"
    assert sqlrank.load_run(con, tmp_path / "run.parquet", name="run") == "run"
    assert [r[0] for r in con.execute("DESCRIBE run").fetchall()] == ["query_id", "doc_id", "score"]
    assert [r[0] for r in con.execute("DESCRIBE qrels").fetchall()] == ["query_id", "doc_id", "relevance"]
    rows = con.execute("SELECT query_id, value FROM sqlrank.ndcg('qrels', 'run', k := 10) ORDER BY query_id").fetchall()
    expected = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", ["nDCG@10"]).per_query.to_pylist()
    assert rows == [(r["query_id"], pytest.approx(r["value"], abs=1e-12)) for r in expected]
    # the views take any input the Python API takes, under any name
    sqlrank.load_run(con, pl.from_pandas(frame(RUN_ROWS, "score").rename(columns={"query_id": "qid"})),
                     name="bm25 polars")
    again = con.execute("SELECT query_id, value FROM sqlrank.ndcg('qrels', 'bm25 polars', k := 10) "
                        "ORDER BY query_id").fetchall()
    assert again == rows


def test_load_run_applies_the_duplicates_policy():
    con = sqlrank.connect()
    run = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["A", "A"], "score": [1.0, 2.0]})
    with pytest.raises(InputError, match="duplicate"):
        sqlrank.load_run(con, run)
    with pytest.warns(sqlrank.SqlrankNotice) as notices:
        sqlrank.load_run(con, run, duplicates="max")
    assert con.execute("SELECT * FROM run").fetchall() == [("q1", "A", 2.0)]
    # what evaluate() lists in Result.notices(), said here as a warning: the view alone would not show it
    assert [str(n.message) for n in notices] == [
        "<pandas DataFrame run>: 1 duplicate run row dropped, kept the highest score (duplicates='max')"]


def test_load_qrels_says_what_it_changed_and_only_then(tmp_path, recwarn):
    con = sqlrank.connect()
    sqlrank.load_qrels(con, DATA / "qrels.txt")
    assert not recwarn.list  # nothing changed: nothing said
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 A 1.9\nq1 0 B 1\n")
    with pytest.warns(sqlrank.SqlrankNotice, match=r"1 relevance label\(s\) are not whole numbers.*1\.9 -> 1"):
        sqlrank.load_qrels(con, qrels, name="cut")
    assert con.execute("SELECT doc_id, relevance FROM cut ORDER BY doc_id").fetchall() == [("A", 1.0), ("B", 1.0)]


def test_polars_frames_are_handed_over_as_string_views_with_the_same_numbers():
    """polars strings reach DuckDB as Arrow string views, without a copy; ids past 12 bytes (kept outside the
    view) and non-ASCII ones read as with pandas."""
    from sqlrank.readers.frames import polars_to_arrow

    long = "query-with-a-long-id-é-"
    qrels = [(long + q, "doc-" + d * 20, r) for q, d, r in QRELS_ROWS]
    run = [(long + q, "doc-" + d * 20, s) for q, d, s in RUN_ROWS]
    as_polars = [pl.from_pandas(frame(qrels, "relevance")), pl.from_pandas(frame(run, "score"))]
    assert polars_to_arrow(as_polars[1]).schema.field("doc_id").type == pa.string_view()
    expected = per_query_rows(sqlrank.evaluate(frame(qrels, "relevance"), frame(run, "score"), MEASURES))
    assert per_query_rows(sqlrank.evaluate(*as_polars, MEASURES)) == expected
    assert per_query_rows(sqlrank.evaluate(*(f.lazy() for f in as_polars), MEASURES)) == expected
    assert ("query-with-a-long-id-é-q2", "AP", (1 + 2 / 4) / 3) in expected
