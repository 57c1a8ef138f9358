"""The Feather (Arrow IPC) reader, sqlrank/readers/feather.py: the worked example of
docs/adding-an-input-format.md. A Feather run gives the numbers of the same run in TREC text."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.feather
import pytest

import sqlrank
from sqlrank.errors import InputError

DATA = Path(__file__).resolve().parent.parent / "data"


def bm25_table() -> pa.Table:
    """data/bm25.trec as a table with the column names pyterrier gives a run (qid, docno, score)."""
    rows = [line.split() for line in (DATA / "bm25.trec").read_text().splitlines()]
    return pa.table({"qid": [r[0] for r in rows], "docno": [r[2] for r in rows], "score": [float(r[4]) for r in rows]})


@pytest.mark.parametrize("name", ["bm25.feather", "bm25.arrow", "bm25"])  # recognised by its bytes, any name
def test_a_feather_run_scores_as_its_trec_text(tmp_path, name):
    path = tmp_path / name
    pyarrow.feather.write_feather(bm25_table(), path)
    from_feather = sqlrank.evaluate(DATA / "qrels.txt", path, ["nDCG@10", "AP"])
    from_trec = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", ["nDCG@10", "AP"])
    assert from_feather.summary == from_trec.summary
    assert from_feather.summary["nDCG@10"] == pytest.approx(0.6518544470126822, abs=1e-12)
    assert from_feather.to_pandas()["run_id"].unique().tolist() == ["bm25"]  # named after its file


def test_a_feather_qrels_with_real_valued_labels(tmp_path):
    path = tmp_path / "qrels.feather"
    pyarrow.feather.write_feather(pa.table({"query_id": ["q1", "q1"], "doc_id": ["a", "b"], "label": [0.5, 1.0]}),
                                  path)
    result = sqlrank.evaluate(path, {"q1": {"a": 2.0, "b": 1.0}}, ["nDCG"])
    # gains 0.5 at rank 1 and 1.0 at rank 2 against the ideal 1.0, 0.5
    assert result.summary["nDCG"] == pytest.approx((0.5 + 1 / 1.584962500721156) / (1 + 0.5 / 1.584962500721156))


def test_a_feather_name_without_the_magic_bytes_is_refused(tmp_path):
    path = tmp_path / "run.feather"
    path.write_text("q1 Q0 d1 1 2.5 r\n")
    with pytest.raises(InputError) as error:
        sqlrank.evaluate(DATA / "qrels.txt", path, ["AP"])
    assert str(error.value) == (f"{path}: has a .feather name but is not a Feather file (no ARROW1 magic bytes); "
                                "rename it after its real format (.csv, .tsv, .jsonl or a TREC file)")


def test_a_truncated_feather_file_is_named(tmp_path):
    path = tmp_path / "run.feather"
    pyarrow.feather.write_feather(bm25_table(), path)
    path.write_bytes(path.read_bytes()[:200])
    with pytest.raises(InputError, match=rf"^{path}: is not a readable Feather \(Arrow IPC\) file \(.+\); it may be "
                                         "truncated or corrupt: write it again$"):
        sqlrank.evaluate(DATA / "qrels.txt", path, ["AP"])


def test_a_feather_run_without_a_score_column_says_which_option_to_pass(tmp_path):
    path = tmp_path / "run.feather"
    pyarrow.feather.write_feather(bm25_table().rename_columns(["qid", "docno", "points"]), path)
    with pytest.raises(InputError) as error:
        sqlrank.evaluate(DATA / "qrels.txt", path, ["AP"])
    assert str(error.value) == (f"{path}: missing column 'score' (found qid, docno, points); pass score_col=<name> "
                                "(CLI: --score-col <name>)")
    assert sqlrank.evaluate(DATA / "qrels.txt", path, ["AP"], score_col="points").summary == \
        sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", ["AP"]).summary
