"""docs/measures.md has a section for every measure of the registry, and its worked examples are right.

* The measure sections are the `###` headings under a `##` heading ending in "measures"; their titles are
  exactly the registry's canonical names, no more and no fewer.
* Each states its definition, its parameters (by name, with the registry's default and choices), its edge
  cases, its names (the registry's aliases and trec_eval names) and a worked example.
* Each worked example is a fenced ```` ```example ```` block that this file evaluates with sqlrank: its
  lines `judgments: A=3 B=1 C=0`, `ranking: A x B` (or `scores: A=2 B=2`, for ties) and `options: missing=skip`
  give the input, and a line `AP: (1/1 + 2/3) / 2 = 0.8333333333333333` a measure's value for a query
  (`AP q2: ...` for a named one, `AP all: ...` for the `all` row). The arithmetic is evaluated too. `=`
  means the value to 1e-12; `≈` means the value rounded to the digits written.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow
import pytest

import sqlrank
from sqlrank.registry import PARAMETERS, REGISTRY
from tolerances import printed

DOCUMENT = Path(__file__).resolve().parent.parent / "docs" / "measures.md"

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{2,3})\s+(.*?)\s*$")
LABELS = ("Definition", "Parameters", "Edge cases", "Names", "Example")
DEFAULT_QUERY = "q"

# what the arithmetic may use besides numbers and + - * / ( ): the doc's symbols and a few functions
SYMBOLS = {"·": "*", "×": "*", "−": "-", "^": "**", "²": "**2", "³": "**3"}
FUNCTIONS = {"log2": math.log2, "ln": math.log, "log": math.log, "exp": math.exp, "sqrt": math.sqrt,
             "min": min, "max": max}


# ---------------------------------------------------------------- reading the page

def sections(text: str) -> dict[str, str]:
    """{measure: its section's text}: the `###` sections under a `##` heading that ends in "measures"."""
    found, family, current, fenced = {}, None, None, False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        heading = None if fenced else HEADING.match(line)
        if heading and heading.group(1) == "##":
            family, current = heading.group(2).lower().endswith("measures"), None
        elif heading and family:
            current = heading.group(2)
            if current in found:
                raise AssertionError(f"docs/measures.md: two sections '{current}'")
            found[current] = ""
        elif current is not None:
            found[current] += line + "\n"
    return found


def paragraph(section: str, label: str) -> str:
    """The text after `**<label>.**`, up to the next labelled paragraph (or the section's end)."""
    match = re.search(rf"\*\*{re.escape(label)}\.\*\*(.*?)(?=\n\*\*[A-Z][a-z ]+\.\*\*|\Z)", section, re.DOTALL)
    return match.group(1).strip() if match else ""


def example_blocks(section: str) -> list[str]:
    return re.findall(r"^```example\n(.*?)^```", section, re.DOTALL | re.MULTILINE)


# ---------------------------------------------------------------- a worked example

@dataclass
class Expected:
    line: str
    measure: str  # as written
    query: str
    expressions: list[str]
    value: float
    tolerance: float


@dataclass
class Example:
    qrels: dict = field(default_factory=dict)
    run: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)
    expected: list[Expected] = field(default_factory=list)
    subtopics: dict = field(default_factory=dict)  # the diversity measures': {query: {doc: "1,2"}}


LINE = re.compile(r"^(?P<head>\S+?)(?:\s+(?P<query>[\w.-]+))?:(?:\s+(?P<rest>.*))?$")


def number(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def pairs(text: str, line: str) -> dict:
    items = text.split()
    if not all("=" in item for item in items):
        raise AssertionError(f"'{line}': expected name=value items")
    return {name: number(value) for name, value in (item.split("=", 1) for item in items)}


def parse_example(block: str) -> Example:
    example = Example()
    for raw in block.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = LINE.match(line)
        if not match:
            raise AssertionError(f"'{raw}': expected '<what> [query]: ...'")
        head, query, rest = match.group("head"), match.group("query") or DEFAULT_QUERY, match.group("rest") or ""
        if head == "judgments":
            example.qrels[query] = pairs(rest, raw)
        elif head == "ranking":
            documents = rest.split()
            example.run[query] = {doc: float(len(documents) - place) for place, doc in enumerate(documents)}
        elif head == "scores":
            example.run[query] = {doc: float(score) for doc, score in pairs(rest, raw).items()}
        elif head == "subtopics":  # `subtopics: a=1,2 b=2`: the subtopics each document is relevant to
            example.subtopics[query] = pairs(rest, raw)
        elif head == "options":
            example.options.update(pairs(rest, raw))
        else:
            example.expected.append(expected_value(raw, head, query, rest))
    return example


def expected_value(line: str, measure: str, query: str, rest: str) -> Expected:
    # 'expression = expression ≈ value': the last part is the value, the last relation says how exact it is
    parts = re.split(r"\s+([=≈])\s+", rest.strip())
    expressions, relations = parts[0::2], parts[1::2] or ["="]
    value_text = expressions[-1]
    try:
        value = float(value_text)
    except ValueError:
        raise AssertionError(f"'{line}': expected '<arithmetic> = <number>', got '{value_text}' last") from None
    if relations[-1] == "≈":
        tolerance = printed(len(value_text.partition(".")[2]))
    else:
        tolerance = 1e-12 * max(1.0, abs(value))
    return Expected(line, measure, query, expressions[:-1], value, tolerance)


def arithmetic(expression: str) -> float:
    for symbol, python in SYMBOLS.items():
        expression = expression.replace(symbol, python)
    return float(eval(expression, {"__builtins__": {}}, FUNCTIONS))  # the doc's own text, not user input


def problems(example: Example, connection) -> list[str]:
    """Every line of the example whose value (or arithmetic) differs from sqlrank's."""
    canonical = {e.measure: str(sqlrank.parse_measures([e.measure])[0]) for e in example.expected}
    judgments = {"qrels": example.qrels}
    if example.subtopics:  # subtopic qrels, in place of the qrels
        rows = [(query, subtopic, doc) for query, docs in example.subtopics.items() for doc, subtopics in docs.items()
                for subtopic in str(subtopics).split(",")]
        columns = dict(zip(("query_id", "subtopic_id", "doc_id"), map(list, zip(*rows))))
        judgments = {"qrels": None, "subtopic_qrels": pyarrow.table(columns | {"relevance": [1] * len(rows)})}
    result = sqlrank.evaluate(**judgments, run=example.run, measures=sorted(set(canonical.values())),
                              names="canonical", connection=connection, **example.options)
    values = {(row["query_id"], row["measure"]): row["value"] for row in result.rows(per_query=True).to_pylist()}
    found = []
    for expected in example.expected:
        got = values.get((expected.query, canonical[expected.measure]))
        if got is None or abs(got - expected.value) > expected.tolerance:
            found.append(f"'{expected.line}': sqlrank gives {got!r}")
        for expression in expected.expressions:
            worked = arithmetic(expression)
            if abs(worked - expected.value) > expected.tolerance:
                found.append(f"'{expected.line}': {expression} is {worked!r}")
    return found


# ---------------------------------------------------------------- the tests

SECTIONS = sections(DOCUMENT.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def connection():
    con = sqlrank.connect()
    yield con
    con.close()


def test_every_measure_has_a_section_and_every_section_a_measure():
    assert sorted(SECTIONS) == sorted(REGISTRY), (
        "docs/measures.md: a `###` section per measure of sqlrank/registry.py, titled with its canonical name")


@pytest.mark.parametrize("name", REGISTRY)
def test_the_section_states_every_part(name):
    section = SECTIONS.get(name, "")
    missing = [label for label in LABELS if not paragraph(section, label)]
    assert missing == [], f"docs/measures.md#{name.lower()}: no **{'.**, **'.join(missing)}.**"
    assert example_blocks(section), f"docs/measures.md#{name.lower()}: the example needs an ```example block"


@pytest.mark.parametrize("name", REGISTRY)
def test_the_section_names_the_parameters_with_defaults_and_choices(name):
    text = paragraph(SECTIONS.get(name, ""), "Parameters")
    declared = REGISTRY[name].params
    if not declared:
        assert text.lower().startswith("none"), f"{name} takes no parameter: say 'none'"
    for parameter in (PARAMETERS[p] for p in declared):
        assert f"`{parameter.name}`" in text, f"{name}: parameter {parameter.name} not named"
        default = REGISTRY[name].default(parameter.name)  # the measure's own (NERR10's p is 0.9)
        if not isinstance(default, (tuple, type(None))):
            assert re.search(rf"`{parameter.name}`[^`]*?default `{re.escape(str(default))}`", text), (
                f"{name}: write '`{parameter.name}`..., default `{default}`'")
        for choice in parameter.choices:
            assert f"`{choice}`" in text, f"{name}: parameter {parameter.name}'s choice {choice} not named"


@pytest.mark.parametrize("name", REGISTRY)
def test_the_section_gives_every_spelling(name):
    definition = REGISTRY[name]
    text = paragraph(SECTIONS.get(name, ""), "Names")
    # the aliases, trec_eval's name and its family (`map_cut`; `iprec_at_recall`, whose `_k` is a recall level)
    names = [a for a in definition.aliases if a.lower() != name.lower()]
    names += [n for n in (definition.trec_name, definition.trec_family) if n]
    assert [n for n in names if f"`{n}`" not in text] == [], f"docs/measures.md#{name.lower()}: name these in **Names.**"


@pytest.mark.parametrize("name", REGISTRY)
def test_the_worked_example_is_what_sqlrank_computes(name, connection):
    blocks = [parse_example(block) for block in example_blocks(SECTIONS.get(name, ""))]
    asked = {sqlrank.parse_measures([e.measure])[0].name for example in blocks for e in example.expected}
    assert name in asked, f"docs/measures.md#{name.lower()}: no example line computes {name}"
    assert [problem for example in blocks for problem in problems(example, connection)] == []


def test_the_parameters_section_lists_every_parameter():
    text = DOCUMENT.read_text(encoding="utf-8").split("\n## Parameters\n", 1)[1].split("\n## ", 1)[0]
    assert [p for p in PARAMETERS if f"`{p}`" not in text] == []


def test_a_wrong_example_is_caught(connection):
    # R = 2 (a, b), b at rank 3: AP = (1/1 + 2/3) / 2; a wrong value, and wrong arithmetic, are both reported
    example = parse_example("judgments: a=1 b=1 c=0\nranking: a c b\n"
                            "AP: (1/1 + 2/3) / 2 = 0.8333333333333334\n"
                            "AP@1: 1/1 / 2 = 0.6\n"
                            "P@2: 1/3 ≈ 0.5\n"
                            "RR: 1/1 ≈ 1.04\n")
    assert problems(example, connection) == [
        "'AP@1: 1/1 / 2 = 0.6': sqlrank gives 0.5",
        "'AP@1: 1/1 / 2 = 0.6': 1/1 / 2 is 0.5",
        "'P@2: 1/3 ≈ 0.5': 1/3 is 0.3333333333333333",
        "'RR: 1/1 ≈ 1.04': sqlrank gives 1.0",
        "'RR: 1/1 ≈ 1.04': 1/1 is 1.0",
    ]


def test_a_missing_or_extra_section_is_caught():
    text = "## Counting measures\n\n### NumRet\n\n**Definition.** x\n\n### NoSuchMeasure\n\n## Parameters\n\n### rel\n"
    assert sorted(sections(text)) == ["NoSuchMeasure", "NumRet"]
    assert paragraph(sections(text)["NumRet"], "Definition") == "x"
