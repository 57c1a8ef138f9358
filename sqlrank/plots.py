"""Pictures of an evaluation (matplotlib, the `plot` extra), to PNG or SVG.

    sqlrank.plot(result, "cutoff", "ndcg_at_k.png")                  # measure against its cutoff, per run
    sqlrank.plot(result, "delta", "delta.svg", measure="AP", baseline="bm25")
    result.plot("distribution", "ap.png", measure="AP")

Kinds:
* cutoff: the mean of a measure against its cutoff (nDCG@5, nDCG@10, ... as x = 5, 10, ...), a line per run;
* delta: per-query differences against the baseline, sorted, a bar per query (a panel per run);
* pr: the interpolated precision-recall curve per run, from measures named
  iprec_at_recall_0.10 (trec_eval's spelling) or iprec_at_recall@0.1;
* distribution: the per-query values of a measure, a box per run.

Every picture names its measure and runs in its title, axes and legend.
"""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

from .errors import MeasureError, OutputError
from .formats.escaping import plot_label
from .measures import family as measure_family
from .measures import parse

KINDS = ("cutoff", "delta", "pr", "distribution")
_RECALL = re.compile(r"^iprec_at_recall(?:_|@)(?P<level>[0-9.]+)$", re.IGNORECASE)


def pyplot():
    try:
        import matplotlib
    except ImportError:
        raise OutputError("plots need matplotlib: in the sqlrank checkout, .venv/bin/pip install -e '.[plot]'") from None
    matplotlib.use("Agg", force=False)  # files, not windows: works without a display
    import matplotlib.pyplot as plt

    return plt


def plot(source, kind: str, path=None, *, measure: str | None = None, baseline: str | None = None,
         runs: list[str] | None = None, title: str | None = None):
    """Draw `kind` from a sqlrank Result (or a per-query table run_id, query_id, measure, value);
    save it to `path` (.png or .svg, or any format matplotlib knows) when given; return the Figure."""
    if kind not in KINDS:
        raise OutputError(f"unknown plot {kind!r}: expected one of {', '.join(KINDS)}")
    if path is not None:
        from .export import check_target

        picture_format(check_target(path).path)  # before any drawing: a bad name costs nothing
    for name, text in (("measure", measure), ("baseline", baseline), ("title", title)):
        if text is not None and not isinstance(text, str):
            raise OutputError(f"{name} must be text, got {type(text).__name__} {text!r}")
    values = _values(source)
    run_names = runs or list(dict.fromkeys(run for run, _, _ in values))
    missing = [run for run in run_names if run not in {r for r, _, _ in values}]
    if missing:
        raise OutputError(f"no values for run(s) {', '.join(missing)}; the runs are "
                          f"{', '.join(dict.fromkeys(r for r, _, _ in values))}")
    plt = pyplot()
    draw = {"cutoff": _cutoff, "delta": _delta, "pr": _precision_recall, "distribution": _distribution}[kind]
    if kind == "cutoff":
        draw = partial(_cutoff, families=_cutoff_families(source))
    figure = draw(plt, values, run_names, measure=measure, baseline=baseline)
    if title:
        figure.suptitle(title)
    figure.tight_layout()
    if path is not None:
        _save(figure, path)
    return figure


def _per_query(source):
    """The per-query rows of a Result, its query column named query_id whatever its inputs called it (user_id),
    or a per-query table's."""
    if not hasattr(source, "report"):
        return _arrow(source)
    table = source.per_query
    return _arrow(table.rename_columns(["query_id" if name == source.report.query_id_name else name
                                        for name in table.column_names]))


def _arrow(table):
    if table is None or isinstance(table, (str, bytes)) or not hasattr(table, "__len__"):
        raise OutputError(f"plot draws a sqlrank Result or a per-query table (run_id, query_id, measure, value); "
                          f"not {type(table).__name__} {table!r:.40}")
    if not hasattr(table, "column_names"):  # a DataFrame
        import pyarrow as pa

        try:
            table = (table.to_arrow() if hasattr(table, "to_arrow")
                     else pa.Table.from_pandas(table, preserve_index=False))
        except Exception:  # noqa: BLE001 - anything else is the user's mistake, said plainly
            raise OutputError(f"plot draws a sqlrank Result or a per-query table; "
                              f"not a {type(table).__name__}") from None
    missing = [name for name in ("run_id", "query_id", "measure", "value") if name not in table.column_names]
    if missing:
        raise OutputError(f"a per-query table to plot needs the columns run_id, query_id, measure, value; missing "
                          f"{', '.join(missing)} (found {', '.join(table.column_names)})")
    return table


def _cutoff_families(source) -> dict[str, list[tuple[int, str]]]:
    """{family: [(cutoff, measure)]}: from the result's family and cutoff columns (Result.to_arrow(cutoff=True)),
    or a table's own; a table without them has its measure names read by the registry's parser."""
    if hasattr(source, "parsed_measures"):
        table = source.to_arrow(cutoff=True)
    else:
        table = _per_query(source)
    if {"family", "cutoff"} <= set(table.column_names):
        rows = zip(*(table.column(name).to_pylist() for name in ("measure", "family", "cutoff")))
    else:
        rows = []
        for name in dict.fromkeys(table.column("measure").to_pylist()):
            try:
                parsed = parse(name)
            except MeasureError:
                continue  # a column that is no measure of the registry has no cutoff to plot
            if len(parsed) == 1:
                rows.append((name, measure_family(parsed[0]), parsed[0].k))
    families: dict[str, dict[int, str]] = {}
    for measure, name, cutoff in rows:
        if cutoff is not None:
            families.setdefault(name, {})[cutoff] = measure
    return {name: sorted(points.items()) for name, points in families.items()}


def _values(source) -> dict:
    """{(run, measure, query): value} from a Result or a per-query table, without the `all` rows."""
    table = _per_query(source)
    columns = [table.column(name).to_pylist() for name in ("run_id", "measure", "query_id", "value")]
    return {(run, measure, query): value for run, measure, query, value in zip(*columns)
            if query != "all" and value is not None}


def _measures(values) -> list[str]:
    return list(dict.fromkeys(measure for _, measure, _ in values))


def _pick(values, measure: str | None) -> str:
    measures = _measures(values)
    if measure is None:
        return measures[0]
    if measure not in measures:
        raise OutputError(f"no values for measure {measure!r}; the measures are {', '.join(measures)}")
    return measure


def _mean(values, run: str, measure: str) -> float:
    found = [value for (r, m, _), value in values.items() if r == run and m == measure]
    return sum(found) / len(found) if found else float("nan")


def _cutoff(plt, values, runs, measure=None, baseline=None, families=None):
    if measure is not None:
        # a family (nDCG) or one of its measures (nDCG@10) picks the family
        family = next((name for name, points in families.items() if measure in [name, *(m for _, m in points)]),
                      measure)
        if family not in families:
            raise OutputError(f"no cutoffs of {measure!r} to plot; measures with cutoffs: "
                              f"{', '.join(families) or 'none'} (ask for e.g. nDCG@5 nDCG@10 nDCG@20)")
        families = {family: families[family]}
    if not families:
        raise OutputError("no measure with cutoffs to plot: ask for e.g. nDCG@5, nDCG@10, nDCG@20")
    figure, axes = plt.subplots(1, len(families), figsize=(6 * len(families), 4.2), squeeze=False)
    for axis, (family, points) in zip(axes[0], families.items()):
        points.sort()
        for run in runs:
            axis.plot([k for k, _ in points], [_mean(values, run, name) for _, name in points], marker="o",
                      label=plot_label(run))
        axis.set_xlabel("cutoff k")
        axis.set_ylabel(f"mean {plot_label(family)}@k")
        axis.set_title(f"{plot_label(family)}@k by cutoff")
        cutoffs = [k for k, _ in points]
        if cutoffs[-1] >= 10 * cutoffs[0]:  # trec_eval's 5 ... 1000: a linear axis would crowd the small ones
            axis.set_xscale("log")
            axis.minorticks_off()
        axis.set_xticks(cutoffs, [str(k) for k in cutoffs])
        axis.grid(alpha=0.3)
        axis.legend(title="run")
    return figure


def _delta(plt, values, runs, measure=None, baseline=None):
    measure = _pick(values, measure)
    baseline = baseline or runs[0]
    if baseline not in runs:
        raise OutputError(f"the baseline {baseline!r} is not one of the runs ({', '.join(runs)}): "
                          "name it as the run is named")
    others = [run for run in runs if run != baseline]
    if not others:
        raise OutputError(f"nothing to compare with the baseline {baseline!r}: give two runs or more")
    figure, axes = plt.subplots(len(others), 1, figsize=(8, 3.2 * len(others)), squeeze=False)
    base = {q: v for (r, m, q), v in values.items() if r == baseline and m == measure}
    for axis, run in zip(axes[:, 0], others):
        deltas = sorted((v - base[q], q) for (r, m, q), v in values.items() if r == run and m == measure and q in base)
        heights = [d for d, _ in deltas]
        colours = ["tab:green" if d > 0 else "tab:red" if d < 0 else "tab:gray" for d in heights]
        axis.bar(range(len(heights)), heights, color=colours, width=1.0 if len(heights) > 50 else 0.8)
        axis.axhline(0, color="black", linewidth=0.8)
        wins, losses = sum(d > 0 for d in heights), sum(d < 0 for d in heights)
        axis.set_title(f"{plot_label(measure)}: {plot_label(run)} − {plot_label(baseline)} per query "
                       f"({wins} better, {losses} worse, {len(heights) - wins - losses} tied)")
        axis.set_xlabel("queries, sorted by difference")
        axis.set_ylabel(f"Δ {plot_label(measure)}")
        if len(deltas) <= 30:
            axis.set_xticks(range(len(deltas)), [plot_label(q) for _, q in deltas], rotation=90, fontsize=7)
        axis.grid(axis="y", alpha=0.3)
    return figure


def _precision_recall(plt, values, runs, measure=None, baseline=None):
    levels = sorted((float(found["level"]), name) for name in _measures(values) if (found := _RECALL.match(name)))
    if not levels:
        raise OutputError("no interpolated precision to plot: ask for iprec_at_recall_0.00 ... iprec_at_recall_1.00")
    figure, axis = plt.subplots(figsize=(6, 4.5))
    for run in runs:
        axis.plot([level for level, _ in levels], [_mean(values, run, name) for _, name in levels], marker="o",
                  label=plot_label(run))
    axis.set_xlabel("recall level")
    axis.set_ylabel("interpolated precision")
    axis.set_title("Interpolated precision-recall (iprec_at_recall)")
    axis.set_xlim(0, 1)
    axis.set_ylim(0, 1.02)
    axis.grid(alpha=0.3)
    axis.legend(title="run")
    return figure


def _distribution(plt, values, runs, measure=None, baseline=None):
    measure = _pick(values, measure)
    data = [[v for (r, m, _), v in values.items() if r == run and m == measure] for run in runs]
    figure, axis = plt.subplots(figsize=(max(4.5, 1.4 * len(runs) + 2), 4.5))
    axis.boxplot(data, showmeans=True)
    axis.set_xticks(range(1, len(runs) + 1), [plot_label(run) for run in runs])
    axis.set_xlabel("run")
    axis.set_ylabel(plot_label(measure))
    axis.set_title(f"{plot_label(measure)} per query ({len(data[0])} queries; triangle: mean)")
    axis.grid(axis="y", alpha=0.3)
    return figure


def picture_format(path) -> str:
    """The picture format a file name asks for (.png, .svg, or another matplotlib writes); an OutputError for
    a name without one (a folder, /dev/stdout): matplotlib would add .png to it, a file the user did not name."""
    suffix = Path(path).suffix.lower().lstrip(".")
    pyplot()  # matplotlib, or the error saying how to install it
    from matplotlib.backend_bases import FigureCanvasBase

    known = FigureCanvasBase.get_supported_filetypes()
    if suffix not in known:
        raise OutputError(f"{path}: cannot tell the picture's format from the extension '{suffix or '(none)'}'; "
                          f"name a file ending .png or .svg (or {', '.join('.' + k for k in sorted(known))})")
    return suffix


def _save(figure, path) -> Path:
    """The picture rendered whole, then written as eval writes: a temporary file renamed over `path`, so that a
    stop while it is written leaves the old file (sqlrank.export.write_bytes)."""
    import io

    from . import export

    target = export.check_target(path)
    fmt = picture_format(target.path)
    picture = io.BytesIO()
    try:
        figure.savefig(picture, format=fmt, dpi=120, metadata=None if fmt != "svg" else {"Date": None})
    except (OSError, ValueError) as error:
        raise OutputError(f"{target.path}: cannot draw the plot: {error}") from None
    return export.write_bytes([picture.getvalue()], target)
