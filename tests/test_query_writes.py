"""`sqlrank query` knows what a statement writes from DuckDB's parse and DuckDB's value of its target.

Comments, expressions and globs that a text match missed: each input stays as it was.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_runner import invoke


@pytest.fixture
def run(tmp_path) -> Path:
    path = tmp_path / "victim.trec"
    path.write_text("q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\n")
    return path


def _error(outcome) -> str:
    assert outcome.exit_code == 1, (outcome.stdout, outcome.stderr)
    assert outcome.stderr.count("\n") == 1
    return outcome.stderr.strip()


@pytest.mark.parametrize("target", [
    "/* c */ '{run}'",                                  # a comment between TO and the file
    "('{folder}/victim' || '.trec')",                   # an expression DuckDB evaluates
    "('{folder}/' || (SELECT 'victim.trec'))",          # a subquery in it
])
def test_a_copy_over_an_input_is_refused_however_it_is_spelled(run, target):
    before = run.read_bytes()
    sql = "COPY run TO " + target.format(run=run, folder=run.parent) + " (FORMAT csv)"
    assert _error(invoke("query", "--run", run, sql)) == (
        f"sqlrank: error: the SQL's COPY writes {run.parent}/victim.trec, which is one of the inputs ({run}); "
        "refusing to overwrite it, copy to another file")
    assert run.read_bytes() == before


def test_a_copy_whose_target_cannot_be_evaluated_is_refused(run):
    for target, reason in (("getvariable('nowhere') || 1", "its value is NULL"),
                           ("no_such_column", 'Binder Error: Referenced column "no_such_column"')):
        line = _error(invoke("query", "--run", run, f"COPY run TO ({target}) (FORMAT csv)"))
        assert line.startswith(f"sqlrank: error: cannot tell which file the SQL's COPY writes ({reason}")
        assert line.endswith("write its target as a string, COPY ... TO 'file.csv'")


def test_an_export_into_the_inputs_folder_is_refused(run):
    line = _error(invoke("query", "--run", run, f"EXPORT DATABASE '{run.parent}'"))
    assert line == (f"sqlrank: error: the SQL's EXPORT DATABASE writes into {run.parent}, which holds one of the "
                    f"inputs ({run}); refusing to overwrite it, export to another folder")


def test_the_everyday_copy_to_a_new_file_works(run, tmp_path):
    """With --qrels/--run this was an AttributeError: the inputs were text, the check wanted a Path."""
    target = tmp_path / "new.csv"
    outcome = invoke("query", "--run", run, f"COPY (SELECT query_id, doc_id, score FROM run ORDER BY doc_id) TO '{target}'")
    assert outcome.exit_code == 0, outcome.stderr
    assert target.read_text().splitlines() == ["query_id,doc_id,score", "q1,d1,2.0", "q1,d2,1.0"]


def test_output_over_a_file_a_glob_reads_is_refused(run, tmp_path):
    part = tmp_path / "part1.csv"
    part.write_text("query_id,doc_id,score\nq1,d1,1\n")
    before = part.read_bytes()
    outcome = invoke("query", f"SELECT * FROM read_csv('{tmp_path}/part*.csv')", "-o", part)
    assert _error(outcome) == (f"sqlrank: error: {part}: is one of the inputs ({part}); refusing to overwrite it, "
                               "choose another output file")
    assert part.read_bytes() == before


@pytest.mark.parametrize("options", ["PARTITION_BY (query_id), OVERWRITE", "PER_THREAD_OUTPUT"])
def test_a_copy_into_a_folder_that_holds_an_input_is_refused(tmp_path, run, options):
    """DuckDB's OVERWRITE empties the folder, subfolders too, before writing the partitions."""
    folder = tmp_path / "outer"
    (folder / "inner").mkdir(parents=True)
    run = run.rename(folder / "inner" / run.name)
    line = _error(invoke("query", "--run", run, f"COPY run TO '{folder}' (FORMAT csv, {options})"))
    assert line == (f"sqlrank: error: the SQL's COPY writes into the folder {folder}, which holds one of the inputs "
                    f"({run}); refusing, since DuckDB's OVERWRITE empties the folder first: copy into another folder")
    assert run.exists()
