"""Issue 36, "the first hour": the files and habits of trec_eval, ir_measures, ranx and PyTerrier users,
each through the door where it was found, with the user's command, against pytrec_eval or ir_measures.

The data is the README's (data/qrels.txt, data/bm25.trec, data/dense.trec), rewritten in each tool's format.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import sqlrank
from sqlrank.errors import ChoiceError, InputError

from cli_runner import invoke

pytrec_eval = pytest.importorskip("pytrec_eval")
DATA = Path(__file__).resolve().parent.parent / "data"


def trec_dict(path: Path, kind: str) -> dict:
    """A TREC file as pytrec_eval's dict (labels as int, scores as float)."""
    found: dict = {}
    for fields in (line.split() for line in path.read_text().splitlines() if line.strip()):
        if kind == "qrels":
            found.setdefault(fields[0], {})[fields[2]] = int(fields[3])
        else:
            found.setdefault(fields[0], {})[fields[2]] = float(fields[4])
    return found


QRELS = trec_dict(DATA / "qrels.txt", "qrels")
BM25 = trec_dict(DATA / "bm25.trec", "run")
DENSE = trec_dict(DATA / "dense.trec", "run")


def reference(measure: str, run: dict = BM25, qrels: dict = QRELS, relevance_level: int = 1) -> float:
    """pytrec_eval's mean over the qrels' queries (trec_eval -c: a query the run lacks scores 0)."""
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {measure}, relevance_level=relevance_level)
    per_query = evaluator.evaluate(run)
    name = next(iter(next(iter(per_query.values()))))
    return sum(values[name] for values in per_query.values()) / len(qrels)


def cli_means(*args) -> dict:
    """`sqlrank eval ... -f json` run as the user runs it: {run: {measure: mean}}."""
    result = invoke(*args, "-f", "json")
    assert result.exit_code == 0, result.stderr
    means: dict = {}
    for row in json.loads(result.stdout):
        if row["query_id"] == "all":
            means.setdefault(row["run_id"], {})[row["measure"]] = row["value"]
    return means


# ---------------------------------------------------------------- 2: headerless TREC files, whatever their name

def ms_marco_qrels(tmp_path: Path) -> Path:
    """The README's qrels as MS MARCO writes qrels.dev.small.tsv: TREC fields, tab-separated, no header."""
    path = tmp_path / "qrels.dev.small.tsv"
    path.write_text("".join("\t".join(line.split()) + "\n" for line in (DATA / "qrels.txt").read_text().splitlines()))
    return path


def test_ms_marco_qrels_tsv_is_read_as_trec(tmp_path):
    qrels = ms_marco_qrels(tmp_path)
    means = cli_means("eval", qrels, DATA / "bm25.trec", "-m", "map")
    assert means["bm25"]["map"] == pytest.approx(reference("map"), abs=1e-12)


def test_trec_run_named_csv_is_read_as_trec(tmp_path):
    run = tmp_path / "bm25.csv"
    run.write_text((DATA / "bm25.trec").read_text())
    means = cli_means("eval", DATA / "qrels.txt", run, "-m", "ndcg_cut_10")
    assert means["bm25"]["ndcg_cut_10"] == pytest.approx(reference("ndcg_cut_10"), abs=1e-12)


def test_beir_qrels_with_their_header(tmp_path):
    qrels = tmp_path / "test.tsv"
    qrels.write_text("query-id\tcorpus-id\tscore\n" + "".join(
        f"{q}\t{d}\t{label}\n" for q, docs in QRELS.items() for d, label in docs.items()))
    means = cli_means("eval", qrels, DATA / "bm25.trec", "-m", "ndcg_cut_10")
    assert means["bm25"]["ndcg_cut_10"] == pytest.approx(reference("ndcg_cut_10"), abs=1e-12)


def test_a_forced_format_wins_over_the_name(tmp_path):
    qrels = ms_marco_qrels(tmp_path)
    forced = cli_means("eval", qrels, DATA / "bm25.trec", "-m", "P_5", "--qrels-format", "trec")
    assert forced["bm25"]["P_5"] == pytest.approx(reference("P_5"), abs=1e-12)
    # forced the other way, the file's first line is taken as a header: the force is obeyed
    as_tsv = invoke("eval", qrels, DATA / "bm25.trec", "--qrels-format", "tsv")
    assert as_tsv.exit_code == 1 and "qrels.dev.small.tsv: missing column" in as_tsv.stderr
    unknown = invoke("eval", qrels, DATA / "bm25.trec", "--qrels-format", "xml")
    assert unknown.exit_code == 2 and "--qrels-format" in unknown.stderr
    # the Python keyword
    result = sqlrank.evaluate(qrels, DATA / "bm25.trec", ["P@5"], qrels_format="trec", run_format="trec")
    assert result.summary["P@5"] == pytest.approx(reference("P_5"), abs=1e-12)
    with pytest.raises(InputError, match=r"^qrels_format='xml' \(CLI: --qrels-format xml\): unknown format; "
                                         r"expected one of trec, csv"):
        sqlrank.evaluate(qrels, DATA / "bm25.trec", ["P@5"], qrels_format="xml")
    with pytest.raises(InputError, match=r"run_format='trec' chooses the reader of a file, but the run is a dict"):
        sqlrank.evaluate(qrels, BM25, ["P@5"], run_format="trec")


def test_ms_marco_and_beir_qrels_on_spark(spark, tmp_path):
    """The Spark door recognises the same files: the same numbers as pytrec_eval."""
    from sqlrank import spark as sqlrank_spark

    beir = tmp_path / "test.tsv"
    beir.write_text("query-id\tcorpus-id\tscore\n" + "".join(
        f"{q}\t{d}\t{label}\n" for q, docs in QRELS.items() for d, label in docs.items()))
    for qrels in (ms_marco_qrels(tmp_path), beir):
        result = sqlrank_spark.evaluate(str(qrels), str(DATA / "bm25.trec"), ["AP"], spark=spark).to_result()
        assert result.summary["AP"] == pytest.approx(reference("map"), abs=1e-12), qrels.name


# ---------------------------------------------------------------- 3: other tools' files and objects

from ranx_reference import ranx


def test_ranx_files_parquet_json_lz4(tmp_path):
    """The files Run.save / Qrels.save write: their own writers (ranx.io), which Run.save calls after
    sorting the run, called directly; parquet is their to_dataframe()'s."""
    pytest.importorskip("lz4")
    pytest.importorskip("cbor2")
    pandas = pytest.importorskip("pandas")
    save_json, save_lz4 = ranx.io.save_json, ranx.io.save_lz4

    def save_parquet(found: dict, path: Path) -> None:
        pandas.DataFrame([(q, d, value) for q, docs in found.items() for d, value in docs.items()],
                         columns=["q_id", "doc_id", "score"]).to_parquet(path, index=False)

    expected = reference("map")
    for extension, save in (("parquet", save_parquet), ("json", save_json), ("lz4", save_lz4)):
        qrels, run = tmp_path / f"qrels.{extension}", tmp_path / f"bm25.{extension}"
        save(QRELS, qrels)
        save(BM25, run)
        means = cli_means("eval", qrels, run, "-m", "map")
        assert means["bm25"]["map"] == pytest.approx(expected, abs=1e-12), extension


def test_pytrec_eval_json_on_one_line(tmp_path):
    qrels, run = tmp_path / "qrels.json", tmp_path / "dense.json"
    qrels.write_text(json.dumps(QRELS))
    run.write_text(json.dumps(DENSE))
    means = cli_means("eval", qrels, run, "-m", "recip_rank")
    assert means["dense"]["recip_rank"] == pytest.approx(reference("recip_rank", DENSE), abs=1e-12)


def test_ir_measures_named_tuples_and_measure_objects():
    ir_measures = pytest.importorskip("ir_measures")
    from ir_measures import AP, P, nDCG

    qrels = [ir_measures.Qrel(q, d, label) for q, docs in QRELS.items() for d, label in docs.items()]
    run = [ir_measures.ScoredDoc(q, d, score) for q, docs in BM25.items() for d, score in docs.items()]
    measures = [nDCG @ 10, AP(rel=2), P @ 5]
    expected = ir_measures.calc_aggregate(measures, qrels, run)
    # a list of named tuples, and the same as iterators (read once)
    for run_source in (run, iter(run), (doc for doc in run)):
        result = sqlrank.evaluate(iter(qrels), run_source, measures)
        for measure in measures:
            assert result.summary[str(measure)] == pytest.approx(expected[measure], abs=1e-12), measure
    # one Measure object alone, as ir_measures.calc_aggregate's users pass a list of one
    assert sqlrank.evaluate(qrels, run, nDCG @ 10).summary == {"nDCG@10": pytest.approx(expected[nDCG @ 10])}


def test_ir_datasets_iterators():
    pytest.importorskip("ir_datasets")
    from ir_datasets.formats import GenericScoredDoc, TrecQrel

    def qrels_iter():
        for q, docs in QRELS.items():
            for d, label in docs.items():
                yield TrecQrel(q, d, label, "0")

    def scoreddocs_iter():
        for q, docs in DENSE.items():
            for d, score in docs.items():
                yield GenericScoredDoc(q, d, score)

    result = sqlrank.evaluate(qrels_iter(), scoreddocs_iter(), "AP")
    assert result.summary["AP"] == pytest.approx(reference("map", DENSE), abs=1e-12)
    with pytest.raises(InputError, match=r"<iterable run>: expected named tuples .* found a tuple \('q1', 'A', 1.0\)"):
        sqlrank.evaluate(qrels_iter(), iter([("q1", "A", 1.0)]), "AP")


def test_ranx_qrels_parquet_is_taken_as_the_qrels(tmp_path):
    pandas = pytest.importorskip("pandas")
    qrels = tmp_path / "qrels.parquet"  # ranx's own columns: q_id, doc_id, score
    pandas.DataFrame([(q, d, label) for q, docs in QRELS.items() for d, label in docs.items()],
                     columns=["q_id", "doc_id", "score"]).to_parquet(qrels)
    means = cli_means("eval", qrels, DATA / "bm25.trec", "-m", "P_10")
    assert means["bm25"]["P_10"] == pytest.approx(reference("P_10"), abs=1e-12)


# ---------------------------------------------------------------- 4: compare and plot take eval's options

def test_compare_takes_evals_options():
    args = (DATA / "qrels.txt", DATA / "bm25.trec", DATA / "dense.trec", "-m", "map", "-l", "2", "-M", "3")
    compared = invoke("compare", *args, "-f", "json")
    assert compared.exit_code == 0, compared.stderr
    rows = json.loads(compared.stdout)
    # the same settings by pytrec_eval: relevance level 2, each ranking cut to its top 3 (trec_eval -M 3)
    top3 = {q: dict(sorted(docs.items(), key=lambda item: (-item[1], item[0]), reverse=False)[:3])
            for q, docs in DENSE.items()}
    dense = next(row for row in rows if row["run_id"] == "dense")
    assert dense["mean"] == pytest.approx(reference("map", top3, relevance_level=2), abs=1e-12)
    evaluated = cli_means("eval", *args)
    assert dense["mean"] == pytest.approx(evaluated["dense"]["map"], abs=1e-12)


def test_compare_usage_errors_exit_2():
    runs = (DATA / "qrels.txt", DATA / "bm25.trec", DATA / "dense.trec")
    assert invoke("compare", *runs, "-t", "foo").exit_code == 2
    assert invoke("compare", *runs, "--correction", "foo").exit_code == 2
    assert invoke("compare", *runs, "-b", "nope").exit_code == 2
    assert invoke("compare", *runs, "--no-such-option").exit_code == 2
    with pytest.raises(ChoiceError):
        sqlrank.compare(*runs[:1], list(runs[1:]), ["AP"], tests=["foo"])


def test_plot_takes_evals_options(tmp_path):
    pytest.importorskip("matplotlib")
    picture = tmp_path / "cutoff.png"
    drawn = invoke("plot", "cutoff", DATA / "qrels.txt", DATA / "bm25.trec", "-o", picture,
                   "-m", "nDCG@5", "-m", "nDCG@10", "-l", "2", "-M", "100", "-J", "--ties", "optimistic")
    assert drawn.exit_code == 0, drawn.stderr
    assert picture.read_bytes().startswith(b"\x89PNG")


def test_no_summary():
    args = ("eval", DATA / "qrels.txt", DATA / "bm25.trec", "-m", "map", "-f", "trec")
    both = invoke(*args, "-q").stdout.splitlines()
    per_query = invoke(*args, "-n").stdout.splitlines()
    assert per_query == [line for line in both if line.split()[1] != "all"]
    assert [line.split()[1] for line in per_query] == sorted(QRELS)  # q4 of the run has no judgments
    assert float(per_query[0].split()[2]) == pytest.approx(
        pytrec_eval.RelevanceEvaluator(QRELS, {"map"}).evaluate(BM25)["q1"]["map"], abs=1e-4)


# ---------------------------------------------------------------- 5: every missing column at once, with a guess

def test_missing_columns_in_one_message(tmp_path):
    run = tmp_path / "run.csv"
    run.write_text("topic,document,relevance_score\n" + "".join(
        f"{q},{d},{s}\n" for q, docs in BM25.items() for d, s in docs.items()))
    failed = invoke("eval", DATA / "qrels.txt", run)
    assert failed.exit_code == 1
    assert failed.stderr.strip() == (
        f"sqlrank: error: {run}: missing columns 'query_id', 'doc_id', 'score' (found topic, document, "
        "relevance_score); did you mean --run-map query_id=topic --run-map doc_id=document --run-map "
        "score=relevance_score?")
    means = cli_means("eval", DATA / "qrels.txt", run, "-m", "map", "--run-map", "query_id=topic",
                      "--run-map", "doc_id=document", "--run-map", "score=relevance_score")
    assert means["run"]["map"] == pytest.approx(reference("map"), abs=1e-12)
    with pytest.raises(InputError) as error:
        sqlrank.evaluate(DATA / "qrels.txt", run, "AP")
    assert str(error.value).endswith("did you mean run_columns={'query_id': 'topic', 'doc_id': 'document', "
                                     "'score': 'relevance_score'}?")


def test_hints_name_the_command_lines_options_there(tmp_path):
    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 A 1 2.0 r\nq1 Q0 A 2 1.0 r\n")
    failed = invoke("eval", DATA / "qrels.txt", run)
    assert failed.stderr.strip().endswith("each document may appear once per query. Remove them, or choose a "
                                          "policy: --duplicates first|max")
    with pytest.raises(InputError, match=r"duplicates='first' or 'max' \(CLI: --duplicates first\|max\)$"):
        sqlrank.evaluate(DATA / "qrels.txt", run, "AP")


def test_a_typo_in_a_column_gets_a_guess(tmp_path):
    run = tmp_path / "run.csv"
    run.write_text("quer_id,doc_id,score\nq1,A,1\n")
    failed = invoke("eval", DATA / "qrels.txt", run)
    assert failed.stderr.strip() == (f"sqlrank: error: {run}: missing column 'query_id' (found quer_id, doc_id, "
                                     "score); did you mean --run-map query_id=quer_id?")


# ---------------------------------------------------------------- 6: measure lists in one string

def test_measure_lists_split_on_commas_and_spaces():
    one_string = cli_means("eval", DATA / "qrels.txt", DATA / "bm25.trec", "-m", "ndcg@10,map")
    assert one_string["bm25"] == {"ndcg@10": pytest.approx(reference("ndcg_cut_10"), abs=1e-12),
                                  "map": pytest.approx(reference("map"), abs=1e-12)}
    cutoffs = cli_means("eval", DATA / "qrels.txt", DATA / "bm25.trec", "-m", "P.5,10 map")
    assert set(cutoffs["bm25"]) == {"P_5", "P_10", "map"}
    result = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", "nDCG@10 AP")
    assert result.summary == {"nDCG@10": pytest.approx(reference("ndcg_cut_10"), abs=1e-12),
                              "AP": pytest.approx(reference("map"), abs=1e-12)}
    assert sqlrank.split_measure_names("RBP(p=0.8,rel=2),AP nDCG@10,20") == ["RBP(p=0.8,rel=2)", "AP", "nDCG@10,20"]


def test_a_cutoff_run_together_with_its_family():
    failed = invoke("eval", DATA / "qrels.txt", DATA / "bm25.trec", "-m", "ndcg_cut10")
    assert failed.exit_code == 2
    assert "unknown measure 'ndcg_cut10' (did you mean 'ndcg_cut_10' or 'nDCG@10'?)" in failed.stderr


# ---------------------------------------------------------------- 1: install hints that work from a checkout

ROOT = DATA.parent


def extras() -> dict[str, list[str]]:
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]


def resolved(extra: str) -> set[str]:
    """The distributions an extra installs, its own `sqlrank[...]` extras followed."""
    names: set[str] = set()
    for requirement in extras()[extra]:
        name = requirement.split("[")[0].split(">")[0].split("=")[0].split("<")[0].strip()
        if name == "sqlrank":
            for inner in requirement.split("[")[1].split("]")[0].split(","):
                names |= resolved(inner.strip())
        else:
            names.add(name)
    return names


def test_every_install_hint_names_an_extra_that_exists():
    import re

    texts = [path.read_text() for path in [ROOT / "README.md", *ROOT.glob("docs/*.md"), *ROOT.glob("sqlrank/**/*.py")]]
    hinted = {name for text in texts for group in re.findall(r"pip install (?:-q )?-e '\.\[([a-z0-9,_-]+)\]'", text)
              for name in group.split(",")}
    assert {"compare", "plot", "spark", "shell", "dataframes", "lz4"} <= hinted
    assert hinted <= set(extras())
    assert not [text for text in texts if "pip install 'sqlrank[" in text or 'pip install "sqlrank[' in text]


def test_the_readmes_first_command_installs_what_its_examples_use():
    first = (ROOT / "README.md").read_text().split("```bash\n")[1].splitlines()[0]
    installed = {name for group in first.split("-e '.[")[1].split("]")[0].split(",") for name in resolved(group)}
    # `sqlrank compare` (scipy's tests), `sqlrank plot` (matplotlib), result.to_pandas() (pandas)
    assert {"scipy", "matplotlib", "pandas"} <= installed


def test_to_pandas_without_pandas_says_what_to_install(monkeypatch):
    import sys

    result = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", "AP")
    monkeypatch.setitem(sys.modules, "pandas", None)  # an import of pandas now fails, as where it is not installed
    with pytest.raises(sqlrank.OutputError, match=r"to_pandas\(\) needs pandas: in the sqlrank checkout, "
                                                  r"\.venv/bin/pip install -e '\.\[dataframes\]'"):
        result.to_pandas()


# ---------------------------------------------------------------- 7: notices

def test_an_empty_run_gets_one_notice(tmp_path):
    empty = tmp_path / "empty.trec"
    empty.write_text("")
    evaluated = invoke("eval", DATA / "qrels.txt", empty, "-m", "AP")
    assert evaluated.exit_code == 0
    assert evaluated.stderr.splitlines() == [
        "sqlrank: note: run 'empty': the run has no rows: every qrels query is scored 0 (missing='zero')"]


def test_notices_order_numeric_ids_by_number(tmp_path):
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.trec"
    qrels.write_text("".join(f"{q} 0 d 1\n" for q in (1000, 100, 1050, 99, 7)))
    run.write_text("5 Q0 d 1 1.0 r\n")
    result = sqlrank.evaluate(qrels, run, "AP", allow_disjoint=True)
    assert "5 of 5 qrels queries have no documents (7, 99, 100, ...)" in " ".join(result.notices())


def test_a_missing_path_is_told_in_the_doors_words(tmp_path):
    missing = tmp_path / "nope.trec"
    with pytest.raises(InputError, match=r"the run comes second: evaluate\(qrels, run, measures\)\)$"):
        sqlrank.evaluate(DATA / "qrels.txt", missing, "AP")
    failed = invoke("eval", DATA / "qrels.txt", missing)
    assert failed.stderr.strip().endswith("(the run comes second: sqlrank eval QRELS RUN)")


# ---------------------------------------------------------------- 8: pictures and tables

def test_the_cutoff_plot_spreads_trec_evals_cutoffs_on_a_log_axis():
    pytest.importorskip("matplotlib")
    result = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", "ndcg_cut.5,10,15,20,30,100,200,500,1000")
    axis = sqlrank.plot(result, "cutoff").axes[0]
    assert axis.get_xscale() == "log"
    assert [tick.get_text() for tick in axis.get_xticklabels()] == ["5", "10", "15", "20", "30", "100", "200", "500",
                                                                     "1000"]
    assert list(axis.lines[0].get_ydata()) == pytest.approx([reference(f"ndcg_cut_{k}") for k in (5, 10, 15, 20, 30,
                                                                                                 100, 200, 500, 1000)])
    few = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", "nDCG@5,10,20")
    assert sqlrank.plot(few, "cutoff").axes[0].get_xscale() == "linear"


def test_plot_pr_draws_trec_evals_recall_levels_by_default(tmp_path):
    pytest.importorskip("matplotlib")
    picture = tmp_path / "pr.png"
    drawn = invoke("plot", "pr", DATA / "qrels.txt", DATA / "bm25.trec", "-o", picture)
    assert drawn.exit_code == 0, drawn.stderr
    assert picture.read_bytes().startswith(b"\x89PNG")
    result = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", "iprec_at_recall")
    line = sqlrank.plot(result, "pr").axes[0].lines[0]
    levels = [f"{level / 10:.2f}" for level in range(11)]
    assert list(line.get_xdata()) == pytest.approx([level / 10 for level in range(11)])
    # the means eval gives (trec_eval 10's rounding of the recall cutoffs, which pytrec_eval's trec_eval 9 rounds
    # otherwise: docs/trec-semantics.md), in recall order; where the two agree, pytrec_eval's number
    assert list(line.get_ydata()) == [result.summary[f"iprec_at_recall_{level}"] for level in levels]
    assert line.get_ydata()[0] == pytest.approx(reference("iprec_at_recall_0.00"), abs=1e-12)
    no_levels = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", "AP")
    with pytest.raises(sqlrank.OutputError, match="iprec_at_recall"):
        sqlrank.plot(no_levels, "pr")


def test_the_comparison_in_latex_html_and_per_query():
    comparison = sqlrank.compare(DATA / "qrels.txt", {"bm25": DATA / "bm25.trec", "dense": DATA / "dense.trec"},
                                 ["AP"])
    latex = comparison.to_latex().splitlines()
    assert latex[2] == r"run & AP \\"  # as eval's tables say run
    assert latex[-2] == (r"\multicolumn{2}{l}{\footnotesize $^{\dagger}$ p $<$ 0.05, $^{\ddagger}$ p $<$ 0.01 "
                         r"against the baseline bm25 (paired Student t-test)} \\")
    assert not [line for line in latex if line.startswith("%")]  # a comment would never print
    html = comparison._repr_html_()
    assert html.startswith("<table><thead><tr><th>run</th><th>AP</th></tr>")
    assert f"<td>dense</td><td><b>{reference('map', DENSE):.4f}</b></td>" in html
    per_query_bm25 = pytrec_eval.RelevanceEvaluator(QRELS, {"map"}).evaluate(BM25)
    per_query_dense = pytrec_eval.RelevanceEvaluator(QRELS, {"map"}).evaluate(DENSE)
    deltas = comparison.deltas().to_pylist()
    assert [row["query_id"] for row in deltas] == sorted(
        QRELS, key=lambda q: per_query_bm25[q]["map"] - per_query_dense[q]["map"])  # the largest gain first
    for row in deltas:
        assert row["delta"] == pytest.approx(per_query_dense[row["query_id"]]["map"]
                                             - per_query_bm25[row["query_id"]]["map"], abs=1e-12)


def test_to_pandas_once_for_every_table():
    pytest.importorskip("pandas")
    result = sqlrank.evaluate(DATA / "qrels.txt", {"bm25": DATA / "bm25.trec"}, ["AP", "P@5"])
    wide = result.to_pandas(wide=True)
    assert list(wide.columns) == ["run_id", "query_id", "AP", "P@5"]
    expected = pytrec_eval.RelevanceEvaluator(QRELS, {"map", "P_5"}).evaluate(BM25)
    for row in wide.itertuples(index=False):
        assert row.AP == pytest.approx(expected[row.query_id]["map"], abs=1e-12)
    per_query = result.to_pandas(per_query=True)
    assert set(per_query["query_id"]) == set(QRELS) and len(per_query) == 2 * len(QRELS)


def test_the_spark_engine_prints_only_sqlranks_notices(tmp_path, spark_can_start):
    """`sqlrank eval --engine spark` in a process of its own, as the user runs it (a new JVM: Spark's logging
    is set when it starts): stderr holds sqlrank's notices and nothing from Spark, the working folder no
    spark-warehouse/. The JVM's own line about the incubator module Spark adds cannot be configured away."""
    import os
    import subprocess
    import sys

    # the JVM compiling less (client compiler only, one GC thread) takes 40% less CPU for this tiny job; the java
    # launcher says it picked the options up, a line of this test's making, left out below with the JVM's own
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "default",
                   "JDK_JAVA_OPTIONS": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"}
    done = subprocess.run([sys.executable, "-m", "sqlrank", "eval", DATA / "qrels.txt", DATA / "bm25.trec", "-m", "map",
                           "-f", "json", "--engine", "spark", "--spark-master", "local[1]"], cwd=tmp_path,
                          env=environment, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines()
             if not line.startswith(("WARNING: Using incubator modules", "NOTE: Picked up JDK_JAVA_OPTIONS"))]
    assert lines == ["sqlrank: note: run 'bm25': 1 query without judgments left out"]
    assert list(tmp_path.iterdir()) == []
    mean = next(row["value"] for row in json.loads(done.stdout) if row["query_id"] == "all")
    assert mean == pytest.approx(reference("map"), abs=1e-12)
