"""The buckets' report rows added up on the driver into one Report, whose own code then words the notices as
on one machine; a bucket's error raised as sqlrank.evaluate raises it on the same inputs."""

from __future__ import annotations

import json

from ..errors import EvaluationError, ResourceError
from ..readers.trec import label_cut_note
from ..result import Report, RunReport
from .readers import names_by_source
from .refusals import bucket_error, explain_refusal


def collect_notes(evaluated, buckets: int) -> list[dict]:
    """The buckets' report and error rows; a worker that died for want of memory said as sqlrank says it."""
    try:
        return [row.asDict() for row in evaluated.filter(~evaluated["kind"].isin("value", "weight")).collect()]
    except Exception as error:  # Py4JJavaError or PySparkException: a task failed in Spark itself
        text = str(error)
        if not any(sign in text for sign in ("OutOfMemory", "Python worker exited unexpectedly", "MemoryError")):
            raise
        evaluated.unpersist()
        raise ResourceError(f"a bucket of queries did not fit in a worker's memory ({buckets} buckets): pass more "
                            "buckets (buckets=..., CLI: --spark-buckets) or give the executors more memory") from None


def merge_reports(rows: list[dict], qrels_label: str, sources, run_names, missing, duplicates, depth,
                  buckets: int, inputs) -> Report:
    """One Report from the buckets' report rows; a bucket's error raised as the engine raises it (explain_refusal)."""
    errors = sorted(((json.loads(row["detail"]), row["run_id"]) for row in rows if row["kind"] == "error"),
                    key=lambda error: error[0]["bucket"])
    if errors:
        raise explain_refusal(errors, inputs, duplicates,
                              lambda error: bucket_error(error, qrels_label, sources, run_names, buckets))
    report = Report(qrels_label=qrels_label, missing_policy=missing, depth=depth, duplicates_policy=duplicates)
    label_cut = 0
    dropped = {name: 0 for name in run_names}
    seen = {name: RunReport() for name in run_names}
    tied = {name: [0, 0] for name in run_names}
    for row in rows:
        detail = json.loads(row["detail"])
        if row["kind"] == "qrels":
            report.qrels_queries += detail["queries"]
            report.qrels_duplicates_dropped += detail["dropped"]
            # once each: a bucket says a note of one input once per run it holds
            report.input_notes += [note for note in dict.fromkeys(detail["notes"]) if note not in report.input_notes]
            label_cut += detail["label_cut"]
            report.empty_queries += detail.get("empty", [])  # the engine's empty='zero', counted over every bucket
            report.empty_level = detail.get("empty_level", report.empty_level)
        elif row["kind"] == "run":
            run = seen[row["run_id"]]
            run.queries += detail["queries"]
            run.missing_queries += detail["missing"]
            run.run_only_queries += detail["run_only"]
            dropped[row["run_id"]] += detail["dropped"]
            groups, documents = detail.get("tie_groups") or (0, 0)
            tied[row["run_id"]][0] += groups
            tied[row["run_id"]][1] += documents
    if label_cut:  # the qrels' note comes first, as the single-machine reader makes it while loading them
        report.input_notes.insert(0, label_cut_note(qrels_label, label_cut))
    report.empty_queries.sort()
    for run in seen.values():
        run.missing_queries.sort()
    by_source = names_by_source(sources, run_names)
    report.run_sources = [(name, label, sum(dropped[n] for n in names)) for (name, label), names
                          in zip(sources, by_source)]
    report.runs = {name: run for name, run in seen.items() if run.queries or run.missing_queries}
    # the tie notice of each run with tie groups, in the engine's order: input by input, a table's runs by run_id
    report.tie_groups = {name: tuple(tied[name]) for names in by_source for name in names if tied[name][0]}
    if not report.runs:
        raise EvaluationError(f"the run has no rows: nothing to evaluate ({', '.join(l for _, l in sources)})")
    return report
