"""sqlrank.connect() leaves the binding of the shell's table macros to their first call.

DuckDB binds a table macro's body when the macro is created, and the registry's table macros each bind the whole
ranking pass twice (its `trec` and `average` branches): half the time connect() took. Their first FROM item reads
a parameter (macros.BOUND_AT_FIRST_CALL), which DuckDB cannot type before the call, so it keeps the body unbound
until then (docs/performance.md, "Everyday sizes, round three"). Counted, not timed: the macros are created in a
database that has none of the macros they call, which a bound body would refuse.

The numbers are the worked example of sql/measures/ndcg.sql: judgments A=3, B=3, C=2, D=2, E=1, F=1, ranking
A, E, C, D, F:
    nDCG@5 = (3 + 1/log2 3 + 2/2 + 2/log2 5 + 1/log2 6) / (3 + 3/log2 3 + 2/2 + 2/log2 5 + 1/log2 6) = 0.8232936061974518
    P@5 = 5/5 = 1, AP = (1/1 + 2/2 + 3/3 + 4/4 + 5/5) / 6 = 5/6 (B, relevant, is not retrieved)
"""

from __future__ import annotations

import duckdb
import pytest

import sqlrank
from sqlrank import macros
from sqlrank.registry import REGISTRY

NDCG_5 = 0.8232936061974518


def test_the_registry_s_table_macros_are_created_without_binding_their_bodies():
    con = duckdb.connect()
    con.execute("CREATE SCHEMA sqlrank")
    con.execute(macros.registry_sql())  # sqlrank.run_rankings, sqlrank.measure_* ...: none of them exists here
    created = {name for (name,) in con.execute(
        "SELECT function_name FROM duckdb_functions() WHERE schema_name = 'sqlrank' AND function_type = 'table_macro'"
    ).fetchall()}
    assert created == {definition.macro for definition in REGISTRY.values()}
    with pytest.raises(duckdb.CatalogException, match="run_rankings"):  # bound at the first call, and found missing
        con.execute("SELECT * FROM sqlrank.ndcg('qrels', 'run')").fetchall()


def test_a_connection_s_table_macros_give_the_worked_example_at_their_first_call():
    con = sqlrank.connect()
    con.execute("CREATE TABLE qrels AS SELECT 'q' AS query_id, unnest(['A', 'B', 'C', 'D', 'E', 'F']) AS doc_id, "
                "unnest([3, 3, 2, 2, 1, 1]) AS relevance")
    con.execute("CREATE TABLE run AS SELECT 'q' AS query_id, unnest(['A', 'E', 'C', 'D', 'F']) AS doc_id, "
                "unnest([5.0, 4.0, 3.0, 2.0, 1.0]) AS score")
    values = con.execute(
        "SELECT (SELECT value FROM sqlrank.ndcg('qrels', 'run', k := 5)), (SELECT value FROM sqlrank.p('qrels', 'run', "
        "k := 5)), (SELECT value FROM sqlrank.ap('qrels', 'run')), (SELECT value FROM sqlrank.ap('qrels', 'run', "
        "ties := 'average'))").fetchone()
    assert values == pytest.approx((NDCG_5, 1.0, 5 / 6, 5 / 6), abs=1e-12)
    with pytest.raises(duckdb.Error, match="unknown ties 'sometimes'"):  # a parameter's check still runs first
        con.execute("SELECT * FROM sqlrank.ap('qrels', 'run', ties := 'sometimes')").fetchall()
