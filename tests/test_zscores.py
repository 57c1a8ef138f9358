"""trec_eval's -Z (z-scores against a file of per-query means and deviations), checked against trec_eval 10's output.

The expected files are trec_eval's own (tests/data/trec_eval/README.md, "Z-scores"): its quicktest pair
(`zscores_file`, `out.test.aqZ`) and two files of edges (missing means, deviations of 0, gm_map on its log,
a query absent from the file, -c with a query missing from the run).
"""

from __future__ import annotations

import csv
import math

import pytest

import sqlrank
from sqlrank.cli import run
from sqlrank.measures import trec_name

EDGE_MEASURES = ["-m", "num_q", "-m", "num_ret", "-m", "map", "-m", "gm_map", "-m", "recip_rank", "-m", "P.5"]


def cli(capsys, *args) -> tuple[int, str, str]:
    code = run(["eval", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("options, zscores, run_file, expected", [
    (["-c", *EDGE_MEASURES], "zscores.edges", "results.trunc", "out.test.cZ_edges"),
    (EDGE_MEASURES, "zscores.edges_no302", "results.test", "out.test.Z_no302"),
])
def test_the_trec_layout_is_trec_eval_byte_for_byte(trec_data, capsys, options, zscores, run_file, expected):
    code, out, err = cli(capsys, "-f", "trec", "-q", *options, "-Z", trec_data / zscores, trec_data / "qrels.test",
                         trec_data / run_file)
    assert code == 0
    assert out == (trec_data / expected).read_text()
    assert f"z-scores: each per-query value is (value - mean) / stddev from {trec_data / zscores}" in err


def test_every_value_equals_trec_eval_to_17_digits(trec_data):
    """trec_eval's own -Z test, through the Python door: its trec layout byte for byte, and every value against
    trec_eval's 17-digit output: per query, the `all` rows (num_ret summed, gm_map the exp of the mean z-score
    of ln AP, -1000000 with no mean in the file, so 0), and num_q left a count."""
    result = sqlrank.evaluate(trec_data / "qrels.test", trec_data / "results.test", "all_trec",
                              zscores=trec_data / "zscores_file")
    assert sqlrank.export.render(result, "trec", per_query=True) == (trec_data / "out.test.aqZ").read_bytes()
    got = {(trec_name(result.measure(row["measure"])), row["query_id"]): row["value"]
           for row in result.rows(per_query=True).to_pylist()}
    with open(trec_data / "expected_all_trec_zscores_full.csv", newline="") as expected_file:
        expected = {(row["measure"].removeprefix("Z"), row["query_id"]): float(row["value"])
                    for row in csv.DictReader(expected_file) if row["measure"] not in ("runid", "relstring")}
    assert len(expected) == 383  # 387 lines but runid and 3 relstrings
    mismatched = {key: (got.get(key), value) for key, value in expected.items()
                  if got.get(key) is None or not math.isclose(got[key], value, rel_tol=1e-12, abs_tol=1e-9)}
    assert not mismatched
    assert (got[("gm_map", "all")], got[("num_q", "all")], got[("num_ret", "all")]) == (0.0, 3.0, pytest.approx(-6.3332, abs=5e-5))
    assert "6 per-query values are -1000000" in " ".join(result.notices())


def test_a_z_scored_gm_map_is_the_exp_of_the_mean_z_of_its_log(trec_data):
    """Worked by hand: gm_map's z-score is taken of ln(max(AP, 1e-5)); the `all` row is exp(mean z)."""
    result = sqlrank.evaluate(trec_data / "qrels.test", trec_data / "results.test", ["AP", "gm_map"],
                              zscores=trec_data / "zscores.edges")
    ap = {row["query_id"]: row["value"] for row in sqlrank.evaluate(
        trec_data / "qrels.test", trec_data / "results.test", ["AP"]).rows(per_query=True).to_pylist()}
    means = {"301": (-3.0, 0.5), "302": (-11.5, 0.25), "303": (-2.5, 1.0)}
    z = [(math.log(max(ap[q], 1e-5)) - mean) / sd for q, (mean, sd) in means.items()]
    assert result.summary["gm_map"] == pytest.approx(math.exp(sum(z) / 3), rel=1e-12)
    # AP: 301 from its mean, 302 from its mean, 303 has none in the file
    per_query = {row["query_id"]: row["value"] for row in result.rows(per_query=True).to_pylist()
                 if row["measure"] == "AP" and row["query_id"] != "all"}
    assert per_query == {"301": pytest.approx((ap["301"] - 0.05) / 0.02), "302": pytest.approx((ap["302"] - 0.3) / 0.1),
                         "303": -1000000.0}


@pytest.mark.parametrize("text, message", [
    ("301 map 0.1\n", "line 1: expected 4 whitespace-separated fields `qid measure_name mean stddev`, found 3"),
    ("301 map 0.1 0.2\n301 P_5 x 0.2\n", "line 2: the mean 'x' is not a finite number"),
    ("301 map 0.1 nan\n", "line 1: the stddev 'nan' is not a finite number"),
    ("301 map 0.1 0.2\n\n301 map 0.3 0.2\n", "line 3: query '301' and measure 'map' were already given on line 1"),
    ("\n", "the z-scores file has no lines"),
])
def test_a_bad_file_is_refused_by_its_line_in_every_door(trec_data, tmp_path, capsys, text, message):
    path = tmp_path / "z.txt"
    path.write_text(text)
    with pytest.raises(sqlrank.InputError, match=message):
        sqlrank.evaluate(trec_data / "qrels.test", trec_data / "results.test", ["AP"], zscores=path)
    code, out, err = cli(capsys, "-m", "map", "-Z", path, trec_data / "qrels.test", trec_data / "results.test")
    assert (code, out, err.count("\n")) == (1, "", 1) and message in err and str(path) in err


def test_an_unreadable_file_and_spark_are_refused_by_name(trec_data, tmp_path, capsys):
    missing = tmp_path / "nowhere.txt"
    code, _, err = cli(capsys, "-m", "map", "-Z", missing, trec_data / "qrels.test", trec_data / "results.test")
    assert code == 1 and f"{missing}: cannot read the z-scores file" in err and "Traceback" not in err
    code, _, err = cli(capsys, "--engine", "spark", "-Z", trec_data / "zscores_file", trec_data / "qrels.test",
                       trec_data / "results.test")
    assert code == 2 and "z-scores are not computed by --engine spark yet; use --engine duckdb" in err
    from sqlrank import spark

    with pytest.raises(sqlrank.EvaluationError, match=r"zscores \(trec_eval -Z\) is not computed by the Spark engine"):
        spark.evaluate(str(trec_data / "qrels.test"), str(trec_data / "results.test"), ["AP"],
                       zscores=trec_data / "zscores_file")


def test_list_measures_are_refused_with_zscores(trec_data):
    """The list measures (Novelty, ...) have no per-query trec_eval means: refused rather than left raw beside z-scores."""
    with pytest.raises(sqlrank.EvaluationError, match=r"not the list measures \(Novelty@10\)"):
        sqlrank.evaluate(trec_data / "qrels.test", trec_data / "results.test", ["map", "Novelty@10"],
                         zscores=trec_data / "zscores_file", train=trec_data / "qrels.test")
