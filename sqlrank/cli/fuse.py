"""`sqlrank fuse`: two or more runs fused into one (sqlrank.fuse), written as a TREC run, CSV, TSV, Parquet or JSON lines."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated, Optional

import typer

import sqlrank

from . import failures, terminal
from .options import Duplicates, DuplicatesOption

Method = enum.Enum("Method", {name: name for name in sqlrank.FUSION_METHODS}, type=str)
Norm = enum.Enum("Norm", {name: name for name in sqlrank.FUSION_NORMS}, type=str)
RunFormat = enum.Enum("RunFormat", {name: name for name in sqlrank.RUN_FORMATS}, type=str)


def fuse_command(
    runs: Annotated[list[str], typer.Argument(
        metavar="RUN...", show_default=False,
        help="two or more run files (any format sqlrank reads), or NAME=PATH; weights follow this order")],
    output: Annotated[Path, typer.Option(
        "-o", "--output", metavar="FILE", dir_okay=False,
        help="the fused run, written atomically; its format from the extension (.parquet, .csv, .tsv, "
             ".jsonl, else TREC) unless -f says")],
    method: Annotated[Method, typer.Option("-m", "--method", case_sensitive=False,
                                           help="the fusion method, ranx's name (docs/fusion.md)")] = Method.wsum,
    norm: Annotated[Norm, typer.Option("-n", "--norm", case_sensitive=False,
                                       help="the normalization of each run's scores per query")] = Norm["min-max"],
    weights: Annotated[Optional[str], typer.Option(
        "-w", "--weights", metavar="W1,W2,...", help="one weight per run, for the weighted methods [default: all 1]")] = None,
    k: Annotated[Optional[float], typer.Option("--k", help="rrf's k  [default: 60]")] = None,
    phi: Annotated[Optional[float], typer.Option("--phi", help="rbc's phi, in [0, 1]")] = None,
    gamma: Annotated[Optional[float], typer.Option("--gamma", help="gmnz's gamma")] = None,
    sigma: Annotated[Optional[float], typer.Option("--sigma", help="logn_isr's sigma, in [0, 1]  [default: 0.01]")] = None,
    params: Annotated[Optional[Path], typer.Option(
        "-p", "--params", metavar="FILE.json", dir_okay=False,
        help="parameters trained or tuned on qrels, as sqlrank.write_fusion_params writes them: e.g. "
             "posfuse's, probfuse's, segfuse's probs, bayesfuse's log_odds, slidefuse's probs and w, "
             "mapfuse's map_scores, tuned weights (docs/fusion.md#trained-parameters)")] = None,
    top_k: Annotated[Optional[int], typer.Option("--top-k", min=1, help="keep each input's best N per query first")] = None,
    depth: Annotated[Optional[int], typer.Option("--depth", min=1, help="keep the fused run's best N per query")] = None,
    fmt: Annotated[Optional[RunFormat], typer.Option("-f", "--format", case_sensitive=False, show_default=False,
                                                     help="output format [default: from the -o file's extension]")] = None,
    tag: Annotated[str, typer.Option("--tag", help="the TREC run's tag (last column)")] = "fused",
    duplicates: DuplicatesOption = Duplicates.error,
) -> None:
    """Fuse runs into one run file, as ranx.fuse does (every method and normalization of ranx).

    Example (hybrid retrieval):

    \b
      sqlrank fuse bm25.trec dense.trec -m rrf -n none -o hybrid.trec
      sqlrank eval qrels.txt bm25.trec dense.trec hybrid.trec -m nDCG@10
      sqlrank fuse bm25.trec dense.trec -m posfuse -p posfuse.json -o hybrid.trec
    """
    with failures.user_errors():
        named = dict(_named(run, number) for number, run in enumerate(runs))
        if len(named) < len(runs):
            raise typer.BadParameter("two runs have the same name; name them NAME=PATH", param_hint="RUN")
        given = {name: value for name, value in (("weights", _weights(weights)), ("k", k), ("phi", phi),
                                                 ("gamma", gamma), ("sigma", sigma)) if value is not None}
        if params is not None:
            from_file = sqlrank.read_fusion_params(params)
            twice = sorted(set(given) & set(from_file))
            if twice:
                raise typer.BadParameter(f"{', '.join(twice)} given both in {params} and as an option; give each once",
                                         param_hint="-p/--params")
            given.update(from_file)
        target = sqlrank.export.check_target(output, tuple(named.values()))
        with terminal.status("fusing"):
            fused = sqlrank.fuse(named, method=method.value, norm=norm.value, top_k=top_k, depth=depth,
                                 duplicates=duplicates.value, **given)
            sqlrank.write_run(fused, target, fmt.value if fmt else sqlrank.run_format_for(output), tag)


def _named(run: str, number: int) -> tuple[str, str]:
    name, equals, path = run.partition("=")
    if equals and name and not Path(run).exists():
        return name, path
    return sqlrank.run_name(run) or f"run{number + 1}", run


def _weights(text: str | None) -> list[float] | None:
    if text is None:
        return None
    try:
        return [float(part) for part in text.split(",")]
    except ValueError:
        raise typer.BadParameter(f"'{text}' is not a list of numbers such as 0.3,0.7", param_hint="-w/--weights") from None
