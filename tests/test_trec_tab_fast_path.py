"""The fast TREC reader on tab-separated files (many tools write TREC runs with tabs) against the general reader.

As for single spaces (tests/test_trec_fast_path.py): when the fast reader accepts a file it gives exactly the
general reader's table, and otherwise it gives up untouched, so the general reader's messages stay the only ones.
A file that holds both tabs and spaces is the general reader's, since either may split a field of the other.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sqlrank
from sqlrank import readers
from sqlrank.readers import trec as trec_text
from test_trec_fast_path import LABELS, ODD_IDS, PLAIN_IDS, SCORES, assert_the_readers_agree, both_readers

SETTINGS = settings(max_examples=15, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

ODD_SEPARATORS = ["\t"] * 6 + ["\t\t", " ", "\t ", " \t", "\x0b"]
ODD_LINES = ["", "\t", "\t\t", "#\tx", "q1", "q1\tQ0", "\tq1\tQ0\td1\t1\t2\tr"]
PLAIN_ENDS = ["\n", "\r\n", "\r", "\t\n", "\t\r\n"]
ODD_ENDS = PLAIN_ENDS + ["\t\t\n", " \n", "\n\n"]
DATA = Path(__file__).parent / "data" / "trec_eval"
# a BOM inside an id always sends the file to the general reader: plain files leave it out, odd ones keep it
TAB_IDS = [text for text in PLAIN_IDS if "\ufeff" not in text]


@st.composite
def tab_file(draw, kind: str) -> bytes:
    """A tab-separated file: plain (single tabs, one line end), or odd (spaces, double tabs, odd lines, line ends)."""
    odd = draw(st.booleans())
    count = 6 if kind == "run" else 4
    lines = []
    for _ in range(draw(st.integers(0 if odd else 1, 5))):
        if odd and draw(st.integers(0, 4)) == 0:
            lines.append(draw(st.sampled_from(ODD_LINES)))
            continue
        fields = [draw(st.sampled_from(SCORES if kind == "run" else LABELS)) if number == count - (1 if kind == "run"
                                                                                                 else 0)
                  else draw(st.sampled_from(ODD_IDS if odd else TAB_IDS)) for number in range(1, count + 1)]
        lines.append("".join(field + draw(st.sampled_from(ODD_SEPARATORS if odd else ["\t"])) for field in fields[:-1])
                     + fields[-1])
    end = draw(st.sampled_from(PLAIN_ENDS))
    text = "".join(line + (draw(st.sampled_from(ODD_ENDS)) if odd else end) for line in lines)
    return (b"\xef\xbb\xbf" if draw(st.integers(0, 3)) == 0 else b"") + text.encode()


@pytest.mark.parametrize("kind", ["run", "qrels"])
@SETTINGS
@given(data=st.data())
def test_the_fast_reader_gives_the_general_readers_table_for_tabs_or_gives_up(tmp_path, kind, data):
    assert_the_readers_agree(tmp_path, kind, data.draw(tab_file(kind)), compressed=data.draw(st.integers(0, 5)) == 0)


PLAIN = {"run": "q1\tQ0\td1\t1\t2.5\tr\nq1\tQ0\td2\t2\t-1e400\tr\nq2\tQ0\td#1\t1\t+3\tr\n",
         "qrels": "q1\t0\td1\t2\nq1\t0\td2\t1.9\nq2\t0\td#1\t-1\nq2\t0\td3\t+2.5\n"}


@pytest.mark.parametrize("kind", ["run", "qrels"])
@pytest.mark.parametrize("variant", ["plain", "crlf", "bom", "gzip", "trailing tab"])
def test_tab_separated_files_take_the_fast_reader(tmp_path, monkeypatch, kind, variant):
    text = PLAIN[kind]
    data = {"plain": text, "crlf": text.replace("\n", "\r\n"), "bom": "\ufeff" + text, "gzip": text,
            "trailing tab": text.replace("\n", "\t\n")}[variant].encode()
    path = tmp_path / "input.trec"
    path.write_bytes(gzip.compress(data) if variant == "gzip" else data)
    compression = "gzip" if variant == "gzip" else "none"
    fast, general = both_readers(path, kind, compression)
    assert fast is not None and fast == general
    assert len(fast[1]) == len(text.splitlines())


def test_a_tab_separated_file_with_a_bad_line_keeps_the_general_readers_message(tmp_path):
    path = tmp_path / "run.trec"
    path.write_text("q0\tQ0\td0\t1\t3.0\tr\nq1\tQ0\td1\t1\tabc\tr\n")
    with duckdb.connect() as con, pytest.raises(sqlrank.InputError, match=r"run\.trec:2: .*abc"):
        readers.load(con, path, "run", "run")


def test_a_tab_separated_trec_run_read_fast_scores_as_trec_eval(monkeypatch):
    """input.uic0301 (TREC 2003) is tab-separated: the fast reader alone reads it, and RBP is trec_eval's."""
    def general(*args):
        raise AssertionError("the general reader was used")

    run, qrels = DATA / "input.uic0301_630_389", DATA / "qrels.robust03_630_389"
    fast, slow = both_readers(run, "run")
    assert fast is not None and fast == slow
    monkeypatch.setattr(trec_text, "load_general", general)
    # trec_eval -q -M 50 -l 2 -m rbp -m rbp_resid qrels.robust03_630_389 input.uic0301_630_389
    # (out.robust03_630_389.rbp_M50_l2; the qrels are space-separated, so they take the fast reader too)
    result = sqlrank.evaluate(qrels, run, ["rbp", "rbp_resid"], depth=50, rel=2)
    printed = {(row["query_id"], row["measure"]): f"{row['value']:.4f}" for row in result.rows(per_query=True).to_pylist()}
    expected = {(query, name): value for name, query, value in
                (line.split() for line in (DATA / "out.robust03_630_389.rbp_M50_l2").read_text().splitlines())}
    assert printed == expected and len(expected) == 6
