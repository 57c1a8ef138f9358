"""sqlrank.plot and `sqlrank plot` write a picture as eval writes a table: whole or not at all, where named.

A folder, a name without a picture's extension or a delta against an unknown baseline is an
error before anything is written; a picture replaces the old one by a rename, never in place.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import sqlrank
from sqlrank.errors import OutputError

pytest.importorskip("matplotlib")
DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture(scope="module")
def result():
    return sqlrank.evaluate(DATA / "qrels.txt", {"bm25": DATA / "bm25.trec", "dense": DATA / "dense.trec"}, ["AP"])


@pytest.mark.parametrize("name, message", [
    ("", r"is a folder; name a file to write"),
    ("picture", r"picture: cannot tell the picture's format from the extension '\(none\)'; name a file ending .png"),
])
def test_a_folder_or_a_name_without_extension_is_refused(result, tmp_path, name, message):
    with pytest.raises(OutputError, match=message):
        sqlrank.plot(result, "distribution", tmp_path / name if name else tmp_path)
    assert os.listdir(tmp_path) == []  # no folder/.png, no picture.png


def test_a_delta_against_an_unknown_baseline_is_refused(result, tmp_path):
    with pytest.raises(OutputError, match=r"the baseline 'bm52' is not one of the runs \(bm25, dense\)"):
        sqlrank.plot(result, "delta", tmp_path / "d.png", baseline="bm52")
    assert os.listdir(tmp_path) == []


def test_a_picture_replaces_the_old_one_by_a_rename(result, tmp_path, monkeypatch):
    """The picture is written to a temporary file renamed over the old one: its inode changes, and a failure
    while writing (here: the rename refused) leaves the old file as it was."""
    path = tmp_path / "d.svg"
    sqlrank.plot(result, "distribution", path)
    first = path.read_bytes()
    inode = path.stat().st_ino
    assert first.startswith(b"<?xml") and first.rstrip().endswith(b"</svg>")
    sqlrank.plot(result, "delta", path)
    assert path.stat().st_ino != inode and path.read_bytes() != first
    second = path.read_bytes()

    def refuse(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OutputError, match="cannot be written: No space left on device"):
        sqlrank.plot(result, "distribution", path)
    assert path.read_bytes() == second and [p.name for p in tmp_path.iterdir()] == ["d.svg"]


@pytest.mark.parametrize("source", [None, "results.csv", 3])
def test_a_source_that_is_no_table_is_said_plainly(source):
    with pytest.raises(OutputError, match="plot draws a sqlrank Result or a per-query table"):
        sqlrank.plot(source, "distribution")


def test_the_command_refuses_a_name_without_a_picture_s_extension_before_evaluating(tmp_path):
    from cli_runner import invoke

    for target in ("/dev/stdout", tmp_path / "picture"):
        outcome = invoke("plot", "delta", DATA / "qrels.txt", DATA / "bm25.trec", DATA / "dense.trec", "-o", target)
        assert outcome.exit_code == 1 and outcome.stderr.startswith(
            f"sqlrank: error: {target}: cannot tell the picture's format from the extension '(none)'")
    assert os.listdir(tmp_path) == [] and not Path("/dev/stdout.png").exists()
