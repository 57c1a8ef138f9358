"""`sqlrank compare` and `sqlrank plot`: runs against a baseline, in a report or a picture."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated, Optional

import typer

import sqlrank

from . import arguments, failures, terminal
from .options import DEFAULT_MEASURES, OutputOption, evaluation_options

CompareFormat = enum.Enum("CompareFormat", {name: name for name in (
    "table", "markdown", "latex", "csv", "tsv", "json", "jsonl", "parquet")}, type=str)
PlotKind = enum.Enum("PlotKind", {name: name for name in ("cutoff", "delta", "pr", "distribution")}, type=str)


@evaluation_options
def compare_command(
    qrels: Annotated[Path, typer.Argument(metavar="QRELS", show_default=False,
                                          help="relevance judgments, as for `sqlrank eval`")],
    runs: Annotated[list[str], typer.Argument(
        metavar="RUN", show_default=False, help="two runs or more; NAME=PATH names a run, else its file name does")],
    measure: Annotated[Optional[list[str]], typer.Option(
        "-m", "--measure", metavar="MEASURE", show_default=False,
        help=f"a measure (repeatable) [default: {', '.join(DEFAULT_MEASURES)}]")] = None,
    baseline: Annotated[Optional[str], typer.Option(
        "--baseline", "-b", metavar="NAME", help="the run the others are compared with [default: the first run]")] = None,
    test: Annotated[Optional[list[str]], typer.Option(
        "-t", "--test", metavar="TEST",
        help="ttest, wilcoxon, sign, randomization, bootstrap or tukey (repeatable) [default: ttest]")] = None,
    correction: Annotated[Optional[str], typer.Option(
        "--correction", metavar="NAME",
        help="holm, bonferroni, bh or none [default: holm when more than one run is compared]")] = None,
    trials: Annotated[int, typer.Option("--trials", min=1, max=sqlrank.limits.MAX_TRIALS,
                                        help="permutations / resamples of the resampling tests")] = 10_000,
    seed: Annotated[int, typer.Option("--seed", min=sqlrank.limits.SEEDS[0], max=sqlrank.limits.SEEDS[1],
                                      help="seed of the resampling tests")] = 42,
    fmt: Annotated[Optional[CompareFormat], typer.Option(
        "-f", "--format", case_sensitive=False, show_default=False,
        help="output format [default: table, or from the -o file's extension: .md, .tex, .csv, .json, .parquet]")] = None,
    output: OutputOption = None,
    *,
    evaluation: dict,
) -> None:
    """Compare runs with a baseline: means, differences, wins/ties/losses, effect sizes and significance tests.

    Prints one row per run and a column per measure, † / ‡ marking a difference
    from the baseline at p < 0.05 / 0.01 (first test, adjusted), then the details.
    """
    with failures.user_errors():
        named_runs, paths = arguments.named_runs(runs)
        options, settings = arguments.evaluation(evaluation)
        inputs = (qrels, *paths)
        fmt_name, output = arguments.comparison_destination(fmt, output, inputs)
        with terminal.connect(*settings) as con, terminal.status(f"comparing {len(paths)} runs"):
            judgments = arguments.judgments(qrels, options)
            comparison = sqlrank.compare(judgments.pop("qrels"), named_runs, arguments.measure_list(measure), baseline=baseline,
                                         tests=test or ["ttest"], correction=correction, trials=trials, seed=seed,
                                         connection=con, **judgments, **options)
        if output is not None:
            comparison.write(output, fmt_name, inputs)
        else:
            terminal.emit(comparison.render(fmt_name))


@evaluation_options
def plot_command(
    kind: Annotated[PlotKind, typer.Argument(
        metavar="KIND", case_sensitive=False,
        help="cutoff (measure against its cutoff), delta (per-query differences against the baseline), "
             "pr (interpolated precision-recall), distribution (per-query values per run)")],
    qrels: Annotated[Path, typer.Argument(metavar="QRELS", show_default=False, help="relevance judgments")],
    runs: Annotated[list[str], typer.Argument(metavar="RUN", show_default=False, help="runs; NAME=PATH names a run")],
    output: Annotated[Path, typer.Option("-o", "--output", metavar="FILE", dir_okay=False,
                                         help="the picture: .png or .svg")],
    measure: Annotated[Optional[list[str]], typer.Option(
        "-m", "--measure", metavar="MEASURE",
        help="measures to evaluate (cutoff: nDCG@5 nDCG@10 ...; pr: iprec_at_recall_0.00 ...; delta and "
             f"distribution show the first) [default for delta and distribution: {', '.join(DEFAULT_MEASURES)}]")] = None,
    baseline: Annotated[Optional[str], typer.Option(
        "--baseline", "-b", metavar="NAME", help="delta: the run the others are compared with [default: the first]")] = None,
    *,
    evaluation: dict,
) -> None:
    """Draw a picture of an evaluation to a PNG or SVG file (needs the plot extra: matplotlib)."""
    with failures.user_errors():
        named_runs, paths = arguments.named_runs(runs)
        sqlrank.export.check_target(output, (qrels, *paths))
        sqlrank.plots.picture_format(output)  # before the evaluation: a name without a picture's extension
        options, settings = arguments.evaluation(evaluation)
        measures, shown = arguments.plotted_measures(kind.value, measure)
        with terminal.connect(*settings) as con:
            result = sqlrank.evaluate(**arguments.judgments(qrels, options), run=named_runs, measures=measures,
                                      connection=con, **options)
        sqlrank.plot(result, kind.value, output, measure=shown, baseline=baseline)
        typer.echo(f"sqlrank: wrote {sqlrank.escaping.notice(output)}", err=True)
