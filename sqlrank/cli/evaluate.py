"""`sqlrank eval`: runs against judgments, on DuckDB or on Spark."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

import sqlrank

from . import arguments, failures, terminal
from .options import DEFAULT_MEASURES, Engine, FormatOption, OutputOption, evaluation_options


@evaluation_options
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
    no_summary: Annotated[bool, typer.Option(
        "-n", "--no-summary", help="per-query rows only, without the mean over queries (trec_eval -n; implies -q)")] = False,
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
    train: Annotated[Optional[str], typer.Option(
        "--train", metavar="FILE", show_default=False,
        help="the training interactions (user, item), for the list measures of popularity (Novelty, ARP, APLT) "
             "and their catalogue (docs/recommenders.md)")] = None,
    items: Annotated[Optional[str], typer.Option(
        "--items", metavar="FILE", show_default=False,
        help="the catalogue, an item_id column, for CatalogCoverage and Gini [default: the --train items]")] = None,
    features: Annotated[Optional[str], typer.Option(
        "--features", metavar="FILE", show_default=False,
        help="the items' features (an item_id column and a vector or categories), for Diversity, "
             "IntraListSimilarity and Serendipity with similarity=features")] = None,
    zscores: Annotated[Optional[Path], typer.Option(
        "-Z", "--Zscore", metavar="ZMEAN_FILE", show_default=False,
        help="print z-scores, (value - mean) / stddev, with each query's and measure's mean and deviation read from "
             "this file of lines `qid measure_name mean stddev` (trec_eval -Z); -1000000 where it has none")] = None,
    # trec_eval's flags sqlrank does not take, declared only to be refused by name (arguments.refuse_trec_eval_flags)
    debug_level: Annotated[Optional[str], typer.Option("-D", "--Debug_level", hidden=True)] = None,
    docs_in_collection: Annotated[Optional[str], typer.Option("-N", "--Number_docs_in_coll", hidden=True)] = None,
    rel_format: Annotated[Optional[str], typer.Option("-R", "--Rel_info_format", hidden=True)] = None,
 *,
    evaluation: dict,
) -> None:
    """Evaluate runs against judgments.

    Prints the mean of each measure over the queries, one column per run
    (with -q, also one row per query). Notices about queries filled, left
    out or duplicated go to stderr.
    """
    with failures.user_errors():
        arguments.refuse_trec_eval_flags({"-D": debug_level, "-N": docs_in_collection, "-R": rel_format})
        named_runs, paths = arguments.named_runs(runs)
        options, settings = arguments.evaluation(evaluation)
        arguments.rel_format(rel_format, options)
        fmt_name, target = arguments.destination(fmt, output, inputs=(qrels, *paths))
        per_query = per_query or no_summary
        # the connection is closed as soon as the numbers are out (which also removes any spill files)
        with terminal.connect(*settings, table_macros=False) as con, \
                terminal.status(f"evaluating {len(paths)} run{'s' if len(paths) > 1 else ''} against {qrels}"):
            if engine is Engine.spark:
                from sqlrank import spark

                arguments.refuse_formats(options, "--engine spark")
                if zscores is not None:  # the Spark engine does not compute z-scores yet: refused rather than ignored
                    raise typer.BadParameter("z-scores are not computed by --engine spark yet; use --engine duckdb",
                                             param_hint="-Z")
                if rel_format == "qrels_jg":  # read as subtopic qrels are, which Spark does not carry yet
                    raise typer.BadParameter("the multi-judge measures are not computed on Spark yet; use --engine "
                                             "duckdb", param_hint="-R")
                if rel_format in arguments.PREFS_FORMATS:  # DuckDB only (spark/checks.py)
                    raise typer.BadParameter("the preference measures are not computed on Spark yet; use --engine "
                                             "duckdb", param_hint="-R")
                if options.pop("subtopic_qrels") or options.pop("subtopic_col"):  # DuckDB only (spark/checks.py)
                    raise typer.BadParameter("the diversity measures are not computed on Spark yet; use --engine "
                                             "duckdb", param_hint="--subtopic-qrels")
                if items is not None:  # read only by the list measures of the whole run, which Spark refuses
                    raise typer.BadParameter("the catalogue is read by the list measures of the whole run "
                                             "(CatalogCoverage, Gini), which --engine spark does not compute; use "
                                             "--engine duckdb", param_hint="--items")
                if options.pop("empty") != "zero":  # the Spark engine has no such policy yet: refused rather than ignored
                    raise typer.BadParameter("--empty one|skip|error is not available with --engine spark; use "
                                             "--engine duckdb", param_hint="--empty")
                result = spark.evaluate(spark.unfolded(qrels), named_runs, arguments.measure_list(measure),
                                        spark=spark.session(spark_master), buckets=spark_buckets,
                                        threads=settings[0] or 1, memory_limit=settings[1],
                                        temp_directory=settings[2], train=train, features=features,
                                        **options).to_result()
            else:
                result = sqlrank.evaluate(**arguments.judgments(qrels, options, rel_format), run=named_runs,
                                          measures=arguments.measure_list(measure), connection=con, train=train,
                                          items=items, features=features, zscores=zscores, **options)
        terminal.show_notices(result)
        if no_summary:
            result = result.without_summary()
        if target is not None:
            sqlrank.export.write(result, target, fmt_name, per_query=per_query)
        else:
            terminal.emit(sqlrank.export.render(result, fmt_name, per_query=per_query))
