"""`trec`: trec_eval's text layout, `measure<pad to 22>\\tquery\\tvalue`, 4 decimals, trec_eval's names.

Several runs come one after another, each line starting with its run id
(trec_eval evaluates one run at a time, so it has no such column).
"""

from __future__ import annotations

from ..errors import OutputError
from . import LINE_BREAKERS, cell, number, shown

NAME_WIDTH = 22  # trec_eval pads measure names to 22 characters (printf "%-22s")


def line(run_id: str | None, name: str, query_id: str, value: str) -> str:
    for what, text in (("run id", run_id), ("measure", name), ("query id", query_id)):
        if text is not None and any(char in text for char in LINE_BREAKERS):
            raise OutputError(f"the {what} {text!r} holds a tab or a line break, which the trec layout cannot "
                              "hold in a field (its fields are tab-separated, one line each); write csv, tsv, "
                              "json or parquet, which quote it, or change the id")
    prefix = f"{run_id}\t" if run_id is not None else ""
    return f"{prefix}{name:<{NAME_WIDTH}}\t{query_id}\t{value}\n"


def render_result(result, per_query: bool) -> list[bytes]:
    """A Result; per query by default on the command line's -q, as trec_eval -q prints.

    Each query's lines (then the `all` lines) come in the order the measures were asked, with trec_eval's
    text lines (runid, relstring) in their place; as trec_eval does, num_q, gm_map and gm_bpref are
    printed in the `all` row only. Z-scores (trec_eval -Z) print each measure's name after a Z, as trec_eval does.
    """
    from ..measures import trec_name_as_asked

    names = unique_names({name: (trec_name_as_asked(name, result.measure(name)), str(result.measure(name)))
                          for name in result.measures})
    all_only = {name for name in result.measures if result.measure(name).definition.trec_all_only}
    if result.report.zscores:  # trec_eval's "Z%-22s": the text lines (runid, relstring) keep their names
        names = {measure: f"Z{name:<{NAME_WIDTH}}" for measure, name in names.items()}
    several = len(result.runs) > 1
    blocks: dict[tuple, dict[str, str]] = {}  # (run_id, query_id) -> {measure: its printed value}, in row order
    for row in result.rows(per_query).to_pylist():
        if row["query_id"] == "all" or row["measure"] not in all_only:
            blocks.setdefault((row["run_id"], row["query_id"]), {})[row["measure"]] = \
                shown(result, row["measure"], row["value"])
    for row in result.text_rows:
        if (row["run_id"], row["query_id"]) in blocks:
            blocks[(row["run_id"], row["query_id"])][row["measure"]] = row["text"]
    text = "".join(line(run_id if several else None, names.get(measure, measure), query_id, values[measure])
                   for (run_id, query_id), values in blocks.items()
                   for measure in result.order if measure in values)
    return [text.encode()]


def unique_names(names: dict[str, tuple[str, str]]) -> dict[str, str]:
    """{result's name: (trec_eval's name, canonical name)} -> the name each measure is printed under: trec_eval's,
    unless an earlier measure has it, then its canonical one (never the name as asked, which may hold spaces).

    trec_eval's names leave out rel (its -l is one level for all): `-m AP -m 'AP(rel=2)'` would print two
    `map` lines; the second is printed as `AP(rel=2)`.
    """
    taken: set[str] = set()
    unique = {}
    for name, (trec, canonical) in names.items():
        unique[name] = canonical if trec in taken else trec
        taken.add(unique[name])
    return unique


def render_table(table) -> list[bytes]:
    """Any table with the columns measure, query_id and value (and run_id for several runs)."""
    import pyarrow as pa

    needed = ("measure", "query_id", "value")
    if any(name not in table.column_names for name in needed):
        raise OutputError(f"the trec format needs the columns {', '.join(needed)} (found "
                          f"{', '.join(table.column_names) or 'none'}); rename them with AS, or choose another format")
    whole = pa.types.is_integer(table.schema.field("value").type)
    several = "run_id" in table.column_names and len(set(table["run_id"].to_pylist())) > 1
    text = "".join(line(cell(row["run_id"]) if several else None, cell(row["measure"]), cell(row["query_id"]),
                        "NULL" if row["value"] is None else str(row["value"]) if whole
                        else number(float(row["value"]), _count_name(cell(row["measure"]))))
                   for row in table.to_pylist())
    return [text.encode()]


def _count_name(text: str) -> bool:
    """Whether a measure column's text names a count: a table of any origin has only the name to go by."""
    from ..measures import REGISTRY

    name = text.split("(")[0].split("@")[0]
    return name in REGISTRY and REGISTRY[name].aggregate == "sum"
