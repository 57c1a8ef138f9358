"""sqlrank.export: every format parsed back to its numbers, the trec_eval layout, and safe, atomic files.

The result used throughout: two runs over two queries.

qrels   q1: d1=2, d2=1, d3=0, d4=1 (R = 3)     q2: d1=1, d5=0 (R = 1)
sys     q1: d3, d1, d2 (labels 0, 2, 1)        q2: d1, d9 (labels 1, unjudged)
other   q1: d1, d4 (labels 2, 1)               q2: d5, d6, d1 (labels 0, unjudged, 1)
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import stat
import threading

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import sqlrank
from formats import read_rows
from tolerances import printed
from sqlrank import export
from sqlrank.formats import columns
from sqlrank.errors import OutputError

QRELS = {"q1": {"d1": 2, "d2": 1, "d3": 0, "d4": 1}, "q2": {"d1": 1, "d5": 0}}
RUNS = {
    "sys": {"q1": {"d3": 3.0, "d1": 2.0, "d2": 1.0}, "q2": {"d1": 5.0, "d9": 4.0}},
    "other": {"q1": {"d1": 0.9, "d4": 0.8}, "q2": {"d5": 0.9, "d6": 0.5, "d1": 0.1}},
}
MEASURES = ["RR", "AP", "NumRet"]

EXPECTED = {
    # RR: 1 / rank of the first relevant document
    ("sys", "q1", "RR"): 1 / 2, ("sys", "q2", "RR"): 1.0, ("sys", "all", "RR"): (1 / 2 + 1) / 2,
    ("other", "q1", "RR"): 1.0, ("other", "q2", "RR"): 1 / 3, ("other", "all", "RR"): (1 + 1 / 3) / 2,
    # AP: relevant at ranks 2, 3 of sys q1 -> (1/2 + 2/3) / R=3; other q1 ranks 1, 2 -> (1 + 1) / 3
    ("sys", "q1", "AP"): (1 / 2 + 2 / 3) / 3, ("sys", "q2", "AP"): 1.0,
    ("sys", "all", "AP"): ((1 / 2 + 2 / 3) / 3 + 1) / 2,
    ("other", "q1", "AP"): 2 / 3, ("other", "q2", "AP"): 1 / 3, ("other", "all", "AP"): (2 / 3 + 1 / 3) / 2,
    # NumRet: documents retrieved, summed (not averaged) in the `all` row
    ("sys", "q1", "NumRet"): 3, ("sys", "q2", "NumRet"): 2, ("sys", "all", "NumRet"): 5,
    ("other", "q1", "NumRet"): 2, ("other", "q2", "NumRet"): 3, ("other", "all", "NumRet"): 5,
}


@pytest.fixture(scope="module")
def result():
    return sqlrank.evaluate(QRELS, RUNS, MEASURES)


def _from_rows(rows) -> dict:
    return {(r["run_id"], r["query_id"], r["measure"]): float(r["value"]) for r in rows}


def _assert_expected(values: dict, tolerance: float, per_query: bool = True) -> None:
    wanted = {key: value for key, value in EXPECTED.items() if per_query or key[1] == "all"}
    assert set(values) == set(wanted)
    for key, value in wanted.items():
        assert values[key] == pytest.approx(value, abs=tolerance), key


# ---------------------------------------------------------------- formats of a Result

@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_csv_and_tsv_hold_full_precision(result, fmt):
    text = export.render(result, fmt, per_query=True).decode()
    rows = list(csv.DictReader(io.StringIO(text), delimiter="," if fmt == "csv" else "\t"))
    _assert_expected(_from_rows(rows), 1e-15)


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_a_big_table_encoded_in_slices_gives_the_same_bytes(monkeypatch, tmp_path, fmt):
    # 10 rows in slices of 4, 4 and 2 on 2 threads: one header, every row once, in order
    table = pa.table({"query_id": [f"q{i}" for i in range(10)], "measure": ["AP"] * 10,
                      "value": [i / 3 for i in range(10)]})
    whole = export.render_arrow(table, fmt)
    monkeypatch.setattr(columns, "CSV_SLICE_ROWS", 4)
    monkeypatch.setattr(columns.os, "cpu_count", lambda: 2)
    parts = [bytes(part) for part in export._table_parts(table, fmt)]
    assert [part.count(b"\n") for part in parts] == [5, 4, 2]  # the header and 4 rows, 4 rows, 2 rows
    assert export.render_arrow(table, fmt) == whole
    written = export.write_arrow(table, tmp_path / f"out.{fmt}")
    assert written.read_bytes() == whole
    assert whole.decode().splitlines()[1].split("," if fmt == "csv" else "\t") == ['"q0"', '"AP"', "0"]


def test_json_is_a_list_of_rows(result):
    _assert_expected(_from_rows(json.loads(export.render(result, "json", per_query=True))), 1e-15)


def test_jsonl_is_one_row_per_line(result):
    lines = export.render(result, "jsonl", per_query=True).decode().splitlines()
    assert len(lines) == len(EXPECTED)
    _assert_expected(_from_rows(json.loads(line) for line in lines), 1e-15)


def test_parquet_keeps_types(result):
    table = pq.read_table(io.BytesIO(export.render(result, "parquet", per_query=True)))
    assert table.schema.field("value").type == pa.float64()
    _assert_expected(_from_rows(table.to_pylist()), 1e-15)


def test_without_per_query_only_the_all_rows_go_out(result):
    _assert_expected(_from_rows(json.loads(export.render(result, "json"))), 1e-15, per_query=False)


def test_trec_layout_is_trec_eval_s(result):
    text = export.render(result, "trec", per_query=True).decode()
    lines = text.splitlines()
    assert text.endswith("\n") and len(lines) == len(EXPECTED)
    # several runs, in the order given (sys, then other): each line starts with its run id; names padded
    # to 22 as trec_eval's printf("%-22s")
    assert lines[0] == "sys\t" + "recip_rank".ljust(22) + "\tq1\t0.5000"
    assert lines[len(lines) // 2] == "other\t" + "recip_rank".ljust(22) + "\tq1\t1.0000"
    assert "sys\t" + "map".ljust(22) + "\tq1\t" + f"{(1 / 2 + 2 / 3) / 3:.4f}" in lines  # 0.3889
    assert "sys\t" + "num_ret".ljust(22) + "\tall\t5" in lines  # a count: a whole number, summed
    names = {"recip_rank": "RR", "map": "AP", "num_ret": "NumRet"}
    values = {}
    for line in lines:
        run_id, name, query_id, value = line.split("\t")
        values[(run_id, query_id, names[name.strip()])] = float(value)
    _assert_expected(values, printed(4))


def test_trec_layout_of_one_run_has_no_run_column():
    one = sqlrank.evaluate(QRELS, RUNS["sys"], ["nDCG@3", "P@2"])
    lines = export.render(one, "trec").decode().splitlines()
    # nDCG@3 of q1: labels [0, 2, 1] -> (2/log2 3 + 1/log2 4) / ideal [2, 1, 1] = (2 + 1/log2 3 + 1/log2 4);
    # q2: [1] -> 1
    ndcg_q1 = (2 / math.log2(3) + 1 / 2) / (2 + 1 / math.log2(3) + 1 / 2)
    assert lines == ["ndcg_cut_3".ljust(22) + f"\tall\t{(ndcg_q1 + 1) / 2:.4f}",
                     "P_2".ljust(22) + "\tall\t0.5000"]  # P@2: 1/2 on both queries


def test_table_is_aligned_one_column_per_run(result):
    lines = export.render(result, "table").decode().splitlines()
    assert lines[0].split() == ["measure", "sys", "other"]  # runs in the order given
    runs = ["sys", "other"]
    assert set(lines[1]) == {"-", " "}
    assert len({len(line) for line in lines}) == 1  # numbers right-aligned to the header's width
    for line in lines[2:]:
        measure, *cells = line.split()
        for run_id, cell in zip(runs, cells):
            assert float(cell) == pytest.approx(EXPECTED[(run_id, "all", measure)], abs=printed(4))
    assert "5" in lines[-1].split()  # NumRet all: a whole number


def test_table_per_query_has_a_query_column(result):
    lines = export.render(result, "table", per_query=True).decode().splitlines()
    runs = lines[0].split()[2:]
    assert lines[0].split()[:2] == ["query", "measure"]
    rows = {tuple(line.split()[:2]): line.split()[2:] for line in lines[2:]}
    assert len(rows) == 9  # (q1, q2, all) x 3 measures
    for (query_id, measure), cells in rows.items():
        for run_id, cell in zip(runs, cells):
            assert float(cell) == pytest.approx(EXPECTED[(run_id, query_id, measure)], abs=printed(4))


def test_unknown_format_is_refused(result):
    with pytest.raises(OutputError, match=r"unknown format 'xlsx' \(expected one of: table, csv"):
        export.render(result, "xlsx")


@pytest.mark.parametrize("name, fmt", [("r.csv", "csv"), ("r.TSV", "tsv"), ("r.json", "json"), ("r.jsonl", "jsonl"),
                                       ("r.ndjson", "jsonl"), ("r.parquet", "parquet"), ("r.txt", "table"),
                                       ("out/r.trec", "trec")])
def test_format_from_the_extension(name, fmt):
    assert export.format_for(name) == fmt


def test_an_unknown_extension_names_the_known_ones():
    with pytest.raises(OutputError, match=r"r\.xlsx: cannot tell the format from the extension '\.xlsx' "
                                          r"\(known: \.csv, .*\); pass a format"):
        export.format_for("r.xlsx")
    with pytest.raises(OutputError, match=r"extension '\(none\)'"):
        export.format_for("results")


# ---------------------------------------------------------------- any Arrow table (sqlrank query)

def test_arrow_table_as_text_keeps_column_order_and_nulls():
    table = pa.table({"query_id": ["q1", "q10"], "n": [1, 250], "value": [0.5, None]})
    lines = export.render_arrow(table, "table").decode().splitlines()
    assert lines == ["query_id    n  value",
                     "--------  ---  -----",
                     "q1          1    0.5",
                     "q10       250   NULL"]


def test_arrow_table_with_two_columns_of_one_name():
    table = pa.Table.from_arrays([pa.array([1]), pa.array([2])], names=["a", "a"])
    assert export.render_arrow(table, "table").decode().splitlines()[2].split() == ["1", "2"]


@pytest.mark.parametrize("fmt", ["csv", "tsv", "json", "jsonl", "parquet"])
def test_arrow_table_formats_round_trip(fmt):
    table = pa.table({"query_id": ["q1", "q2"], "value": [1 / 3, 2 / 3]})
    rows = read_rows(fmt, export.render_arrow(table, fmt))
    assert [(r["query_id"], float(r["value"])) for r in rows] == [("q1", 1 / 3), ("q2", 2 / 3)]


def test_arrow_table_in_trec_layout():
    table = pa.table({"measure": ["ndcg_cut_10", "num_ret"], "query_id": ["all", "all"], "value": [2 / 3, 13.0]})
    assert export.render_arrow(table, "trec").decode() == (
        "ndcg_cut_10".ljust(22) + "\tall\t0.6667\n" + "num_ret".ljust(22) + "\tall\t13.0000\n")
    counts = pa.table({"measure": ["num_ret"], "query_id": ["q1"], "value": pa.array([13], pa.int64())})
    assert export.render_arrow(counts, "trec").decode() == "num_ret".ljust(22) + "\tq1\t13\n"


def test_trec_layout_needs_its_columns():
    with pytest.raises(OutputError, match=r"the trec format needs the columns measure, query_id, value "
                                          r"\(found query_id, score\); rename them with AS"):
        export.render_arrow(pa.table({"query_id": ["q1"], "score": [1.0]}), "trec")


def test_a_list_column_has_no_csv_form(tmp_path):
    table = pa.table({"docs": [["d1", "d2"]]})
    with pytest.raises(OutputError, match=r"cannot write the result as csv: .*choose json, jsonl or parquet"):
        export.render_arrow(table, "csv")
    assert json.loads(export.render_arrow(table, "json")) == [{"docs": ["d1", "d2"]}]
    # the CSV is encoded while the file is written: the failure keeps the old file and leaves no temporary one
    (tmp_path / "r.csv").write_text("old\n")
    with pytest.raises(OutputError, match=r"cannot write the result as csv"):
        export.write_arrow(table, tmp_path / "r.csv")
    assert [p.name for p in tmp_path.iterdir()] == ["r.csv"] and (tmp_path / "r.csv").read_text() == "old\n"


# ---------------------------------------------------------------- where a file may go

def test_writes_the_format_of_the_extension(result, tmp_path):
    target = export.write(result, tmp_path / "r.json", per_query=True)
    _assert_expected(_from_rows(json.loads(target.read_text())), 1e-15)
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]  # no temporary file left behind


def test_replaces_an_old_output(result, tmp_path):
    target = tmp_path / "r.csv"
    target.write_text("old\n")
    export.write(result, target)
    assert target.read_bytes() == export.render(result, "csv")


def test_a_pipe_gets_the_bytes_and_stays_a_pipe(result, tmp_path):
    """-o /dev/stdout, -o /dev/null or a FIFO: there is no file to replace. Renaming a temporary file over
    /dev/stdout replaced the device's link with a plain file (the output went there, not to stdout)."""
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    export.write(result, fifo, "csv")
    reader.join(timeout=30)
    assert received == [export.render(result, "csv")]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still the pipe
    assert [p.name for p in tmp_path.iterdir()] == ["out.fifo"]  # no temporary file either


def test_a_symlink_stays_and_the_file_it_names_is_replaced(result, tmp_path):
    (tmp_path / "results").mkdir()
    real = tmp_path / "results" / "r.csv"
    real.write_text("old\n")
    link = tmp_path / "latest.csv"
    link.symlink_to(real)
    export.write(result, link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == export.render(result, "csv")
    assert sorted(p.name for p in (tmp_path / "results").iterdir()) == ["r.csv"]


def test_refuses_to_overwrite_an_input(result, tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\n")
    with pytest.raises(OutputError, match=r"qrels\.txt: is one of the inputs .*refusing to overwrite it"):
        export.write(result, qrels, "csv", inputs=(qrels,))
    assert qrels.read_text() == "q1 0 d1 1\n"


def test_refuses_an_input_spelled_another_way(result, tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 d1 1 1.0 x\n")
    monkeypatch.chdir(tmp_path)
    for spelling in ("sub/../run.trec", str(run), "./run.trec"):
        with pytest.raises(OutputError, match="is one of the inputs"):
            export.check_target(spelling, inputs=("run.trec",))


def test_refuses_an_input_reached_through_a_symlink(result, tmp_path):
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 d1 1 1.0 x\n")
    (tmp_path / "link.trec").symlink_to(run)
    (tmp_path / "folder_link").symlink_to(tmp_path, target_is_directory=True)
    with pytest.raises(OutputError, match="is one of the inputs"):
        export.write(result, tmp_path / "link.trec", "trec", inputs=(run,))  # output is a link to the input
    with pytest.raises(OutputError, match="is one of the inputs"):
        export.write(result, run, "trec", inputs=(tmp_path / "link.trec",))  # input given through the link
    with pytest.raises(OutputError, match="is one of the inputs"):
        export.write(result, tmp_path / "folder_link" / "run.trec", "trec", inputs=(run,))
    assert run.read_text() == "q1 Q0 d1 1 1.0 x\n"


def test_a_new_output_next_to_the_inputs_is_fine(result, tmp_path):
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 d1 1 1.0 x\n")
    # the output does not exist yet: it cannot be the input, whatever the inputs are
    written = export.write(result, tmp_path / "run.csv", inputs=(run, "missing.trec", {"q1": {"d1": 1.0}}))
    assert written.read_bytes() == export.render(result, "csv")


def test_a_missing_folder_is_named(result, tmp_path):
    with pytest.raises(OutputError, match=r"nowhere/r\.csv: the folder .*nowhere does not exist; create it first"):
        export.write(result, tmp_path / "nowhere" / "r.csv")


def test_a_folder_is_not_a_file(result, tmp_path):
    with pytest.raises(OutputError, match=r"is a folder; name a file to write"):
        export.write(result, tmp_path, "csv")


# ---------------------------------------------------------------- atomic: all or nothing

def _fail(*args, **kwargs):
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("step", ["fsync", "replace"])
def test_a_failed_write_keeps_the_old_file_and_leaves_no_partial_one(result, tmp_path, monkeypatch, step):
    target = tmp_path / "r.csv"
    target.write_text("old results\n")
    monkeypatch.setattr(export.os, step, _fail)
    with pytest.raises(OutputError, match=r"r\.csv: cannot be written: No space left on device"):
        export.write(result, target)
    assert target.read_text() == "old results\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.csv"]


def test_an_interrupted_write_leaves_no_partial_file(result, tmp_path, monkeypatch):
    def interrupt(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(export.os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        export.write(result, tmp_path / "r.parquet")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_of_a_new_file_leaves_nothing(result, tmp_path, monkeypatch):
    monkeypatch.setattr(export.os, "replace", _fail)
    with pytest.raises(OutputError):
        export.write(result, tmp_path / "r.jsonl")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a folder the user cannot write to")
def test_an_unwritable_folder_is_named(result, tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(OutputError, match=r"r\.csv: cannot write in .*locked: Permission denied"):
            export.write(result, folder / "r.csv")
    finally:
        folder.chmod(0o700)


def test_write_arrow_is_atomic_and_checked_too(tmp_path, monkeypatch):
    table = pa.table({"query_id": ["q1"], "value": [0.25]})
    target = export.write_arrow(table, tmp_path / "q.tsv")
    assert target.read_text() == '"query_id"\t"value"\n"q1"\t0.25\n'
    monkeypatch.setattr(export.os, "replace", _fail)
    with pytest.raises(OutputError, match="cannot be written"):
        export.write_arrow(pa.table({"value": [1.0]}), target)
    assert target.read_text() == '"query_id"\t"value"\n"q1"\t0.25\n'
    assert [p.name for p in tmp_path.iterdir()] == ["q.tsv"]
