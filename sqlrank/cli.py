"""The `sqlrank` command line: parse the arguments, call the library, print.

    sqlrank eval QRELS RUN [RUN ...] [-m MEASURE ...] [-q] [-f FORMAT] [-o FILE]
    sqlrank query SQL [--qrels [NAME=]PATH ...] [--run [NAME=]PATH ...]
    sqlrank sql          the macro library, for the DuckDB shell's `.read`
    sqlrank measures     every measure, its spellings and parameters

Only results go to stdout (or to -o FILE, written atomically); notices,
progress and errors go to stderr. A user mistake ends in one line
`sqlrank: error: ...` and exit code 1 (bad data) or 2 (bad usage), never a
traceback. The numbers, the SQL and the formats are the library's: this
module holds none of them, and imports only the public API (`sqlrank`) and its
errors. A process-wide setting (the garbage collector) is made in main(),
never in run(), which tests call in their own process.
"""

from __future__ import annotations

import enum
import gc
import os
import signal
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, NoReturn, Optional

import typer
from typer.core import TyperArgument, TyperCommand

import sqlrank
from sqlrank.errors import SqlrankError

DEFAULT_MEASURES = sqlrank.DEFAULT_MEASURES

# choices as enums: Typer shows them in --help and refuses anything else (exit 2)
Format = enum.Enum("Format", {name: name for name in sqlrank.export.FORMATS}, type=str)
Missing = enum.Enum("Missing", {name: name for name in sqlrank.MISSING_POLICIES}, type=str)
Duplicates = enum.Enum("Duplicates", {name: name for name in sqlrank.DUPLICATE_POLICIES}, type=str)
ScorePrecision = enum.Enum("ScorePrecision", {name: name for name in sqlrank.SCORE_PRECISIONS}, type=str)
Ties = enum.Enum("Ties", {name: name for name in sqlrank.TIE_POLICIES}, type=str)
Names = enum.Enum("Names", {name: name for name in sqlrank.NAMES}, type=str)
Engine = enum.Enum("Engine", {name: name for name in ("duckdb", "spark")}, type=str)

class PlainCommand(TyperCommand):
    """A command that names its arguments by their metavar alone: usage `QRELS RUN...` (not Typer's
    `{QRELS} {RUN}...`), help `RUN` (not `RUN <list[str]>`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for param in self.params:
            if isinstance(param, TyperArgument) and param.metavar:
                param.display_type_rich = lambda ctx: None  # the help text says what the argument is

    def collect_usage_pieces(self, ctx) -> list[str]:
        return [piece.replace("{", "").replace("}", "") for piece in super().collect_usage_pieces(ctx)]


app = typer.Typer(
    name="sqlrank",
    help="Evaluate rankings against relevance judgments (nDCG, AP, RR, P@k, R@k, bpref, ...), trec_eval-conformant.",
    rich_markup_mode=None,  # plain help text: the same on every terminal, and the README can quote it
    pretty_exceptions_enable=False,  # a bug shows a plain traceback; user mistakes never reach it
    add_completion=False,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)

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


def _version(value: bool) -> None:
    if value:
        typer.echo(f"sqlrank {sqlrank.__version__}")
        raise typer.Exit()


@app.callback()
def cli(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="print the version and exit")] = False,
) -> None:
    """Evaluate rankings against relevance judgments (nDCG, AP, RR, P@k, R@k, bpref, ...), trec_eval-conformant."""


@app.command("eval", cls=PlainCommand)
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
             "(local, hdfs://, s3a://); needs pip install 'sqlrank[spark]' and Java 17+")] = Engine.duckdb,
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
    with _user_errors():
        if complete and missing not in (None, Missing.zero):
            raise typer.BadParameter(f"-c means --missing zero; it contradicts --missing {missing.value}",
                                     param_hint="-c")
        missing = missing or Missing.zero
        named_runs, paths = _named_runs(runs)
        fmt_name, target = _destination(fmt, output, inputs=(qrels, *paths))
        # the connection is closed as soon as the numbers are out (which also removes any spill files)
        with _connect(threads, memory_limit, temp_directory, table_macros=False) as con, \
                _status(f"evaluating {len(paths)} run{'s' if len(paths) > 1 else ''} against {qrels}"):
            options = dict(rel=rel, missing=missing.value, duplicates=duplicates.value, depth=depth,
                           score_precision=score_precision.value, query_col=query_col, doc_col=doc_col,
                           score_col=score_col, relevance_col=relevance_col, ties=ties.value, judged_only=judged_only,
                           allow_disjoint=allow_disjoint, qrels_columns=_column_map(qrels_map, "--qrels-map"),
                           run_columns=_column_map(run_map, "--run-map"), run_col=run_col, names=names.value)
            if engine is Engine.spark:
                from sqlrank import spark

                result = spark.evaluate(spark.unfolded(qrels), named_runs, _measure_list(measure),
                                        spark=spark.session(spark_master), buckets=spark_buckets, threads=threads or 1,
                                        memory_limit=memory_limit, temp_directory=temp_directory,
                                        **options).to_result()
            else:
                result = sqlrank.evaluate(qrels, named_runs, _measure_list(measure), connection=con, **options)
        for notice in result.notices():
            level = "warning" if notice in result.report.warnings else "note"
            typer.echo(f"sqlrank: {level}: {notice}", err=True)
        if target is not None:
            sqlrank.export.write(result, target, fmt_name, per_query=per_query)
        else:
            _emit(sqlrank.export.render(result, fmt_name, per_query=per_query))


@app.command("query", cls=PlainCommand)
def query_command(
    sql: Annotated[str, typer.Argument(
        metavar="SQL", show_default=False,
        help="the SQL to run, with the sqlrank macros loaded; '-' reads it from stdin")],
    qrels: Annotated[Optional[list[str]], typer.Option(
        "--qrels", metavar="[NAME=]PATH",
        help="a qrels file, as view NAME (default qrels) with columns query_id, doc_id, relevance; repeatable")] = None,
    run: Annotated[Optional[list[str]], typer.Option(
        "--run", metavar="[NAME=]PATH",
        help="a run file, as view NAME (default run) with columns query_id, doc_id, score; repeatable")] = None,
    fmt: FormatOption = None,
    output: OutputOption = None,
    duplicates: DuplicatesOption = Duplicates.error,
    query_col: QueryColOption = None,
    doc_col: DocColOption = None,
    score_col: ScoreColOption = None,
    relevance_col: RelevanceColOption = None,
    threads: ThreadsOption = None,
    memory_limit: MemoryOption = None,
    temp_directory: TempOption = None,
    allow_extensions: Annotated[bool, typer.Option(
        "--allow-extensions",
        help="let DuckDB install (from the network) and load the extensions a statement needs, e.g. httpfs "
             "for https:// tables")] = False,
) -> None:
    """Run SQL with the macros loaded and files mounted as views.

    A file is a run or qrels because you say so (--run or --qrels), not by
    guessing from its content; it is read and checked as `sqlrank eval`
    reads it. It runs your SQL with your permissions, like the duckdb
    shell: the SQL can read and write any file you can. sqlrank refuses
    only what it can see: -o over an input or a file the SQL names, and a
    COPY ... TO over an input.
    Example:

    \b
      sqlrank query --qrels data/qrels.txt --run data/bm25.trec \\
        "SELECT query_id, value FROM sqlrank.ndcg('qrels', 'run', k := 10)"
    """
    with _user_errors():
        qrels_views = _views(qrels or [], "qrels", "--qrels")
        run_views = _views(run or [], "run", "--run")
        _refuse_same_names(qrels_views + run_views)
        text = _sql_text(sql)
        inputs = tuple(path for _, path in qrels_views + run_views)
        fmt_name, target = _destination(fmt, output, inputs=inputs + tuple(sqlrank.user_sql.files_named(text)))
        with _connect(threads, memory_limit, temp_directory, allow_extensions) as con:
            for name, path in qrels_views:
                sqlrank.load_qrels(con, path, name, duplicates=duplicates.value, query_col=query_col,
                                   doc_col=doc_col, relevance_col=relevance_col)
            for name, path in run_views:
                sqlrank.load_run(con, path, name, duplicates=duplicates.value, query_col=query_col, doc_col=doc_col,
                                 score_col=score_col)
            with _status("running the query"):
                table = sqlrank.query(con, text, inputs)
        if table is None:  # a statement without a result (CREATE, SET, ...)
            return
        if target is not None:
            sqlrank.export.write_arrow(table, target, fmt_name)
        else:
            _emit(sqlrank.export.render_arrow(table, fmt_name))


@app.command("sql")
def sql_command() -> None:
    """Print the macro library for the DuckDB shell.

    `sqlrank sql > sqlrank.sql`, then `.read sqlrank.sql` in the shell (or
    `sqlrank sql | duckdb` with the SQL to run after it).
    """
    typer.echo(sqlrank.sql_script(), nl=False)


@app.command("measures")
def measures_command() -> None:
    """List the measures, their spellings and parameters."""
    lines = []
    for row in sqlrank.describe_measures():
        name = row["name"] + ("[@k]" if row["cutoff"] else f"@{row['at']}" if row["at"] else "")
        summed = "; summed, not averaged, in the 'all' row" if row["summary"] == "sum" else ""
        lines.append(f"{name:<13}  {row['definition']}{summed}")  # a name past the column still gets its gap
        if row["aliases"]:
            lines.append(f"{'':<15}also: {', '.join(row['aliases'])}")
        if row["parameters"]:
            lines.append(f"{'':<15}parameters: {', '.join(f'{p}={d}' for p, d in row['parameters'].items())}")
    lines += ["", "Parameters go in parentheses before the cutoff: nDCG(gain=exp)@10, AP(rel=2)@100.",
              "Names are case-insensitive; trec_eval's work too (ndcg_cut_10, map, P.5,10, recall_100,",
              "utility.2,-1,0,0, ndcg.1=3,2=9), as do its sets all_trec and official, and ranx's",
              "hits@k, f1@k, r-precision, ndcg_burges, map@10-l2.", ""]
    for parameter in sqlrank.MEASURE_PARAMETERS.values():
        values = "|".join(parameter.choices) or ("a list of numbers" if isinstance(parameter.default, tuple)
                                                 else "a number")
        lines.append(f"  {parameter.name:<11}  {values} (default {parameter.default}): {parameter.help}")
    typer.echo("\n".join(lines))


def main() -> NoReturn:
    """The console script `sqlrank` (and `python -m sqlrank`): the command, then the end of the process."""
    # one command and the process ends: collecting reference cycles would only cost time (docs/performance.md)
    gc.disable()
    for name in _STOP_SIGNALS:
        if hasattr(signal, name):  # SIGHUP is POSIX only
            signal.signal(getattr(signal, name), _stop)
    code = run()
    # The command is done: its output written (files renamed into place), its DuckDB connection
    # closed (spill files removed). Tearing the interpreter down would free every module and object
    # one by one, a tenth of a small evaluation's time (docs/performance.md); os._exit skips that,
    # once what is buffered for stdout and stderr is out.
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:  # None: started with the descriptor closed (`>&-`)
                stream.flush()
        except (OSError, ValueError):  # a reader that went away (`| head`), a closed stream
            pass
    os._exit(code)


def run(args: list[str] | None = None) -> int:
    """The command line's work (the arguments of sys.argv unless given); returns the exit code.

    Changes nothing in the process beyond the command's own output: tests call it in theirs.
    """
    try:
        code = app(args=args, prog_name="sqlrank", standalone_mode=False)
    except typer.TyperException as error:  # a usage error Typer found: one line, as sqlrank's own
        if type(error).__name__ == "NoArgsIsHelpError":  # `sqlrank` alone: the help, as asked for
            print(error.format_message(), file=sys.stderr)
            return 2
        command = getattr(getattr(error, "ctx", None), "command_path", "sqlrank")
        print(f"sqlrank: error: {_one_line(error.format_message())} (see '{command} --help')", file=sys.stderr)
        return getattr(error, "exit_code", 2)
    except typer.Abort:
        print("sqlrank: error: aborted", file=sys.stderr)
        return 1
    except SystemExit as end:
        return _exit_code(end.code)
    except BaseException:
        # a stop signal: DuckDB interrupted (its own error, whatever its type), the `with` blocks have closed
        # the connection (its spill files removed) and the atomic write removed its temporary file
        if _stopped_by is None:
            raise
        typer.echo(f"sqlrank: stopped by {signal.Signals(_stopped_by).name}", err=True)
        return 128 + _stopped_by
    return code if isinstance(code, int) else 0


def _one_line(message: str) -> str:
    """Typer's message on one line, in sqlrank's words: without the `Value error, ` and `Input should be`
    of the validation library under Typer."""
    text = " ".join(message.split()).replace("Value error, ", "").replace("Input should be ", "expected ")
    text = text.replace("expected greater than or equal to ", "expected a number >= ")
    return text.replace(", unable to parse string as an integer", "").replace(", unable to parse string as a number", "")


# ---------------------------------------------------------------- stop signals (main() only: process-wide)

_STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")
_stopped_by: int | None = None  # the signal that asked the command to stop, once one has


class _Stop(BaseException):
    """Raised by a stop signal's handler: not an Exception, so that nothing catches it but the `with` blocks'
    clean-up, and not KeyboardInterrupt, which click would print as 'Aborted!' with exit 1."""


def _stop(number: int, frame) -> None:
    global _stopped_by
    if _stopped_by is None:  # a second signal during the clean-up must not cut it short
        _stopped_by = number
        raise _Stop()


def _exit_code(code) -> int:
    """What Python makes of SystemExit(code): None is 0, a number itself, anything else printed and 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


# ---------------------------------------------------------------- helpers: arguments in, bytes out

@contextmanager
def _user_errors():
    """A sqlrank error is the user's to fix: one line on stderr and its exit code, no traceback."""
    try:
        yield
    except SqlrankError as error:
        if _stopped_by is not None:  # DuckDB's "interrupted", worded by the library as its own failure
            raise _Stop() from None
        typer.echo(f"sqlrank: error: {error}", err=True)
        raise typer.Exit(error.exit_code) from None


def _connect(threads: int | None, memory_limit: str | None, temp_directory: Path | None,
             extensions: bool = False, table_macros: bool = True):
    """The DuckDB connection a command works in: DuckDB's own progress bar only for a person at a terminal.

    DuckDB draws a bar on stderr for every statement that runs past two seconds and leaves it
    there; in a pipe or a log file those are lines of noise among the notices.
    """
    return sqlrank.connect(threads=threads, memory_limit=memory_limit, progress_bar=_at_terminal(sys.stderr),
                           temp_directory=None if temp_directory is None else str(temp_directory),
                           autoload_extensions=extensions, table_macros=table_macros)


def _at_terminal(stream) -> bool:
    """Whether `stream` is a terminal; Python gives None for a descriptor closed at start-up (`2>&-`)."""
    return stream is not None and stream.isatty()


@contextmanager
def _status(text: str):
    """A progress line on stderr, only for a person watching a terminal; erased when done."""
    shown = _at_terminal(sys.stderr)
    if shown:
        sys.stderr.write(f"sqlrank: {text} ...\r")
        sys.stderr.flush()
    try:
        yield
    finally:
        if shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _measure_list(measures: list[str] | None) -> list[str]:
    """The -m values, each a space-separated list as trec_eval's -m takes (`-m "ndcg_cut_10 map"`)."""
    return [name for value in measures or DEFAULT_MEASURES for name in sqlrank.split_measure_names(value)]


def _split_name(argument: str) -> tuple[str | None, str]:
    """`NAME=PATH` -> (NAME, PATH); a plain path (an existing file, or '=' inside a folder name) -> (None, PATH)."""
    name, sep, path = argument.partition("=")
    if not sep or not name or "/" in name or os.sep in name or Path(argument).exists():
        return None, argument
    return name, path


def _named_runs(arguments: list[str]) -> tuple[list[str] | dict[str, str], list[str]]:
    """What `evaluate` takes for the runs, and their paths.

    Unnamed runs go as a list: the engine names them after their file (and a
    file with a run_id column keeps its own names). Once one run is named, all
    go as a dict, the others named as the engine would name them.
    """
    split = [_split_name(argument) for argument in arguments]
    paths = [path for _, path in split]
    # the clash check is the command line's own: a dict of runs would keep only the last of two
    # alike names, and a clash of file names is refused before any file is read
    names = [name or sqlrank.run_name(path) for name, path in split]
    clashes = sorted({name for name in names if names.count(name) > 1})
    if clashes:
        raise typer.BadParameter(f"several runs are named {', '.join(repr(c) for c in clashes)}; "
                                 "name them with NAME=PATH, e.g. bm25=runs/a/run.trec", param_hint="RUN")
    if all(name is None for name, _ in split):
        return paths, paths
    return dict(zip(names, paths)), paths


def _column_map(arguments: list[str] | None, option: str) -> dict[str, str]:
    """--run-map doc_id=item ... as {canonical name: column}; the engine checks the canonical names."""
    mapping = {}
    for argument in arguments or []:
        canonical, equals, column = argument.partition("=")
        if not equals or not canonical or not column:
            raise typer.BadParameter(f"expected CANONICAL=NAME, e.g. query_id=qid, found {argument!r}", param_hint=option)
        mapping[canonical.strip()] = column
    return mapping


def _views(arguments: list[str], default: str, option: str) -> list[tuple[str, str]]:
    views = [_split_name(argument) for argument in arguments]
    if sum(name is None for name, _ in views) > 1:
        raise typer.BadParameter(f"several files would be the view '{default}'; name them with NAME=PATH",
                                 param_hint=option)
    return [(name or default, path) for name, path in views]


def _refuse_same_names(views: list[tuple[str, str]]) -> None:
    names = [name for name, _ in views]
    clashes = sorted({name for name in names if names.count(name) > 1})
    if clashes:
        raise typer.BadParameter(f"two files would be the view {', '.join(repr(c) for c in clashes)}; "
                                 "give them different names with NAME=PATH")


def _destination(fmt, output: Path | None, inputs: tuple = ()):
    """(format, checked output or None for stdout): -f wins, else the file's extension, else a table for people.

    Checked before any work is done, so that a long evaluation is not thrown away at the end;
    writing to the checked output checks nothing again.
    """
    if output is None or str(output) == "-":
        if fmt is not None and fmt.value == "parquet" and _at_terminal(sys.stdout):
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


def _sql_text(sql: str) -> str:
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


def _emit(data: bytes) -> None:
    """The result on stdout, as bytes (Parquet is binary)."""
    typer.echo(data, nl=False)


# ---------------------------------------------------------------- sqlrank compare, sqlrank plot

CompareFormat = enum.Enum("CompareFormat", {name: name for name in (
    "table", "markdown", "latex", "csv", "tsv", "json", "jsonl", "parquet")}, type=str)
PlotKind = enum.Enum("PlotKind", {name: name for name in ("cutoff", "delta", "pr", "distribution")}, type=str)


@app.command("compare", cls=PlainCommand)
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
    missing: Annotated[Missing, typer.Option(
        "--missing", case_sensitive=False,
        help="a qrels query absent from a run: scores 0, is left out (and so not compared), or is an error")] = Missing.zero,
    threads: ThreadsOption = None,
) -> None:
    """Compare runs with a baseline: means, differences, wins/ties/losses, effect sizes and significance tests.

    Prints one row per run and a column per measure, † / ‡ marking a difference
    from the baseline at p < 0.05 / 0.01 (first test, adjusted), then the details.
    """
    with _user_errors():
        named_runs, paths = _named_runs(runs)
        inputs = (qrels, *paths)
        if output is not None and str(output) != "-":
            fmt_name = fmt.value if fmt else sqlrank.Comparison.format_for(output)
            sqlrank.export.check_target(output, inputs)
        else:
            fmt_name, output = (fmt.value if fmt else "table"), None
        with _connect(threads, None, None) as con, _status(f"comparing {len(paths)} runs"):
            comparison = sqlrank.compare(qrels, named_runs, _measure_list(measure), baseline=baseline,
                                         tests=test or ["ttest"], correction=correction, trials=trials, seed=seed,
                                         missing=missing.value, connection=con)
        if output is not None:
            comparison.write(output, fmt_name, inputs)
        else:
            _emit(comparison.render(fmt_name))


@app.command("plot", cls=PlainCommand)
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
    missing: Annotated[Missing, typer.Option("--missing", case_sensitive=False,
                                             help="a qrels query absent from a run")] = Missing.zero,
) -> None:
    """Draw a picture of an evaluation to a PNG or SVG file (needs the plot extra: matplotlib)."""
    with _user_errors():
        named_runs, paths = _named_runs(runs)
        sqlrank.export.check_target(output, (qrels, *paths))
        if not measure and kind.value in ("cutoff", "pr"):
            raise typer.BadParameter("name the measures to draw: for cutoff its cutoffs (-m nDCG@5 -m nDCG@10 "
                                     "-m nDCG@20), for pr the recall levels (-m iprec_at_recall_0.00 ...)",
                                     param_hint="-m/--measure")
        measures = list(measure or DEFAULT_MEASURES)
        with _connect(None, None, None) as con:
            result = sqlrank.evaluate(qrels, named_runs, measures, missing=missing.value, connection=con)
        shown = measures[0] if kind.value in ("delta", "distribution") else None
        sqlrank.plot(result, kind.value, output, measure=shown, baseline=baseline)
        typer.echo(f"sqlrank: wrote {output}", err=True)
