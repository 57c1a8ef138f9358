"""The fast TREC reader (single spaces, DuckDB splits the fields) against the general one (any whitespace).

Whenever the fast reader accepts a file it must give exactly the general reader's table: same rows, same
order, same values, same types. Everything else it must hand back (return False) untouched, so that the
general reader's behaviour and messages stay the only ones. Hypothesis writes TREC-ish files: mostly plain
single-spaced lines, with the odd cases mixed in (tabs, double, leading and trailing spaces, comment and
blank lines, CR and CRLF line ends, BOMs, odd scores and labels, NUL, 0x1F and non-UTF-8 bytes, gzip).
"""

from __future__ import annotations

import gzip
import math
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqlrank import readers
from sqlrank.readers import trec as trec_text
from sqlrank.errors import InputError

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

# ids the fast reader accepts, then ids it must give up on (or read exactly as the general reader does)
PLAIN_IDS = ["q1", "7", "D00000001", "doc#4", "a\ufeffb", "café", "a_b", "1.50", "-", "Q0", "x" * 14]
ODD_IDS = PLAIN_IDS + ["#x", "\ufeffa", "a\ufeff", "a\x00b", "a\x1fb", "a\tb", "a\x0bb", "a\x0cb", "a\rb"]
SCORES = ["1", "2.5", "-3", "0", "-0", "+1", ".5", "5.", "1e400", "-1e400", "1e-400", "inf", "-inf", "Infinity",
          "nan", "NaN", "1_000", "0x10", "1,5", "abc", "3abc", "1e", "\u0663", "2\ufeff", "1\ufeff2"]
LABELS = ["0", "1", "2", "-1", "+2", "007", "1.5", "1.9", "2e1", "x", "1_0", "99999999999999999999", "3\ufeff"]
ODD_SEPARATORS = [" "] * 6 + ["  ", "\t", " \t", "\x0b", "\x0c", "\ufeff "]
ODD_LINES = ["", " ", "   ", "\t", "#", "# a comment", "# a b c d e f", "#q1 Q0 d 1 2 r", " # x", "\ufeff",
             "\ufeff# x", "q1", "q1 Q0", "\x1f", "a\x1f"]
# one line end for a whole plain file (DuckDB refuses a mix when it splits fields), any mix in an odd one
PLAIN_ENDS = ["\n", "\r\n", "\r", " \n", " \r\n"]
ODD_ENDS = PLAIN_ENDS + ["  \n", "\t\n", "\ufeff\n", "\n\n", "\r\n\r\n"]


@st.composite
def trec_line(draw, kind: str, odd: bool) -> str:
    """One line's text (no line end): `count` fields, or in an odd file sometimes more or fewer, or an odd line."""
    if odd and draw(st.integers(0, 4)) == 0:
        return draw(st.sampled_from(ODD_LINES))
    count = 6 if kind == "run" else 4
    if odd:
        count = draw(st.sampled_from([count, count, count - 1, count + 1, 4 if kind == "run" else 6]))
    fields = []
    for number in range(1, count + 1):
        if number == (5 if kind == "run" else 4):
            fields.append(draw(st.sampled_from(SCORES if kind == "run" else LABELS)))
        else:
            fields.append(draw(st.sampled_from(ODD_IDS if odd else PLAIN_IDS)))
    return "".join(text + draw(st.sampled_from(ODD_SEPARATORS if odd else [" "])) for text in fields[:-1]) + \
        fields[-1]


@st.composite
def trec_file(draw, kind: str) -> bytes:
    """Plain files (single spaces, one line end), or odd ones; sometimes a BOM, a stray byte, no last line end."""
    odd = draw(st.booleans())
    lines = draw(st.lists(trec_line(kind, odd), max_size=6))
    end = draw(st.sampled_from(PLAIN_ENDS))
    text = "".join(line + (draw(st.sampled_from(ODD_ENDS)) if odd else end) for line in lines)
    if lines and draw(st.booleans()):
        text = text.rstrip("\r\n")
    data = (b"\xef\xbb\xbf" if draw(st.integers(0, 3)) == 0 else b"") + text.encode()
    if odd and draw(st.booleans()):
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xe9", b"\x00", b"\x1f", b"\r", b"\n", b" ",
                                                 b"\xef\xbb\xbf"])) + data[at:]
    return data


def table_of(con, table: str) -> tuple[list, list]:
    """(column names and types, rows in table order) of `table`, NaN and -0.0 made comparable."""
    types = [row[:2] for row in con.execute(f"DESCRIBE {table}").fetchall()]
    rows = [tuple(repr(value) if isinstance(value, float) else value for value in row)
            for row in con.execute(f"SELECT * FROM {table}").fetchall()]
    return types, rows


def both_readers(path: Path, kind: str, compression: str = "none"):
    """(fast table or None if it gave up, general table or None if it refused the file)."""
    with duckdb.connect() as con:
        fast = table_of(con, "raw") if trec_text.load_fast(con, path, compression, "raw", kind) else None
    with duckdb.connect() as con:
        try:
            trec_text.load_general(con, path, compression, "raw", kind)
        except InputError:
            return fast, None
        return fast, table_of(con, "raw")


@pytest.mark.parametrize("kind", ["run", "qrels"])
@SETTINGS
@given(data=st.data())
def test_the_fast_reader_gives_the_general_readers_table_or_gives_up(tmp_path, kind, data):
    assert_the_readers_agree(tmp_path, kind, data.draw(trec_file(kind)), compressed=data.draw(st.integers(0, 5)) == 0)


def assert_the_readers_agree(tmp_path, kind: str, content: bytes, compressed: bool) -> None:
    """The fast reader gives the general reader's table for the file `content` (gzipped when `compressed`), or
    gives up."""
    path = tmp_path / "input.trec"
    path.write_bytes(gzip.compress(content) if compressed else content)
    fast, general = both_readers(path, kind, "gzip" if compressed else "none")
    if fast is not None:
        assert fast == general


PLAIN = {"run": "q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 -1e400 r\nq2 Q0 d#1 1 +3 r\n",
         "qrels": "q1 0 d1 2\nq1 0 d2 1.9\nq2 0 d#1 -1\nq2 0 d3 +2.5\n"}


@pytest.mark.parametrize("kind", ["run", "qrels"])
@pytest.mark.parametrize("variant", ["plain", "crlf", "bom", "cr", "gzip", "trailing space", "empty"])
def test_plain_files_take_the_fast_reader(tmp_path, monkeypatch, kind, variant):
    text = PLAIN[kind]
    data = {"plain": text, "crlf": text.replace("\n", "\r\n"), "bom": "\ufeff" + text, "cr": text.replace("\n", "\r"),
            "gzip": text, "trailing space": text.replace("\n", " \n"), "empty": ""}[variant].encode()
    path = tmp_path / "input.trec"
    path.write_bytes(gzip.compress(data) if variant == "gzip" else data)
    compression = "gzip" if variant == "gzip" else "none"
    fast, general = both_readers(path, kind, compression)
    assert fast is not None and fast == general

    def general(*args):
        raise AssertionError("the general reader was used")

    monkeypatch.setattr(trec_text, "load_general", general)
    with duckdb.connect() as con:
        if variant == "empty" and kind == "qrels":
            with pytest.raises(InputError, match="no qrels lines"):
                readers.load(con, path, kind, kind)
            return
        if variant == "empty":  # a run that retrieved nothing: the engine's missing policy decides
            assert readers.load(con, path, kind, kind).no_rows
            return
        loaded = readers.load(con, path, kind, kind)
        assert con.execute(f"SELECT count(*) FROM {kind}").fetchone()[0] == len(text.splitlines())
    # the qrels keep their note on labels cut to whole numbers (1.9 and +2.5)
    assert loaded.notes == ([] if kind == "run" else [f"{path}: 2 relevance label(s) are not whole numbers; read "
                                                      "as their leading integer, as trec_eval does (1.9 -> 1); give "
                                                      "real-valued labels in a CSV or Parquet qrels"])


def test_the_fast_reader_reads_a_plain_run_and_its_numbers(tmp_path):
    path = tmp_path / "run.trec"
    path.write_text("q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 -1e400 r\nq2 Q0 d#1 1 inf r\n")
    with duckdb.connect() as con:
        assert trec_text.load_fast(con, path, "none", "raw", "run")
        assert con.execute("SELECT * FROM raw").fetchall() == [("q1", "d1", 2.5), ("q1", "d2", -math.inf),
                                                               ("q2", "d#1", math.inf)]


@pytest.mark.parametrize("line", ["q1\tQ0 d1 1 2.5 r", "q1 Q0  d1 1 2.5 r", " q1 Q0 d1 1 2.5 r", "# q1 Q0 d1 1 2.5",
                                  "q1 Q0 d1 1 2.5 r extra", "q1 Q0 d1 1 2.5", "\ufeffq1 Q0 d1 1 2.5 r",
                                  "q1 Q0 d\x1f1 1 2.5 r", "q1 Q0 d1 1 2.5 r\ufeff",
                                  # after a tab-separated line (tests/test_trec_tab_fast_path.py)
                                  "q1\tQ0\td1\t1\t2.5 r", "q1\tQ0\t\td1\t1\t2.5\tr", "\tq1\tQ0\td1\t1\t2.5\tr",
                                  "q1\tQ0\td 1\t1\t2.5\tr", "q1\tQ0\td1\t1\t2.5\tr\textra", "q1\tQ0\td1\t1\t2.5",
                                  "#\tq1\tQ0\td1\t1\t2.5", "q1\tQ0\td1\x0b\t1\t2.5\tr"])
def test_the_fast_reader_gives_up_on_lines_it_could_read_differently(tmp_path, line):
    path = tmp_path / "run.trec"
    first = "q0\tQ0\td0\t1\t3.0\tr" if line.count("\t") > 1 else "q0 Q0 d0 1 3.0 r"
    path.write_text(f"{first}\n{line}\n")
    with duckdb.connect() as con:
        assert not trec_text.load_fast(con, path, "none", "raw", "run")


def test_the_fast_reader_stays_out_of_a_callers_transaction(tmp_path):
    # a failed attempt would abort the caller's transaction, and with it the general reader's
    path = tmp_path / "run.trec"
    path.write_text("q1 Q0 d1 1 2.5 r\n")
    with duckdb.connect() as con:
        con.begin()
        assert not trec_text.load_fast(con, path, "none", "raw", "run")
        assert readers.load(con, path, "run", "run").table == "run"
        con.rollback()


@pytest.mark.parametrize("shift", [-3, -2, -1, 0])
def test_a_bom_is_seen_where_the_byte_scan_cuts_the_file(tmp_path, shift):
    """The byte scan reads 16 MiB at a time; a BOM inside a doc id must stop the fast reader wherever it falls."""
    line = b"q1 Q0 d1 1 2.5 r\n"
    size = 1 << 24
    prefix = line * ((size - 100) // len(line))
    start = b"q1 Q0 d"
    filler = b"x" * (size + shift - len(prefix) - len(start))  # the BOM starts at byte size + shift
    path = tmp_path / "run.trec"
    path.write_bytes(prefix + start + filler + "\ufeff".encode() + b"y 1 2.5 r\n")
    assert not trec_text.plain_bytes(path, "none")
    path.write_bytes(prefix + start + filler + b"zzzy 1 2.5 r\n")  # the same length, no BOM
    assert trec_text.plain_bytes(path, "none")
