"""The documentation points somewhere real.

* Every relative link in README.md and docs/*.md reaches a file of the repository, and a link with
  `#anchor` into a Markdown file reaches one of its headings (GitHub's anchor for it) or an explicit
  `<a id="...">`.
* Every `docs/<page>.md#<anchor>` cited anywhere in the repository (a comment in the SQL or the code,
  a docstring, a test) exists, so code can cite a definition by its anchor.
* No file cites the specification the definitions were first written in, or its sources: neither is in
  the repository, and docs/measures.md and docs/trec-semantics.md now hold what they said.
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# References to documents that are not in the repository. This file names them, so it is not searched.
MISSING_REFERENCES = re.compile(r"\bSPEC\b|\bTREC_SEMANTICS\b|\b[Ss]eeds? 00\d\b")

LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")  # [text](target "title"), images too
CITATION = re.compile(r"\bdocs/([\w.-]+\.md)#([\w-]+)")
EXPLICIT_ANCHOR = re.compile(r"<a\s[^>]*\b(?:id|name)\s*=\s*\"([^\"]+)\"", re.IGNORECASE)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
SEARCHED_SUFFIXES = {".py", ".sql", ".md", ".toml", ".txt", ".cfg", ".ini", ".yml", ".yaml", ".sh", ".json", ""}


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks (a link or heading inside one is an example, not a link)."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: markup dropped, lower case, punctuation removed, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").replace("*", "").strip().lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor a link may use in the Markdown file: its headings' (numbered when repeated) and explicit ones."""
    found, seen = set(), {}
    for line in prose_lines(path.read_text(encoding="utf-8")):
        found.update(EXPLICIT_ANCHOR.findall(line))
        heading = HEADING.match(line)
        if heading:
            anchor = github_anchor(heading.group(2))
            count = seen.get(anchor, 0)
            seen[anchor] = count + 1
            found.add(anchor if count == 0 else f"{anchor}-{count}")
    return found


def inline_code_removed(line: str) -> str:
    return re.sub(r"`[^`]*`", "", line)


def relative_links(document: Path) -> list[str]:
    links = []
    for line in prose_lines(document.read_text(encoding="utf-8")):
        links += [target for target in LINK.findall(inline_code_removed(line))
                  if not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE)]  # http:, mailto:, ...
    return links


def broken(document: Path, target: str) -> str | None:
    """Why the link `target` of `document` leads nowhere, or None."""
    path_part, _, anchor = target.partition("#")
    path_part = unquote(path_part)
    if not path_part:
        destination = document
    elif path_part.startswith("/"):
        destination = ROOT / path_part.lstrip("/")
    else:
        destination = (document.parent / path_part).resolve()
    if not destination.exists():
        return f"{target}: no such file"
    if anchor and destination.suffix == ".md" and unquote(anchor) not in anchors(destination):
        return f"{target}: {destination.relative_to(ROOT)} has no anchor '{anchor}'"
    return None


def repository_files() -> list[str]:
    """The repository's text files (git's list; without git, every file outside hidden and build folders)."""
    try:
        listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        names = listed.splitlines()
    except (OSError, subprocess.CalledProcessError):
        names = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                 if p.is_file() and not any(part.startswith(".") or part in {"build", "dist", "__pycache__"}
                                            or part.endswith(".egg-info") for part in p.relative_to(ROOT).parts)]
    return sorted(name for name in names
                  if Path(name).suffix in SEARCHED_SUFFIXES and name != "tests/test_docs.py" and (ROOT / name).is_file())


def read_text(name: str) -> str | None:
    try:
        return (ROOT / name).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def citing_files() -> dict[str, list[str]]:
    """{file: ['line: text', ...]} for every file that cites a document not in the repository."""
    citing = {}
    for name in repository_files():
        text = read_text(name)
        if text is None:
            continue
        hits = [f"{number}: {line.strip()}" for number, line in enumerate(text.splitlines(), start=1)
                if MISSING_REFERENCES.search(line)]
        if hits:
            citing[name] = hits
    return citing


# ---------------------------------------------------------------- links and anchors

@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_reaches_a_file_and_its_anchor(document):
    problems = [problem for target in relative_links(document) if (problem := broken(document, target))]
    assert problems == [], f"{document.relative_to(ROOT)}: broken links"


def test_every_cited_docs_anchor_exists():
    problems = []
    for name in repository_files():
        text = read_text(name)
        for number, line in enumerate((text or "").splitlines(), start=1):
            for page, anchor in CITATION.findall(line):
                target = ROOT / "docs" / page
                if not target.exists():
                    problems.append(f"{name}:{number}: docs/{page} does not exist")
                elif anchor not in anchors(target):
                    problems.append(f"{name}:{number}: docs/{page} has no anchor '{anchor}'")
    assert problems == []


def test_the_anchor_rule_is_githubs():
    # the headings of docs/measures.md and docs/trec-semantics.md, as GitHub anchors them
    assert github_anchor("nDCG") == "ndcg"
    assert github_anchor("The `all` row") == "the-all-row"
    assert github_anchor("score_precision") == "score_precision"
    assert github_anchor("Where sqlrank differs from trec_eval") == "where-sqlrank-differs-from-trec_eval"
    assert github_anchor("E1: exponential gain, ideal from the list") == "e1-exponential-gain-ideal-from-the-list"
    assert github_anchor("trec_eval 10, 9.x and pytrec_eval") == "trec_eval-10-9x-and-pytrec_eval"


def test_a_broken_link_is_caught(tmp_path):
    # the checks above can fail: a missing file, a missing anchor, a good link
    document = ROOT / "docs" / "measures.md"
    assert broken(document, "no-such-page.md") == "no-such-page.md: no such file"
    assert broken(document, "trec-semantics.md#no-such-anchor") == (
        "trec-semantics.md#no-such-anchor: docs/trec-semantics.md has no anchor 'no-such-anchor'")
    assert broken(document, "trec-semantics.md#ranking") is None
    assert broken(document, "#ndcg") is None
    assert relative_links_of("[a](x.md) `[b](y.md)` [c](https://example.org) ![d](e.png)\n```\n[f](g.md)\n```",
                             tmp_path) == ["x.md", "e.png"]


def relative_links_of(text: str, folder: Path) -> list[str]:
    page = folder / "page.md"
    page.write_text(text, encoding="utf-8")
    return relative_links(page)


# ---------------------------------------------------------------- the missing specification

def test_no_file_cites_the_missing_specification():
    assert citing_files() == {}, ("these files cite a document that is not in the repository; cite the docs/ page "
                              "and anchor that holds the definition instead")
