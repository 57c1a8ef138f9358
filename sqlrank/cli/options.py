"""The choices and options that several commands declare alike, read from the library's own lists."""

from __future__ import annotations

import enum
import functools
import inspect
from pathlib import Path
from typing import Annotated, Optional

import typer

import sqlrank
from sqlrank.errors import SqlrankError

DEFAULT_MEASURES = sqlrank.DEFAULT_MEASURES

# choices as enums: Typer shows them in --help and refuses anything else (exit 2)
Format = enum.Enum("Format", {name: name for name in sqlrank.export.FORMATS}, type=str)
Missing = enum.Enum("Missing", {name: name for name in sqlrank.MISSING_POLICIES}, type=str)
Empty = enum.Enum("Empty", {name: name for name in sqlrank.EMPTY_POLICIES}, type=str)
Duplicates = enum.Enum("Duplicates", {name: name for name in sqlrank.DUPLICATE_POLICIES}, type=str)
ScorePrecision = enum.Enum("ScorePrecision", {name: name for name in sqlrank.SCORE_PRECISIONS}, type=str)
Ties = enum.Enum("Ties", {name: name for name in sqlrank.TIE_POLICIES}, type=str)
Names = enum.Enum("Names", {name: name for name in sqlrank.NAMES}, type=str)
Engine = enum.Enum("Engine", {name: name for name in ("duckdb", "spark")}, type=str)
Interpolation = enum.Enum("Interpolation", {name: name for name in sqlrank.INTERPOLATIONS}, type=str)

# options shared by `eval` and `query`
FormatOption = Annotated[Optional[Format], typer.Option(
    "-f", "--format", case_sensitive=False, show_default=False,
    help="output format [default: table, or from the -o file's extension]")]
OutputOption = Annotated[Optional[Path], typer.Option(
    "-o", "--output", metavar="FILE", dir_okay=False,
    help="write to FILE (atomically) instead of stdout; refuses to overwrite an input")]
DuplicatesOption = Annotated[Duplicates, typer.Option(
    "--duplicates", case_sensitive=False, help="a repeated (query, doc) row: refuse, keep the first or the highest")]
QueryColOption = Annotated[Optional[str], typer.Option(
    "--query-col", metavar="NAME", help="column of the query ids [default: query_id, qid, query, ...]")]
DocColOption = Annotated[Optional[str], typer.Option(
    "--doc-col", metavar="NAME", help="column of the document ids [default: doc_id, docno, docid, ...]")]
ScoreColOption = Annotated[Optional[str], typer.Option(
    "--score-col", metavar="NAME", help="run column of the scores [default: score, sim, ...]")]
RelevanceColOption = Annotated[Optional[str], typer.Option(
    "--relevance-col", metavar="NAME", help="qrels column of the labels [default: relevance, rel, label, ...]")]
ThreadsOption = Annotated[Optional[int], typer.Option(
    "--threads", metavar="N", min=1, max=sqlrank.limits.MAX_THREADS, help="DuckDB worker threads")]


def _memory_size(text: str | None) -> str | None:
    """--memory-limit checked as it is parsed: a usage error (exit 2), not DuckDB's default in silence."""
    try:
        return None if text is None else sqlrank.limits.memory_size(text)
    except SqlrankError as error:
        raise typer.BadParameter(str(error)) from None


MemoryOption = Annotated[Optional[str], typer.Option(
    "--memory-limit", metavar="SIZE", callback=_memory_size, help="DuckDB memory limit, e.g. 4GB")]
TempOption = Annotated[Optional[Path], typer.Option(
    "--temp-directory", metavar="DIR", file_okay=False, help="where DuckDB spills when memory runs out")]


# ---------------------------------------------------------------- the evaluation's options, one definition
# `eval`, `compare` and `plot` all evaluate: each takes every one of these, declared here once and added to
# the command's parameters by @evaluation_options (a researcher who evaluated with -l 2 -M 100 -J --ties ...
# tests significance and draws under the same settings)
InputFormat = enum.Enum("InputFormat", {name: name for name in sqlrank.INPUT_FORMATS}, type=str)

EVALUATION_OPTIONS: dict[str, tuple] = {
    "rel": (Annotated[Optional[float], typer.Option(
        "--rel", "-l", metavar="LABEL", show_default=False,
        help="minimum label of a relevant document, for measures that do not set rel (trec_eval -l) [default: 1]")],
        None),
    "interpolation": (Annotated[Optional[Interpolation], typer.Option(
        "--interpolation", case_sensitive=False, show_default=False,
        help="IPrec's and 11pt_avg's count of relevant documents at a recall level, for measures that do not set "
             "it: trec_eval 10's (lround) or trec_eval 9's (+0.9, truncated), as pytrec_eval, ir_measures and ranx "
             "print [default: trec_eval10]")], None),
    "missing": (Annotated[Optional[Missing], typer.Option(
        "--missing", case_sensitive=False, show_default=False,
        help="a qrels query absent from a run: scores 0 (trec_eval -c), is left out, or is an error "
             "[default: zero]")], None),
    "complete": (Annotated[bool, typer.Option(
        "-c", help="a qrels query absent from a run scores 0, as trec_eval -c: the same as --missing zero")], False),
    "empty": (Annotated[Empty, typer.Option(
        "--empty", case_sensitive=False,
        help="a qrels query with no relevant judgment (label >= --rel): scores 0, scores 1, is left out, or is an "
             "error (torchmetrics' empty_target_action neg, pos, skip, error)")], Empty.zero),
    "judged_only": (Annotated[bool, typer.Option(
        "-J", "--judged-only",
        help="remove the documents without a judgment from the rankings before evaluating (trec_eval -J)")], False),
    "duplicates": (DuplicatesOption, Duplicates.error),
    "allow_disjoint": (Annotated[bool, typer.Option(
        "--allow-disjoint", help="evaluate a run that shares no query with the qrels (else an error: the wrong file?)")],
        False),
    "depth": (Annotated[Optional[int], typer.Option(
        "-M", "--depth", metavar="N", min=1, max=sqlrank.limits.MAX_DEPTH,
        help="keep the top N documents of each ranking (trec_eval -M)")], None),
    "score_precision": (Annotated[ScorePrecision, typer.Option(
        "--score-precision", case_sensitive=False,
        help="float32 ties scores equal in 32 bits, as pytrec_eval does")], ScorePrecision.double),
    "ties": (Annotated[Ties, typer.Option(
        "--ties", case_sensitive=False,
        help="order of equally scored documents: doc id descending (trec_eval), ascending, higher / lower labels "
             "first, each measure's mean over every order, or the run's own order (rank column, else row order; "
             "scores not read) (docs/tie-policies.md)")], Ties.trec),
    "names": (Annotated[Names, typer.Option(
        "--names", case_sensitive=False,
        help="name each measure as it was asked (-m map prints map) or by its canonical name (AP)")], Names.asked),
    "query_col": (QueryColOption, None),
    "doc_col": (DocColOption, None),
    "score_col": (ScoreColOption, None),
    "relevance_col": (RelevanceColOption, None),
    "run_col": (Annotated[Optional[str], typer.Option(
        "--run-col", metavar="NAME", help="run column naming the system of each row (several runs in one table)")],
        None),
    "qrels_map": (Annotated[Optional[list[str]], typer.Option(
        "--qrels-map", metavar="CANONICAL=NAME", show_default=False,
        help="a qrels column's own name, e.g. query_id=topic (repeatable; wins over --query-col ...)")], None),
    "run_map": (Annotated[Optional[list[str]], typer.Option(
        "--run-map", metavar="CANONICAL=NAME", show_default=False,
        help="a run column's own name, e.g. doc_id=item (repeatable; wins over --doc-col ...)")], None),
    "qrels_format": (Annotated[Optional[InputFormat], typer.Option(
        "--qrels-format", case_sensitive=False, show_default=False,
        help="read the qrels file as this format, whatever its name (e.g. trec for MS MARCO's headerless "
             "qrels.dev.small.tsv) [default: from its bytes, name and first line]")], None),
    "run_format": (Annotated[Optional[InputFormat], typer.Option(
        "--run-format", case_sensitive=False, show_default=False,
        help="read the run files as this format, whatever their names [default: from their bytes, names and "
             "first lines]")], None),
    "subtopic_qrels": (Annotated[bool, typer.Option(
        "--subtopic-qrels", help="QRELS holds subtopic qrels (qid subtopic docno rel, ndeval's), which the diversity "
                                 "measures read (alpha-nDCG@20, ERR-IA@20, ...); the others read each document's "
                                 "highest label")], False),
    "subtopic_col": (Annotated[Optional[str], typer.Option(
        "--subtopic-col", metavar="NAME", help="subtopic qrels column of the subtopics [default: subtopic_id, "
                                               "subtopic, iteration, ...]")], None),
    "define": (Annotated[Optional[list[Path]], typer.Option(
        "--define", metavar="FILE", show_default=False, dir_okay=False,
        help="measures you define in SQL, from a TOML file (repeatable), then asked for with -m like any other "
             "(docs/custom-measures.md)")], None),
    "threads": (ThreadsOption, None),
    "memory_limit": (MemoryOption, None),
    "temp_directory": (TempOption, None),
}


def evaluation_options(command):
    """The command with EVALUATION_OPTIONS added to its parameters (after its own), handed to it as one
    dict `evaluation` {option: value}."""
    own = inspect.signature(command, eval_str=True)
    kept = [parameter for name, parameter in own.parameters.items() if name != "evaluation"]
    shared = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)
              for name, (annotation, default) in EVALUATION_OPTIONS.items()]

    @functools.wraps(command)
    def with_options(**values):
        evaluation = {name: values.pop(name) for name in EVALUATION_OPTIONS}
        return command(**values, evaluation=evaluation)

    parameters = [parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY) for parameter in kept] + shared
    with_options.__signature__ = inspect.Signature(parameters)
    with_options.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
    del with_options.__wrapped__  # Typer reads the signature above, not the command's own
    return with_options
