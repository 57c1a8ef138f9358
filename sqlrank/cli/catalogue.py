"""`sqlrank sql` and `sqlrank measures`: what the library holds, printed."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

import sqlrank

from . import failures


def sql_command(
    define: Annotated[Optional[list[Path]], typer.Option(
        "--define", metavar="FILE", show_default=False, dir_okay=False,
        help="add the table macros of the measures defined in this TOML file (repeatable; docs/custom-measures.md)")]
        = None,
) -> None:
    """Print the macro library for the DuckDB shell.

    `sqlrank sql > sqlrank.sql`, then `.read sqlrank.sql` in the shell (or
    `sqlrank sql | duckdb` with the SQL to run after it).
    """
    with failures.user_errors():
        measures = [measure for path in define or () for measure in sqlrank.define_file(path)]
    typer.echo(sqlrank.sql_script() + "".join(f"\n-- ===== {m.name}, defined in SQL =====\n{sqlrank.defined.shell_sql(m)}"
                                              for m in measures), nl=False)


def measures_command() -> None:
    """List the measures, their spellings and parameters."""
    lines = []
    for row in sqlrank.describe_measures():
        name = row["name"] + ("[@k]" if row["cutoff"] else f"@{row['at']}" if row["at"] else "")
        summed = {"sum": "; summed, not averaged, in the 'all' row",
                  "weighted": "; the 'all' row weighs each query (user) as the definition says"}.get(row["summary"], "")
        lines.append(f"{name:<13}  {row['definition']}{summed}")  # a name past the column still gets its gap
        if row["aliases"]:
            lines.append(f"{'':<15}also: {', '.join(row['aliases'])}")
        if row["parameters"]:
            lines.append(f"{'':<15}parameters: {', '.join(f'{p}={d}' for p, d in row['parameters'].items())}")
    lines += ["", "List measures, of the recommended lists themselves (beyond accuracy; docs/recommenders.md):"]
    for definition in sqlrank.LIST_MEASURES.values():
        reads = " or ".join(f"--{name}" for name in definition.inputs)
        if definition.similarities:  # the similarity parameter chooses the input of the item similarities
            reads = ("--train, and --features with similarity=features" if reads
                     else "--train (similarity=cooccurrence) or --features (similarity=features)")
        said = "; only in the 'all' row (a measure of the whole run)" if definition.whole_run else ""
        lines.append(f"{definition.name + '[@k]':<13}  {definition.definition}{said}" + (f"; reads {reads}" if reads else ""))
        aliases = [a for a in definition.aliases if a.lower() != definition.name.lower()]
        if aliases:
            lines.append(f"{'':<15}also: {', '.join(aliases)}")
        if definition.params:
            lines.append(f"{'':<15}parameters: "
                         f"{', '.join(f'{p}={sqlrank.LIST_PARAMETERS[p].default}' for p in definition.params)}")
    lines += ["", "Parameters go in parentheses before the cutoff: nDCG(gain=exp)@10, AP(rel=2)@100.",
              "Names are case-insensitive; trec_eval's work too (ndcg_cut_10, map, P.5,10, recall_100,",
              "utility.2,-1,0,0, ndcg.1=3,2=9), as do its sets all_trec and official, and ranx's",
              "hits@k, f1@k, r-precision, ndcg_burges, map@10-l2.", ""]
    for parameter in sqlrank.MEASURE_PARAMETERS.values():
        values = "|".join(parameter.choices) or ("a list of numbers" if isinstance(parameter.default, tuple)
                                                 else "a number")
        lines.append(f"  {parameter.name:<11}  {values} (default {parameter.default}): {parameter.help}")
    typer.echo("\n".join(lines))
