"""trec_eval's habits on `sqlrank eval` (-c, -l, -J, -M, -m lists and sets) and one style for usage errors."""

from __future__ import annotations

import re

import pytest

import sqlrank
from sqlrank.cli import run


def cli(capsys, *args) -> tuple[int, str, str]:
    code = run(["eval", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def trec_lines(out: str) -> dict[str, str]:
    return {line.split("\t")[0].strip(): line.split("\t")[2] for line in out.splitlines()}


def test_trec_eval_flags_mean_what_trec_eval_means(trec_data, capsys):
    qrels, run_file = trec_data / "qrels.rel_level", trec_data / "results.trunc"
    code, out, _ = cli(capsys, "-c", "-l2", "-M100", "-J", "-f", "trec", "-m", "map", qrels, run_file)
    assert code == 0
    expected = sqlrank.evaluate(qrels, run_file, ["AP(rel=2)"], missing="zero", depth=100, judged_only=True)
    assert trec_lines(out) == {"map": f"{expected.summary['AP(rel=2)']:.4f}"}
    code, out, _ = cli(capsys, "-l", "2", "-f", "trec", "-m", "num_rel", qrels, run_file)
    assert trec_lines(out) == {"num_rel": "97"}  # R at label >= 2: 12 + 77 + 8


def test_measure_lists_as_trec_eval_and_ir_measures_write_them(trec_data, capsys):
    code, out, _ = cli(capsys, "-f", "trec", "-m", "ndcg_cut_10 map", "-m", "nDCG@10,20", "-m", "P.5,10",
                       "-m", "AP(rel = 2)", trec_data / "qrels.test", trec_data / "results.test")
    assert code == 0
    assert list(trec_lines(out)) == ["ndcg_cut_10", "map", "ndcg_cut_20", "P_5", "P_10", "AP(rel=2)"]


def test_named_sets_on_the_command_line(trec_data, capsys):
    code, out, _ = cli(capsys, "-f", "trec", "-m", "official", trec_data / "qrels.test", trec_data / "results.test")
    assert code == 0 and len(out.splitlines()) == 30 and out.startswith("runid ")


@pytest.mark.parametrize("args, message", [
    (["--threads", "x"], "Invalid value for '--threads': expected a valid integer"),
    (["-M", "0"], "Invalid value for '-M' / '--depth': expected a number >= 1"),
    (["-f", "nope"], "Invalid value for '-f' / '--format': 'nope' is not one of 'table'"),
    (["--nope"], "No such option: --nope"),
    (["-c", "--missing", "skip"], "-c means --missing zero; it contradicts --missing skip"),
    # trec_eval's flags sqlrank does not take are refused by name, with the reason
    (["-D", "1"], "Invalid value for -D: -D is trec_eval's debug level: sqlrank prints no trace"),
    (["-N", "100000"], "Invalid value for -N: -N is trec_eval's number of documents in the collection"),
    (["-R", "trec_jg"], "Invalid value for -R: -R is trec_eval's format of the judgments: sqlrank reads qrels"),
])
def test_every_usage_error_is_one_line(trec_data, capsys, args, message):
    code, out, err = cli(capsys, *args, trec_data / "qrels.test", trec_data / "results.test")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("sqlrank: error: ") and message in err
    assert err.rstrip().endswith("(see 'sqlrank eval --help')")
    assert "Value error" not in err and "Usage:" not in err and "Try '" not in err


def test_a_missing_argument_is_one_line(trec_data, capsys):
    code, _, err = cli(capsys, trec_data / "qrels.test")
    assert (code, err) == (2, "sqlrank: error: Missing argument 'RUN...'. (see 'sqlrank eval --help')\n") or \
        (code, err) == (2, "sqlrank: error: Missing argument 'RUN'. (see 'sqlrank eval --help')\n")


@pytest.mark.parametrize("command, usage", [("eval", "QRELS RUN..."), ("compare", "QRELS RUN..."),
                                            ("query", "SQL"), ("plot", "KIND QRELS RUN...")])
def test_help_names_the_arguments_plainly(capsys, command, usage):
    assert run([command, "--help"]) == 0
    text = capsys.readouterr().out
    assert f"Usage: sqlrank {command} [OPTIONS] {usage}" in text
    assert not re.search(r"\{[A-Z]+\}|<list\[str\]>|SQL <str>|<path>", text)
