"""The command line's edges: one check of each output, nothing changed in the calling process, the public API only.

Imports go one way: the CLI -> sqlrank (public) -> engine -> result; export ->
the format renderers -> (a Result's methods), never back into export.
"""

from __future__ import annotations

import ast
import gc
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

import sqlrank
from sqlrank import cli, export

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sqlrank"
DATA = ROOT / "data"


def invoke(*args):
    try:
        runner = CliRunner(mix_stderr=False)  # click < 8.2 mixes stderr into stdout unless told
    except TypeError:
        runner = CliRunner()
    return runner.invoke(cli.app, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def checks(monkeypatch) -> list:
    """Every call of export.check_target, by whoever makes it."""
    calls, original = [], export.check_target

    def counted(path, inputs=()):
        calls.append(Path(path))
        return original(path, inputs)

    monkeypatch.setattr(export, "check_target", counted)
    return calls


@pytest.mark.parametrize("command", [
    ["eval", DATA / "qrels.txt", DATA / "bm25.trec", "-m", "AP"],
    ["query", "--run", DATA / "bm25.trec", "SELECT count(*) AS n FROM run"],
])
def test_an_output_is_checked_once(tmp_path, checks, command):
    target = tmp_path / "out.csv"
    shown = invoke(*command, "-o", target)
    assert shown.exit_code == 0, shown.stderr
    assert checks == [target]
    assert target.read_text().splitlines()[0].startswith('"')  # written, as CSV


def test_writing_from_python_checks_once(tmp_path, checks):
    result = sqlrank.evaluate(DATA / "qrels.txt", DATA / "bm25.trec", ["AP"])
    export.write(result, tmp_path / "out.md")
    checked = export.check_target(tmp_path / "again.tex")  # a Target is not checked a second time
    export.write(result, checked)
    assert checks == [tmp_path / "out.md", tmp_path / "again.tex"]
    assert (tmp_path / "again.tex").read_text().startswith("\\begin{tabular}{lr}")


def test_run_changes_nothing_in_the_calling_process():
    """main() disables the garbage collector for its own process; run(), which tests and programs call
    in theirs, leaves it on, and the environment as it was."""
    environ = dict(os.environ)
    assert gc.isenabled()
    assert cli.run(["measures"]) == 0
    assert cli.run(["eval", str(DATA / "qrels.txt"), str(DATA / "bm25.trec"), "-m", "AP", "-f", "csv"]) == 0
    assert gc.isenabled()
    assert dict(os.environ) == environ


def _imports(path: Path) -> list[str]:
    """The modules a file imports when it runs (not those under `if TYPE_CHECKING:`), as absolute names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(("sqlrank", *path.relative_to(PACKAGE).parent.parts))
    checking = {id(node) for top in ast.walk(tree) if isinstance(top, ast.If)
                and getattr(top.test, "id", None) == "TYPE_CHECKING" for node in ast.walk(top)}
    names = []
    for node in ast.walk(tree):
        if id(node) in checking:
            continue
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module) if part)
            # `from . import export` imports the module sqlrank.export
            names += [f"{module}.{alias.name}" if not node.module else module for alias in node.names]
    return [name for name in names if name == "sqlrank" or name.startswith("sqlrank.")]


def test_the_cli_imports_only_the_public_api():
    """Every module of the sqlrank.cli package imports, outside the package, only sqlrank and its errors."""
    outside = set()
    for path in sorted((PACKAGE / "cli").glob("*.py")):
        outside |= {name for name in _imports(path) if not name.startswith("sqlrank.cli")}
        used = {node.attr for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                if isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == "sqlrank"}
        assert used <= set(sqlrank.__all__), (path.name, used - set(sqlrank.__all__))
    assert sorted(outside) == ["sqlrank", "sqlrank.errors"]


def test_result_and_export_import_one_way():
    result = _imports(PACKAGE / "result.py")
    assert all(not name.startswith("sqlrank.export") for name in result), result
    # the terminal table, with which a Result shows itself; the plots, which Result.plot draws (they read a
    # Result through its methods, never importing sqlrank.result)
    # the layers below it: SQL text, errors and the measure parser (for the cutoff column), none of which reads
    # a Result
    below = {"sqlrank.sqlgen", "sqlrank.errors", "sqlrank.measures",
             "sqlrank.checks.empty_truth"}  # the notice of the queries the empty policy met
    assert set(result) <= {"sqlrank.formats.table", "sqlrank.plots"} | below, result
    assert all("sqlrank.result" not in _imports(PACKAGE.joinpath(*name.split(".")[1:]).with_suffix(".py"))
               for name in below)
    assert "sqlrank.result" not in _imports(PACKAGE / "plots.py")
    for path in [PACKAGE / "export.py", *sorted((PACKAGE / "formats").glob("*.py"))]:
        names = _imports(path)
        assert "sqlrank.result" not in names, path  # they read a Result through its methods
        if path.parent.name == "formats":
            assert "sqlrank.export" not in names, path  # renderers know nothing of where their bytes go
