"""sqlrank fuse (the command), the sqlrank.fuse macro in DuckDB, and their messages, on a hand-worked example.

Two runs of one query: a = d1 3.0, d2 2.0, d3 1.0 and b = d2 0.9, d4 0.5.
RRF (k 60, no norm): d2 = 1/62 + 1/61, d1 = 1/61, d4 = 1/62, d3 = 1/63.
CombMNZ over min-max: a -> d1 1, d2 0.5, d3 0; b -> d2 1, d4 0; d2 = (0.5 + 1) * 2 = 3, d1 = 1.
"""

from __future__ import annotations

import pyarrow as pa
import pytest

import sqlrank
from cli_runner import invoke

RUN_A = "q1 Q0 d1 1 3.0 a\nq1 Q0 d2 2 2.0 a\nq1 Q0 d3 3 1.0 a\n"
RUN_B = "q1 Q0 d2 1 0.9 b\nq1 Q0 d4 2 0.5 b\n"
RRF = {"d2": 1 / 62 + 1 / 61, "d1": 1 / 61, "d4": 1 / 62, "d3": 1 / 63}


@pytest.fixture
def runs(tmp_path):
    (tmp_path / "a.trec").write_text(RUN_A)
    (tmp_path / "b.trec").write_text(RUN_B)
    return tmp_path / "a.trec", tmp_path / "b.trec"


def test_cli_writes_the_fused_trec_run_that_eval_reads(runs, tmp_path):
    out = tmp_path / "hybrid.trec"
    result = invoke("fuse", *runs, "-m", "rrf", "-n", "none", "-o", out)
    assert result.exit_code == 0, result.stderr
    lines = [line.split() for line in out.read_text().splitlines()]
    assert [line[2] for line in lines] == ["d2", "d1", "d4", "d3"]
    assert [line[3] for line in lines] == ["1", "2", "3", "4"]
    assert {line[2]: float(line[4]) for line in lines} == pytest.approx(RRF, abs=1e-15)
    (tmp_path / "qrels").write_text("q1 0 d4 1\n")
    assert sqlrank.evaluate(tmp_path / "qrels", out, ["RR"]).summary["RR"] == pytest.approx(1 / 3)


def test_cli_parquet_and_weights(runs, tmp_path):
    out = tmp_path / "fused.parquet"
    result = invoke("fuse", *runs, "-m", "wsum", "-w", "1,2", "-o", out)
    assert result.exit_code == 0, result.stderr
    import pyarrow.parquet as pq
    scores = {row["doc_id"]: row["score"] for row in pq.read_table(out).to_pylist()}
    assert scores == pytest.approx({"d2": 0.5 + 2, "d1": 1.0, "d3": 0.0, "d4": 0.0})


@pytest.mark.parametrize("arguments, message", [
    (["-m", "gmnz"], "gmnz needs gamma"),
    (["-w", "1,2,3"], "3 weights for 2 runs"),
    (["-m", "rbc", "--phi", "2"], "rbc needs phi in [0, 1]"),
    (["-m", "bayesfuse"], "bayesfuse needs log_odds (probs in SQL), trained on qrels: "
                          "optimize_fusion(qrels, runs, method='bayesfuse') in Python, in SQL sqlrank.fusion_bayesfuse_log_odds"),
])
def test_cli_mistakes_leave_no_file(runs, tmp_path, arguments, message):
    out = tmp_path / "fused.trec"
    result = invoke("fuse", *runs, *arguments, "-o", out)
    assert result.exit_code == 1
    assert message in result.stderr and "Traceback" not in result.stderr
    assert not out.exists()


def test_cli_refuses_to_overwrite_an_input(runs):
    result = invoke("fuse", *runs, "-o", runs[0])
    assert result.exit_code != 0 and runs[0].read_text() == RUN_A


def test_the_macro_in_duckdb_takes_a_table_with_run_ids(runs):
    con = sqlrank.connect()
    rows = [("a", "q1", d, s) for d, s in (("d1", 3.0), ("d2", 2.0), ("d3", 1.0))] + [("b", "q1", "d2", 0.9),
                                                                                          ("b", "q1", "d4", 0.5)]
    con.execute("CREATE TABLE runs (run_id VARCHAR, query_id VARCHAR, doc_id VARCHAR, score DOUBLE)")
    con.executemany("INSERT INTO runs VALUES (?, ?, ?, ?)", rows)
    got = dict(con.execute("SELECT doc_id, score FROM sqlrank.fuse('runs', method := 'rrf', norm := 'none')").fetchall())
    assert got == pytest.approx(RRF, abs=1e-15)
    got = dict(con.execute("SELECT doc_id, score FROM sqlrank.fuse('runs', method := 'mnz', depth := 2)").fetchall())
    assert got == pytest.approx({"d2": 3.0, "d1": 1.0})
    with pytest.raises(Exception, match="unknown fusion method 'combsum'"):
        con.execute("SELECT * FROM sqlrank.fuse('runs', method := 'combsum')").fetchall()


def test_python_door_top_k_and_one_run(runs):
    fused = sqlrank.fuse(list(runs), method="sum", norm="none", top_k=1)
    assert fused.to_pylist() == [{"query_id": "q1", "doc_id": "d1", "score": 3.0},
                                 {"query_id": "q1", "doc_id": "d2", "score": 0.9}]
    with pytest.raises(sqlrank.EvaluationError, match="two runs or more"):
        sqlrank.fuse([runs[0]])
    with pytest.raises(sqlrank.EvaluationError, match="unknown fusion norm 'minmax'"):
        sqlrank.fuse(list(runs), norm="minmax")
    assert isinstance(sqlrank.fuse(list(runs)), pa.Table)


def test_spark_refuses_fusion_by_name(runs):
    from sqlrank import spark as sqlrank_spark

    with pytest.raises(sqlrank.EvaluationError, match="fusion is not in the Spark door: fuse with sqlrank.fuse"):
        sqlrank_spark.fuse(list(runs), method="rrf")


# PosFuse trained on one judged document, q1 d4: run a (d1, d2, d3) has no hit, b (d2, d4) its hit at place 2,
# so probs = [[0, 0, 0], [0, 1]] and d4 scores 1, the others 0. SlideFuse with w = 1 over the same probs:
# b's two places both average places 1..2, (0 + 1) / 2, so d2 = d4 = 0.5; a's documents 0.
def test_cli_fuses_with_trained_parameters_from_a_file(runs, tmp_path):
    (tmp_path / "qrels").write_text("q1 0 d4 1\nq1 0 d1 0\n")
    trained, _ = sqlrank.optimize_fusion(tmp_path / "qrels", list(runs), method="posfuse")
    assert trained == {"probs": [[0.0, 0.0, 0.0], [0.0, 1.0]]}
    sqlrank.write_fusion_params(trained, tmp_path / "posfuse.json")
    result = invoke("fuse", *runs, "-m", "posfuse", "-p", tmp_path / "posfuse.json", "-o", tmp_path / "posfuse.trec")
    assert result.exit_code == 0, result.stderr
    lines = [line.split() for line in (tmp_path / "posfuse.trec").read_text().splitlines()]
    assert {line[2]: float(line[4]) for line in lines} == {"d4": 1.0, "d3": 0.0, "d2": 0.0, "d1": 0.0}
    assert lines[0][2] == "d4"
    (tmp_path / "slidefuse.json").write_text('{"probs": [[0, 0, 0], [0, 1]], "w": 1}')
    result = invoke("fuse", *runs, "-m", "slidefuse", "-n", "none", "-p", tmp_path / "slidefuse.json",
                    "-o", tmp_path / "slidefuse.csv")
    assert result.exit_code == 0, result.stderr
    import pyarrow.csv as pcsv
    scores = {row["doc_id"]: row["score"] for row in pcsv.read_csv(tmp_path / "slidefuse.csv").to_pylist()}
    assert scores == {"d2": 0.5, "d4": 0.5, "d3": 0.0, "d1": 0.0}


@pytest.mark.parametrize("text, extra, message", [
    ('{"probs": [[0.5, 0.25],\n [0.5 0.1]]}', [], "posfuse.json:2:7: not JSON (Expecting ',' delimiter)"),
    ('[[0.5]]', [], "expected a JSON object such as"),
    ('{"prob": [[0.5]]}', [], "unknown fusion parameter 'prob'; the parameters are k, phi"),
    ('{"probs": [0.5, 0.25]}', [], "'probs' must be a list of lists of numbers, one list per run; found [0.5, 0.25]"),
    ('{"probs": [[0.5], [0.4], [0.3]]}', [], "fusion probs: 3 lists for 2 runs (a, b); give one per run"),
    ('{"probs": [[0.5], [0.4]], "weights": [1, 2]}', ["-w", "1,1"], "weights given both in"),
])
def test_cli_params_file_mistakes_are_named(runs, tmp_path, text, extra, message):
    (tmp_path / "posfuse.json").write_text(text)
    out = tmp_path / "fused.trec"
    result = invoke("fuse", *runs, "-m", "posfuse", "-p", tmp_path / "posfuse.json", *extra, "-o", out)
    assert result.exit_code in (1, 2) and message in " ".join(result.stderr.split()), result.stderr
    assert "Traceback" not in result.stderr and not out.exists()


def test_the_grid_in_one_statement_fuses_each_point_as_fuse_does(runs):
    """sqlrank.fusion_grid (optimize_fusion's points in one statement) against sqlrank.fuse point by point, whose
    methods tests/test_fusion_ranx.py checks against ranx; on the hand-worked runs, d2 in both, d1 d3 d4 in one."""
    con = sqlrank.connect()
    con.execute("CREATE TABLE runs AS SELECT * FROM (VALUES ('a', 'q1', 'd1', 3.0), ('a', 'q1', 'd2', 2.0), "
                "('a', 'q1', 'd3', 1.0), ('b', 'q1', 'd2', 0.9), ('b', 'q1', 'd4', 0.5)) AS t(run_id, query_id, doc_id, score)")
    grids = {"rrf": [{"k": 10}, {"k": 60}], "rbc": [{"phi": 0.3}, {"phi": 0.9}], "gmnz": [{"gamma": 0.5}],
             "logn_isr": [{"sigma": 0.2}], "wsum": [{"weights": [0.3, 0.7]}], "wmnz": [{"weights": [0.2, 0.8]}],
             "mixed": [{"weights": [1.0, 0.0]}, {"weights": [0.4, 0.6]}]}
    checked = 0
    for method, points in grids.items():
        structs = [{"weights": p.get("weights"), **{name: p.get(name) for name in ("k", "phi", "gamma", "sigma")}}
                   for p in points]
        rows = con.execute("SELECT point_number, doc_id, score FROM sqlrank.fusion_grid('runs', $method, $points)",
                           {"method": method, "points": structs}).fetchall()
        for number, point in enumerate(points, start=1):
            call = ", ".join(f"{name} := {value!r}" for name, value in point.items())
            want = dict(con.execute(f"SELECT doc_id, score FROM sqlrank.fuse('runs', method := '{method}', {call})").fetchall())
            got = {doc: score for point_number, doc, score in rows if point_number == number}
            assert got == pytest.approx(want, abs=1e-15) and len(got) == 4, (method, point)
            checked += 1
    assert checked == 10
    # RRF by hand at k = 10: d2 = 1/12 + 1/11, d1 = 1/11, d4 = 1/12, d3 = 1/13
    point = "{'weights': NULL, 'k': 10, 'phi': NULL, 'gamma': NULL, 'sigma': NULL}"  # every field, NULL where unused
    assert dict(con.sql(f"SELECT doc_id, score FROM sqlrank.fusion_grid('runs', 'rrf', [{point}], norm := 'none')")
                .fetchall()) == pytest.approx({"d2": 1 / 12 + 1 / 11, "d1": 1 / 11, "d4": 1 / 12, "d3": 1 / 13})
