"""The diversity measures' alpha is refused outside [0, 1] (where (1 - alpha)^n stops being a discount) with one
message on every door: Python, the command line, the shell's table macros; 0 and 1 themselves are taken."""

from __future__ import annotations

import re

import duckdb
import pytest

import sqlrank
from cli_runner import invoke
from sqlrank.errors import MeasureError

SUBTOPICS = "q 1 a 1\nq 2 b 1\n"
RUN = "q Q0 a 1 2 r\nq Q0 b 2 1 r\n"


def test_alpha_outside_0_to_1_is_refused_alike_everywhere(tmp_path):
    (tmp_path / "subtopics").write_text(SUBTOPICS)
    (tmp_path / "run").write_text(RUN)
    with sqlrank.connect() as con:
        con.execute("CREATE TABLE subtopics AS SELECT * FROM (VALUES ('q', '1', 'a', 1), ('q', '2', 'b', 1)) "
                    "AS t(query_id, subtopic_id, doc_id, relevance)")
        sqlrank.load_run(con, tmp_path / "run", "run")
        for alpha in ("1.5", "-0.1"):
            said = f"alpha must be from 0 to 1 (both included), got '{alpha}'"
            with pytest.raises(MeasureError, match="^" + re.escape(f"alpha_nDCG(alpha={alpha})@2: {said}")):
                sqlrank.parse_measures([f"alpha_nDCG(alpha={alpha})@2"])
            done = invoke("eval", "--subtopic-qrels", "-m", f"NRBP(alpha={alpha})", tmp_path / "subtopics",
                          tmp_path / "run")
            assert done.exit_code != 0 and f"NRBP(alpha={alpha}): {said}" in done.stderr
            with pytest.raises(duckdb.Error, match=re.escape(f"sqlrank: sqlrank.err_ia: {said}")):
                con.execute(f"SELECT * FROM sqlrank.err_ia('subtopics', 'run', k := 2, alpha := {alpha})").fetchall()
        # the bounds themselves are alpha's own limits: no penalty, and only a subtopic's first document gains
        for bound in (0, 1):
            assert con.execute(f"SELECT value FROM sqlrank.alpha_ndcg('subtopics', 'run', k := 2, alpha := {bound})"
                               ).fetchall() == [(1.0,)]
