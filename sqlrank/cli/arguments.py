"""The command line's arguments made into the library's: measure lists, named runs and views, column maps,
the output's format and file, the SQL to run.

Each is checked before any work is done; a mistake is a usage error (exit 2) naming its option.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import typer

import sqlrank
from sqlrank.errors import SqlrankError

from . import terminal
from .options import DEFAULT_MEASURES, Missing


def measure_list(measures: list[str] | None) -> list[str]:
    """The -m values, each a space-separated list as trec_eval's -m takes (`-m "ndcg_cut_10 map"`)."""
    return [name for value in measures or DEFAULT_MEASURES for name in sqlrank.split_measure_names(value)]


def evaluation(values: dict) -> tuple[dict, tuple]:
    """The shared evaluation options (options.EVALUATION_OPTIONS) as (sqlrank.evaluate's keywords, the
    connection's settings: threads, memory limit, temp directory)."""
    options = dict(values)
    settings = tuple(options.pop(name) for name in ("threads", "memory_limit", "temp_directory"))
    for path in options.pop("define") or ():  # defined before -m is read, so that -m can name them
        sqlrank.define_file(path)
    options["missing"] = missing_policy(options.pop("missing"), options.pop("complete")).value
    for name in ("empty", "duplicates", "score_precision", "ties", "names", "qrels_format", "run_format",
                 "interpolation"):
        options[name] = getattr(options[name], "value", options[name])
    options["qrels_columns"] = column_map(options.pop("qrels_map"), "--qrels-map")
    options["run_columns"] = column_map(options.pop("run_map"), "--run-map")
    return options, settings


# what sqlrank says to trec_eval's flags it does not take (docs/cli.md), rather than "No such option"
TREC_EVAL_ONLY = {
    "-D": "is trec_eval's debug level: sqlrank prints no trace of its computation; leave it out (`sqlrank query` "
          "shows what a query's ranking holds)",
    "-N": "is trec_eval's number of documents in the collection, which it reads only for utility's fourth weight; "
          "sqlrank refuses that weight unless it is 0, so -N changes nothing: leave it out",
    "-R": "is trec_eval's format of the judgments: sqlrank reads qrels (-R qrels, trec_eval's default), "
          "multi-judge qrels (-R qrels_jg) and preferences (-R prefs, -R qrels_prefs): give one of them",
}
# trec_eval's -R formats of preferences, which its preference measures read (docs/measures.md#preference-measures)
PREFS_FORMATS = ("prefs", "qrels_prefs")


# the judgment formats of trec_eval's -R that sqlrank reads: qrels, multi-judge qrels (read as subtopic
# qrels are, the judge in the subtopic's place: sql/24_judges.sql) and preferences
REL_FORMATS = ("qrels", "qrels_jg", *PREFS_FORMATS)


def refuse_trec_eval_flags(given: dict) -> None:
    """trec_eval's -D, -N and -R (but the -R formats sqlrank reads): a usage error that names the flag and says why."""
    for flag, value in given.items():
        if value is not None and not (flag == "-R" and value in REL_FORMATS):
            raise typer.BadParameter(f"{flag} {TREC_EVAL_ONLY[flag]}", param_hint=flag)


def rel_format(value: str | None, options: dict) -> None:
    """-R qrels_jg: QRELS holds multi-judge qrels, which the evaluation reads where it reads subtopic qrels."""
    if value == "qrels_jg":
        options["subtopic_qrels"] = True


def judgments(qrels, options: dict, rel_format: str | None = None) -> dict:
    """sqlrank.evaluate's judgments from QRELS: the qrels, or with --subtopic-qrels (or -R qrels_jg) the subtopic
    qrels in their place, or with -R prefs / qrels_prefs the preferences (the qrels read as preferences)."""
    subtopics = options.pop("subtopic_qrels")
    if rel_format in PREFS_FORMATS:
        if subtopics:
            raise typer.BadParameter(f"-R {rel_format} reads QRELS as preferences; --subtopic-qrels reads it as "
                                     "subtopic qrels: give one of them", param_hint="-R")
        return {"qrels": None, "prefs": qrels, "prefs_from_qrels": rel_format == "qrels_prefs"}
    return {"qrels": None, "subtopic_qrels": qrels} if subtopics else {"qrels": qrels}


def refuse_formats(options: dict, where: str) -> None:
    """--qrels-format / --run-format choose a reader of this machine's: refused where another reads the files."""
    for kind in ("qrels", "run"):
        if options.pop(f"{kind}_format") is not None:
            raise typer.BadParameter(f"chooses the reader of sqlrank's own engine; {where} reads the files with "
                                     "Spark's readers: leave it out", param_hint=f"--{kind}-format")


def missing_policy(missing, complete: bool):
    """--missing, or -c (trec_eval's flag for --missing zero); zero when neither is given."""
    if complete and missing not in (None, Missing.zero):
        raise typer.BadParameter(f"-c means --missing zero; it contradicts --missing {missing.value}", param_hint="-c")
    return missing or Missing.zero


def split_name(argument: str) -> tuple[str | None, str]:
    """`NAME=PATH` -> (NAME, PATH); a plain path (an existing file, or '=' inside a folder name) -> (None, PATH)."""
    name, sep, path = argument.partition("=")
    if not sep or not name or "/" in name or os.sep in name or Path(argument).exists():
        return None, argument
    return name, path


def named_runs(arguments: list[str]) -> tuple[list[str] | dict[str, str], list[str]]:
    """What `evaluate` takes for the runs, and their paths.

    Unnamed runs go as a list: the engine names them after their file (and a
    file with a run_id column keeps its own names). Once one run is named, all
    go as a dict, the others named as the engine would name them.
    """
    split = [split_name(argument) for argument in arguments]
    paths = [path for _, path in split]
    # the clash check is the command line's own: a dict of runs would keep only the last of two
    # alike names, and a clash of file names is refused before any file is read
    names = [name or sqlrank.run_name(path) for name, path in split]
    clashes = _repeated(names)
    if clashes:
        raise typer.BadParameter(f"several runs are named {clashes}; "
                                 "name them with NAME=PATH, e.g. bm25=runs/a/run.trec", param_hint="RUN")
    if all(name is None for name, _ in split):
        return paths, paths
    return dict(zip(names, paths)), paths


def column_map(arguments: list[str] | None, option: str) -> dict[str, str]:
    """--run-map doc_id=item ... as {canonical name: column}; the engine checks the canonical names."""
    mapping = {}
    for argument in arguments or []:
        canonical, equals, column = argument.partition("=")
        if not equals or not canonical or not column:
            raise typer.BadParameter(f"expected CANONICAL=NAME, e.g. query_id=qid, found {argument!r}", param_hint=option)
        mapping[canonical.strip()] = column
    return mapping


def views(arguments: list[str], default: str, option: str) -> list[tuple[str, str]]:
    """--qrels / --run [NAME=]PATH ... as (view name, path); one file at most goes unnamed, as `default`."""
    named = [split_name(argument) for argument in arguments]
    if sum(name is None for name, _ in named) > 1:
        raise typer.BadParameter(f"several files would be the view '{default}'; name them with NAME=PATH",
                                 param_hint=option)
    return [(name or default, path) for name, path in named]


def refuse_same_names(named: list[tuple[str, str]]) -> None:
    """Two files may not be one view: the second would hide the first."""
    clashes = _repeated([name for name, _ in named])
    if clashes:
        raise typer.BadParameter(f"two files would be the view {clashes}; give them different names with NAME=PATH")


def _repeated(names: list[str]) -> str:
    """The names given more than once, quoted and sorted ('a', 'b'); empty when each is unique."""
    return ", ".join(repr(name) for name in sorted({name for name in names if names.count(name) > 1}))


def destination(fmt, output: Path | None, inputs: tuple = ()):
    """(format, checked output or None for stdout): -f wins, else the file's extension, else a table for people.

    Checked before any work is done, so that a long evaluation is not thrown away at the end;
    writing to the checked output checks nothing again.
    """
    if output is None or str(output) == "-":
        if fmt is not None and fmt.value == "parquet" and terminal.at_terminal(sys.stdout):
            raise typer.BadParameter("Parquet is binary: write it to a file with -o FILE, or pipe it",
                                     param_hint="-f/--format")
        return (fmt.value if fmt else "table"), None
    if fmt is not None:
        fmt_name = fmt.value
    else:
        try:
            fmt_name = sqlrank.export.format_for(output)
        except SqlrankError as error:
            raise typer.BadParameter(str(error), param_hint="-o/--output") from None
    return fmt_name, sqlrank.export.check_target(output, inputs)


def comparison_destination(fmt, output: Path | None, inputs: tuple) -> tuple[str, Path | None]:
    """(format, output or None for stdout) of `sqlrank compare`: -f wins, else the file's extension, else a table.

    Unlike destination(), Parquet may go to a terminal: compare has always done so, and a change would be
    a change of behaviour. A file name whose format is unknown is a usage error (exit 2), as for eval.
    """
    if output is None or str(output) == "-":
        return (fmt.value if fmt else "table"), None
    try:
        fmt_name = fmt.value if fmt else sqlrank.Comparison.format_for(output)
    except SqlrankError as error:
        raise typer.BadParameter(str(error), param_hint="-o/--output") from None
    sqlrank.export.check_target(output, inputs)
    return fmt_name, output


def plotted_measures(kind: str, measures: list[str] | None) -> tuple[list[str], str | None]:
    """The measures `sqlrank plot` evaluates, and the one it shows when its kind draws one (delta, distribution).

    pr draws trec_eval's eleven recall levels unless told others (-m iprec_at_recall_0.00 ...), as trec_eval
    prints them; cutoff has no cutoffs of its own to choose, so it asks.
    """
    if not measures and kind == "cutoff":
        raise typer.BadParameter("name the cutoffs to draw, e.g. -m nDCG@5 -m nDCG@10 -m nDCG@20 (or "
                                 "-m 'ndcg_cut.5,10,15,20,30,100,200,500,1000')", param_hint="-m/--measure")
    if not measures and kind == "pr":
        measures = [f"iprec_at_recall_{level / 10:.2f}" for level in range(11)]  # trec_eval's 0.00, 0.10 ... 1.00
    evaluated = measure_list(measures)
    return evaluated, (evaluated[0] if kind in ("delta", "distribution") else None)


def sql_text(sql: str) -> str:
    """The SQL to run: the argument, or standard input for '-'; refuses an empty one (a file piped in by mistake)."""
    if sql != "-":
        text, where = sql, "the SQL argument is"
    elif sys.stdin is None:  # started with the descriptor closed (`<&-`)
        raise typer.BadParameter("'-' reads the SQL from standard input, which is closed; give the SQL as the "
                                 "argument or pipe it in", param_hint="SQL")
    else:
        text, where = sys.stdin.read(), "standard input held"
    if not text.strip():
        raise typer.BadParameter(f"no SQL to run: {where} only blanks; give a statement such as "
                                 "\"SELECT * FROM sqlrank.ndcg('qrels', 'run', k := 10)\"", param_hint="SQL")
    return text
