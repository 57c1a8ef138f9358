"""Compose the requested measures into SQL over the macros, run it, return a Result.

The work is one statement per run plus one, whatever the number of measures
and cutoffs:

1. the only statement that reads each run after the input checks:
   ``sqlrank.judged_ranking`` ranks every ranking once (one sort, or a heap
   for small cutoffs; ``sqlrank.judged_full_ranking``, its sort alone, for
   the default order) and keeps the judged documents (plus one row per
   ranking), stacked for all runs in a small temporary table;
2. one statement that computes every measure at every cutoff from that table
   (the files of the measures asked for installed first, once a database):
   one ``sqlrank.measure_table_for`` call per distinct parameter set (rel, gain,
   discount, ...), each computing all its cutoffs at once, gathered into one
   row per query, the ``all`` rows by ``sqlrank.summary_value`` (the rule of
   ``sqlrank.summary``), and unnested into the long result.

No metric logic lives here: the formulas are the SQL macros'. Every value put
into the SQL text is a validated number or a word from the registry's fixed
choices; table names are ours.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

import duckdb

from . import defined, sqlgen
from . import lists as lists_module
from .checks.gains import exponential_measures, refuse_overflowing_gains
from .checks.empty_truth import EMPTY_POLICIES, apply_empty_policy, check_empty_policy, score_one
from .checks.order import check_order
from .checks.unread import rel_unread_notice
from .defined import DefinedMeasure
from .errors import EvaluationError, MeasureError, SqlrankError, first_line, option_hint, out_of_memory, shorten
from .limits import MAX_DEPTH, whole_number
from .lists import ListMeasure, check_list_inputs, load_list_inputs, make_lists
from .macros import evaluation_connection, install_measures, ready_to_evaluate
from .measures import Measure, TextMeasure, parse_labelled
from .readers import QRELS_TABLE, SUBTOPIC_QRELS_TABLE, load_inputs
from .readers.base import FORMAT, INPUT_RANK
from .readers.files import check_unchanged
from .readers.prefs import PREFS_TABLE, QRELS_OF_PREFS, load_prefs, prefs_from_table
from .preferences import PREFS_ORDER_TABLE, check_prefs, order_ties, preference_measures, prefs_of_qrels_sql
from .registry import PARAMETERS, REGISTRY, SPREADS
from .result import Report, Result, RunReport
from .zscores import apply as apply_zscores, notice as zscore_notice, read as read_zscores

MISSING_POLICIES = ("zero", "skip", "error")
NAMES = ("asked", "canonical")  # what the measure column calls a measure (evaluate's `names`)
SCORE_PRECISIONS = ("double", "float32")
# how documents of equal score are ordered (docs/tie-policies.md); sql/11_judged_ranking.sql orders them
TIE_POLICIES = ("trec", "docid_asc", "optimistic", "pessimistic", "average", "input")
# how IPrec and AvgIPrec count the relevant documents at a recall level (the measures' `interpolation`)
INTERPOLATIONS = PARAMETERS["interpolation"].choices
JUDGED_TABLE = "sqlrank_judged"
RESULT_TABLE = "sqlrank_result"  # the measures statement's rows, between the statement and their Arrow table


def evaluate(
    qrels,
    run,
    measures,
    *,
    rel: float | None = None,
    interpolation: str | None = None,
    zscores=None,
    missing: str = "zero",
    empty: str = "zero",
    duplicates: str = "error",
    depth: int | None = None,
    score_precision: str = "double",
    judged_only: bool = False,
    aggregates=(),
    names: str = "asked",
    ties: str = "trec",
    query_col: str | None = None,
    doc_col: str | None = None,
    score_col: str | None = None,
    relevance_col: str | None = None,
    run_col: str | None = None,
    qrels_columns: dict[str, str] | None = None,
    run_columns: dict[str, str] | None = None,
    qrels_format: str | None = None,
    run_format: str | None = None,
    subtopic_qrels=None,
    subtopic_col: str | None = None,
    subtopic_qrels_columns: dict[str, str] | None = None,
    judge_qrels=None,
    judge_col: str | None = None,
    prefs=None,
    prefs_from_qrels: bool = False,
    allow_disjoint: bool = False,
    threads: int | None = None,
    memory_limit: str | None = None,
    temp_directory: str | None = None,
    connection: duckdb.DuckDBPyConnection | None = None,
    train=None,
    items=None,
    features=None,
) -> Result:
    """Evaluate one or more runs against relevance judgments.

    qrels, run: a path (TREC, CSV/TSV, Parquet, JSON lines, optionally .gz; ranx's JSON dicts and
        .lz4), a pandas/polars DataFrame (or polars LazyFrame), a pyarrow Table, RecordBatchReader
        or Dataset, a DuckDB relation, a dict {query_id: {doc_id: value}} or an iterable of
        ir_measures' Qrel / ScoredDoc named tuples (ir_datasets' qrels_iter(), scoreddocs_iter()). `run` may also be a dict {name: source}
        (or a list of paths, named after their files) to evaluate several
        systems in one pass, or one table with a run_id column (its own run
        ids are used; giving such a table a name in a dict is an error).
        Integer ids are compared as their decimal text: 1 matches "1".
    measures: names such as "nDCG@10", "AP(rel=2)", "ndcg_cut_10", "mrr", in a list or one string
        ("nDCG@10 AP", "ndcg@10,map"), or ir_measures Measure objects (nDCG@10).
    rel: relevance level for measures that do not name one (trec_eval -l).
    interpolation: IPrec's and AvgIPrec's count of relevant documents at a recall level, for those that do
        not name one: "trec_eval10" (the default, lround) or "trec_eval9" (trec_eval 9.x's and pytrec_eval's
        (long)(recall · R + 0.9), which ir_measures, ranx and PyTerrier print; docs/trec-semantics.md).
    zscores: a path to trec_eval's -Z file of lines `qid measure_name mean stddev`: each per-query value
        becomes (value - mean) / stddev for its query and trec_eval name, -1000000 where the file has
        none, and the `all` row summarises the z-scores as the measure's own (trec_eval -Z;
        docs/trec-semantics.md#z-scores).
    missing: qrels queries absent from a run score 0 ("zero", trec_eval -c),
        are left out ("skip", pytrec_eval) or are an error ("error").
    empty: qrels queries with no relevant judgment (no label >= rel): score 0 on every measure ("zero"),
        1 ("one", measures averaged over the queries only), are left out ("skip") or are an error ("error"),
        as torchmetrics' empty_target_action neg / pos / skip / error; counted in the notices.
    duplicates: repeated (query_id, doc_id) rows are an "error", or keep the
        "first" or the "max".
    depth: keep the top `depth` documents of each ranking (trec_eval -M).
    score_precision: "double", or "float32" to reproduce pytrec_eval ties.
    judged_only: remove every document without a judgment (or with a negative
        label) from the rankings before any measure reads them (trec_eval -J,
        ir_measures' judged_only=True); depth cuts first. A query left with no
        documents counts as missing from the run (the `missing` policy).
    aggregates: beside the `all` row's mean, any of "std", "stderr", "median",
        "std_population" of each measure's per-query values, in `result.aggregates`
        (a table run_id, measure, aggregate, value; ranx's return_std is std_population).
    names: "asked" (the default) reports each measure under the name it was asked by
        (`map` stays `map`, `HitRate@10` stays `HitRate@10`; `P.5,10` gives P_5 and P_10);
        "canonical" under sqlrank's canonical name (`AP`, `Success@10`, `P@5`), one spelling
        across papers and tools; `result.canonical(name)` gives the canonical name either way.
    ties: the order of documents with equal scores: "trec" (doc id descending, trec_eval),
        "docid_asc", "optimistic" / "pessimistic" (higher / lower labels first), "average"
        (each measure's expected value over the orderings of every tie group), or "input" (the run's
        own order, scores not read: a TREC run's rank field, a `rank` column, else the row order of a
        file or DataFrame; a DuckDB relation needs a rank column); docs/tie-policies.md.
    query_col, doc_col, score_col, relevance_col: the input's column names, when
        they are not the canonical ones or a common spelling (qid, docno, label, ...); for both inputs.
    run_col: the run's column naming the system of each row (a long table of several runs, e.g.
        "model"), read as its run_id column.
    qrels_columns, run_columns: the same for one input, {canonical name: the input's column}, e.g.
        run_columns={"query_id": "user", "score": "prediction"}; they win over the shared options.
    qrels_format, run_format: read the files in this format instead of recognising it: "trec", "csv",
        "tsv", "jsonl", "json", "parquet", "feather" or "lz4" (e.g. a headerless TREC file named .tsv).
    subtopic_qrels: the diversity measures' judgments (alpha_nDCG, ERR_IA, ...: docs/measures.md#diversity-measures),
        one per (query, subtopic, document), read as the qrels are (TREC `qid subtopic docno rel`, CSV, Parquet,
        frames); given instead of `qrels` (pass qrels=None): the other measures then read each document's highest
        label over its subtopics. subtopic_col: its subtopic column, when not subtopic_id, subtopic or iteration;
        subtopic_qrels_columns: its own column names, as qrels_columns.
    judge_qrels: trec_eval's multi-judge qrels (-R qrels_jg), what the *_avgjg measures read (map_avgjg, P_avgjg,
        Rprec_mult_avgjg: docs/measures.md#multi-judge-measures), one judgment per (query, judge, document), read
        as subtopic_qrels are (TREC `qid judge docno rel`: the second field names the judge) and given in its
        place, with qrels=None. judge_col: its judge column, when not judge_id, judge or jg (subtopic_col's too).
    prefs: trec_eval's preferences (-R prefs), which its preference measures read (prefs_simp, ...:
        docs/measures.md#preference-measures): a TREC file `qid jg jsg docno rel_level`, or a table (CSV,
        Parquet, frame) with those columns (query_id, jg, jsg, doc_id, rel_level); given instead of `qrels`
        (pass qrels=None): the other measures read each document's highest rel_level as its label.
        prefs_from_qrels: `prefs` is a qrels file read as preferences (-R qrels_prefs: `qid jg docno rel`,
        the second field the judgment group; a table: query_id, doc_id, relevance and an optional jg).
    allow_disjoint: evaluate a run that shares no query with the qrels (by default an error: it is
        almost always the wrong file, or ids written otherwise, '301' against 'q301').
    threads, memory_limit, temp_directory: DuckDB settings, for a database made for this call; without
        them the call works in the process's own database, whose macros were installed once
        (docs/performance.md, "Everyday sizes").
    train: the training interactions (user, item), one row each, in any form `qrels` takes: what the list
        measures of popularity read (Novelty, ARP, APLT), and their catalogue when `items` is not given
        (docs/recommenders.md).
    items: the catalogue (CatalogCoverage, Gini): a list of item ids, a DataFrame, Arrow table or CSV/Parquet
        path with an item_id (or doc_id) column.
    features: the items' features, for Diversity, IntraListSimilarity and Serendipity with similarity=features:
        a dict {item: vector or categories}, a DataFrame, Arrow table or CSV/Parquet path with an item_id column
        and a vector (a list column, or one number column per component) or categories (docs/recommenders.md).
    connection: evaluate in this DuckDB connection instead (the macros are
        installed into it once, and again only if another sqlrank version put
        its own there; its temporary tables sqlrank_* are replaced).

    Returns a Result; `result.notices()` says what the policies did.
    """
    _check_choice("names", names, NAMES)
    _check_choice("empty", empty, EMPTY_POLICIES)
    labelled = parse_labelled(measures, rel=rel, interpolation=interpolation, text_lines=True)
    asked = [m for _, m in labelled]
    labels = [label if names == "asked" else str(m) for label, m in labelled if isinstance(m, Measure)]
    depth, aggregates = check_options([m for m in asked if isinstance(m, Measure)], missing, score_precision, depth,
                                      ties, judged_only, aggregates)
    check_empty_policy(empty, [m for m in asked if isinstance(m, Measure)])
    subtopic_qrels, subtopic_col = judges_as_subtopics(subtopic_qrels, subtopic_col, judge_qrels, judge_col)
    check_subtopic_qrels(qrels, subtopic_qrels, [m for m in asked if isinstance(m, Measure)])
    check_prefs(qrels, prefs, [m for m in asked if isinstance(m, Measure)])
    check_list_inputs([m for m in asked if isinstance(m, ListMeasure)], train, items, ties, empty, features)
    columns = {"": {"query_id": query_col, "doc_id": doc_col, "score": score_col, "relevance": relevance_col,
                    "subtopic_id": subtopic_col},
               "qrels": column_mapping("qrels", qrels_columns),
               "run": ({"run_id": run_col} if run_col else {}) | column_mapping("run", run_columns),
               "subtopic_qrels": column_mapping("subtopic_qrels", subtopic_qrels_columns)}
    for kind, fmt in (("qrels", qrels_format), ("run", run_format)):
        if fmt is not None:
            columns[kind][FORMAT] = fmt  # the reader to use (readers.registry.load)
    if ties == "input":
        columns["run"][INPUT_RANK] = None  # asks the run's reader to keep its order (readers.base.keeps_order)
    zscore_rows = None if zscores is None else read_zscores(zscores)  # a bad file is refused before any input is read
    list_labels = [label if names == "asked" else str(m) for label, m in labelled if isinstance(m, ListMeasure)]
    if zscores is not None and list_labels:  # trec_eval's -Z reads per-query scores; these have no trec_eval means
        raise EvaluationError(f"zscores (trec_eval -Z) is for the per-query measures, not the list measures "
                              f"({', '.join(list_labels)}); evaluate those without zscores")
    options = (asked, labels, missing, duplicates, depth, score_precision, judged_only, aggregates, columns,
               allow_disjoint, ties, empty, rel, subtopic_qrels, (train, items, list_labels, features),
               (zscores, zscore_rows), (prefs, prefs_from_qrels))
    unread = rel_unread_notice([(label, m) for label, m in labelled if not isinstance(m, ListMeasure)], rel)
    if connection is not None:
        with _using(connection):  # first: a second thread is told so before it touches the busy connection
            _check_connection(connection)
            ready_to_evaluate(connection)
            return _noted(_evaluate(connection, qrels, run, *options), unread)
    with evaluation_connection(threads, memory_limit, temp_directory) as con:
        return _noted(_evaluate(con, qrels, run, *options), unread)


def _noted(result: Result, notice: str | None) -> Result:
    """The result with a notice about the measures asked (checks.unread) before the inputs' own."""
    if notice:
        result.report.input_notes.insert(0, notice)
    return result


def _evaluate(con, qrels, run, asked, labels, missing, duplicates, depth, score_precision, judged_only, aggregates,
              columns, allow_disjoint, ties, empty="zero", rel=None, subtopic_qrels=None,
              list_inputs=(None, None, [], None), zscores=(None, None), prefs=(None, False)) -> Result:
    parsed = [m for m in asked if isinstance(m, Measure)]
    text = [m for m in asked if isinstance(m, TextMeasure)]
    lists = [m for m in asked if isinstance(m, ListMeasure)]
    train, items, list_labels, features = list_inputs
    names = _asked_order(asked, labels, list_labels)  # the measures and the list measures, in the order asked
    report = None
    try:
        shared = columns.pop("")
        if prefs[0] is not None:  # the preferences, and the qrels made of them, in the place of the qrels
            prefs_label = load_prefs(con, *prefs)
            qrels = con.table(QRELS_OF_PREFS)
        report = load_inputs(con, qrels, run, shared, duplicates, missing, depth, own=columns,
                             subtopic_qrels=subtopic_qrels)
        if prefs[0] is not None:  # the notices name the file given, not the table made of it
            report.qrels_label = prefs_label
        elif preference_measures(parsed):
            prefs_from_table(con, prefs_of_qrels_sql(QRELS_TABLE), report.qrels_label)
        apply_empty_policy(con, QRELS_TABLE, report, empty, rel)
        refuse_overflowing_gains(con, QRELS_TABLE, report.qrels_label, exponential_measures(parsed))
        if ties == "input":
            _check_orders(con, report)
        if judged_only:  # each run becomes its judged documents (depth applied): the pass below cuts nothing more
            _keep_judged(con, report, depth, score_precision)
            depth = None
        relstrings = [m.k for m in text if m.name == "relstring"]  # they read every label, zero and negative
        for statement in _judged_sql(report.run_tables, _text_depth(ranking_depth(parsed, depth), depth, relstrings),
                                     score_precision, reads_zero_labels(parsed) or bool(relstrings),
                                     reads_negative_labels(parsed) or bool(relstrings), ties):
            con.execute(statement)
        prefs_order = JUDGED_TABLE
        if preference_measures(parsed) and order_ties(ties) != ties:  # trec_eval's other order of ties
            prefs_order = PREFS_ORDER_TABLE
            for statement in _judged_sql(report.run_tables, depth, score_precision, ties=order_ties(ties),
                                         table=PREFS_ORDER_TABLE):
                con.execute(statement)
        _refuse_changed_runs(report)  # after the last statement that reads the runs
        for run_id in report.empty_runs:
            # a run that retrieved nothing still has its place: one row with no query, which
            # sqlrank.rankings reads as a run missing every qrels query (the missing policy decides)
            con.execute(sqlgen.insert_by_name(JUDGED_TABLE, f"SELECT {sqlgen.literal(run_id)} AS run_id, "
                                              "CAST(NULL AS VARCHAR) AS query_id, 1 AS rank, 0 AS num_ret"))
        _report_coverage(con, report)
        if ties not in ("trec", "input"):  # trec's output and cost stay what they were; input has no ties
            report.ties = ties
            report.tie_groups = tie_groups(con, report.run_tables, score_precision)
        if not allow_disjoint:
            _refuse_disjoint(con, report)
        _warn_unjudged(con, report)
        if missing == "error":
            _refuse_missing(report)
        install_measures(con, {m.definition.macro for m in parsed if not isinstance(m.definition, DefinedMeasure)})
        defined.install(con, parsed)  # the measures users define, as this connection's temporary macros
        # the report holds the runs in their final order (_report_coverage): the rows follow it
        table = _rows_of(con, measures_sql(parsed, missing, run_order=list(report.runs), names=labels, ties=ties,
                                           prefs_order=prefs_order))
        if lists:
            # the training interactions name their user and item columns as the truth does
            ids = {name: column for name, column in (shared | columns["qrels"]).items()
                   if column and name in ("query_id", "doc_id")}
            table = _with_list_rows(con, table, lists, list_labels, report, missing, (train, items, features),
                                    ids, names)
        if empty == "one":
            table = score_one(con, table)
        if zscores[1] is not None:
            table, unknown = apply_zscores(con, table, parsed, labels, zscores[1])
            report.zscores = str(zscores[0])
            report.input_notes.append(zscore_notice(str(zscores[0]), unknown))
        text_rows = _text_rows(con, text, report, missing)
        spread = spread_table(con, table, labels, list(report.runs), aggregates) if aggregates else None
    except duckdb.ResourceInUseException as error:
        raise _busy(error) from None
    except duckdb.Error as error:
        if report is not None:  # a file rewritten while DuckDB read it fails in its own words: say why
            _refuse_changed_runs(report)
        raise (out_of_memory(error, con) or defined.evaluation_error(parsed, error)
               or EvaluationError(f"evaluation failed: {first_line(error)}")) from None
    numeric = [m for m in asked if not isinstance(m, TextMeasure)]  # the measures and list measures, as asked
    order = iter(names)
    return Result(table, numeric, report, text_rows=text_rows, aggregates=spread, names=names,
                  order=[str(m) if isinstance(m, TextMeasure) else next(order) for m in asked])


def _rows_of(con, select: str):
    """The rows of `select` as an Arrow table, the statement planned once.

    con.sql(select).to_arrow_table() binds a SELECT twice (DuckDB's Python client describes the relation, then
    runs it), and the measures statement's binding is a third of a small evaluation's time: it makes a table
    in one statement instead, read back whole in its order (docs/performance.md, "Everyday sizes, round four").
    The table stays until the next evaluation replaces it, as the judged table does.
    """
    con.execute(sqlgen.create_temp_table(RESULT_TABLE, select))
    return con.table(RESULT_TABLE).to_arrow_table()


def _asked_order(asked: list, labels: list[str], list_labels: list[str]) -> list[str]:
    """The names of the measures and the list measures together, in the order asked."""
    measures, listed = iter(labels), iter(list_labels)
    return [next(listed) if isinstance(m, ListMeasure) else next(measures) for m in asked
            if not isinstance(m, TextMeasure)]


def _with_list_rows(con, table, lists: list[ListMeasure], list_labels: list[str], report: Report, missing: str,
                    inputs: tuple, columns, names: list[str]):
    """The result's rows with the list measures' (sqlrank/lists.py) among them, in the result's order: run by
    run, each user's rows by query_id, then the `all` rows; each row's measures in the order asked."""
    train, items, features = inputs
    load_list_inputs(con, train, items, columns, features)
    rankings = sqlgen.call("sqlrank.rankings", sqlgen.literal(QRELS_TABLE), sqlgen.literal(JUDGED_TABLE),
                           missing=missing)
    make_lists(con, report.run_tables, rankings, lists)
    con.register("sqlrank_result_rows", table)
    try:
        return con.sql(
            f"SELECT run_id, query_id, measure, value FROM (SELECT * FROM sqlrank_result_rows UNION ALL "
            f"{lists_module.list_rows_sql(lists, list_labels)})\n"
            f"ORDER BY list_position({sqlgen.literal(list(report.runs))}, run_id), query_id = 'all', query_id, "
            f"list_position({sqlgen.literal(names)}, measure)").to_arrow_table()
    finally:
        con.unregister("sqlrank_result_rows")


def judges_as_subtopics(subtopic_qrels, subtopic_col, judge_qrels, judge_col):
    """Multi-judge qrels are read as subtopic qrels are, the judge in the subtopic's place (sql/24_judges.sql):
    (subtopic_qrels, subtopic_col) from either spelling, one of them given."""
    if judge_qrels is not None and subtopic_qrels is not None:
        raise EvaluationError("judge_qrels and subtopic_qrels are one input under two names (the second key names "
                              "a judge or a subtopic): pass one of them")
    if judge_col is not None and subtopic_col is not None:
        raise EvaluationError("judge_col and subtopic_col name one column under two names: pass one of them")
    return (subtopic_qrels if judge_qrels is None else judge_qrels), (subtopic_col if judge_col is None else judge_col)


def check_subtopic_qrels(qrels, subtopic_qrels, measures: list[Measure]) -> None:
    """The diversity measures read subtopic qrels and the multi-judge ones multi-judge qrels, both given in place
    of the qrels; the same on every door."""
    judged = [str(m) for m in measures if "judges" in m.definition.needs]
    if judged and subtopic_qrels is None:
        raise MeasureError(f"{', '.join(judged)}: the multi-judge measures read multi-judge qrels (query_id, judge_id, "
                           "doc_id, relevance; TREC: qid judge docno rel, trec_eval's qrels_jg): pass " + option_hint(
                               "judge_qrels=<path or table> (and qrels=None)",
                               "-R qrels_jg (the QRELS file then holds them)"))
    diversity = [str(m) for m in measures if "subtopics" in m.definition.needs and "judges" not in m.definition.needs]
    if diversity and subtopic_qrels is None:
        raise MeasureError(f"{', '.join(diversity)}: the diversity measures read subtopic qrels (query_id, subtopic_id, "
                           "doc_id, relevance; TREC: qid subtopic docno rel): pass " + option_hint(
                               "subtopic_qrels=<path or table> (and qrels=None)",
                               "--subtopic-qrels (the QRELS file then holds them)"))
    if subtopic_qrels is not None and qrels is not None:
        raise EvaluationError("subtopic qrels are given in place of the qrels, not beside them: pass " + option_hint(
            "qrels=None", "--subtopic-qrels") + " (the other measures then read each document's highest label over "
            "its subtopics), or evaluate the other qrels in a second call")


def spread_table(con, table, labels: list[str], runs: list[str], aggregates: list[str]):
    """The aggregates asked for (sqlrank.spread) of each run's and measure's per-query values, in the result's order."""
    con.register("sqlrank_result_rows", table)
    try:
        names, runs_text, asked = (sqlgen.literal(values) for values in (labels, runs, aggregates))
        return con.sql(
            "SELECT run_id, measure, aggregate, sqlrank.spread(query_values, aggregate) AS value\n"
            "FROM (SELECT run_id, measure, list(value ORDER BY query_id) AS query_values FROM sqlrank_result_rows\n"
            "      WHERE query_id <> 'all' GROUP BY run_id, measure), "
            f"(SELECT unnest({asked}) AS aggregate)\n"
            f"ORDER BY list_position({runs_text}, run_id), list_position({names}, measure), "
            f"list_position({asked}, aggregate)").to_arrow_table()
    finally:
        con.unregister("sqlrank_result_rows")


def _check_orders(con, report: Report) -> None:
    """ties='input': each run's order checked (a finite rank for every row, none given twice in a query), and said."""
    for loaded in report.run_inputs:
        check_order(con, loaded)
        report.input_notes.append(f"{loaded.label}: ranked by {loaded.order}, not by score (ties='input')")


def _keep_judged(con, report: Report, depth: int | None, score_precision: str) -> None:
    """judged_only: each run table replaced by its judged documents within depth (sqlrank.judged_run)."""
    for number, (run_id, table) in enumerate(report.run_tables):
        judged = f"{table}_judged"
        call = sqlgen.call("sqlrank.judged_run", sqlgen.literal(QRELS_TABLE), sqlgen.literal(table), depth=depth,
                           score_precision=score_precision, one_run=run_id is not None)
        con.execute(sqlgen.create_temp_table(judged, f"SELECT * FROM {call}"))
        if not con.execute(f"SELECT count(*) FROM {sqlgen.identifier(judged)}").fetchone()[0]:
            raise nothing_judged(report.run_sources[number][1], depth)
        report.run_tables[number] = (run_id, judged)
    report.input_notes.append(JUDGED_ONLY_NOTE)


JUDGED_ONLY_NOTE = ("judged only: documents without a judgment >= 0 were removed from the rankings before evaluation "
                    "(judged_only)")


def nothing_judged(label: str, depth: int | None) -> EvaluationError:
    """judged_only on a run of which no document is judged (within depth): nothing would be left to evaluate."""
    return EvaluationError(f"{label}: no retrieved document has a judgment >= 0" + (f" in the top {depth}" if depth else "")
                           + ", so judged_only leaves nothing to evaluate; check that the qrels belong to this run")


def _text_depth(cut: int | None, depth: int | None, relstrings: list[int]) -> int | None:
    """The ranking depth once relstring's first k documents are asked for too (ranking_depth's cut, deepened)."""
    if cut is None or not relstrings or (depth is not None and cut >= depth):
        return cut
    return max(cut, *relstrings) if depth is None else min(depth, max(cut, *relstrings))


def _text_rows(con, text: list[TextMeasure], report: Report, missing: str) -> list[dict]:
    """trec_eval's text lines: runid (the run's TREC tag, else its name) in the `all` row, relstring per query."""
    rows = [{"run_id": run, "query_id": "all", "measure": "runid", "text": report.run_tags.get(run) or run}
            for run in report.runs if any(m.name == "runid" for m in text)]
    relstrings = [m for m in text if m.name == "relstring"]
    if relstrings:
        rankings = sqlgen.call("sqlrank.rankings", sqlgen.literal(QRELS_TABLE), sqlgen.literal(JUDGED_TABLE),
                               missing=missing)
        calls = ", ".join(sqlgen.call("sqlrank.relstring", "ranking", sqlgen.literal(m.k)) for m in relstrings)
        for run_id, query_id, texts in con.execute(f"SELECT run_id, query_id, [{calls}] FROM {rankings}").fetchall():
            rows += [{"run_id": run_id, "query_id": query_id, "measure": str(m), "text": value}
                     for m, value in zip(relstrings, texts)]
    return rows


def _refuse_changed_runs(report: Report) -> None:
    """Runs read in place (Parquet) were read again after their checks: refuse them if they changed since."""
    for loaded in report.run_inputs:
        check_unchanged(loaded)


# ---------------------------------------------------------------- a connection given by the caller

_IN_USE: set[int] = set()  # id() of the connections an evaluate() is working in now
_IN_USE_LOCK = threading.Lock()


def _check_connection(connection) -> None:
    if not callable(getattr(connection, "execute", None)):  # a DuckDB connection, or a wrapper of one
        raise EvaluationError("connection must be a DuckDB connection (duckdb.connect() or sqlrank.connect()), "
                              f"got {type(connection).__name__} {connection!r}")
    try:
        connection.execute("SELECT 1").fetchall()
    except duckdb.ResourceInUseException as error:
        raise _busy(error) from None
    except duckdb.ConnectionException:
        raise EvaluationError("the DuckDB connection is closed; pass an open one (duckdb.connect() or "
                              "sqlrank.connect())") from None


def _busy(error: Exception | None = None) -> EvaluationError:
    if error is not None and "busy" not in str(error):  # e.g. the caller's own unfinished result
        return EvaluationError(f"the DuckDB connection is not ready for sqlrank: {first_line(error)}")
    return EvaluationError("this DuckDB connection is evaluating in another thread, and a connection runs one "
                           "statement at a time; give each thread its own (con.cursor() or sqlrank.connect())")


def in_use(connection) -> bool:
    """Whether an evaluate() is working in `connection` now."""
    with _IN_USE_LOCK:
        return id(connection) in _IN_USE


@contextmanager
def _using(connection):
    """Mark `connection` as in use: a second thread's statements would interleave with ours and fail on our tables."""
    with _IN_USE_LOCK:
        if id(connection) in _IN_USE:
            raise _busy()
        _IN_USE.add(id(connection))
    try:
        yield
    finally:
        with _IN_USE_LOCK:
            _IN_USE.discard(id(connection))


def measures_sql(measures: list[Measure], missing: str = "zero", judged: str = JUDGED_TABLE,
                 qrels: str = QRELS_TABLE, run_order: list[str] | None = None, names: list[str] | None = None,
                 ties: str = "trec", prefs_order: str = JUDGED_TABLE) -> str:
    """The one statement computing every measure at every cutoff from the judged table.

    Each query's ranking (sqlrank.rankings) gets one list of values, one scalar measure macro
    per measure asked for, in that order; only those rows are sorted (one per query), the `all`
    rows aggregate each measure as its registry entry says, adding in query order, and the long
    table is unnested from the lists in order. Rows come run by run, in `run_order` (by run_id
    without one), each run's per-query rows by query_id and then its `all` rows. ties='average'
    reads the judged table of sqlrank.tie_groups and calls each measure's expectation.
    """
    source = "sqlrank.tied_rankings" if ties == "average" else "sqlrank.rankings"
    rankings = sqlgen.call(source, sqlgen.literal(qrels), sqlgen.literal(judged), missing=missing)
    if "subtopics" in _needs(measures):  # the diversity measures' ranking.intents (sql/23_subtopics.sql)
        rankings = sqlgen.call("sqlrank.subtopic_rankings", sqlgen.literal(qrels), sqlgen.literal(judged),
                               sqlgen.literal(SUBTOPIC_QRELS_TABLE), missing=missing)
    if "judges" in _needs(measures):  # the multi-judge measures' ranking.judges too (sql/24_judges.sql)
        rankings = sqlgen.call("sqlrank.judge_split_rankings", sqlgen.literal(qrels), sqlgen.literal(judged),
                               sqlgen.literal(SUBTOPIC_QRELS_TABLE), missing=missing)
    if "preferences" in _needs(measures):  # the preference measures' ranking.prefs (sql/24_prefs.sql)
        rankings = sqlgen.call("sqlrank.prefs_rankings", sqlgen.literal(qrels), sqlgen.literal(judged),
                               sqlgen.literal(PREFS_TABLE), sqlgen.literal(prefs_order), missing=missing)
    values = _measure_values(measures, average=ties == "average")
    names = sqlgen.literal(names or [str(m) for m in measures])  # the measure column: the names reported
    aggregates = sqlgen.literal([m.definition.aggregate for m in measures])
    # a weighted mean (GAUC) weighs each query: a second list beside the values; the others count each query once
    weighted = any(m.definition.aggregate == "weighted" for m in measures)
    weights = f",\n           {measure_weights(measures)} AS measure_weights" if weighted else ""
    term, count = (("sqlrank.aggregate_term(value, aggregate) * weight", "sum(weight)") if weighted
                   else ("sqlrank.aggregate_term(value, aggregate)", "count(*)"))
    weight_column = ", unnest(measure_weights) AS weight" if weighted else ""
    given = ""
    if run_order and len(run_order) > 1:  # one run: nothing to order
        given = f"list_position({sqlgen.literal(list(run_order))}, run_id), "
    return (
        "WITH\n"
        "per_query AS MATERIALIZED (\n"
        "    SELECT run_id, query_id, row_number() OVER (PARTITION BY run_id ORDER BY query_id) AS query_order,\n"
        f"           {values} AS measure_values{weights}\n"
        f"    FROM {rankings}\n"
        "),\n"
        "means AS (\n"
        "    SELECT run_id, list(value ORDER BY ordinal) AS measure_values\n"
        "    FROM (\n"
        "        SELECT run_id, ordinal,\n"
        f"               sqlrank.summarize(sum({term} ORDER BY query_order), {count},\n"
        "                                 any_value(aggregate)) AS value\n"
        f"        FROM (SELECT run_id, query_order, unnest({aggregates}) AS aggregate,\n"
        f"                     unnest(measure_values) AS value{weight_column}, "
        "generate_subscripts(measure_values, 1) AS ordinal\n"
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


def weights_sql(measures: list[Measure], missing: str = "zero", judged: str = JUDGED_TABLE,
                qrels: str = QRELS_TABLE) -> str:
    """(run_id, query_id, measure, weight) of the measures with a weighted mean, from the judged table: what a
    Spark bucket sends beside its values so that the driver can weigh them (sqlrank/spark/result.py)."""
    weighted = [m for m in measures if m.definition.aggregate == "weighted"]
    rankings = sqlgen.call("sqlrank.rankings", sqlgen.literal(qrels), sqlgen.literal(judged), missing=missing)
    return (f"SELECT run_id, query_id, unnest({sqlgen.literal([str(m) for m in weighted])}) AS measure, "
            f"unnest({measure_weights(weighted)}) AS weight FROM {rankings}")


def measure_weights(measures: list[Measure]) -> str:
    """One list of every measure's weight for a query's `ranking` in the `all` row: its weight macro
    (`sqlrank.weight_gauc(ranking, NULL, 1)`) for a measure with a weighted mean, else 1."""
    return "[" + ", ".join(
        sqlgen.call(f"sqlrank.weight_{m.definition.macro}", "ranking", sqlgen.literal(m.k),
                    *[sqlgen.literal(m.param(name)) for name in m.definition.params])
        if m.definition.aggregate == "weighted" else "1.0" for m in measures) + "]"


# Past this many measure/cutoff pairs a statement of one call each takes DuckDB longer to plan than
# to run, and the planning time grows faster than the calls (docs/performance.md#the-measures-statement).
DIRECT_CALLS_UP_TO = 32


def _measure_values(measures: list[Measure], average: bool = False) -> str:
    """One list of every measure's value for a query's `ranking`, in the order asked for.

    Up to DIRECT_CALLS_UP_TO measures, one call of its scalar macro each. Past that, each measure
    with its parameters is one call mapped over its cutoffs (`list_transform([5, 10], lambda
    sqlrank_cutoff: sqlrank.measure_p(ranking, sqlrank_cutoff, 1))`), so the statement grows with
    the measures and not with measures times cutoffs; a mapped call copies the ranking once per
    cutoff, which is why short lists keep the direct calls, and a measure asked at one cutoff (or
    none: bpref, G) keeps its direct call among the mapped ones (docs/performance.md, "Round three").
    """
    if len(measures) <= DIRECT_CALLS_UP_TO:
        return "[" + ", ".join(_measure_call(m, sqlgen.literal(m.k), average) for m in measures) + "]"
    groups: dict[tuple, list[int]] = {}
    for ordinal, measure in enumerate(measures):
        groups.setdefault((measure.definition.name, measure.params), []).append(ordinal)
    calls, order = [], []
    for ordinals in groups.values():
        cutoffs = sqlgen.literal([measures[ordinal].k for ordinal in ordinals])
        if len(ordinals) == 1:  # one cutoff: a direct call, as mapping would copy the ranking for nothing
            calls.append(f"[{_measure_call(measures[ordinals[0]], sqlgen.literal(measures[ordinals[0]].k), average)}]")
        else:
            calls.append(f"list_transform({cutoffs}, lambda sqlrank_cutoff: "
                         f"{_measure_call(measures[ordinals[0]], 'sqlrank_cutoff', average)})")
        order += ordinals
    # the groups' values, flattened, put back in the order asked for (list positions count from 1)
    position = {ordinal: number for number, ordinal in enumerate(order, start=1)}
    return f"list_select(flatten([{', '.join(calls)}]), {sqlgen.literal([position[o] for o in range(len(measures))])})"


def _measure_call(measure: Measure, cutoff: str, average: bool = False) -> str:
    """`sqlrank.measure_ndcg(ranking, 10, 'linear', ...)`: the scalar macro, its parameters in registry order.

    average: the measure's expectation over tie orderings, `sqlrank.average_ndcg(...)`, where the
    registry has one (a measure that does not read the order keeps its own macro).
    """
    arguments = [sqlgen.literal(measure.param(name)) for name in measure.definition.params]
    if isinstance(measure.definition, defined.DefinedMeasure):
        return sqlgen.call(defined.function_name(measure.definition), "ranking", cutoff, *arguments)
    prefix = "average" if average and measure.definition.ties_average == "average" else "measure"
    return sqlgen.call(f"sqlrank.{prefix}_{measure.definition.macro}", "ranking", cutoff, *arguments)


def _judged_sql(run_tables: list[tuple[str | None, str]], depth, score_precision: str,
                zero_labels: bool = True, negative_labels: bool = False, ties: str = "trec",
                table: str = JUDGED_TABLE) -> list[str]:
    """The statements that read the runs: each run ranked and judged once, stacked with its run_id.

    Runs are ranked one by one rather than as one table with a run_id column:
    partitioning by query_id alone is DuckDB's fastest window, and the windows
    of one UNION ALL run one after the other with less parallelism than
    separate statements (docs/performance.md). A table that brings its own
    run_id column keeps it. ties other than 'trec' are passed on (the default keeps the trec
    call's text as it was); 'average' keeps tie groups (sqlrank.tie_groups) that start within depth.
    """
    statements = []
    for number, (run_id, run_table) in enumerate(run_tables):
        # run_id None: the table names its own runs in a run_id column; otherwise it holds one run
        policy = {} if ties == "trec" else {"ties": ties}
        if ties == "average":
            call = sqlgen.call("sqlrank.tie_groups", sqlgen.literal(QRELS_TABLE), sqlgen.literal(run_table),
                               score_precision=score_precision, one_run=run_id is not None, zero_labels=zero_labels,
                               negative_labels=negative_labels, depth=depth)
        else:
            # trec over the whole run (or deeper than the heap's 32) by its plan alone: binding the others costs more
            # than ranking a small run (sql/11_judged_ranking.sql); judged_ranking picks among its four otherwise
            whole = ties == "trec" and (depth is None or depth > 32)
            call = sqlgen.call("sqlrank.judged_full_ranking" if whole else "sqlrank.judged_ranking",
                               sqlgen.literal(QRELS_TABLE), sqlgen.literal(run_table),
                               depth=depth, score_precision=score_precision, one_run=run_id is not None,
                               zero_labels=zero_labels, negative_labels=negative_labels, **policy)
        label = "" if run_id is None else f"{sqlgen.literal(run_id)} AS run_id, "
        select = f"SELECT {label}* FROM {call}"
        if number == 0:
            statements.append(sqlgen.create_temp_table(table, select))
        else:
            statements.append(sqlgen.insert_by_name(table, select))
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
    so judged_ranking can leave the zeros out of the one pass; a gain map naming label 0 gives those a gain.
    """
    return ("judged_nonrelevant" in _needs(measures) or any(dict(m.params).get("rel", 1) <= 0 for m in measures)
            or any(names_label_zero(dict(m.params).get("gain")) for m in measures))


def names_label_zero(gain) -> bool:
    """Whether a gain parameter is a gain map giving label 0 a gain (`{0:1,1:2}`, as measures.gain_map writes it)."""
    return isinstance(gain, str) and gain.startswith("{") and "0" in [pair.split(":")[0] for pair in gain[1:-1].split(",")]


def reads_negative_labels(measures: list[Measure]) -> bool:
    """Whether a measure tells negative labels ("in the pool, unjudged") from documents never judged."""
    return "negative_labels" in _needs(measures)


def _needs(measures: list[Measure]) -> set[str]:
    """What the measures asked for, with their parameters, need from the one pass (the registry's `needs`)."""
    return {need for m in measures for need in m.definition.needs_for(dict(m.params))}


def column_mapping(kind: str, columns: dict | None) -> dict[str, str]:
    """A per-input mapping {canonical name: column}, checked against the canonical columns of `kind`."""
    from .readers.base import canonical_columns

    if not columns:
        return {}
    allowed = canonical_columns(kind) + (("run_id",) if kind == "run" else ())
    if not isinstance(columns, dict):
        raise EvaluationError(f"{kind}_columns: expected a dict {{canonical name: column}}, found "
                              f"{type(columns).__name__}")
    for name in columns:
        if name not in allowed:
            raise EvaluationError(f"{kind}_columns: unknown canonical column {name!r} (expected {', '.join(allowed)}); "
                                  "map them as {'query_id': 'qid', ...}")
    return {name: str(column) for name, column in columns.items()}


def check_options(measures: list[Measure], missing: str, score_precision: str, depth, ties: str, judged_only,
                  aggregates) -> tuple[int | None, list[str]]:
    """The options' checks, the same on every engine; the depth as a whole number and the aggregates as a list,
    each once."""
    _check_choice("missing", missing, MISSING_POLICIES)
    _check_choice("score_precision", score_precision, SCORE_PRECISIONS)
    if depth is not None:
        depth = whole_number("depth", depth, 1, MAX_DEPTH)
    _check_choice("ties", ties, TIE_POLICIES)
    _check_tie_options(measures, ties, depth, judged_only)
    if not isinstance(judged_only, bool):
        raise EvaluationError(f"judged_only is True or False, got {judged_only!r}")
    aggregates = list(dict.fromkeys([aggregates] if isinstance(aggregates, str) else aggregates))  # each once
    for aggregate in aggregates:
        _check_choice("aggregate", aggregate, SPREADS)
    return depth, aggregates


def _check_tie_options(measures: list[Measure], ties: str, depth: int | None, judged_only: bool) -> None:
    """What a tie policy does not take yet, the same on every engine."""
    defined.check_ties(measures, ties)
    if ties == "average":
        _check_average(measures, depth)
        if judged_only and depth is not None:
            # judged_only cuts the run at depth before it drops the unjudged documents: in part of a tie group
            raise EvaluationError("ties='average' does not take judged_only with a depth yet; leave one of them out, "
                                  "or use another ties policy")
    if ties == "input" and judged_only and depth is not None:
        raise EvaluationError("ties='input' does not take judged_only with a depth yet (the depth would cut the "
                              "ranking by score); leave one of them out")


def _check_average(measures: list[Measure], depth: int | None) -> None:
    """ties='average' only for the measures whose expectation sqlrank computes (the registry's ties_average)."""
    supported = [m.name for m in REGISTRY.values() if m.ties_average]
    for measure in measures:
        what = _not_averaged(measure, measure.definition.ties_average is not None,
                             measure.definition.ties_average_unless)
        if what:
            raise MeasureError(f"ties='average' is not defined yet for {what} (asked as '{measure}'); use it with "
                               f"{', '.join(supported)}, or another ties policy (trec, docid_asc, optimistic, "
                               "pessimistic) for this measure")
    for measure in measures if depth is not None else []:
        what = _not_averaged(measure, measure.definition.ties_average_depth,
                             measure.definition.ties_average_depth_unless)
        if what:
            raise MeasureError(f"ties='average' with a depth is not defined yet for {what} (asked as '{measure}'): "
                               "its value reads which documents of a tie group across the depth were kept; leave "
                               "depth out, or use another ties policy for this measure")


def _not_averaged(measure: Measure, defined: bool, unless: tuple[tuple[str, object], ...]) -> str | None:
    """The measure as an error names it when the registry leaves its expectation out (`AP(denominator=retrieved)`
    when a parameter value does), else None."""
    refused = [f"{name}={value}" for name, value in unless if dict(measure.params).get(name) == value]
    if refused:
        return f"{measure.definition.name}({refused[0]})"
    return None if defined else measure.definition.name


def tie_groups(con, run_tables: list[tuple[str | None, str]], score_precision: str) -> dict[str, tuple[int, int]]:
    """Per run: how many groups of two or more equally scored documents a query had, and how many documents they held.

    Equal as the ranking compares them (score_precision). One grouped count over each run table: a notice
    that tells the user whether the tie policy can change a number at all.
    """
    found: dict[str, tuple[int, int]] = {}
    for run_id, table in run_tables:
        name = "run_id" if run_id is None else sqlgen.literal(run_id)
        keys = "run_id, query_id" if run_id is None else "query_id"
        score = sqlgen.call("sqlrank.ranking_score", "score", score_precision=score_precision)
        rows = con.execute(
            f"SELECT run, count(*), sum(tied) FROM ("
            f"  SELECT {name} AS run, count(*) AS tied FROM sqlrank.run_rows({sqlgen.literal(table)})"
            f"  GROUP BY {keys}, {score} HAVING count(*) > 1) GROUP BY run ORDER BY run").fetchall()
        found.update({run: (groups, int(documents)) for run, groups, documents in rows})
    return found


def _check_choice(name: str, value, allowed) -> None:
    if value not in allowed:
        raise EvaluationError(f"unknown {name} '{value}' (expected one of: {', '.join(allowed)})")


# ---------------------------------------------------------------- the report

def _report_coverage(con, report: Report) -> None:
    """Which qrels queries each run misses and which run queries have no judgments, from the judged table."""
    rows = con.execute(
        f"""
        -- judged_ranking keeps the rank-1 row of every ranking: one row per (run, query). Joins rather than
        -- correlated subqueries per run, which DuckDB plans one by one (docs/performance.md, "Everyday sizes, round three")
        WITH run_queries AS MATERIALIZED (SELECT run_id, query_id FROM {JUDGED_TABLE} WHERE rank = 1),
             qrels_queries AS MATERIALIZED (SELECT DISTINCT query_id FROM {QRELS_TABLE}),
             counted AS (SELECT run_id, count(*) AS queries,
                                count(*) FILTER (WHERE qrels_queries.query_id IS NULL) AS run_only
                         FROM run_queries LEFT JOIN qrels_queries USING (query_id) GROUP BY run_id),
             missing AS (SELECT runs.run_id, list(q.query_id ORDER BY q.query_id) AS missing
                         FROM (SELECT run_id FROM counted) AS runs CROSS JOIN qrels_queries AS q
                         ANTI JOIN run_queries AS r ON r.run_id = runs.run_id AND r.query_id = q.query_id
                         GROUP BY runs.run_id)
        SELECT run_id, (SELECT count(*) FROM qrels_queries), queries, missing, run_only
        FROM counted LEFT JOIN missing USING (run_id) ORDER BY run_id
        """
    ).fetchall()
    # the runs in the order given (dict keys, file names), as ir_measures and ranx keep them; a
    # table with its own run_id column chose no order, so its runs stay by run_id (a stable sort)
    given = {run_id: number for number, (run_id, _) in enumerate(report.run_tables) if run_id is not None}
    rows.sort(key=lambda row: given.get(row[0], len(given)))
    for run_id, qrels_queries, queries, missing, run_only in rows:
        report.qrels_queries = qrels_queries  # the same on every row
        if run_id in report.empty_runs:
            queries = run_only = 0  # its one row holds no query
        report.runs[run_id] = RunReport(queries=queries, missing_queries=list(missing or []), run_only_queries=run_only)
    if not report.runs:
        raise EvaluationError(f"the run has no rows: nothing to evaluate ({', '.join(l for _, l, _ in report.run_sources)})")


def _refuse_disjoint(con, report: Report) -> None:
    """A run with queries, none of them in the qrels: every number would be 0 (or none at all)."""
    for run_id, run in report.runs.items():
        if run.queries == 0 or run.queries > run.run_only_queries:
            continue
        run_query = con.execute(f"SELECT min(query_id) FROM {JUDGED_TABLE} WHERE run_id = "
                                f"{sqlgen.literal(run_id)}").fetchall()[0][0]
        qrels_query = con.execute(f"SELECT min(query_id) FROM {QRELS_TABLE}").fetchall()[0][0]
        raise disjoint_error(run_id, run.queries, run_query, qrels_query)


def disjoint_error(run_id: str, queries: int, run_query: str, qrels_query: str) -> EvaluationError:
    """A run none of whose queries the qrels have, with an example of each side's query ids."""
    from .checks import messages  # the words of the shell's sqlrank.pair_problem too

    count = f"{queries} {'query' if queries == 1 else 'queries'}"
    return EvaluationError(messages.render(messages.DISJOINT, run_id=run_id, count=count, run_query=shorten(run_query),
                                           qrels_query=shorten(qrels_query), fix=messages.DISJOINT_FIX_PYTHON))


def _warn_unjudged(con, report: Report) -> None:
    """A run that shares queries with the qrels but retrieved not one judged document: almost surely a mistake.

    Read from the judged table; when it left out the label-0 or negative judgments, the run
    itself is joined with the qrels to be sure (only for a run that looks unjudged).
    """
    judged = dict(con.execute(f"SELECT run_id, count(relevance) FROM {JUDGED_TABLE} GROUP BY run_id").fetchall())
    tables = dict(report.run_tables)
    for run_id, run in report.runs.items():
        if judged.get(run_id, 0) or run.queries <= run.run_only_queries:
            continue  # a run with judged documents, or one with no query in common (said elsewhere)
        table = tables.get(run_id) or next(t for r, t in report.run_tables if r is None)
        rows = sqlgen.identifier(table)
        if tables.get(run_id) is None:  # a table naming its own runs
            rows = f"(SELECT * FROM {rows} WHERE run_id = {sqlgen.literal(run_id)})"
        matched = con.execute(f"SELECT count(*) FROM {rows} JOIN {QRELS_TABLE} USING (query_id, doc_id)").fetchall()[0][0]
        if matched:
            continue
        run_doc = con.execute(f"SELECT min(doc_id) FROM {rows}").fetchall()[0][0]
        qrels_doc = con.execute(f"SELECT min(doc_id) FROM {QRELS_TABLE}").fetchall()[0][0]
        report.warnings.append(unjudged_warning(run_id, run_doc, qrels_doc, report.doc_columns.get(table)))


def unjudged_warning(run_id: str, run_doc: str, qrels_doc: str, column: str | None) -> str:
    """A run of which not one document is judged; `column`: the run's column read as doc_id, when it chose one."""
    read = f"doc_id read from column '{column}', e.g." if column else "the run has e.g."
    return (f"run '{run_id}': not one of its retrieved documents is judged, so every measure is 0: the document "
            f"ids likely come from the wrong column ({read} '{shorten(run_doc)}'; the qrels have e.g. "
            f"'{shorten(qrels_doc)}') or the qrels are of another collection")


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
