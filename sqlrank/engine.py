"""Compose the requested measures into SQL over the macros, run it, return a Result.

The work is one statement per run plus one, whatever the number of measures
and cutoffs:

1. the only statement that reads each run after the input checks:
   ``sqlrank.judged_ranking`` ranks every ranking once (one sort, or a heap
   for small cutoffs) and keeps the judged documents (plus one row per
   ranking), stacked for all runs in a small temporary table;
2. one statement that computes every measure at every cutoff from that table:
   one ``sqlrank.measure_table_for`` call per distinct parameter set (rel, gain,
   discount, ...), each computing all its cutoffs at once, gathered into one
   row per query, the ``all`` rows by ``sqlrank.summary_value`` (the rule of
   ``sqlrank.summary``), and unnested into the long result.

No metric logic lives here: the formulas are the SQL macros'. Every value put
into the SQL text is a validated number or a word from the registry's fixed
choices; table names are ours.
"""

from __future__ import annotations

import duckdb

from . import sqlgen
from .checks import messages
from .errors import EvaluationError, SqlrankError, first_line, out_of_memory
from .macros import connect, install
from .measures import Measure, parse_all
from .readers import QRELS_TABLE, load_inputs
from .result import Report, Result, RunReport

MISSING_POLICIES = ("zero", "skip", "error")
SCORE_PRECISIONS = ("double", "float32")
JUDGED_TABLE = "sqlrank_judged"


def evaluate(
    qrels,
    run,
    measures,
    *,
    rel: float | None = None,
    missing: str = "zero",
    duplicates: str = "error",
    depth: int | None = None,
    score_precision: str = "double",
    query_col: str | None = None,
    doc_col: str | None = None,
    score_col: str | None = None,
    relevance_col: str | None = None,
    threads: int | None = None,
    memory_limit: str | None = None,
    temp_directory: str | None = None,
    connection: duckdb.DuckDBPyConnection | None = None,
) -> Result:
    """Evaluate one or more runs against relevance judgments.

    qrels, run: a path (TREC, CSV/TSV, Parquet, JSON lines, optionally .gz), a
        pandas/polars DataFrame, a pyarrow Table, a DuckDB relation or a dict
        {query_id: {doc_id: value}}. `run` may also be a dict {name: source}
        (or a list of paths, named after their files) to evaluate several
        systems in one pass, or one table with a run_id column (its own run
        ids are used; giving such a table a name in a dict is an error).
        Integer ids are compared as their decimal text: 1 matches "1".
    measures: names such as "nDCG@10", "AP(rel=2)", "ndcg_cut_10", "mrr".
    rel: relevance level for measures that do not name one (trec_eval -l).
    missing: qrels queries absent from a run score 0 ("zero", trec_eval -c),
        are left out ("skip", pytrec_eval) or are an error ("error").
    duplicates: repeated (query_id, doc_id) rows are an "error", or keep the
        "first" or the "max".
    depth: keep the top `depth` documents of each ranking (trec_eval -M).
    score_precision: "double", or "float32" to reproduce pytrec_eval ties.
    query_col, doc_col, score_col, relevance_col: the input's column names, when
        they are not the canonical ones or a common spelling (qid, docno, label, ...).
    threads, memory_limit, temp_directory: DuckDB settings of the connection made here.
    connection: evaluate in this DuckDB connection instead (the macros are
        installed into it once, and again only if another sqlrank version put
        its own there; its temporary tables sqlrank_* are replaced).

    Returns a Result; `result.notices()` says what the policies did.
    """
    parsed = parse_all(measures, rel=rel)
    _check_choice("missing", missing, MISSING_POLICIES)
    _check_choice("score_precision", score_precision, SCORE_PRECISIONS)
    if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool) or depth < 1):
        raise EvaluationError(messages.render(messages.BAD_DEPTH, value=repr(depth)))
    con = connection or connect(threads=threads, memory_limit=memory_limit, temp_directory=temp_directory)
    if connection is not None:
        install(con)
    mapping = {"query_id": query_col, "doc_id": doc_col, "score": score_col, "relevance": relevance_col}
    try:
        report = load_inputs(con, qrels, run, mapping, duplicates, missing, depth)
        for statement in _judged_sql(report.run_tables, ranking_depth(parsed, depth), score_precision,
                                     reads_zero_labels(parsed), reads_negative_labels(parsed)):
            con.execute(statement)
        _report_coverage(con, report)
        if missing == "error":
            _refuse_missing(report)
        # the report holds the runs in their final order (_report_coverage): the rows follow it
        table = con.sql(measures_sql(parsed, missing, run_order=list(report.runs))).to_arrow_table()
    except duckdb.Error as error:
        raise out_of_memory(error) or EvaluationError(f"evaluation failed: {first_line(error)}") from None
    return Result(table, parsed, report)


def measures_sql(measures: list[Measure], missing: str = "zero", judged: str = JUDGED_TABLE,
                 qrels: str = QRELS_TABLE, run_order: list[str] | None = None) -> str:
    """The one statement computing every measure at every cutoff from the judged table.

    Each query's ranking (sqlrank.rankings) gets one list of values, one scalar measure macro
    per measure asked for, in that order; only those rows are sorted (one per query), the `all`
    rows aggregate each measure as its registry entry says, adding in query order, and the long
    table is unnested from the lists in order. Rows come run by run, in `run_order` (by run_id
    without one), each run's per-query rows by query_id and then its `all` rows.
    """
    rankings = sqlgen.call("sqlrank.rankings", sqlgen.literal(qrels), sqlgen.literal(judged), missing=missing)
    values = _measure_values(measures)
    names = sqlgen.literal([str(m) for m in measures])
    aggregates = sqlgen.literal([m.definition.aggregate for m in measures])
    given = ""
    if run_order and len(run_order) > 1:  # one run: nothing to order
        given = f"list_position({sqlgen.literal(list(run_order))}, run_id), "
    return (
        "WITH\n"
        "per_query AS MATERIALIZED (\n"
        "    SELECT run_id, query_id, row_number() OVER (PARTITION BY run_id ORDER BY query_id) AS query_order,\n"
        f"           {values} AS measure_values\n"
        f"    FROM {rankings}\n"
        "),\n"
        "means AS (\n"
        "    SELECT run_id, list(value ORDER BY ordinal) AS measure_values\n"
        "    FROM (\n"
        "        SELECT run_id, ordinal,\n"
        "               sqlrank.summarize(sum(sqlrank.aggregate_term(value, aggregate) ORDER BY query_order), count(*),\n"
        "                                 any_value(aggregate)) AS value\n"
        f"        FROM (SELECT run_id, query_order, unnest({aggregates}) AS aggregate,\n"
        "                     unnest(measure_values) AS value, generate_subscripts(measure_values, 1) AS ordinal\n"
        "              FROM per_query)\n"
        "        GROUP BY run_id, ordinal\n"
        "    )\n"
        "    GROUP BY run_id\n"
        ")\n"
        # a SELECT over an ordered subquery keeps its order, unnest included
        f"SELECT run_id, query_id, unnest({names}) AS measure, unnest(measure_values) AS value\n"
        "FROM (\n"
        "    SELECT run_id, query_id, measure_values, query_order FROM per_query\n"
        "    UNION ALL\n"
        "    SELECT run_id, 'all', measure_values, NULL FROM means\n"
        f"    ORDER BY {given}run_id, query_order NULLS LAST\n"
        ")"
    )


# Past this many measure/cutoff pairs a statement of one call each takes DuckDB longer to plan than
# to run, and the planning time grows faster than the calls (docs/performance.md#the-measures-statement).
DIRECT_CALLS_UP_TO = 32


def _measure_values(measures: list[Measure]) -> str:
    """One list of every measure's value for a query's `ranking`, in the order asked for.

    Up to DIRECT_CALLS_UP_TO measures, one call of its scalar macro each. Past that, each measure
    with its parameters is one call mapped over its cutoffs (`list_transform([5, 10], lambda
    sqlrank_cutoff: sqlrank.measure_p(ranking, sqlrank_cutoff, 1))`), so the statement grows with
    the measures and not with measures times cutoffs; a mapped call copies the ranking once per
    cutoff, which is why short lists keep the direct calls.
    """
    if len(measures) <= DIRECT_CALLS_UP_TO:
        return "[" + ", ".join(_measure_call(m, sqlgen.literal(m.k)) for m in measures) + "]"
    groups: dict[tuple, list[int]] = {}
    for ordinal, measure in enumerate(measures):
        groups.setdefault((measure.definition.name, measure.params), []).append(ordinal)
    calls, order = [], []
    for ordinals in groups.values():
        cutoffs = sqlgen.literal([measures[ordinal].k for ordinal in ordinals])
        calls.append(f"list_transform({cutoffs}, lambda sqlrank_cutoff: "
                     f"{_measure_call(measures[ordinals[0]], 'sqlrank_cutoff')})")
        order += ordinals
    # the groups' values, flattened, put back in the order asked for (list positions count from 1)
    position = {ordinal: number for number, ordinal in enumerate(order, start=1)}
    return f"list_select(flatten([{', '.join(calls)}]), {sqlgen.literal([position[o] for o in range(len(measures))])})"


def _measure_call(measure: Measure, cutoff: str) -> str:
    """`sqlrank.measure_ndcg(ranking, 10, 'linear', ...)`: the scalar macro, its parameters in registry order."""
    arguments = [sqlgen.literal(measure.param(name)) for name in measure.definition.params]
    return sqlgen.call(f"sqlrank.measure_{measure.definition.macro}", "ranking", cutoff, *arguments)


def _judged_sql(run_tables: list[tuple[str | None, str]], depth, score_precision: str,
                zero_labels: bool = True, negative_labels: bool = False) -> list[str]:
    """The statements that read the runs: each run ranked and judged once, stacked with its run_id.

    Runs are ranked one by one rather than as one table with a run_id column:
    partitioning by query_id alone is DuckDB's fastest window, and the windows
    of one UNION ALL run one after the other with less parallelism than
    separate statements (docs/performance.md). A table that brings its own
    run_id column keeps it.
    """
    statements = []
    for number, (run_id, table) in enumerate(run_tables):
        # run_id None: the table names its own runs in a run_id column; otherwise it holds one run
        call = sqlgen.call("sqlrank.judged_ranking", sqlgen.literal(QRELS_TABLE), sqlgen.literal(table), depth=depth,
                           score_precision=score_precision, one_run=run_id is not None, zero_labels=zero_labels,
                           negative_labels=negative_labels)
        label = "" if run_id is None else f"{sqlgen.literal(run_id)} AS run_id, "
        select = f"SELECT {label}* FROM {call}"
        if number == 0:
            statements.append(sqlgen.create_temp_table(JUDGED_TABLE, select))
        else:
            statements.append(sqlgen.insert_by_name(JUDGED_TABLE, select))
    return statements


def ranking_depth(measures: list[Measure], depth: int | None) -> int | None:
    """How deep the runs must be ranked: the user's depth, cut to the largest cutoff when every measure has one.

    A measure at cutoff k reads only the top k documents of a ranking (and
    num_ret only as min(num_ret, k)), so ranking to the largest cutoff gives
    the same numbers; judged_ranking then keeps a small heap per ranking
    instead of sorting the run. A measure that needs the whole ranking (its
    registry entry says so: Rprec reads the top R, nDCG with ideal=run
    re-sorts every retrieved label) or has no cutoff turns that off; one that
    reads only the judgments (NumRel) has no say.
    """
    cutoffs = []
    for measure in measures:
        if not measure.definition.reads_ranking:
            continue
        if measure.k is None or "whole_ranking" in measure.definition.needs_for(dict(measure.params)):
            return depth
        cutoffs.append(measure.k)
    if not cutoffs:
        return depth
    return max(cutoffs) if depth is None else min(depth, max(cutoffs))


def reads_zero_labels(measures: list[Measure]) -> bool:
    """Whether a measure reads the judgments labelled 0: one that needs the judged non-relevant documents, or rel <= 0.

    The others read only documents with a gain (label > 0) or relevant ones (label >= rel > 0),
    so judged_ranking can leave the zeros out of the one pass.
    """
    return "judged_nonrelevant" in _needs(measures) or any(dict(m.params).get("rel", 1) <= 0 for m in measures)


def reads_negative_labels(measures: list[Measure]) -> bool:
    """Whether a measure tells negative labels ("in the pool, unjudged") from documents never judged."""
    return "negative_labels" in _needs(measures)


def _needs(measures: list[Measure]) -> set[str]:
    """What the measures asked for, with their parameters, need from the one pass (the registry's `needs`)."""
    return {need for m in measures for need in m.definition.needs_for(dict(m.params))}


def _check_choice(name: str, value, allowed) -> None:
    if value not in allowed:
        raise EvaluationError(f"unknown {name} '{value}' (expected one of: {', '.join(allowed)})")


# ---------------------------------------------------------------- the report

def _report_coverage(con, report: Report) -> None:
    """Which qrels queries each run misses and which run queries have no judgments, from the judged table."""
    rows = con.execute(
        f"""
        -- judged_ranking keeps the rank-1 row of every ranking: one row per (run, query)
        WITH run_queries AS (SELECT run_id, query_id FROM {JUDGED_TABLE} WHERE rank = 1),
             qrels_queries AS MATERIALIZED (SELECT DISTINCT query_id FROM {QRELS_TABLE}),
             runs AS (SELECT DISTINCT run_id FROM run_queries)
        SELECT runs.run_id, (SELECT count(*) FROM qrels_queries),
               (SELECT count(*) FROM run_queries r WHERE r.run_id = runs.run_id),
               (SELECT list(q.query_id ORDER BY q.query_id) FROM qrels_queries q
                 WHERE NOT EXISTS (SELECT 1 FROM run_queries r WHERE r.run_id = runs.run_id AND r.query_id = q.query_id)),
               (SELECT count(*) FROM run_queries r WHERE r.run_id = runs.run_id
                 AND NOT EXISTS (SELECT 1 FROM qrels_queries q WHERE q.query_id = r.query_id))
        FROM runs ORDER BY runs.run_id
        """
    ).fetchall()
    # the runs in the order given (dict keys, file names), as ir_measures and ranx keep them; a
    # table with its own run_id column chose no order, so its runs stay by run_id (a stable sort)
    given = {run_id: number for number, (run_id, _) in enumerate(report.run_tables) if run_id is not None}
    rows.sort(key=lambda row: given.get(row[0], len(given)))
    for run_id, qrels_queries, queries, missing, run_only in rows:
        report.qrels_queries = qrels_queries  # the same on every row
        report.runs[run_id] = RunReport(queries=queries, missing_queries=list(missing or []), run_only_queries=run_only)
    if not report.runs:
        raise EvaluationError(f"the run has no rows: nothing to evaluate ({', '.join(l for _, l, _ in report.run_sources)})")


def _refuse_missing(report: Report) -> None:
    for run_id, run_report in report.runs.items():
        if run_report.missing_queries:
            shown = ", ".join(run_report.missing_queries[:5])
            more = f" and {len(run_report.missing_queries) - 5} more" if len(run_report.missing_queries) > 5 else ""
            raise EvaluationError(
                f"run '{run_id}': {len(run_report.missing_queries)} of {report.qrels_queries} qrels queries have "
                "no documents in the run "
                f"({shown}{more}); use missing='zero' to score them 0 or missing='skip' to leave them out"
            )


__all__ = ["evaluate", "measures_sql", "SqlrankError"]
