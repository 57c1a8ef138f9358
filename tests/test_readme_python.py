"""The README's "## Python" section is executed: each ```python block, run from the project folder in one
namespace (as a reader would paste them one after the other), prints exactly the ```text block below it."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = re.compile(r"```python\n(?P<code>.*?)```\s*```text\n(?P<output>.*?)```", re.S)


def python_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^## Python\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S)
    assert match, "README.md has no '## Python' section"
    return match.group(1)


def test_the_python_section_has_examples_with_their_output():
    section = python_section()
    examples = list(EXAMPLE.finditer(section))
    assert len(examples) >= 3
    # every python block is followed by its output: none is left unchecked
    assert section.count("```python") == len(examples)


def test_the_python_examples_print_what_the_readme_shows(monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples read data/... relative to the project folder
    namespace: dict = {}
    for number, example in enumerate(EXAMPLE.finditer(python_section()), start=1):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(example.group("code"), f"README.md Python example {number}", "exec"), namespace)
        assert printed.getvalue() == example.group("output"), f"example {number}"


def test_the_shown_numbers_are_the_right_ones():
    """The README's numbers, recomputed by hand for the one the reader is told to look at."""
    import math

    section = python_section()
    # dense ranks q1 A, B, C, G, E (labels 3, 3, 2, 0, 1), ideal from the qrels [3, 3, 2, 2, 1, 1];
    # q2 d, b, c (d and b tied at 0.70: d first, doc id descending; labels 0, 1, 1), R = 3;
    # q3 x (label 2), R = 1
    idcg_q1 = sum(g / math.log2(i + 1) for i, g in enumerate([3, 3, 2, 2, 1, 1], start=1))
    ndcg_q1 = (3 + 3 / math.log2(3) + 2 / 2 + 0 + 1 / math.log2(6)) / idcg_q1
    ndcg_q2 = (1 / math.log2(3) + 1 / math.log2(4)) / (1 + 1 / math.log2(3) + 1 / math.log2(4))
    ndcg_q3 = 1.0
    mean = (ndcg_q1 + ndcg_q2 + ndcg_q3) / 3
    assert f"\n{mean!r}\n" in section
    assert mean == pytest.approx(0.789439773830919, abs=1e-15)
    assert f"[('q1', {round(ndcg_q1, 4)}), ('q2', {round(ndcg_q2, 4)}), ('q3', 1.0)]" in section
