"""Fusing runs: the sqlrank.fuse macro (sql/70_fusion.sql) behind a Python call, and its parameters tuned.

    fused = sqlrank.fuse({"bm25": "bm25.trec", "dense": "dense.trec"}, method="rrf", norm="none")
    sqlrank.evaluate("qrels.txt", fused, ["nDCG@10"])
    best, table = sqlrank.optimize_fusion("qrels.txt", {"bm25": ..., "dense": ...}, "nDCG@10", method="wsum")

docs/fusion.md gives every method's formula, its source and ranx's name for it.
"""

from __future__ import annotations

from itertools import product

import duckdb

from . import sqlgen
from .checks import resolve_duplicates
from .errors import EvaluationError, SqlrankError, first_line, out_of_memory
from .macros import install_parts, library_connection
from .readers import load, named_runs
from .registry import MAPFUSE_MEASURE

METHODS = ("min", "med", "anz", "max", "sum", "mnz", "gmnz", "isr", "log_isr", "logn_isr", "rrf", "rbc",
           "bordafuse", "w_bordafuse", "condorcet", "w_condorcet", "mixed", "wmnz", "wsum", "posfuse", "mapfuse", "probfuse",
           "segfuse", "slidefuse", "bayesfuse")
NORMS = ("none", "min-max", "min-max-inverted", "max", "sum", "zmuv", "rank", "borda")
TRAINED = ("posfuse", "mapfuse", "segfuse", "bayesfuse")  # trained on the qrels alone, no measure to maximize
# the SQL macro training each supervised method's per-run lists: (macro, its index column, its value column)
TRAINING_MACROS = {"posfuse": ("fusion_position_probabilities", "position", "probability"),
                   "slidefuse": ("fusion_position_probabilities", "position", "probability"),
                   "segfuse": ("fusion_segfuse_probabilities", "segment", "probability"),
                   "bayesfuse": ("fusion_bayesfuse_log_odds", "position", "log_odds")}
WEIGHTED = ("wsum", "wmnz", "mixed", "w_bordafuse", "w_condorcet")
# the parameter each tunable method's grid is over, as ranx.optimize_fusion's (method: (name, start, stop, step))
SCALAR_GRIDS = {"rrf": ("k", 10, 100, 10), "rbc": ("phi", 0.01, 1.0, 0.01), "gmnz": ("gamma", 0.01, 1.0, 0.01),
                "logn_isr": ("sigma", 0.01, 1.0, 0.01)}
RUNS_TABLE = "sqlrank_fusion_runs"
# the tuned methods whose grid sqlrank.fusion_grid fuses in one statement (the others: one statement a point)
GRID_IN_ONE_STATEMENT = ("gmnz", "logn_isr", "rrf", "rbc", "wsum", "wmnz", "mixed")


def _connection():
    """A connection to this process's database with the fusion macros (sql/70_fusion.sql), installed on first use."""
    con = library_connection()
    install_parts(con, ["fusion"])
    return con


def fuse(runs, method: str = "wsum", norm: str | None = "min-max", *, weights=None, k: float = 60, phi=None,
         gamma=None, sigma: float = 0.01, top_k: int | None = None, depth: int | None = None,
         probs=None, map_scores=None, log_odds=None, w: int | None = None, duplicates: str = "error") -> pa.Table:
    """Fuse two or more runs into one: an Arrow table (query_id, doc_id, score), best first in each query.

    runs: a dict {name: source}, a list of sources (paths, DataFrames, Arrow tables, relations), or one
        table with a run_id column; weights go to the runs in that order (a table's: run_id order).
    method, norm: ranx's names (docs/fusion.md); norm=None is "none". weights: one per run for the
        weighted methods (default: all 1). k (rrf), phi (rbc), gamma (gmnz), sigma (logn_isr): ranx's.
    top_k: keep each input's best top_k documents per query first; depth: keep the output's best depth.
    probs (posfuse, probfuse, segfuse, slidefuse), map_scores (mapfuse), log_odds (bayesfuse) and w (slidefuse):
        trained on qrels by optimize_fusion(qrels, runs, method=...), one list per run, as ranx names them.
    The table's to_pandas() gives a DataFrame, polars.from_arrow() a polars one; evaluate() takes it as a run.
    """
    with _connection() as con:
        names = _load_runs(con, runs, duplicates)
        if method == "mapfuse" and map_scores is not None:
            weights = map_scores  # the SQL reads mapfuse's per-run MAP as its weights
        if method == "bayesfuse" and log_odds is not None:
            probs = log_odds  # and bayesfuse's per-place log odds as its probs
        for parameter, value, unit in (("weights", weights, "weights"), ("probs", probs, "lists")):
            if value is not None and len(value) != len(names):
                raise EvaluationError(f"fusion {parameter}: {len(value)} {unit} for {len(names)} runs "
                                      f"({', '.join(names)}); give one per run, in that order")
        return _fused(con, method, norm, weights, k, phi, gamma, sigma, top_k, depth, probs, w)


def optimize_fusion(qrels, runs, measure: str | None = None, method: str = "wsum", norm: str | None = "min-max", *,
                    step: float | None = None, top_k: int | None = None, duplicates: str = "error",
                    **evaluate_options) -> tuple[dict, pa.Table]:
    """Choose a method's weights (or k, phi, gamma, sigma) on ranx.optimize_fusion's grid; (best, every point).

    The grid is ranx's: weights from 0 to 1 by `step` (0.1) summing to exactly 1.0 in floating point,
    or k 10..100 by 10, phi/gamma/sigma 0.01..1 by 0.01. Every point is fused (wsum, wmnz, mixed,
    rrf, rbc, gmnz, logn_isr and slidefuse: all in one statement), then all are evaluated in one pass (one
    table of runs); the best mean wins, and among equal means the last point in grid
    order, as ranx's `>=` keeps it. Returns ({parameter: value}, table point, value).
    measure: what to maximize (e.g. "nDCG@10"); posfuse, mapfuse, segfuse and bayesfuse train without one.
    slidefuse trains its probs, then chooses its window w from 1 to 100 as ranx does: ({"probs": ..., "w": w}, table).
    """
    import pyarrow as pa  # `import sqlrank` loads no numpy, which pyarrow loads

    from .engine import evaluate

    _check_choice("fusion method", method, METHODS)
    if method in TRAINED:
        return _train(qrels, runs, measure, method, norm, top_k, duplicates, evaluate_options)
    if measure is None:
        raise EvaluationError(f"optimize_fusion needs the measure to maximize for {method}, e.g. measure='nDCG@10'")
    with _connection() as con:
        names = _load_runs(con, runs, duplicates)
        points = _grid(method, len(names), step)
        if method == "probfuse":  # each point trains its probabilities first (ranx's optimize_probfuse)
            qrels_table = _load_qrels(con, qrels, duplicates)
            trained = [_segment_probabilities(con, qrels_table, point["n_segments"], "none" if norm is None else norm,
                                              top_k, len(names)) for point in points]
        if method in GRID_IN_ONE_STATEMENT:
            fused_points = _grid_fused(con, method, points, norm, top_k)
        elif method == "slidefuse":  # one training, then every window fused in one statement (ranx's optimize_slidefuse)
            slide_probs = _trained_lists(con, _load_qrels(con, qrels, duplicates), method, norm, top_k, len(names))
            fused_points = _slidefuse_windows(con, slide_probs, [point["w"] for point in points], norm, top_k)
        else:
            parts = []
            for number, point in enumerate(points):
                fused = (_fused(con, method, norm, top_k=top_k, probs=trained[number]) if method == "probfuse"
                         else _fused(con, method, norm, top_k=top_k, **point))
                parts.append(fused.append_column("run_id", pa.array([f"{number:06d}"] * fused.num_rows)))
            fused_points = pa.concat_tables(parts)
    result = evaluate(qrels, fused_points, [measure], **evaluate_options)
    label, means = _label(result), result.means  # means is computed at each reading: read it once
    values = [means.get(f"{number:06d}", {}).get(label, 0.0) for number in range(len(points))]
    best = max(range(len(points)), key=lambda number: (values[number], number))
    table = pa.table({"point": [str(_shown(point)) for point in points], "value": values})
    if method == "probfuse":
        return {"probs": trained[best]}, table
    if method == "slidefuse":
        return {"probs": slide_probs, **points[best]}, table
    return _shown(points[best]), table


def _grid_fused(con, method: str, points: list[dict], norm, top_k) -> pa.Table:
    """Every grid point's fused run, in one table whose run_id is the point's number in `points`."""
    structs = [{"weights": [float(w) for w in point["weights"]] if "weights" in point else None,
                **{name: float(point[name]) if name in point else None for name in ("k", "phi", "gamma", "sigma")}}
               for point in points]
    try:
        return con.sql(f"SELECT printf('%06d', point_number - 1) AS run_id, query_id, doc_id, score FROM "
                       f"sqlrank.fusion_grid('{RUNS_TABLE}', $method, $points, norm := $norm, top_k := $top_k)",
                       params={"method": method, "points": structs, "norm": "none" if norm is None else norm,
                               "top_k": top_k}).to_arrow_table()
    except duckdb.Error as error:
        raise _user_error(error) from None


def _slidefuse_windows(con, probs: list, windows: list[int], norm, top_k) -> pa.Table:
    """SlideFuse's fused run for every window, in one table whose run_id is the window's number in `windows`."""
    try:
        return con.sql(f"SELECT printf('%06d', w - $first) AS run_id, query_id, doc_id, score FROM "
                       f"sqlrank.fusion_slidefuse_windows('{RUNS_TABLE}', $probs, $windows, norm := $norm, top_k := $top_k)",
                       params={"first": windows[0], "probs": probs, "windows": windows,
                               "norm": "none" if norm is None else norm, "top_k": top_k}).to_arrow_table()
    except duckdb.Error as error:
        raise _user_error(error) from None


def _load_qrels(con, qrels, duplicates: str) -> str:
    loaded = load(con, qrels, "sqlrank_fusion_qrels", "qrels", {})
    resolve_duplicates(con, loaded, "qrels", duplicates)
    return loaded.table


def _segment_probabilities(con, qrels_table: str, n_segments: int, norm: str, top_k, run_count: int) -> list:
    """ProbFuse's probabilities: [run][segment], the segments no query reached 0."""
    try:
        rows = con.execute(f"SELECT run_number, segment, probability FROM sqlrank.fusion_segment_probabilities("
                           f"'{qrels_table}', '{RUNS_TABLE}', $n, norm := $norm, top_k := $top_k)",
                           {"n": n_segments, "norm": norm, "top_k": top_k}).fetchall()
    except duckdb.Error as error:
        raise _user_error(error) from None
    probs = [[0.0] * n_segments for _ in range(run_count)]
    for run_number, segment, probability in rows:
        probs[run_number - 1][segment - 1] = probability
    return probs


def _trained_lists(con, qrels_table: str, method: str, norm, top_k, run_count: int) -> list[list[float]]:
    """A supervised method's per-run list (probabilities by place or segment, or log odds by place), trained in SQL."""
    macro, index, value = TRAINING_MACROS[method]
    try:
        # execute, not sql: it finishes a result the qrels reader may have left open (a fetchone)
        rows = con.execute(f"SELECT run_number, list({value} ORDER BY {index}) FROM sqlrank.{macro}('{qrels_table}', "
                           f"'{RUNS_TABLE}', norm := $norm, top_k := $top_k) GROUP BY run_number",
                           {"norm": "none" if norm is None else norm, "top_k": top_k}).fetchall()
    except duckdb.Error as error:
        raise _user_error(error) from None
    trained = dict(rows)
    return [trained.get(number + 1, []) for number in range(run_count)]


def _train(qrels, runs, measure, method, norm, top_k, duplicates, evaluate_options) -> tuple[dict, pa.Table]:
    """A method trained on the qrels alone, as ranx's optimize_fusion trains it (measure unused): PosFuse's and
    SegFuse's probabilities, BayesFuse's log odds, MAPFuse's MAP per run."""
    import pyarrow as pa

    from .engine import evaluate

    norm = "none" if norm is None else norm
    _check_choice("fusion norm", norm, NORMS)
    with _connection() as con:
        names = _load_runs(con, runs, duplicates)
        if method in TRAINING_MACROS:
            trained = _trained_lists(con, _load_qrels(con, qrels, duplicates), method, norm, top_k, len(names))
            name = "log_odds" if method == "bayesfuse" else "probs"
            _, index, value = TRAINING_MACROS[method]
            table = pa.table({"run": [run for run, values in zip(names, trained) for _ in values],
                              index: [number + 1 for values in trained for number in range(len(values))],
                              value: [item for values in trained for item in values]})
            return {name: trained}, table
        ranked = con.sql(f"SELECT run_id, query_id, doc_id, score FROM {RUNS_TABLE}").to_arrow_table()
    result = evaluate(qrels, ranked, [MAPFUSE_MEASURE], **({"depth": top_k} if top_k else {}), **evaluate_options)
    map_scores = [result.means[run_id][_label(result)] for run_id in sorted(result.means)]
    return {"map_scores": map_scores}, pa.table({"run": names, "value": map_scores})


def _label(result) -> str:
    """The one measure's name in a result's means."""
    return next(iter(next(iter(result.means.values()))))


def _shown(point: dict) -> dict:
    """A grid point in plain Python numbers (the grid's are numpy's, whose repr shows np.float64 in the table)."""
    return {name: ([float(v) for v in value] if isinstance(value, tuple) else value if isinstance(value, int)
                   else float(value)) for name, value in point.items()}


def _grid(method: str, run_count: int, step: float | None) -> list[dict]:
    """ranx.optimize_fusion's trials, in its order (fusion_optimization/optimize_*.py)."""
    import numpy as np  # ranx's own arange and rounding, for the same floats; `import sqlrank` loads no numpy
    if method in WEIGHTED:
        step = 0.1 if step is None else step
        digits = str(step)[::-1].find(".")
        values = [round(x, digits) for x in np.arange(0, 1 + step, step)]
        # ranx keeps the combinations whose float sum is exactly 1.0 (0.1 + 0.2 + 0.7 is not): the same ones
        return [{"weights": combination} for combination in product(*[values] * run_count)
                if sum(combination) == 1.0]
    if method == "probfuse":  # ranx's n_segments from 1 to 100
        return [{"n_segments": n} for n in range(1, 101)]
    if method == "slidefuse":  # ranx's w from 1 to 100
        return [{"w": w} for w in range(1, 101)]
    if method not in SCALAR_GRIDS:
        raise EvaluationError(f"fusion method '{method}' has nothing to tune; the methods with parameters are "
                              f"{', '.join(sorted(WEIGHTED + tuple(SCALAR_GRIDS)))}")
    name, start, stop, default_step = SCALAR_GRIDS[method]
    step = default_step if step is None else step
    if method == "rrf":
        return [{"k": value} for value in range(start, stop + 1, int(step))]
    digits = str(step)[::-1].find(".")
    return [{name: round(float(x), digits)} for x in np.arange(start, stop + step, step)]


def _load_runs(con, runs, duplicates: str) -> list[str]:
    """Every run into one table RUNS_TABLE (run_id, query_id, doc_id, score); the runs' names, in order."""
    sources = named_runs(runs)
    selects, names = [], []
    for number, (name, source, _) in enumerate(sources):
        loaded = load(con, source, f"sqlrank_fusion_run_{number}", "run", {})
        resolve_duplicates(con, loaded, "run", duplicates)
        table = sqlgen.identifier(loaded.table)
        columns = [row[0] for row in con.execute(f"DESCRIBE {table}").fetchall()]
        if "run_id" in columns:
            run_ids = [row[0] for row in con.execute(
                f"SELECT DISTINCT CAST(run_id AS VARCHAR) FROM {table} ORDER BY 1").fetchall()]
            names += run_ids
            # a table's runs keep their run_id order, after the runs given before it
            selects.append(f"SELECT printf('%06d', {len(selects)}) || '/' || CAST(run_id AS VARCHAR) AS run_id, "
                           f"query_id, doc_id, score FROM {table}")
        else:
            names.append(name or f"run{number + 1}")
            selects.append(f"SELECT printf('%06d', {len(selects)}) AS run_id, query_id, doc_id, score FROM {table}")
    if len(names) < 2:
        raise EvaluationError(f"fusion needs two runs or more; found {len(names)} ({', '.join(names) or 'none'})")
    con.execute(sqlgen.create_temp_table(RUNS_TABLE, " UNION ALL ".join(selects)))
    return names


def _fused(con, method, norm, weights=None, k=60, phi=None, gamma=None, sigma=0.01, top_k=None, depth=None,
           probs=None, w=None):
    norm = "none" if norm is None else norm
    _check_choice("fusion method", method, METHODS)
    _check_choice("fusion norm", norm, NORMS)
    if weights is not None:
        weights = [float(weight) for weight in weights]
    arguments = {"method": method, "norm": norm, "weights": weights, "k": k, "phi": phi, "gamma": gamma,
                 "sigma": sigma, "top_k": top_k, "depth": depth,
                 "probs": None if probs is None else [[float(p) for p in run] for run in probs],
                 "w": int(w) if w is not None and w == int(w) else w}  # a JSON file's 3.0 is the window 3
    call = ", ".join(f"{name} := ${name}" for name in arguments)
    sql = (f"SELECT * FROM sqlrank.fuse('{RUNS_TABLE}', {call}) "
           "ORDER BY query_id, score DESC, doc_id DESC")
    try:
        return con.sql(sql, params=arguments).to_arrow_table()
    except duckdb.Error as error:
        raise _user_error(error) from None


def _check_choice(parameter: str, value, allowed) -> None:
    if value not in allowed:
        raise EvaluationError(f"unknown {parameter} '{value}' (expected one of: {', '.join(allowed)})")


def _user_error(error: duckdb.Error) -> SqlrankError:
    """The macro's own message (it starts 'sqlrank: '), or DuckDB's out-of-memory in the user's words."""
    memory = out_of_memory(error)
    if memory is not None:
        return memory
    message = first_line(error)
    if "sqlrank: " in message:
        return EvaluationError(message.split("sqlrank: ", 1)[1])
    return EvaluationError(f"fusion failed: {message}")
