"""The `sqlrank` command line, in process (Typer's CliRunner) and as the installed console script.

Every command and every output format is run and its output parsed back to
numbers. The small example (written by the `files` fixture):

qrels   q1: d1=2, d2=1, d3=0, d4=1 (R = 3)     q2: d1=1, d5=0 (R = 1)
sys     q1: d3, d1, d2 (labels 0, 2, 1)        q2: d1, d9 (labels 1, unjudged)
other   q1: d1, d4 (labels 2, 1)               q2: d5, d6, d1 (labels 0, unjudged, 1)
        q3: d1 (no judgments: left out, and a notice says so)
"""

from __future__ import annotations

import io
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

import sqlrank
from formats import read_rows
from fresh_python import run_fresh
from tolerances import printed
from sqlrank import export
from sqlrank.cli import DEFAULT_MEASURES, app
from sqlrank.measures import PARAMETERS, REGISTRY, spellings

ROOT = Path(__file__).resolve().parent.parent
TREC_DATA = Path(__file__).resolve().parent / "data" / "trec_eval"
FORMATS = ("table", "csv", "tsv", "json", "jsonl", "parquet", "trec")

QRELS = "q1 0 d1 2\nq1 0 d2 1\nq1 0 d3 0\nq1 0 d4 1\nq2 0 d1 1\nq2 0 d5 0\n"
SYS = "q1 Q0 d3 1 3.0 sys\nq1 Q0 d1 2 2.0 sys\nq1 Q0 d2 3 1.0 sys\nq2 Q0 d1 1 5.0 sys\nq2 Q0 d9 2 4.0 sys\n"
OTHER = ("q1 Q0 d1 1 0.9 other\nq1 Q0 d4 2 0.8 other\nq2 Q0 d5 1 0.9 other\nq2 Q0 d6 2 0.5 other\n"
         "q2 Q0 d1 3 0.1 other\nq3 Q0 d1 1 1.0 other\n")

MEASURES = ["RR", "AP", "P@2", "nDCG@3", "NumRet"]
MEASURE_ARGS = [arg for m in MEASURES for arg in ("-m", m)]
TREC_NAMES = {"recip_rank": "RR", "map": "AP", "P_2": "P@2", "ndcg_cut_3": "nDCG@3", "num_ret": "NumRet"}

IDCG_Q1_3 = 2 + 1 / math.log2(3) + 1 / math.log2(4)  # ideal labels [2, 1, 1] at ranks 1..3
NDCG = {
    ("sys", "q1"): (2 / math.log2(3) + 1 / math.log2(4)) / IDCG_Q1_3,  # labels [0, 2, 1]
    ("sys", "q2"): 1.0,  # [1]
    ("other", "q1"): (2 + 1 / math.log2(3)) / IDCG_Q1_3,  # [2, 1]
    ("other", "q2"): (1 / math.log2(4)) / 1,  # [0, -, 1]
}
PER_QUERY = {
    ("sys", "q1"): {"RR": 1 / 2, "AP": (1 / 2 + 2 / 3) / 3, "P@2": 1 / 2, "NumRet": 3},
    ("sys", "q2"): {"RR": 1.0, "AP": 1.0, "P@2": 1 / 2, "NumRet": 2},
    ("other", "q1"): {"RR": 1.0, "AP": (1 + 1) / 3, "P@2": 2 / 2, "NumRet": 2},
    ("other", "q2"): {"RR": 1 / 3, "AP": (1 / 3) / 1, "P@2": 0.0, "NumRet": 3},
}
EXPECTED = {}
for (_run, _query), _values in PER_QUERY.items():
    for _measure, _value in {**_values, "nDCG@3": NDCG[(_run, _query)]}.items():
        EXPECTED[(_run, _query, _measure)] = _value
for _run in ("sys", "other"):
    for _measure in MEASURES:
        _q1, _q2 = EXPECTED[(_run, "q1", _measure)], EXPECTED[(_run, "q2", _measure)]
        # the `all` row: the mean over q1 and q2 (q3 of `other` has no judgments), the sum for counts
        EXPECTED[(_run, "all", _measure)] = _q1 + _q2 if _measure == "NumRet" else (_q1 + _q2) / 2
OTHER_NOTICE = "sqlrank: note: run 'other': 1 query without judgments left out"


@pytest.fixture(scope="session")  # session: `processes` reads it, made once a run
def files(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("cli")
    (folder / "qrels.txt").write_text(QRELS)
    (folder / "sys.trec").write_text(SYS)
    (folder / "other.trec").write_text(OTHER)
    return folder


def invoke(*args: str, input: str | None = None, env: dict | None = None):
    """Run the command line in this process; stdout and stderr apart."""
    try:
        runner = CliRunner(mix_stderr=False)  # click < 8.2 mixes stderr into stdout unless told
    except TypeError:
        runner = CliRunner()
    return runner.invoke(app, [str(a) for a in args], input=input, env=env, catch_exceptions=False)


def sqlrank_script() -> Path:
    """The console script installed next to this Python (pip install -e .), else the one on PATH."""
    here = Path(sys.executable).parent / ("sqlrank.exe" if os.name == "nt" else "sqlrank")
    found = here if here.exists() else shutil.which("sqlrank")
    if not found:
        pytest.fail("the `sqlrank` console script is not installed: run `pip install -e .` first")
    return Path(found)


def parse(fmt: str, data: bytes, per_query: bool = True) -> dict:
    """{(run_id, query_id, measure): value} from the output of `sqlrank eval` in format `fmt`."""
    if fmt in ("csv", "tsv", "json", "jsonl", "parquet"):
        rows = read_rows(fmt, data)
    elif fmt == "trec":
        rows = []
        for line in data.decode().splitlines():
            run_id, name, query_id, value = line.split("\t")
            assert len(name) == 22, "measure names are padded to 22, as trec_eval prints them"
            rows.append({"run_id": run_id, "query_id": query_id, "measure": TREC_NAMES[name.strip()], "value": value})
    else:  # table: header, rule, then one row per (query, measure) and one column per run
        lines = data.decode().splitlines()
        header = lines[0].split()
        assert set(lines[1]) == {"-", " "}
        labels = 2 if per_query else 1
        rows = []
        for line in lines[2:]:
            cells = line.split()
            query_id = cells[0] if per_query else "all"
            for run_id, value in zip(header[labels:], cells[labels:]):
                rows.append({"run_id": run_id, "query_id": query_id, "measure": cells[labels - 1], "value": value})
    return {(r["run_id"], r["query_id"], r["measure"]): float(r["value"]) for r in rows}


def assert_numbers(values: dict, fmt: str, per_query: bool = True) -> None:
    wanted = {key: value for key, value in EXPECTED.items() if per_query or key[1] == "all"}
    assert set(values) == set(wanted)
    # table and trec print 4 decimals, as trec_eval does; the others hold the double
    tolerance = printed(4) if fmt in ("table", "trec") else 1e-12
    for key, value in wanted.items():
        assert values[key] == pytest.approx(value, abs=tolerance), key


# ---------------------------------------------------------------- sqlrank eval, in process

# Every format goes through both doors: in process to a file named for it (here), and from the console
# script to stdout with -f (test_script_eval_every_format below). Each run costs an evaluation: no more.

@pytest.mark.parametrize("fmt", FORMATS)
def test_eval_every_format_to_a_file_by_its_extension(files, tmp_path, fmt):
    target = tmp_path / f"result.{'txt' if fmt == 'table' else fmt}"
    result = invoke("eval", files / "qrels.txt", files / "sys.trec", files / "other.trec", *MEASURE_ARGS,
                    "-q", "-o", target)
    assert (result.exit_code, result.stdout) == (0, "")  # nothing but results on stdout, and they went to the file
    assert_numbers(parse(fmt, target.read_bytes()), fmt)
    assert result.stderr.splitlines() == [OTHER_NOTICE]
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


def test_eval_format_option_wins_over_the_extension(files, tmp_path):
    target = tmp_path / "result.txt"
    result = invoke("eval", files / "qrels.txt", files / "sys.trec", *MEASURE_ARGS, "-q", "-f", "jsonl",
                    "-o", target)
    assert result.exit_code == 0
    values = parse("jsonl", target.read_bytes())
    assert values[("sys", "all", "AP")] == pytest.approx(((1 / 2 + 2 / 3) / 3 + 1) / 2)


def test_eval_default_measures_and_table(files):
    result = invoke("eval", files / "qrels.txt", files / "sys.trec")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["measure", "sys"]
    assert [line.split()[0] for line in lines[2:]] == list(DEFAULT_MEASURES)
    shown = {line.split()[0]: float(line.split()[1]) for line in lines[2:]}
    assert shown["RR"] == pytest.approx((1 / 2 + 1) / 2, abs=printed(4))
    assert shown["R@100"] == pytest.approx((2 / 3 + 1) / 2, abs=printed(4))  # q1 finds d1, d2 of 3; q2 finds d1
    assert result.stderr == ""


def test_eval_names_runs_with_name_equals_path(files):
    result = invoke("eval", files / "qrels.txt", f"bm25={files / 'sys.trec'}", files / "other.trec",
                    "-m", "RR", "-f", "csv")
    assert result.exit_code == 0
    values = parse("csv", result.stdout_bytes, per_query=False)
    assert values == {("bm25", "all", "RR"): pytest.approx(0.75), ("other", "all", "RR"): pytest.approx(2 / 3)}


def test_a_file_name_holding_an_equals_sign_is_a_path(files, tmp_path):
    (tmp_path / "k=10.trec").write_text(SYS)
    result = invoke("eval", files / "qrels.txt", tmp_path / "k=10.trec", "-m", "RR", "-f", "csv")
    assert parse("csv", result.stdout_bytes, per_query=False) == {("k=10", "all", "RR"): pytest.approx(0.75)}


def test_eval_refuses_two_runs_of_one_name(files, tmp_path):
    (tmp_path / "sys.trec").write_text(SYS)
    result = invoke("eval", files / "qrels.txt", files / "sys.trec", tmp_path / "sys.trec")
    assert result.exit_code == 2
    assert "several runs are named 'sys'; name them with NAME=PATH" in result.stderr


# options: each goes through to sqlrank.evaluate and changes the numbers as it should

def _all_values(result) -> dict:
    assert result.exit_code == 0, result.stderr
    return {measure: value for (_, query_id, measure), value in parse("json", result.stdout_bytes).items()
            if query_id == "all"}


def test_rel_option(files):
    # rel 2: only d1 of q1 is relevant (rank 2 in sys): AP 1/2, RR 1/2; q2 has no relevant document: 0
    values = _all_values(invoke("eval", files / "qrels.txt", files / "sys.trec", "-m", "AP", "-m", "RR",
                                "-m", "AP(rel=1)", "--rel", "2", "-f", "json"))
    # named as asked, as trec_eval prints map under -l 2; AP(rel=1) keeps its own rel
    assert values == {"AP": pytest.approx((1 / 2 + 0) / 2), "RR": pytest.approx((1 / 2 + 0) / 2),
                      "AP(rel=1)": pytest.approx(((1 / 2 + 2 / 3) / 3 + 1) / 2)}


@pytest.fixture(scope="module")
def only_q1(files) -> Path:
    path = files / "only_q1.trec"
    path.write_text("".join(line + "\n" for line in SYS.splitlines() if line.startswith("q1 ")))
    return path


@pytest.mark.parametrize("policy, rr, note", [
    ("zero", (1 / 2 + 0) / 2, "scored 0 (missing='zero')"),  # q2 counts as 0
    ("skip", 1 / 2, "left out of the mean (missing='skip')"),  # mean over q1 alone
])
def test_missing_option(files, only_q1, policy, rr, note):
    result = invoke("eval", files / "qrels.txt", only_q1, "-m", "RR", "--missing", policy, "-f", "json")
    assert _all_values(result) == {"RR": pytest.approx(rr)}
    assert result.stderr.splitlines() == [
        f"sqlrank: note: run 'only_q1': 1 of 2 qrels queries have no documents (q2): {note}"]


def test_missing_error_exits_1(files, only_q1):
    result = invoke("eval", files / "qrels.txt", only_q1, "--missing", "error")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith("sqlrank: error: run 'only_q1': 1 of 2 qrels queries have no documents in the "
                                    "run (q2)")


@pytest.fixture(scope="module")
def duplicated(files) -> Path:
    path = files / "duplicated.trec"
    path.write_text(SYS + "q1 Q0 d1 9 4.0 sys\n")  # d1 of q1 again, now with the highest score
    return path


def test_duplicates_option(files, duplicated):
    refused = invoke("eval", files / "qrels.txt", duplicated, "-m", "RR")
    assert refused.exit_code == 1
    assert "duplicate (query_id, doc_id) rows, e.g. query 'q1' doc 'd1' (2 rows)" in refused.stderr
    assert "--duplicates first|max" in refused.stderr
    # first: d1 keeps 2.0, the ranking of sys; max: d1 at 4.0 goes first in q1, RR 1 on both queries
    first = invoke("eval", files / "qrels.txt", duplicated, "-m", "RR", "--duplicates", "first", "-f", "json")
    assert _all_values(first) == {"RR": pytest.approx((1 / 2 + 1) / 2)}
    assert "1 duplicate run row dropped, kept the first score" in first.stderr
    maximum = invoke("eval", files / "qrels.txt", duplicated, "-m", "RR", "--duplicates", "max", "-f", "json")
    assert _all_values(maximum) == {"RR": pytest.approx(1.0)}


def test_depth_option(files):
    # top 2 of sys: q1 d3, d1 -> AP (1/2) / 3, 2 documents; q2 d1, d9 -> AP 1, 2 documents
    result = invoke("eval", files / "qrels.txt", files / "sys.trec", "-m", "AP", "-m", "NumRet", "-M", "2",
                    "-f", "json")
    assert _all_values(result) == {"AP": pytest.approx(((1 / 2) / 3 + 1) / 2), "NumRet": 4}
    assert "rankings cut at depth 2" in result.stderr


def test_score_precision_option(tmp_path):
    (tmp_path / "qrels.txt").write_text("q1 0 a 0\nq1 0 b 1\n")
    # a over b in double; equal in float32, where the tie goes to the higher doc id: b first (pytrec_eval)
    (tmp_path / "run.trec").write_text("q1 Q0 a 1 1.0000000001 x\nq1 Q0 b 2 1.0 x\n")
    runs = (tmp_path / "qrels.txt", tmp_path / "run.trec", "-m", "RR", "-f", "json")
    assert _all_values(invoke("eval", *runs)) == {"RR": 1 / 2}
    assert _all_values(invoke("eval", *runs, "--score-precision", "float32")) == {"RR": 1.0}


def test_column_options(tmp_path):
    (tmp_path / "qrels.csv").write_text("topic,item,gain_label\nq1,d1,1\nq1,d2,0\n")
    (tmp_path / "run.csv").write_text("topic,item,points\nq1,d2,2.0\nq1,d1,1.0\n")
    plain = invoke("eval", tmp_path / "qrels.csv", tmp_path / "run.csv", "-m", "RR")
    assert plain.exit_code == 1
    assert ("qrels.csv: missing columns 'query_id', 'relevance' (found topic, item, gain_label); did you mean "
            "--qrels-map query_id=topic --qrels-map relevance=gain_label?") in plain.stderr
    mapped = invoke("eval", tmp_path / "qrels.csv", tmp_path / "run.csv", "-m", "RR", "-f", "json",
                    "--query-col", "topic", "--doc-col", "item", "--score-col", "points",
                    "--relevance-col", "gain_label")
    assert _all_values(mapped) == {"RR": 1 / 2}  # d2 (not relevant) first, then d1


def test_resource_options(files, tmp_path):
    result = invoke("eval", files / "qrels.txt", files / "sys.trec", "-m", "RR", "-f", "json", "--threads", "1",
                    "--memory-limit", "500MB", "--temp-directory", tmp_path)
    assert _all_values(result) == {"RR": 0.75}
    bad = invoke("eval", files / "qrels.txt", files / "sys.trec", "--memory-limit", "lots")
    assert bad.exit_code == 2  # a usage error: DuckDB is never opened with it
    assert "memory limit must be a size above 0 with its unit, e.g. 4GB or 500MiB, got 'lots'" in bad.stderr


# ---------------------------------------------------------------- exit codes and clean errors

@pytest.mark.parametrize("args, code, message", [
    (["eval", "{q}", "{d}/none.trec"], 1, "sqlrank: error: {d}/none.trec: no such file"),
    (["eval", "{d}/sys.trec", "{q}"], 1, "sqlrank: error: {d}/sys.trec:1: expected 4 fields"),
    (["eval", "{q}", "{d}/sys.trec", "-m", "nDGC@10"], 2, "sqlrank: error: unknown measure 'nDGC' (did you mean 'nDCG@10'?)"),
    (["eval", "{q}", "{d}/sys.trec", "-m", "Rprec@5"], 2, "sqlrank: error: Rprec@5: Rprec takes no cutoff (@k)"),
    (["eval", "{q}", "{d}/sys.trec", "--missing", "sometimes"], 2, "Invalid value for '--missing'"),
    (["eval", "{q}", "{d}/sys.trec", "-M", "0"], 2, "Invalid value for '-M' / '--depth'"),
    (["eval", "{q}"], 2, "Missing argument 'RUN'"),
    (["eval", "{q}", "{d}/sys.trec", "-o", "{d}/out.xlsx"], 2, "cannot tell the format from the extension '.xlsx'"),
    (["evaluate"], 2, "No such command 'evaluate'"),
])
def test_exit_codes(files, args, code, message):
    fill = {"q": str(files / "qrels.txt"), "d": str(files)}
    result = invoke(*[a.format(**fill) for a in args])
    assert result.exit_code == code
    assert message.format(**fill) in result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    if message.startswith("sqlrank: error:"):
        assert len(result.stderr.splitlines()) <= 2


# ---------------------------------------------------------------- output files: safe and atomic

def test_refuses_to_write_over_an_input(files, tmp_path):
    (tmp_path / "link.trec").symlink_to(files / "sys.trec")
    (tmp_path / "sub").mkdir()
    for target in (files / "qrels.txt", tmp_path / "link.trec", files / ".." / files.name / "sys.trec"):
        result = invoke("eval", files / "qrels.txt", files / "sys.trec", "-f", "csv", "-o", target)
        assert result.exit_code == 1
        assert re.match(r"sqlrank: error: .*: is one of the inputs \(.*\); refusing to overwrite it", result.stderr)
    assert (files / "qrels.txt").read_text() == QRELS
    assert (files / "sys.trec").read_text() == SYS


def test_a_missing_output_folder_is_an_error(files, tmp_path):
    result = invoke("eval", files / "qrels.txt", files / "sys.trec", "-o", tmp_path / "nowhere" / "r.csv")
    assert result.exit_code == 1
    assert f"the folder {tmp_path / 'nowhere'} does not exist; create it first" in result.stderr


def test_replaces_an_old_output(files, tmp_path):
    target = tmp_path / "r.csv"
    target.write_text("old\n")
    result = invoke("eval", files / "qrels.txt", files / "sys.trec", *MEASURE_ARGS, "-o", target)
    assert result.exit_code == 0
    assert parse("csv", target.read_bytes(), per_query=False)[("sys", "all", "RR")] == pytest.approx(0.75)


def test_a_failed_write_keeps_the_old_output(files, tmp_path, monkeypatch):
    target = tmp_path / "r.csv"
    target.write_text("old\n")

    def disk_full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(export.os, "fsync", disk_full)
    result = invoke("eval", files / "qrels.txt", files / "sys.trec", "-o", target)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == f"sqlrank: error: {target}: cannot be written: No space left on device"
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.csv"]  # the partial temporary file is gone


def test_parquet_is_not_printed_on_a_terminal(files, monkeypatch):
    from sqlrank.cli import arguments, options

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(arguments.sys, "stdout", Terminal())
    with pytest.raises(arguments.typer.BadParameter, match="Parquet is binary: write it to a file with -o FILE"):
        arguments.destination(options.Format.parquet, None)
    assert arguments.destination(options.Format.csv, None) == ("csv", None)


def test_progress_only_on_a_terminal(monkeypatch):
    from sqlrank.cli import terminal

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    for stream, shown in ((Terminal(), True), (io.StringIO(), False)):
        monkeypatch.setattr(terminal.sys, "stderr", stream)
        with terminal.status("evaluating 2 runs against qrels.txt"):
            pass
        assert stream.getvalue() == ("sqlrank: evaluating 2 runs against qrels.txt ...\r\r\x1b[K" if shown else "")


def test_duckdb_s_progress_bar_never():
    """DuckDB draws its own bar on stdout for a statement past 2 s, into the output: never, even at a terminal.

    In a fresh interpreter, whose stderr is a pipe: DuckDB's own default there is to draw it (under
    pytest it is not, so this process could not tell the two apart).
    """
    script = (
        "import io, duckdb\n"
        "from sqlrank.cli import terminal\n"
        "setting = \"SELECT current_setting('enable_progress_bar')\"\n"
        "class Terminal(io.StringIO):\n"
        "    def isatty(self):\n"
        "        return True\n"
        "shown = [duckdb.connect().execute(setting).fetchone()[0]]\n"
        "for stream in (Terminal(), io.StringIO()):\n"
        "    terminal.sys.stderr = stream\n"
        "    shown.append(terminal.connect(None, None, None).execute(setting).fetchone()[0])\n"
        "print(shown)\n"
    )
    assert run_fresh(script) == "[True, False, False]\n"  # DuckDB's default; off at a terminal and in a pipe


def test_both_commands_work_in_the_connection_made_for_them_and_close_it(files, monkeypatch):
    """main() ends the process without Python's teardown, so each command closes its DuckDB connection
    itself (closing it removes DuckDB's spill files)."""
    from sqlrank import cli
    from sqlrank.cli import terminal

    made, judged = [], []
    original_connect, original_evaluate = terminal.connect, sqlrank.evaluate

    def connect(*args, **kwargs):
        made.append(original_connect(*args, **kwargs))
        return made[-1]

    def evaluate(*args, **kwargs):
        result = original_evaluate(*args, **kwargs)
        judged.append(kwargs["connection"].execute("SELECT count(*) FROM sqlrank_judged").fetchone()[0])
        return result

    monkeypatch.setattr(terminal, "connect", connect)
    monkeypatch.setattr(sqlrank, "evaluate", evaluate)
    assert cli.run(["eval", str(files / "qrels.txt"), str(files / "sys.trec"), "-m", "AP", "--threads", "1",
                    "-o", str(files / "connection.csv")]) == 0
    assert judged == [4]  # evaluated in it: sys.trec's relevant documents and each ranking's first
    shown = invoke("query", "SELECT current_setting('threads') AS threads", "-f", "csv", "--threads", "1")
    assert shown.stdout == '"threads"\n1\n' and len(made) == 2
    for con in made:
        with pytest.raises(duckdb.ConnectionException, match="closed"):
            con.execute("SELECT 1")


# ---------------------------------------------------------------- sqlrank query

QUERY = "SELECT 'RR' AS measure, query_id, value FROM sqlrank.rr('qrels', 'run') ORDER BY query_id"


def _query_values(fmt: str, data: bytes) -> dict:
    if fmt == "table":
        lines = data.decode().splitlines()
        assert lines[0].split() == ["measure", "query_id", "value"]
        return {line.split()[1]: float(line.split()[2]) for line in lines[2:]}
    if fmt == "trec":
        return {line.split("\t")[1]: float(line.split("\t")[2]) for line in data.decode().splitlines()}
    return {row["query_id"]: float(row["value"]) for row in read_rows(fmt, data)}


@pytest.mark.parametrize("fmt", FORMATS)
def test_query_every_format(files, fmt):
    result = invoke("query", QUERY, "--qrels", files / "qrels.txt", "--run", files / "sys.trec", "-f", fmt)
    assert result.exit_code == 0, result.stderr
    assert _query_values(fmt, result.stdout_bytes) == {"q1": 1 / 2, "q2": 1.0}  # d1 at rank 2 of q1, rank 1 of q2


def test_query_to_a_file_and_named_views(files, tmp_path):
    sql = ("SELECT a.query_id, a.value - b.value AS value FROM sqlrank.ap('judgments', 'a') a "
           "JOIN sqlrank.ap('judgments', 'b') b USING (query_id) ORDER BY query_id")
    target = tmp_path / "diff.parquet"
    result = invoke("query", sql, "--qrels", f"judgments={files / 'qrels.txt'}", "--run", f"a={files / 'sys.trec'}",
                    "--run", f"b={files / 'other.trec'}", "-o", target)
    assert result.exit_code == 0, result.stderr
    # AP sys - other: q1 (1/2 + 2/3)/3 - 2/3, q2 1 - 1/3
    assert _query_values("parquet", target.read_bytes()) == {
        "q1": pytest.approx((1 / 2 + 2 / 3) / 3 - 2 / 3), "q2": pytest.approx(1 - 1 / 3)}


def test_query_reads_sql_from_stdin(files):
    result = invoke("query", "-", "--qrels", files / "qrels.txt", "--run", files / "other.trec", "-f", "csv",
                    input=QUERY)
    assert _query_values("csv", result.stdout_bytes) == {"q1": 1.0, "q2": 1 / 3}


@pytest.mark.parametrize("sql, given, where", [
    ("-", "", "standard input held only blanks"), ("-", "\n  \n", "standard input held only blanks"),
    ("  ", None, "the SQL argument is only blanks"),
])
def test_query_refuses_empty_sql(sql, given, where):
    result = invoke("query", sql, input=given)
    assert result.exit_code == 2
    assert f"no SQL to run: {where}" in result.stderr and result.stdout == ""


def test_query_from_a_closed_standard_input_is_a_usage_error():
    process = subprocess.run([str(sqlrank_script()), "query", "-"], capture_output=True, timeout=120,
                             preexec_fn=lambda: os.close(0))
    assert process.returncode == 2
    assert b"'-' reads the SQL from standard input, which is closed" in process.stderr
    assert b"Traceback" not in process.stderr


def test_query_sql_error_is_one_line(files):
    result = invoke("query", "SELECT * FROM sqlrank.rr('qrels', 'nope')", "--qrels", files / "qrels.txt")
    assert result.exit_code == 1
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("sqlrank: error: the SQL failed: Catalog Error: Table with name nope does not exist")


def test_query_checks_what_it_mounts(files):
    as_run = invoke("query", "SELECT 1", "--run", files / "qrels.txt")
    assert as_run.exit_code == 1
    assert "qrels.txt:1: expected 6 fields" in as_run.stderr and "this looks like a qrels line" in as_run.stderr
    clash = invoke("query", "SELECT 1", "--run", files / "sys.trec", "--run", files / "other.trec")
    assert clash.exit_code == 2
    assert "several files would be the view 'run'; name them with NAME=PATH" in clash.stderr
    same = invoke("query", "SELECT 1", "--run", f"x={files / 'sys.trec'}", "--qrels", f"x={files / 'qrels.txt'}")
    assert same.exit_code == 2 and "two files would be the view 'x'" in same.stderr


def test_query_trec_format_needs_measure_columns(files):
    result = invoke("query", "SELECT 1 AS one", "-f", "trec")
    assert result.exit_code == 1
    assert "the trec format needs the columns measure, query_id, value (found one)" in result.stderr


# ---------------------------------------------------------------- sql, measures, --version

def test_sql_prints_the_macro_library():
    result = invoke("sql")
    assert result.exit_code == 0
    assert result.stdout == sqlrank.sql_script()
    assert "CREATE OR REPLACE MACRO sqlrank.ndcg(" in result.stdout


def test_measures_lists_the_registry():
    text = invoke("measures").stdout
    for definition in REGISTRY.values():
        name = definition.name + ("[@k]" if definition.cutoff else f"@{definition.at}" if definition.at else "")
        block = re.search(rf"^{re.escape(name)} +{re.escape(definition.definition)}.*?(?=^\S|\Z)", text, re.M | re.S)
        assert block, definition.name
        for spelling in spellings(definition):
            assert spelling in block.group(0)
        for parameter in definition.params:
            assert f"{parameter}={definition.default(parameter)}" in block.group(0)
    for parameter in PARAMETERS.values():
        kind = "a list of numbers" if isinstance(parameter.default, tuple) else "a number"
        assert re.search(rf"^  {parameter.name} +{re.escape('|'.join(parameter.choices) or kind)} "
                         rf"\(default {re.escape(str(parameter.default))}\): {re.escape(parameter.help)}$", text, re.M)


def test_version():
    result = invoke("--version")
    assert (result.exit_code, result.stdout) == (0, f"sqlrank {sqlrank.__version__}\n")


# ---------------------------------------------------------------- the README's command line section

def readme_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^## Command line\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S)
    assert match, "README.md has no '## Command line' section"
    return match.group(1)


def test_cli_doc_help_excerpt_is_the_real_help(processes):
    """docs/cli.md quotes `sqlrank eval --help` as the console script prints it (COLUMNS=100; CliRunner would
    force its own width)."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    shown = re.search(r"```text\n\$ sqlrank eval --help\n(.*?)```", text, re.S)
    assert shown, "docs/cli.md shows `sqlrank eval --help`"
    assert processes["help"].returncode == 0
    real = re.sub(r"\x1b\[[0-9;]*m", "", processes["help"].stdout.decode())  # no colours, whatever the terminal
    assert shown.group(1).rstrip() == "\n".join(line.rstrip() for line in real.splitlines()).rstrip()
    for measure in DEFAULT_MEASURES:
        assert measure in shown.group(1)


def test_readme_example_prints_what_it_shows(monkeypatch):
    example = re.search(r"```text\n\$ (sqlrank eval data/.*?)\n(.*?)```", readme_section(), re.S)
    assert example
    monkeypatch.chdir(ROOT)
    result = invoke(*shlex.split(example.group(1))[1:])
    assert result.stdout == example.group(2)


# ---------------------------------------------------------------- the installed console script

def _commands(files: Path, tmp: Path) -> dict[str, list[str]]:
    q, s, o = str(files / "qrels.txt"), str(files / "sys.trec"), str(files / "other.trec")
    script = str(sqlrank_script())
    commands = {f"eval-{fmt}": [script, "eval", q, s, o, *MEASURE_ARGS, "-q", "-f", fmt] for fmt in FORMATS}
    commands |= {f"query-{fmt}": [script, "query", QUERY, "--qrels", q, "--run", s, "-f", fmt]
                 for fmt in ("table", "parquet")}  # every format of `query`: in process, above
    commands |= {
        "eval-file": [script, "eval", q, s, o, *MEASURE_ARGS, "-o", str(tmp / "result.json")],
        "eval-missing-file": [script, "eval", q, str(files / "none.trec")],
        "eval-bad-measure": [script, "eval", q, s, "-m", "nDCG@ten"],
        "query-error": [script, "query", "SELEC 1"],
        "sql": [script, "sql"],
        "measures": [script, "measures"],
        "version": [script, "--version"],
        "help": [script, "eval", "--help"],
        "module": [sys.executable, "-m", "sqlrank", "eval", q, s, "-m", "RR", "-f", "csv"],
        "conformance": [script, "eval", str(TREC_DATA / "qrels.test"), str(TREC_DATA / "results.test"), "-q",
                        "-f", "trec", "-m", "num_ret", "-m", "num_rel", "-m", "num_rel_ret", "-m", "map",
                        "-m", "Rprec", "-m", "bpref", "-m", "recip_rank", "-m", "P.5,10,15,20,30,100,200,500,1000",
                        "-m", "recall.5,10,15,20,30,100,200,500,1000", "-m", "ndcg", "-m", "ndcg_cut",
                        "-m", "map_cut", "-m", "success.1,5,10"],
    }
    return commands


@pytest.fixture(scope="session")  # once a run: its tests share one xdist worker (conftest.py)
def processes(files, tmp_path_factory) -> dict[str, subprocess.CompletedProcess]:
    """Every console-script run of this file, started together (each pays Python's start-up)."""
    tmp = tmp_path_factory.mktemp("processes")
    env = {**os.environ, "COLUMNS": "100", "TERMINAL_WIDTH": "100"}  # help wraps as docs/cli.md shows it

    def run(command):
        return subprocess.run(command, capture_output=True, env=env, cwd=tmp, timeout=300)

    commands = _commands(files, tmp)
    with ThreadPoolExecutor(max_workers=4) as pool:
        done = dict(zip(commands, pool.map(run, commands.values())))
    done["tmp"] = tmp
    return done


@pytest.mark.parametrize("fmt", FORMATS)
def test_script_eval_every_format(processes, fmt):
    process = processes[f"eval-{fmt}"]
    assert process.returncode == 0, process.stderr
    assert_numbers(parse(fmt, process.stdout), fmt)
    # stderr is a pipe, not a terminal: no progress line, only the notice
    assert process.stderr.decode().splitlines() == [OTHER_NOTICE]


@pytest.mark.parametrize("fmt", ["table", "parquet"])
def test_script_query_formats(processes, fmt):
    process = processes[f"query-{fmt}"]
    assert (process.returncode, process.stderr) == (0, b"")
    assert _query_values(fmt, process.stdout) == {"q1": 1 / 2, "q2": 1.0}


def test_script_writes_a_file(processes):
    process = processes["eval-file"]
    assert (process.returncode, process.stdout) == (0, b"")
    assert_numbers(parse("json", (processes["tmp"] / "result.json").read_bytes()), "json", per_query=False)


@pytest.mark.parametrize("name, code, message", [
    ("eval-missing-file", 1, "sqlrank: error: {d}/none.trec: no such file"),
    ("eval-bad-measure", 2, "sqlrank: error: nDCG@ten: the cutoff must be a whole number"),
    ("query-error", 1, 'sqlrank: error: the SQL failed: Parser Error: syntax error at or near "SELEC"'),
])
def test_script_exit_codes(processes, files, name, code, message):
    process = processes[name]
    assert process.returncode == code
    assert message.format(d=files) in process.stderr.decode()
    assert process.stdout == b""
    assert b"Traceback" not in process.stderr


def test_script_sql_measures_version_and_module(processes):
    assert processes["sql"].stdout.decode() == sqlrank.sql_script()
    assert re.match(r"nDCG\[@k\] +DCG@k / IDCG@k", processes["measures"].stdout.decode())
    assert processes["version"].stdout.decode() == f"sqlrank {sqlrank.__version__}\n"
    module = processes["module"]
    assert module.returncode == 0, module.stderr
    assert parse("csv", module.stdout, per_query=False) == {("sys", "all", "RR"): pytest.approx((1 / 2 + 1) / 2)}


def test_the_script_s_output_survives_a_reader_that_stops_early(tmp_path):
    """main() ends the process without Python's teardown, after flushing stdout: a reader that stops after
    one line (`| head -1`) ends it with exit 0 and no traceback, as before."""
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.trec"
    qrels.write_text("".join(f"q{i} 0 d1 1\n" for i in range(3000)))
    run.write_text("".join(f"q{i} Q0 d{j} {j} {10 - j} r\n" for i in range(3000) for j in range(1, 4)))
    command = [str(sqlrank_script()), "eval", str(qrels), str(run), "-q", "-f", "csv"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout.readline() == b'"run_id","query_id","measure","value"\n'
    process.stdout.close()  # the rest, ~400 KB, is more than the pipe holds
    assert process.wait(timeout=120) == 0
    assert process.stderr.read() == b""
    whole = subprocess.run(command, capture_output=True, timeout=120)
    assert len(whole.stdout.decode().splitlines()) == 1 + 5 * 3001  # every line when read to the end


@pytest.mark.parametrize("closed", [1, 2])
def test_the_script_runs_with_stdout_or_stderr_closed(files, tmp_path, closed):
    """`sqlrank eval ... -o FILE >&-` (as from cron): Python then has no sys.stdout, which main() must not flush."""
    target = tmp_path / "result.csv"
    command = [str(sqlrank_script()), "eval", str(files / "qrels.txt"), str(files / "sys.trec"), "-m", "AP",
               "-o", str(target)]
    process = subprocess.run(command, capture_output=True, timeout=120, preexec_fn=lambda: os.close(closed))
    assert process.returncode == 0, process.stderr
    assert b"Traceback" not in process.stderr
    assert '"sys","all","AP",0.69444' in target.read_text()


def test_output_to_the_command_s_own_stdout_goes_where_stdout_goes(files, tmp_path):
    """-o /dev/fd/1 (or /dev/stdout) with stdout sent to a log with >>: the result is added to the log, which
    stays the same file; renaming a temporary file over the name replaced the log with the result alone.
    (The test names /dev/fd/1: code that renamed over it would fail there, not replace /dev/stdout.)"""
    log = tmp_path / "log.txt"
    log.write_text("before\n")
    inode = log.stat().st_ino
    command = [str(sqlrank_script()), "eval", str(files / "qrels.txt"), str(files / "sys.trec"), "-m", "AP",
               "-f", "csv", "-o", "/dev/fd/1"]
    with open(log, "ab") as appended:
        process = subprocess.run(command, stdout=appended, stderr=subprocess.PIPE, timeout=120)
    assert process.returncode == 0, process.stderr
    assert log.read_text() == 'before\n"run_id","query_id","measure","value"\n"sys","all","AP",0.6944444444444444\n'
    assert log.stat().st_ino == inode


def test_run_gives_python_s_exit_codes(capsys):
    from sqlrank import cli
    from sqlrank.cli import failures

    assert [failures.exit_code(code) for code in (None, 0, 2)] == [0, 0, 2]
    assert failures.exit_code("stopped") == 1 and capsys.readouterr().err == "stopped\n"
    assert cli.run(["eval", "--no-such-option"]) == 2


def test_script_trec_format_is_trec_eval_s_output(processes):
    """`sqlrank eval -q -f trec` on trec_eval's own test files prints the lines of `trec_eval -q -m all_trec`
    (tests/data/trec_eval/out.test.aq) for every measure sqlrank has: same names, padding, order and 4 decimals."""
    process = processes["conformance"]
    assert (process.returncode, process.stderr) == (0, b"")
    ours = process.stdout.decode().splitlines()
    names = {line.split("\t")[0].strip() for line in ours}
    assert len(names) == 3 + 4 + 9 + 9 + 1 + 9 + 9 + 3  # counts, map Rprec bpref recip_rank, P, recall, ndcg, ...
    reference = (TREC_DATA / "out.test.aq").read_text().splitlines()
    assert ours == [line for line in reference if line.split("\t")[0].strip() in names]
    assert len(ours) == len(names) * 4  # three queries and `all`


@pytest.mark.parametrize("fmt", ["table", "csv", "trec"])
def test_an_evaluation_from_files_does_not_load_pandas(tmp_path, fmt):
    """With pandas installed (the test extra installs it), pyarrow 26 imports it on its first compute call
    or filter, 0.14-0.2 s of a 1M-row evaluation; files in, files out, nothing needs it."""
    pytest.importorskip("pandas")  # without pandas the test could not fail
    script = (
        "import sys\n"
        "import sqlrank.cli\n"
        f"sys.argv = ['sqlrank', 'eval', {str(ROOT / 'data' / 'qrels.txt')!r}, {str(ROOT / 'data' / 'bm25.trec')!r},\n"
        f"            '-m', 'nDCG@10', '-m', 'AP', '-f', {fmt!r}, '-o', {str(tmp_path / 'out')!r}]\n"
        "assert sqlrank.cli.run() == 0\n"
        "print('pandas' in sys.modules)\n"
    )
    assert run_fresh(script) == "False\n"
    assert ("0.6518544470126822" if fmt == "csv" else "0.6519") in (tmp_path / "out").read_text()  # bm25's nDCG@10
