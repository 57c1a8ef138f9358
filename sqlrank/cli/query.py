"""`sqlrank query`: the user's SQL, with the macros loaded and files mounted as views."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

import sqlrank

from . import arguments, failures, terminal
from .options import Duplicates, DocColOption, DuplicatesOption, FormatOption, MemoryOption, OutputOption
from .options import QueryColOption, RelevanceColOption, ScoreColOption, TempOption, ThreadsOption


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
    only what it can see: -o over an input or a file the SQL names (globs
    too), and a COPY ... TO or EXPORT DATABASE over an input or into a
    folder holding one (its target as DuckDB evaluates it).
    Example:

    \b
      sqlrank query --qrels data/qrels.txt --run data/bm25.trec \\
        "SELECT query_id, value FROM sqlrank.ndcg('qrels', 'run', k := 10)"
    """
    with failures.user_errors():
        qrels_views = arguments.views(qrels or [], "qrels", "--qrels")
        run_views = arguments.views(run or [], "run", "--run")
        arguments.refuse_same_names(qrels_views + run_views)
        text = arguments.sql_text(sql)
        inputs = tuple(path for _, path in qrels_views + run_views)
        fmt_name, target = arguments.destination(fmt, output, inputs=inputs + tuple(sqlrank.user_sql.files_named(text)))
        with terminal.connect(threads, memory_limit, temp_directory, allow_extensions) as con:
            for name, path in qrels_views:
                sqlrank.load_qrels(con, path, name, duplicates=duplicates.value, query_col=query_col,
                                   doc_col=doc_col, relevance_col=relevance_col)
            for name, path in run_views:
                sqlrank.load_run(con, path, name, duplicates=duplicates.value, query_col=query_col, doc_col=doc_col,
                                 score_col=score_col)
            with terminal.status("running the query"):
                table = sqlrank.query(con, text, inputs)
        if table is None:  # a statement without a result (CREATE, SET, ...)
            return
        if target is not None:
            sqlrank.export.write_arrow(table, target, fmt_name)
        else:
            terminal.emit(sqlrank.export.render_arrow(table, fmt_name))
