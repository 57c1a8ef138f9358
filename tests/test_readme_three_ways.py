"""The README's "One example, three ways in" is executed: the DuckDB shell script (the real `duckdb`
binary on the SQL that `sqlrank sql` prints), the Python snippet and the CLI command each print
exactly what the README shows, and the three show the same numbers."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent  # the venv's bin folder: sqlrank and duckdb are installed there


def section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^## One example, three ways in\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S)
    assert match, "README.md has no '## One example, three ways in' section"
    return match.group(1)


def block(after: str, language: str) -> tuple[str, str]:
    """The ```language block after heading `after`, and the ```text block that follows it."""
    part = section().split(after, 1)[1]
    match = re.search(rf"```{language}\n(.*?)```\s*```text\n(.*?)```", part, re.S)
    assert match, f"no {language} example under {after!r}"
    return match.group(1), match.group(2)


def environment() -> dict:
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "COLUMNS": "100"}


def test_the_duckdb_shell_example(tmp_path):
    script, expected = block("### DuckDB shell", "bash")
    assert shutil.which("duckdb", path=environment()["PATH"]), "the duckdb shell (duckdb-cli) is a test dependency"
    shutil.copytree(ROOT / "data", tmp_path / "data")
    done = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env=environment(),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected


def test_the_python_example(monkeypatch):
    code, expected = block("### Python", "python")
    monkeypatch.chdir(ROOT)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md three ways: Python", "exec"), {})
    assert printed.getvalue() == expected


def test_the_command_line_example():
    # the command and its output are one ```text block
    command, *output = section().split("### Command line", 1)[1].split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    assert command.startswith("$ sqlrank ")
    done = subprocess.run(command[2:].split(), cwd=ROOT, env=environment(), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == output


def test_the_three_doors_show_the_same_numbers():
    shell = dict(line.split(",") for line in block("### DuckDB shell", "bash")[1].splitlines()[1:])
    python = {line.split()[0]: line.split()[1] for line in block("### Python", "python")[1].splitlines()[2:]}
    cli_text = section().split("### Command line", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    cli = {line.split()[0]: line.split()[1] for line in cli_text.splitlines()[3:]}
    assert shell == python == cli == {"nDCG@10": "0.7894", "AP": "0.6741", "RR": "0.8333"}
