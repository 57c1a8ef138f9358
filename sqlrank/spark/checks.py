"""What the engine checks over a whole job, where no bucket can: the options before any Spark job runs, and
after it, what a whole run must satisfy (judged_only leaving it something, a query shared with the qrels,
a judged document), from what each bucket said of its part."""

from __future__ import annotations

import json

from .. import engine
from ..checks import DUPLICATE_POLICIES
from ..errors import InputError, MeasureError
from ..limits import MAX_BUCKETS, whole_number
from ..result import Report
from .readers import names_by_source


def check_options(missing, duplicates, depth, score_precision, buckets, ties, judged_only, aggregates,
                  measures) -> list[str]:
    """The single-machine checks of the options, before any Spark job; the aggregates asked for, once each."""
    _, aggregates = engine.check_options(measures, missing, score_precision, depth, ties, judged_only, aggregates)
    judged = [str(m) for m in measures if "judges" in m.definition.needs]
    if judged:  # the same reason: they read multi-judge qrels as the diversity measures read subtopic qrels
        raise MeasureError(f"{', '.join(judged)}: the multi-judge measures are not computed on Spark yet (they read "
                           "multi-judge qrels, which the Spark buckets do not carry); evaluate them with the DuckDB "
                           "engine (sqlrank.evaluate, or --engine duckdb)")
    diversity = [str(m) for m in measures if "subtopics" in m.definition.needs]
    if diversity:  # a bucket holds the ranking pass's tables, not the subtopic qrels the measures read
        raise MeasureError(f"{', '.join(diversity)}: the diversity measures are not computed on Spark yet (they read "
                           "subtopic qrels, which the Spark buckets do not carry); evaluate them with the DuckDB "
                           "engine (sqlrank.evaluate, or --engine duckdb)")
    preference = [str(m) for m in measures if "preferences" in m.definition.needs]
    if preference:  # the same: a bucket holds no preferences, and the pairs of a query span every bucket's rows
        raise MeasureError(f"{', '.join(preference)}: the preference measures are not computed on Spark yet (they "
                           "read trec_eval's preferences, which the Spark buckets do not carry); evaluate them with "
                           "the DuckDB engine (sqlrank.evaluate, or --engine duckdb)")
    if duplicates not in DUPLICATE_POLICIES:
        raise InputError(f"unknown duplicates policy '{duplicates}' (expected one of: {', '.join(DUPLICATE_POLICIES)})")
    if buckets is not None:
        whole_number("buckets", buckets, 1, MAX_BUCKETS)
    return aggregates


def whole_job_checks(rows: list[dict], report: Report, inputs, sources, run_names, ties: str, judged_only: bool,
                     depth: int | None, allow_disjoint: bool) -> None:
    """What the engine checks over a whole run, over the whole job, in the engine's order: judged_only leaving a
    run with nothing, a run sharing no query with the qrels (allow_disjoint), a run with no judged document
    (a warning). Each bucket says what it saw of its part (buckets._coverage); the examples are the smallest ids, as
    the engine gives them."""
    if ties != "trec":  # the notice of tie groups comes with a chosen policy, as on one machine
        report.ties = ties
    coverage = {name: {"shared": False, "matched": False, "judged_kept": 0, "query": None, "doc": None}
                for name in run_names}
    examples = {"query": None, "doc": None}
    for row in rows:
        detail = json.loads(row["detail"])
        if row["kind"] == "qrels":
            _smallest(examples, detail["examples"])
        elif row["kind"] == "run":
            seen = coverage[row["run_id"]]
            seen["shared"] |= detail["shared"]
            seen["matched"] |= detail["matched"]
            seen["judged_kept"] += detail.get("judged_kept", 0)
            _smallest(seen, detail)
    if judged_only:
        for (_, label), names in zip(sources, names_by_source(sources, run_names)):
            if not sum(coverage[name]["judged_kept"] for name in names):
                raise engine.nothing_judged(label, depth)
    if not allow_disjoint:
        for name, run in report.runs.items():
            if run.queries and not coverage[name]["shared"]:
                raise engine.disjoint_error(name, run.queries, coverage[name]["query"], examples["query"])
    columns = {name: None if found.trec_path else found.columns.get("doc_id")
               for names, found in inputs[1:] for name in names}
    for name, run in report.runs.items():
        if coverage[name]["shared"] and not coverage[name]["matched"] and not judged_only:
            report.warnings.append(engine.unjudged_warning(name, coverage[name]["doc"], examples["doc"], columns[name]))


def _smallest(found: dict, seen: dict) -> None:
    """found's query and doc examples lowered to seen's where those are smaller (None: none seen)."""
    for key in ("query", "doc"):
        if seen.get(key) is not None and (found[key] is None or seen[key] < found[key]):
            found[key] = seen[key]
