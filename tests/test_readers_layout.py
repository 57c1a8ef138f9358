"""The input side's layout holds: readers -> checks -> sqlgen/errors, never back, and every registered reader
says how it is recognised (docs/adding-an-input-format.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sqlrank import readers
from sqlrank.readers import files

PACKAGE = Path(readers.__file__).resolve().parent.parent


def sqlrank_imports(path: Path) -> set[str]:
    """The sqlrank modules `path` imports, as dotted names relative to the package ('checks', 'readers.base')."""
    here = path.relative_to(PACKAGE).with_suffix("").parts
    package = here[:-1] if here[-1] != "__init__" else here[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - node.level + 1]
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            names = [f"{module}.{alias.name}" if module else alias.name for alias in node.names]
            found |= {module} if node.module else set(names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("sqlrank"):
            found.add(node.module.removeprefix("sqlrank").lstrip("."))
    return {name for name in found if name}


@pytest.mark.parametrize("path", sorted((PACKAGE / "checks").glob("*.py")), ids=lambda p: p.name)
def test_the_checks_never_import_a_reader(path):
    assert not [name for name in sqlrank_imports(path) if name.startswith("readers")]


@pytest.mark.parametrize("name", ["errors.py", "sqlgen.py"])
def test_errors_and_sqlgen_import_nothing_of_sqlrank(name):
    assert sqlrank_imports(PACKAGE / name) == set()


def test_a_format_module_imports_no_other_format():
    """A format module builds on the shared pieces (base, files, tables, frames, and mapping for the files that
    hold a dict: ranx's JSON and .lz4), never on another format."""
    shared = {"readers.base", "readers.files", "readers.tables", "readers.frames", "readers.mapping"}
    formats = {reader.read.func.__module__ if hasattr(reader.read, "func") else reader.read.__module__
               for reader in readers.READERS}
    for module in formats:
        path = PACKAGE / (module.removeprefix("sqlrank.").replace(".", "/") + ".py")
        others = {name for name in sqlrank_imports(path) if name.startswith("readers")} - shared
        assert others == set(), f"{module} imports {others}"


def test_every_reader_says_how_it_is_recognised():
    for reader in readers.READERS:
        assert bool(reader.magic or reader.extensions or reader.first_line) != bool(reader.accepts), reader.name
    # the last file reader takes any first line, so that every file has a reader
    last_file_reader = [reader for reader in readers.READERS if reader.first_line][-1]
    assert last_file_reader.name == "trec" and last_file_reader.first_line("anything")


def test_every_magic_fits_in_the_bytes_read(tmp_path):
    path = tmp_path / "input"
    path.write_bytes(b"x" * 64)
    head = files.open_file(path, "run").head
    assert all(len(reader.magic) <= len(head) for reader in readers.READERS)


@pytest.mark.parametrize("name, expected", [
    ("bm25.trec", "bm25"), ("bm25.trec.gz", "bm25"), ("runs.CSV", "runs"), ("a.parquet", "a"), ("b.feather", "b"),
    ("c.jsonl", "c"), ("d.txt", "d"), ("e.run", "e"), ("f", "f"), (".trec", ".trec"),
])
def test_a_run_is_named_after_its_file(name, expected):
    assert readers.run_name(name, 0) == expected
    assert readers.run_name(Path("some/folder") / name, 3) == expected


def test_the_worked_example_in_the_docs_is_the_module_itself():
    """docs/adding-an-input-format.md shows sqlrank/readers/feather.py whole: it must not drift from it."""
    doc = (PACKAGE.parent / "docs" / "adding-an-input-format.md").read_text(encoding="utf-8")
    shown = doc.split("```python\n", 1)[1].split("```", 1)[0]
    assert shown == (PACKAGE / "readers" / "feather.py").read_text(encoding="utf-8")
    assert "    feather.READER,\n" in (PACKAGE / "readers" / "registry.py").read_text(encoding="utf-8")
