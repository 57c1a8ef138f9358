"""Hardening, round two: outputs' modes, `sqlrank query`'s reach, numeric options, signals, messages.

Each test reproduces one way sqlrank was attacked (a 0600 results file made world-readable, a
symlink loop, --threads 100000, SIGTERM mid-evaluation, ...) and checks the answer a user now
gets: the file's mode kept, one line `sqlrank: error: ...` with its exit code, nothing left behind.

The small data set used throughout (labels by rank in the comments):

    qrels  q1: a=2 b=0 c=1      q2: x=1 y=0
    run    q1: a 3.0, b 2.0, c 1.0  -> labels by rank [2, 0, 1]: AP (1/1 + 2/3) / 2 = 5/6
           q2: y 2.0, x 1.0         -> labels by rank [0, 1]:    AP (1/2) / 1 = 1/2
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import sqlrank
from sqlrank import export
from sqlrank.errors import OutputError
from cli_runner import invoke

QRELS = "q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq2 0 x 1\nq2 0 y 0\n"
RUN = "q1 Q0 a 1 3.0 r\nq1 Q0 b 2 2.0 r\nq1 Q0 c 3 1.0 r\nq2 Q0 y 1 2.0 r\nq2 Q0 x 2 1.0 r\n"
MAP = ((1 / 1 + 2 / 3) / 2 + (1 / 2) / 1) / 2


@pytest.fixture
def qrels(tmp_path) -> Path:
    path = tmp_path / "qrels.txt"
    path.write_text(QRELS)
    return path


@pytest.fixture
def run(tmp_path) -> Path:
    path = tmp_path / "run.trec"
    path.write_text(RUN)
    return path


def one_error_line(outcome, exit_code: int) -> str:
    """The one line a user mistake gets: `sqlrank: error: ...` (or click's usage line), no traceback."""
    assert outcome.exception is None or isinstance(outcome.exception, SystemExit), outcome.exception
    assert outcome.exit_code == exit_code, outcome.stderr
    assert "Traceback" not in outcome.stderr
    return outcome.stderr.strip().splitlines()[-1]


# ---------------------------------------------------------------- 9. output files' modes

def test_a_replaced_output_keeps_its_mode_and_a_new_one_honours_the_umask(qrels, run, tmp_path):
    private = tmp_path / "private.csv"
    private.write_text("old\n")
    private.chmod(0o600)
    assert invoke("eval", qrels, run, "-m", "AP", "-o", private).exit_code == 0
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert private.read_text() == f'"run_id","query_id","measure","value"\n"run","all","AP",{MAP!r}\n'
    old = os.umask(0o077)
    try:
        assert invoke("eval", qrels, run, "-m", "AP", "-o", tmp_path / "new.csv").exit_code == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.csv").stat().st_mode) == 0o600  # 0666 less the umask 077


def test_a_read_only_output_is_refused_not_replaced(qrels, run, tmp_path):
    locked = tmp_path / "locked.csv"
    locked.write_text("keep me\n")
    locked.chmod(0o444)
    outcome = invoke("eval", qrels, run, "-m", "AP", "-o", locked)
    line = one_error_line(outcome, 1)
    assert line == (f"sqlrank: error: {locked}: is read-only (mode 0444); make it writable (chmod u+w) "
                    "or choose another output file")
    assert locked.read_text() == "keep me\n" and stat.S_IMODE(locked.stat().st_mode) == 0o444


# ---------------------------------------------------------------- 12. a symlink loop as the output

def test_an_output_that_is_a_symlink_loop_is_an_output_error(qrels, run, tmp_path):
    loop = tmp_path / "loop.csv"
    loop.symlink_to(loop)
    outcome = invoke("eval", qrels, run, "-m", "AP", "-o", loop)
    assert one_error_line(outcome, 1) == (f"sqlrank: error: {loop}: is a symlink loop (it names itself, through "
                                          "one link or more); remove the link or choose another output file")
    with pytest.raises(OutputError, match="is a symlink loop"):
        export.write_bytes([b"x"], loop)
    assert loop.is_symlink()


# ---------------------------------------------------------------- 11. numeric options bounded

@pytest.mark.parametrize("args, option, limit", [
    (["--threads", "100000"], "'--threads'", "1024"),
    (["--threads", "99999999999999999999"], "'--threads'", "1024"),
    (["--threads", "0"], "'--threads'", "1"),
    (["-M", "9223372036854775808"], "'-M' / '--depth'", "2147483647"),
    (["--spark-buckets", "99999999999999999999"], "'--spark-buckets'", "1000000"),
])
def test_numeric_options_of_eval_are_bounded_usage_errors(qrels, run, args, option, limit):
    outcome = invoke("eval", qrels, run, "-m", "AP", *args)
    line = one_error_line(outcome, 2)
    assert line.startswith(f"Error: Invalid value for {option}: ") and line.endswith(limit)


@pytest.mark.parametrize("args, option, limit", [
    (["--trials", "100000000"], "'--trials'", "1000000"),
    (["--seed", "99999999999999999999999"], "'--seed'", "9223372036854775807"),
    (["--threads", "2000000000"], "'--threads'", "1024"),
])
def test_numeric_options_of_compare_are_bounded_usage_errors(qrels, run, tmp_path, args, option, limit):
    other = tmp_path / "other.trec"
    other.write_text(RUN.replace("3.0", "0.5"))
    outcome = invoke("compare", qrels, run, other, "-t", "randomization", *args)
    line = one_error_line(outcome, 2)
    assert line.startswith(f"Error: Invalid value for {option}: ") and line.endswith(limit)


def test_numeric_arguments_of_the_python_api_are_bounded(qrels, run):
    from sqlrank.errors import EvaluationError

    with pytest.raises(EvaluationError) as error:
        sqlrank.connect(threads=100_000)
    assert str(error.value) == "threads must be at most 1024, got 100000"
    with pytest.raises(EvaluationError) as error:
        sqlrank.evaluate(qrels, run, ["AP"], depth=2**63)
    assert str(error.value) == "depth must be at most 2147483647, got 9223372036854775808"
    with pytest.raises(EvaluationError) as error:
        sqlrank.compare(qrels, {"a": run, "b": run}, ["AP"], tests=["randomization"], trials=10**8)
    assert str(error.value) == "trials must be at most 1000000, got 100000000"
    with pytest.raises(EvaluationError) as error:
        sqlrank.compare(qrels, {"a": run, "b": run}, ["AP"], tests=["randomization"], seed=2**64)
    assert str(error.value) == "seed must be at most 9223372036854775807, got 18446744073709551616"
    assert sqlrank.evaluate(qrels, run, ["AP"], depth=2147483647).summary["AP"] == pytest.approx(MAP, abs=1e-15)


# ---------------------------------------------------------------- 17. compression recognised by its bytes

def compressed(kind: str, data: bytes) -> bytes:
    import bz2
    import gzip
    import lzma

    if kind == "zstd":  # a frame of stored (raw) blocks, written by hand: no zstd library is needed to make one
        header = b"\x28\xb5\x2f\xfd" + bytes([0x20, len(data)])  # magic; single segment, 1-byte content size
        block = ((len(data) << 3) | 1).to_bytes(3, "little")  # last block, raw
        return header + block + data
    return {"xz": lzma.compress, "bzip2": bz2.compress, "gzip": gzip.compress}[kind](data)


@pytest.mark.parametrize("kind, name, how", [
    ("xz", "run.trec.gz", "xz -d"),
    ("zstd", "run.trec.gz", "zstd -d"),
    ("bzip2", "run.trec", "bzip2 -d"),
])
def test_xz_zstd_and_bzip2_files_are_named_by_their_bytes_whatever_their_name(qrels, tmp_path, kind, name, how):
    path = tmp_path / name
    path.write_bytes(compressed(kind, RUN.encode()))
    with pytest.raises(sqlrank.InputError) as error:
        sqlrank.evaluate(qrels, path, ["AP"])
    assert str(error.value) == (f"{path}: is {kind}-compressed (by its first bytes, whatever its name); sqlrank "
                                f"reads plain or gzip files: decompress it ({how}) or compress it with gzip")


def test_a_gzipped_parquet_file_is_named_as_such(qrels, tmp_path):
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    pq.write_table(pa.table({"query_id": ["q1"], "doc_id": ["a"], "score": [1.0]}), buffer)
    path = tmp_path / "run.parquet.gz"
    path.write_bytes(compressed("gzip", buffer.getvalue()))
    with pytest.raises(sqlrank.InputError) as error:
        sqlrank.evaluate(qrels, path, ["AP"])
    assert str(error.value) == (f"{path}: is a gzip-compressed Parquet file; Parquet compresses its own columns "
                                "and is read uncompressed: decompress it (gunzip)")


@pytest.mark.parametrize("name", ["run.jsonl", "run.parquet", "run.jsonl.gz"])
def test_an_empty_file_of_a_named_format_says_it_is_empty(qrels, tmp_path, name):
    path = tmp_path / name
    path.write_bytes(compressed("gzip", b"") if name.endswith(".gz") else b"")
    with pytest.raises(sqlrank.InputError) as error:
        sqlrank.evaluate(qrels, path, ["AP"])
    assert str(error.value) == (f"{path}: is empty (no bytes{' once decompressed' if name.endswith('.gz') else ''}); "
                                "expected the run's rows; check that the file was written completely")


# ---------------------------------------------------------------- 18. memory limit, temp directory, glob names

@pytest.mark.parametrize("value", ["-5GB", "0GB", "80%", "lots"])
def test_a_memory_limit_that_is_not_a_positive_size_is_a_usage_error(qrels, run, value):
    outcome = invoke("eval", qrels, run, "-m", "AP", "--memory-limit", value)
    assert one_error_line(outcome, 2) == (f"Error: Invalid value for '--memory-limit': memory limit must be a size "
                                          f"above 0 with its unit, e.g. 4GB or 500MiB, got '{value}'")
    with pytest.raises(sqlrank.EvaluationError, match="memory limit must be a size above 0"):
        sqlrank.connect(memory_limit=value)


def test_a_temp_directory_duckdb_cannot_write_in_is_named(qrels, run):
    outcome = invoke("eval", qrels, run, "-m", "AP", "--temp-directory", "/sys")
    assert one_error_line(outcome, 1) == ("sqlrank: error: /sys: DuckDB cannot spill its temporary files here "
                                          "(Permission denied); give --temp-directory (temp_directory=) a folder "
                                          "you can write to")


def test_a_full_temp_directory_is_reported_as_full_not_as_memory(tmp_path):
    con = sqlrank.connect(threads=1, memory_limit="30MB", temp_directory=str(tmp_path / "spill"))
    con.execute("SET max_temp_directory_size = '2MB'")  # a temp directory with 2 MB of room: full at once
    with pytest.raises(sqlrank.ResourceError) as error:
        sqlrank.query(con, "SELECT count(*) FROM (SELECT md5(i::VARCHAR) AS s FROM range(3000000) t(i) ORDER BY s)")
    assert str(error.value).startswith("DuckDB's temp directory is full (Out of Memory Error: failed to offload ")
    assert str(error.value).endswith("); free space there, or give DuckDB a folder on a disk with room "
                                     "(--temp-directory, temp_directory=), or raise the memory limit (--memory-limit)")


def test_a_file_named_with_a_backslash_and_glob_characters_is_read_as_that_file(qrels, tmp_path):
    named = tmp_path / "run\\*.trec"
    named.write_text(RUN)
    (tmp_path / "run\\a.trec").write_text(RUN.replace("q1 Q0 a 1 3.0", "q1 Q0 a 1 0.5"))  # what a glob would add
    assert sqlrank.evaluate(qrels, named, ["AP"]).summary["AP"] == pytest.approx(MAP, abs=1e-15)


# ---------------------------------------------------------------- 19. the Python API's messages

def test_numpy_integers_are_whole_numbers(qrels, run):
    import numpy as np

    # depth 1 keeps q1 [a] (relevant, rank 1) and q2 [y] (not relevant): AP (1/2 + 0) / 2
    result = sqlrank.evaluate(qrels, run, ["AP"], depth=np.int64(1), threads=np.int32(1))
    assert result.summary["AP"] == pytest.approx(((1 / 1) / 2 + 0) / 2, abs=1e-15)


@pytest.mark.parametrize("connection, message", [
    ("x", "connection must be a DuckDB connection (duckdb.connect() or sqlrank.connect()), got str 'x'"),
    ("closed", "the DuckDB connection is closed; pass an open one (duckdb.connect() or sqlrank.connect())"),
])
def test_a_connection_that_is_none_or_closed_is_named(qrels, run, connection, message):
    import duckdb

    if connection == "closed":
        connection = duckdb.connect()
        connection.close()
    with pytest.raises(sqlrank.EvaluationError) as error:
        sqlrank.evaluate(qrels, run, ["AP"], connection=connection)
    assert str(error.value) == message


def test_a_record_batch_reader_is_read_once_by_sqlrank(qrels):
    import pyarrow as pa

    table = pa.table({"query_id": ["q1", "q1", "q1", "q2", "q2"], "doc_id": ["a", "b", "c", "y", "x"],
                      "score": [3.0, 2.0, 1.0, 2.0, 1.0]})
    reader = pa.RecordBatchReader.from_batches(table.schema, table.to_batches())
    assert sqlrank.evaluate(qrels, reader, ["AP"]).summary["AP"] == pytest.approx(MAP, abs=1e-15)


def test_a_connection_used_by_two_threads_at_once_is_named(qrels, run):
    import threading

    import pandas as pd

    from sqlrank import engine

    con = sqlrank.connect()
    big = pd.DataFrame({"query_id": [f"q{i % 1000}" for i in range(400_000)],
                        "doc_id": [f"d{i}" for i in range(400_000)], "score": [float(i) for i in range(400_000)]})
    errors = []

    def evaluate_big():
        try:
            sqlrank.evaluate(qrels, big, ["AP"], connection=con)
        except sqlrank.SqlrankError as error:
            errors.append(error)

    worker = threading.Thread(target=evaluate_big)
    worker.start()
    while worker.is_alive() and not engine.in_use(con):
        pass
    assert engine.in_use(con)
    with pytest.raises(sqlrank.EvaluationError) as error:
        sqlrank.evaluate(qrels, run, ["AP"], connection=con)
    worker.join()
    assert errors == []
    assert str(error.value) == ("this DuckDB connection is evaluating in another thread, and a connection runs one "
                                "statement at a time; give each thread its own (con.cursor() or sqlrank.connect())")


def test_measures_given_as_bytes_are_named(qrels, run):
    with pytest.raises(sqlrank.MeasureError) as error:
        sqlrank.evaluate(qrels, run, b"AP")
    assert str(error.value) == "measures are text, got bytes b'AP'; decode them (b'AP'.decode()) or pass ['AP']"


def test_a_flat_dict_is_named_as_documents_not_queries(qrels):
    with pytest.raises(sqlrank.InputError) as error:
        sqlrank.evaluate(qrels, {"a": 3.0, "b": 2.0}, ["AP"])
    assert str(error.value) == ("<dict run>: expected {query_id: {doc_id: score}}, found a number under 'a': "
                                "a dict of numbers is one query's documents; give it under its query_id, "
                                "e.g. {'q1': {'a': 3.0, ...}}")


def test_an_empty_path_is_named(run):
    with pytest.raises(sqlrank.InputError) as error:
        sqlrank.evaluate("", run, ["AP"])
    assert str(error.value) == "the qrels path is empty (''); give a file path"


# ---------------------------------------------------------------- 13. stop signals

@pytest.fixture(scope="module")
def large_inputs(tmp_path_factory):
    """A run of 3M rows over 1000 queries (whole-number ids), which DuckDB spills at a 60 MB memory limit."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path_factory.mktemp("large")
    rows = np.arange(3_000_000)
    pq.write_table(pa.table({"query_id": rows % 1000, "doc_id": rows,
                             "score": np.random.default_rng(1).random(len(rows))}), folder / "run.parquet")
    (folder / "qrels.txt").write_text("".join(f"{q} 0 {q} 1\n" for q in range(1000)))
    return folder


@pytest.mark.parametrize("name, exit_code", [("SIGTERM", 143), ("SIGINT", 130), ("SIGHUP", 129)])
def test_a_stop_signal_removes_the_spill_files_and_the_partial_output(large_inputs, tmp_path, name, exit_code):
    import signal
    import subprocess
    import sys
    import time

    spill, out = tmp_path / "spill", tmp_path / "out.csv"
    command = [sys.executable, "-m", "sqlrank", "eval", large_inputs / "qrels.txt", large_inputs / "run.parquet",
               "-m", "AP", "-o", out, "--temp-directory", spill, "--memory-limit", "60MB", "--threads", "1"]
    process = subprocess.Popen([str(c) for c in command], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not (spill.is_dir() and any(spill.iterdir())) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process.poll() is None, "the evaluation ended before it spilled: the test needs a larger input"
    process.send_signal(getattr(signal, name))
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == exit_code
    assert stderr.decode() == f"sqlrank: stopped by {name}\n" and stdout == b""
    assert not spill.exists() or list(spill.iterdir()) == []  # DuckDB's spill files removed with its connection
    assert list(tmp_path.iterdir()) == [] or [p.name for p in tmp_path.iterdir()] == ["spill"]  # no out.csv, no .tmp


# ---------------------------------------------------------------- 10. `sqlrank query`'s reach

def test_query_does_not_install_or_load_extensions_unless_asked(qrels, run):
    outcome = invoke("query", "--run", run, "SELECT * FROM 'https://example.invalid/run.csv'")
    line = one_error_line(outcome, 1)
    assert line.startswith("sqlrank: error: the SQL failed: File https://example.invalid/run.csv requires the "
                           "extension httpfs to be loaded")
    assert line.endswith("; sqlrank query installs and loads no DuckDB extension by itself: pass "
                         "--allow-extensions (which may download it), or INSTALL and LOAD it in the SQL")


def test_query_output_may_not_be_a_file_the_sql_reads(qrels, run, tmp_path):
    other = tmp_path / "other.csv"
    other.write_text("query_id,doc_id,score\nq1,a,1\n")
    before = other.read_bytes()
    outcome = invoke("query", "--run", run, f"SELECT * FROM read_csv('{other}')", "-o", other)
    assert one_error_line(outcome, 1) == (f"sqlrank: error: {other}: is one of the inputs ({other}); refusing to "
                                          "overwrite it, choose another output file")
    assert other.read_bytes() == before


def test_query_copy_may_not_overwrite_an_input(qrels, run):
    before = run.read_bytes()
    outcome = invoke("query", "--run", run, f"COPY run TO '{run}' (FORMAT csv)")
    assert one_error_line(outcome, 1) == (f"sqlrank: error: the SQL's COPY writes {run}, which is one of the inputs "
                                          f"({run}); refusing to overwrite it, copy to another file")
    assert run.read_bytes() == before


def test_the_trust_model_of_query_is_written_down():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    for text in ((root / "README.md").read_text(), invoke("query", "--help").stdout):
        assert "runs your SQL with your permissions, like the duckdb shell" in " ".join(text.split())


# ---------------------------------------------------------------- 15, 16. physical line numbers, long lines

def test_a_ragged_csv_row_after_quoted_newlines_is_named_by_its_physical_line(qrels, tmp_path):
    path = tmp_path / "run.csv"
    # lines 2-7 are three rows whose doc ids hold a newline; line 8 has a fourth field
    path.write_text('query_id,doc_id,score\nq1,"a\nb",1\nq1,"c\nd",2\nq1,"e\nf",3\nq2,x,1,9\n')
    with pytest.raises(sqlrank.InputError) as error:
        sqlrank.evaluate(qrels, path, ["AP"])
    assert str(error.value) == (f"{path}:8: Expected Number of Columns: 3 Found: 4; fix the line (every row needs "
                                "as many fields as the header)")


def test_a_malformed_json_line_is_named_by_its_physical_line(qrels, tmp_path):
    path = tmp_path / "run.jsonl"
    lines = ['{"query_id": "q1", "doc_id": "a", "score": 3}', '', '{"query_id": "q1", "doc_id": "b", "score": 2}',
             '{"query_id": "q1", "doc_id": "c" "score": 1}', '{"query_id": "q2", "doc_id": "x", "score": 1}']
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(sqlrank.InputError) as error:
        sqlrank.evaluate(qrels, path, ["AP"])
    assert str(error.value) == (f"{path}:4: is not valid JSON (Expecting ',' delimiter at column 34); "
                                "fix the line: one JSON object a line")


def test_a_line_over_the_csv_readers_limit_gets_the_cause_and_the_way_out(qrels, tmp_path):
    path = tmp_path / "run.csv"
    path.write_text("query_id,doc_id,score\nq1,a,1\nq1," + "b" * 2_100_000 + ",2\n")
    with pytest.raises(sqlrank.InputError) as error:
        sqlrank.evaluate(qrels, path, ["AP"])
    assert str(error.value) == (f"{path}:3: the line is longer than 2000000 bytes, the CSV reader's limit; a line "
                                "this long is most often a quote left open or lines run together (a missing line "
                                "end): fix the line, or convert the file to Parquet, which has no line limit")
