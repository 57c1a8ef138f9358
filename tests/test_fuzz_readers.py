"""Fuzzing the readers: random bytes and mutated valid files fed to sqlrank.evaluate.

The only outcomes allowed are a result or a sqlrank.SqlrankError whose message is one line; an
InputError names the file it is about. Never a duckdb.Error, UnicodeDecodeError, OSError, EOFError,
gzip.BadGzipFile, pyarrow error or anything else. Mutations are Hypothesis-driven byte edits (delete,
insert, replace, truncate) of valid TREC, CSV and JSON lines files, plain or gzip-compressed, and of
Parquet files, given as the run or as the qrels.
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sqlrank
from sqlrank.errors import InputError, SqlrankError

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
MEASURES = ["nDCG@10", "AP", "RR"]

QRELS = b"q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq2 0 x 1\n# a comment\nq2 0 y 0\n"
RUN = b"q1 Q0 a 1 3.0 r\nq1 Q0 b 2 2.0 r\nq1\tQ0\tc\t3\t1e0\tr extra\r\nq2 Q0 y 1 2.0 r\n\nq2 Q0 x 2 1.0 r\n"
CSV_RUN = b"query_id,doc_id,score\nq1,a,3.0\nq1,\"b\",2\nq2,y,2.0\nq2,x,-1.5e0\n"
CSV_QRELS = b"qid,docno,label\nq1,a,2\nq1,c,1\nq2,x,0.5\n"
JSON_RUN = b'{"query_id": "q1", "doc_id": "a", "score": 3}\n{"query_id": "q2", "doc_id": "x", "score": 1.5}\n'


def parquet_bytes(columns: dict) -> bytes:
    sink = io.BytesIO()
    pq.write_table(pa.table(columns), sink)
    return sink.getvalue()


PARQUET_RUN = parquet_bytes({"query_id": ["q1", "q1", "q2"], "doc_id": ["a", "b", "x"], "score": [3.0, 2.0, 1.0]})

# (file name, valid content, is it the run): what the mutations start from
SEEDS = [
    ("run.trec", RUN, True), ("qrels.txt", QRELS, False), ("run", RUN, True), ("run.trec.gz", RUN, True),
    ("run.csv", CSV_RUN, True), ("qrels.csv", CSV_QRELS, False), ("run.tsv", CSV_RUN.replace(b",", b"\t"), True),
    ("run.jsonl", JSON_RUN, True), ("run.parquet", PARQUET_RUN, True),
]


@st.composite
def mutated(draw, data: bytes) -> bytes:
    """`data` with 1-4 random edits: delete a span, insert bytes, replace a byte, or cut the end off."""
    data = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        edit = draw(st.sampled_from(["delete", "insert", "replace", "truncate"]))
        at = draw(st.integers(0, len(data)))
        if edit == "delete":
            del data[at: at + draw(st.integers(1, 8))]
        elif edit == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8) | st.sampled_from(
                [b"\n", b"\r\n", b" ", b"\t", b"#", b",", b'"', b"\x1f", b"\xef\xbb\xbf", b"\x00", b"\xff", b"nan",
                 b"1e999", b"-"]))
        elif edit == "replace" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif edit == "truncate":
            del data[at:]
    return bytes(data)


def check(qrels: Path, run: Path, fuzzed: Path) -> None:
    """Evaluate; the only allowed outcomes are a result or a one-line SqlrankError (naming the file if bad input)."""
    try:
        result = sqlrank.evaluate(qrels, run, MEASURES)
    except SqlrankError as error:
        message = str(error)
        assert message and "\n" not in message, message
        if isinstance(error, InputError):
            assert str(fuzzed) in message, message
        return
    assert all(0.0 <= value <= 1.0 for value in result.to_arrow().column("value").to_pylist())


def files(folder: Path, name: str, content: bytes, is_run: bool) -> tuple[Path, Path, Path]:
    """(qrels, run, the fuzzed one): the fuzzed file on its side, a valid TREC file on the other."""
    fuzzed = folder / name
    fuzzed.write_bytes(content)
    other = folder / ("qrels.valid.txt" if is_run else "run.valid.trec")
    other.write_bytes(QRELS if is_run else RUN)
    return (other, fuzzed, fuzzed) if is_run else (fuzzed, other, fuzzed)


@SETTINGS
@given(data=st.binary(max_size=300), name=st.sampled_from(["run", "run.trec", "run.csv", "run.parquet", "run.gz"]),
       is_run=st.booleans())
def test_random_bytes_give_a_result_or_a_sqlrank_error(tmp_path_factory, data, name, is_run):
    folder = tmp_path_factory.mktemp("random")
    check(*files(folder, name, data, is_run))


@SETTINGS
@given(seed=st.sampled_from(SEEDS), data=st.data())
def test_mutated_valid_files_give_a_result_or_a_sqlrank_error(tmp_path_factory, seed, data):
    name, content, is_run = seed
    content = data.draw(mutated(content))
    if name.endswith(".gz"):
        content = gzip.compress(content)
    check(*files(tmp_path_factory.mktemp("mutated"), name, content, is_run))


@SETTINGS
@given(data=st.data())
def test_mutated_gzip_streams_give_a_result_or_a_sqlrank_error(tmp_path_factory, data):
    # edits to the compressed bytes: truncated streams, bad CRCs, broken headers
    content = data.draw(mutated(gzip.compress(RUN * 20)))
    check(*files(tmp_path_factory.mktemp("gzip"), "run.trec.gz", content, True))
