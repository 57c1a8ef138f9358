"""The list measures through every door: the CLI's --train and --items, the missing input and Spark refused by
name. The values through Python and the shell's table macros: each measure's own test file (list_cases)."""

import csv
import io
import sys
from pathlib import Path

import pytest

import sqlrank

sys.path.insert(0, str(Path(__file__).parent.parent))  # the suite's helpers
from cli_runner import invoke  # noqa: E402

from list_cases import FIXTURE, fixture_features, fixture_inputs  # noqa: E402


def test_the_command_line_takes_train_and_items(tmp_path):
    truth, run, train, _ = fixture_inputs()
    for name, table in (("truth", truth), ("recs", run), ("train", train)):
        table.to_pandas().to_csv(tmp_path / f"{name}.csv", index=False)
    (tmp_path / "items.csv").write_text("item_id\n" + "\n".join(str(i) for i in range(1, 9)) + "\n")
    done = invoke("eval", tmp_path / "truth.csv", tmp_path / "recs.csv", "-m", "Novelty CatalogCoverage nDCG@2",
                  "--train", tmp_path / "train.csv", "--format", "csv")
    assert done.exit_code == 0, done.stderr
    rows = {row["measure"]: float(row["value"]) for row in csv.DictReader(io.StringIO(done.stdout))}
    assert rows["Novelty"] == pytest.approx(FIXTURE["expected"]["novelty"], abs=1e-4)
    assert rows["CatalogCoverage"] == 0.8
    catalogue = invoke("eval", tmp_path / "truth.csv", tmp_path / "recs.csv", "-m", "CatalogCoverage",
                       "--items", tmp_path / "items.csv", "--format", "csv")
    assert catalogue.exit_code == 0, catalogue.stderr
    assert [row["value"] for row in csv.DictReader(io.StringIO(catalogue.stdout))] == ["0.5"]  # 1, 2, 3, 5 of 8
    refused = invoke("eval", tmp_path / "truth.csv", tmp_path / "recs.csv", "-m", "ARP@10")
    assert refused.exit_code != 0 and "ARP@10 reads the training interactions" in refused.stderr
    assert "--train" in refused.stderr


def test_a_missing_input_is_refused_by_name():
    truth, run, _, _ = fixture_inputs()
    with pytest.raises(sqlrank.MeasureError, match=r"Gini@5 reads .* give train= \(CLI: --train\) or items= "):
        sqlrank.evaluate(truth, run, ["nDCG@5", "Gini@5"])


def test_the_options_they_do_not_take_are_refused_by_name():
    """They read the top k in trec_eval's order: another tie policy or empty='one' would be ignored silently."""
    truth, run, train, _ = fixture_inputs()
    with pytest.raises(sqlrank.MeasureError, match=r"Novelty: the list measures .* do not take ties='docid_asc'"):
        sqlrank.evaluate(truth, run, ["nDCG@5", "Novelty"], train=train, ties="docid_asc")
    with pytest.raises(sqlrank.MeasureError, match=r"Novelty: the list measures do not take empty='one'"):
        sqlrank.evaluate(truth, run, ["Novelty"], train=train, empty="one")


def test_spark_refuses_the_measures_of_the_whole_run_by_name_before_starting():
    spark = pytest.importorskip("sqlrank.spark")
    with pytest.raises(sqlrank.MeasureError, match="Personalization@10: a list measure of the whole run reads every "
                                                   "user's list at once, .* not computed on Spark"):
        spark.evaluate("truth.csv", "recs.csv", ["nDCG@10", "Personalization@10"])
    with pytest.raises(sqlrank.MeasureError, match=r"Novelty reads the training interactions.*give train="):
        spark.evaluate("truth.csv", "recs.csv", ["Novelty"])
    done = invoke("eval", "truth.csv", "recs.csv", "-m", "Gini", "--items", "items.csv", "--engine", "spark")
    assert done.exit_code == 2 and "--items" in done.stderr and "--engine spark does not compute" in done.stderr


def test_an_empty_input_is_refused_not_scored_0():
    truth, run, train, _ = fixture_inputs()
    with pytest.raises(sqlrank.InputError, match=r"the catalogue \(items\) has no rows"):
        sqlrank.evaluate(truth, run, ["CatalogCoverage"], items=[])
    with pytest.raises(sqlrank.InputError, match=r"train \(the training interactions.*no rows"):
        sqlrank.evaluate(truth, run, ["Novelty"], train=train.slice(0, 0))


def test_the_features_through_the_command_line_a_parquet_file_and_the_shell(tmp_path):
    """--features reads a CSV whose vectors are written as text; evaluate() a Parquet file's list column; the shell's
    macros refuse by name the similarity whose input is NULL."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from list_cases import _shell

    truth, run, train, _ = fixture_inputs()
    for name, table in (("truth", truth), ("recs", run), ("train", train)):
        table.to_pandas().to_csv(tmp_path / f"{name}.csv", index=False)
    features = fixture_features()
    (tmp_path / "features.csv").write_text("item_id,features\n" + "".join(
        f'{item},"{vector}"\n' for item, vector in features.items()))
    done = invoke("eval", tmp_path / "truth.csv", tmp_path / "recs.csv", "-m",
                  "Diversity(similarity=features) Serendipity(similarity=features)", "--train", tmp_path / "train.csv",
                  "--features", tmp_path / "features.csv", "--format", "csv")
    assert done.exit_code == 0, done.stderr
    rows = {row["measure"]: float(row["value"]) for row in csv.DictReader(io.StringIO(done.stdout))}
    assert rows["Diversity(similarity=features)"] == pytest.approx(0.5, abs=1e-12)
    assert rows["Serendipity(similarity=features)"] == pytest.approx((0.25 + 0.625 + 1 / 3) / 3, abs=1e-12)
    pq.write_table(pa.table({"item_id": list(features), "features": list(features.values())}),
                   tmp_path / "features.parquet")
    result = sqlrank.evaluate(truth, run, ["ILS(similarity=features)"], features=tmp_path / "features.parquet")
    assert result.to_arrow().to_pylist()[-1]["value"] == pytest.approx(0.5, abs=1e-12)
    con = _shell()  # the connection the value tests share: installing the macros is the slow part
    sqlrank.load_qrels(con, truth, "qrels")
    sqlrank.load_run(con, run, "run")
    with pytest.raises(Exception, match=r"Diversity with similarity := 'features' reads the items' features: "
                                        r"give features := "):
        con.execute("FROM sqlrank.diversity('qrels', 'run', train := NULL, similarity := 'features')").fetchall()
    with pytest.raises(Exception, match=r"Serendipity with similarity := 'cooccurrence' reads the training"):
        con.execute("FROM sqlrank.serendipity('qrels', 'run', train := NULL)").fetchall()


def test_the_shell_measures_similarity_by_features_without_a_training_table():
    """Diversity and ILS by features read no training interactions, in the shell as in Python: a connection without a
    `train` table gives Python's values (Serendipity reads the users' histories either way)."""
    con = sqlrank.connect()  # its own, so that no earlier test's train table is there
    truth, run, _, _ = fixture_inputs()
    sqlrank.load_qrels(con, truth, "qrels")
    sqlrank.load_run(con, run, "run")
    features = fixture_features()
    con.execute("CREATE TABLE features AS SELECT * FROM (VALUES " + ", ".join(
        f"('{item}', 'f{place}', {weight})" for item, vector in features.items()
        for place, weight in enumerate(vector) if weight) + ") AS f(item_id, feature, weight)")
    for measure, macro in (("Diversity(similarity=features)", "diversity"), ("ILS(similarity=features)",
                                                                            "intra_list_similarity")):
        python = {row["query_id"]: row["value"] for row in
                  sqlrank.evaluate(truth, run, [measure], features=features).to_arrow().to_pylist()}
        shell = dict(con.execute(f"SELECT query_id, value FROM sqlrank.{macro}('qrels', 'run', "
                                 "similarity := 'features', features := 'features')").fetchall())
        assert shell == python and python["all"] == pytest.approx(0.5, abs=1e-12), measure


def test_features_of_no_known_shape_are_refused_with_what_to_give():
    import pyarrow as pa

    truth, run, _, _ = fixture_inputs()
    odd = pa.table({"item_id": ["1", "2"], "when": pa.array([1, 2], pa.timestamp("s")).cast(pa.timestamp("s"))})
    with pytest.raises(sqlrank.InputError, match=r"features column 'when' has type TIMESTAMP.*give an item_id column"):
        sqlrank.evaluate(truth, run, ["Diversity(similarity=features)"], features=odd)
    uneven = {"1": [1.0, 0.0], "2": [1.0]}
    with pytest.raises(sqlrank.InputError, match=r"feature vectors have different lengths"):
        sqlrank.evaluate(truth, run, ["Diversity(similarity=features)"], features=uneven)
