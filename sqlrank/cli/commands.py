"""The Typer app: its help, --version, and the table of its commands (in the order --help lists them)."""

from __future__ import annotations

from typing import Annotated

import typer
from typer.core import TyperArgument, TyperCommand

import sqlrank

from . import catalogue, compare, evaluate, fuse, query


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


app.command("eval", cls=PlainCommand)(evaluate.eval_command)
app.command("query", cls=PlainCommand)(query.query_command)
app.command("sql")(catalogue.sql_command)
app.command("measures")(catalogue.measures_command)
app.command("compare", cls=PlainCommand)(compare.compare_command)
app.command("plot", cls=PlainCommand)(compare.plot_command)
app.command("fuse", cls=PlainCommand)(fuse.fuse_command)
