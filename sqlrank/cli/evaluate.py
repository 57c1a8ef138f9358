"""`sqlrank eval`: runs against judgments, on DuckDB or on Spark."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

import sqlrank

from . import arguments, failures, terminal
from .options import DEFAULT_MEASURES, Duplicates, Empty, Engine, Missing, Names, ScorePrecision, Ties
from .options import DocColOption, DuplicatesOption, FormatOption, MemoryOption, OutputOption, QueryColOption
from .options import RelevanceColOption, ScoreColOption, TempOption, ThreadsOption


def eval_command(
    qrels: Annotated[Path, typer.Argument(
        metavar="QRELS", show_default=False,
        help="relevance judgments: TREC qrels, CSV/TSV, Parquet or JSON lines, optionally .gz")],
    runs: Annotated[list[str], typer.Argument(
        metavar="RUN", show_default=False,
        help="runs to evaluate (TREC run or the same formats); NAME=PATH names a run, else its file name does")],
    measure: Annotated[Optional[list[str]], typer.Option(
        "-m", "--measure", metavar="MEASURE", show_default=False,
        help="a measure (repeatable), or a space-separated list as trec_eval's -m takes: nDCG@10, AP(rel=2), "
             "ndcg_cut_10, P.5,10, nDCG@10,20, 'ndcg_cut_10 map', the sets all_trec and official (see `sqlrank measures`) "
             f"[default: {', '.join(DEFAULT_MEASURES)}]")] = None,
    per_query: Annotated[bool, typer.Option(
        "-q", "--per-query", help="one row per query as well as the mean (trec_eval -q)")] = False,
    fmt: FormatOption = None,
    output: OutputOption = None,
    rel: Annotated[Optional[float], typer.Option(
        "--rel", "-l", metavar="LABEL", show_default=False,
        help="minimum label of a relevant document, for measures that do not set rel (trec_eval -l) [default: 1]")] = None,
    missing: Annotated[Optional[Missing], typer.Option(
        "--missing", case_sensitive=False, show_default=False,
        help="a qrels query absent from a run: scores 0 (trec_eval -c), is left out, or is an error "
             "[default: zero]")] = None,
    empty: Annotated[Empty, typer.Option(
        "--empty", case_sensitive=False,
        help="a qrels query with no relevant judgment (label >= --rel): scores 0, scores 1, is left out, or is an "
             "error (torchmetrics' empty_target_action neg, pos, skip, error)")] = Empty.zero,
    complete: Annotated[bool, typer.Option(
        "-c", help="a qrels query absent from a run scores 0, as trec_eval -c: the same as --missing zero")] = False,
    judged_only: Annotated[bool, typer.Option(
        "-J", "--judged-only",
        help="remove the documents without a judgment from the rankings before evaluating (trec_eval -J)")] = False,
    duplicates: DuplicatesOption = Duplicates.error,
    allow_disjoint: Annotated[bool, typer.Option(
        "--allow-disjoint", help="evaluate a run that shares no query with the qrels (else an error: the wrong file?)")] = False,
    depth: Annotated[Optional[int], typer.Option(
        "-M", "--depth", metavar="N", min=1, max=sqlrank.limits.MAX_DEPTH,
        help="keep the top N documents of each ranking (trec_eval -M)")] = None,
    score_precision: Annotated[ScorePrecision, typer.Option(
        "--score-precision", case_sensitive=False,
        help="float32 ties scores equal in 32 bits, as pytrec_eval does")] = ScorePrecision.double,
    ties: Annotated[Ties, typer.Option(
        "--ties", case_sensitive=False,
        help="order of equally scored documents: doc id descending (trec_eval), ascending, higher / lower labels "
             "first, each measure's mean over every order, or the run's own order (rank column, else row order; "
             "scores not read) (docs/tie-policies.md)")] = Ties.trec,
    names: Annotated[Names, typer.Option(
        "--names", case_sensitive=False,
        help="name each measure as it was asked (-m map prints map) or by its canonical name (AP)")] = Names.asked,
    query_col: QueryColOption = None,
    doc_col: DocColOption = None,
    score_col: ScoreColOption = None,
    relevance_col: RelevanceColOption = None,
    run_col: Annotated[Optional[str], typer.Option(
        "--run-col", metavar="NAME", help="run column naming the system of each row (several runs in one table)")] = None,
    qrels_map: Annotated[Optional[list[str]], typer.Option(
        "--qrels-map", metavar="CANONICAL=NAME", show_default=False,
        help="a qrels column's own name, e.g. query_id=topic (repeatable; wins over --query-col ...)")] = None,
    run_map: Annotated[Optional[list[str]], typer.Option(
        "--run-map", metavar="CANONICAL=NAME", show_default=False,
        help="a run column's own name, e.g. doc_id=item (repeatable; wins over --doc-col ...)")] = None,
    threads: ThreadsOption = None,
    memory_limit: MemoryOption = None,
    temp_directory: TempOption = None,
    engine: Annotated[Engine, typer.Option(
        "--engine", case_sensitive=False,
        help="duckdb on this machine, or spark: the same numbers on a Spark cluster, reading the paths Spark reads "
             "(local, hdfs://, s3a://); needs .venv/bin/pip install -e '.[spark]' and Java 17+")] = Engine.duckdb,
    spark_master: Annotated[Optional[str], typer.Option(
        "--spark-master", metavar="URL", show_default=False,
        help="the Spark master for --engine spark [default: spark-submit's, else local[*]]")] = None,
    spark_buckets: Annotated[Optional[int], typer.Option(
        "--spark-buckets", metavar="N", min=1, max=sqlrank.limits.MAX_BUCKETS, show_default=False,
        help="groups of queries for --engine spark, each held in one worker's memory [default: from the run's size]")] = None,
) -> None:
    """Evaluate runs against judgments.

    Prints the mean of each measure over the queries, one column per run
    (with -q, also one row per query). Notices about queries filled, left
    out or duplicated go to stderr.
    """
    with failures.user_errors():
        missing = arguments.missing_policy(missing, complete)
        named_runs, paths = arguments.named_runs(runs)
        fmt_name, target = arguments.destination(fmt, output, inputs=(qrels, *paths))
        # the connection is closed as soon as the numbers are out (which also removes any spill files)
        with terminal.connect(threads, memory_limit, temp_directory, table_macros=False) as con, \
                terminal.status(f"evaluating {len(paths)} run{'s' if len(paths) > 1 else ''} against {qrels}"):
            options = dict(rel=rel, missing=missing.value, duplicates=duplicates.value, depth=depth,
                           score_precision=score_precision.value, query_col=query_col, doc_col=doc_col,
                           score_col=score_col, relevance_col=relevance_col, ties=ties.value, judged_only=judged_only,
                           allow_disjoint=allow_disjoint, qrels_columns=arguments.column_map(qrels_map, "--qrels-map"),
                           run_columns=arguments.column_map(run_map, "--run-map"), run_col=run_col, names=names.value)
            if engine is Engine.spark:
                from sqlrank import spark

                if empty is not Empty.zero:  # the Spark engine has no such policy yet: refused rather than ignored
                    raise typer.BadParameter("--empty one|skip|error is not available with --engine spark; use "
                                             "--engine duckdb", param_hint="--empty")

                result = spark.evaluate(spark.unfolded(qrels), named_runs, arguments.measure_list(measure),
                                        spark=spark.session(spark_master), buckets=spark_buckets, threads=threads or 1,
                                        memory_limit=memory_limit, temp_directory=temp_directory,
                                        **options).to_result()
            else:
                result = sqlrank.evaluate(qrels, named_runs, arguments.measure_list(measure), connection=con,
                                          empty=empty.value, **options)
        terminal.show_notices(result)
        if target is not None:
            sqlrank.export.write(result, target, fmt_name, per_query=per_query)
        else:
            terminal.emit(sqlrank.export.render(result, fmt_name, per_query=per_query))
