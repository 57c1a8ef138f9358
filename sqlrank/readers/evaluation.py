"""The inputs of one evaluation: the qrels and one or more named runs, loaded, checked and described.

load_inputs() leaves the qrels in QRELS_TABLE and each run in a table of its
own, and returns the Report that says what was read (labels, names, rows
dropped as duplicates) for the engine to fill in and the result to show.
"""

from __future__ import annotations

import numbers
from pathlib import Path

from .. import sqlgen
from ..checks import resolve_duplicates
from ..errors import EvaluationError
from ..result import Report
from . import files, records
from .registry import load, run_name_suffixes
from .trec import run_tag
from .tables import INTEGER_TYPES

QRELS_TABLE = "sqlrank_qrels"
SUBTOPIC_QRELS_TABLE = "sqlrank_subtopic_qrels"
IR_QUERY_NAMES = ("query_id", "qid", "query", "q_id", "query-id", "topic", "topic_id")  # query-id: BEIR's


def load_inputs(con, qrels, run, columns: dict[str, str | None], duplicates: str = "error", missing: str = "zero",
                depth: int | None = None, own: dict[str, dict[str, str]] | None = None,
                subtopic_qrels=None) -> Report:
    """Load the qrels into QRELS_TABLE and every run into a table of its own; a Report of what was read.

    run: one source, a list of sources (named after their files) or a dict {name: source}.
    columns: the canonical column names (query_id, doc_id, score, relevance) -> the inputs' own, or None.
    own: {'qrels': {...}, 'run': {...}}, one input's own column names, which win over `columns`.
    duplicates: the policy for repeated (query_id, doc_id) rows; missing and depth are recorded in the Report.
    """
    own = own or {}
    qrels_columns = {k: v for k, v in columns.items() if k not in ("score", "subtopic_id")} | own.get("qrels", {})
    if subtopic_qrels is None:
        loaded_qrels = load(con, qrels, QRELS_TABLE + "_source", "qrels", qrels_columns)
        dropped_qrels = resolve_duplicates(con, loaded_qrels, "qrels", duplicates)
    else:
        loaded_qrels, dropped_qrels = _load_subtopic_qrels(con, subtopic_qrels, columns, own, duplicates)
    # the qrels are small and read by several parts of the statement: keep one copy
    con.execute(sqlgen.create_temp_table(QRELS_TABLE, sqlgen.select_all(loaded_qrels.table)))
    files.check_unchanged(loaded_qrels)  # the copy read the file again: the rows checked, or none
    if con.execute(f"SELECT count(*) FROM {QRELS_TABLE} WHERE query_id = 'all'").fetchall()[0][0]:
        # the result's `all` rows are the means: a query of that name would be mistaken for them
        raise EvaluationError(f"{loaded_qrels.label}: a query is named 'all', which the result reserves for the "
                              "mean over queries; rename that query (in the qrels and the run)")
    report = Report(qrels_label=loaded_qrels.label, missing_policy=missing, qrels_duplicates_dropped=dropped_qrels,
                    depth=depth, duplicates_policy=duplicates)
    report.input_notes += loaded_qrels.notes  # e.g. TREC labels cut to integers, as trec_eval does
    run_columns = {k: v for k, v in columns.items() if k not in ("relevance", "subtopic_id")} | own.get("run", {})
    run_types = []
    for number, (name, source, explicit) in enumerate(named_runs(run)):
        loaded = load(con, source, f"sqlrank_run_{number}", "run", run_columns)
        dropped = resolve_duplicates(con, loaded, "run", duplicates)
        run_types.append(loaded.query_id_type)
        table = sqlgen.identifier(loaded.table)
        has_run_id = "run_id" in [r[0] for r in con.execute(f"DESCRIBE {table}").fetchall()]
        if has_run_id and explicit:
            raise named_twice(loaded.label, name)
        # a table's own run_id column wins over a name made up from its file name
        report.run_tables.append((None if has_run_id else (name or "run"), loaded.table))
        report.run_sources.append((None if has_run_id else name, loaded.label, dropped))
        if loaded.no_rows:
            report.empty_runs.append(name or "run")
        # a table's doc_id column, named when a run matches no judgment (TREC files and dicts have no choice)
        chose = loaded.fmt not in ("trec", "dict") and not loaded.label.startswith("<dict")
        report.doc_columns[loaded.table] = loaded.columns.get("doc_id") if chose else None
        report.input_notes += loaded.notes
        if loaded.fmt == "trec" and not has_run_id:  # trec_eval's runid: the tag of the run's first line
            report.run_tags[name or "run"] = run_tag(loaded.path, loaded.compression)
        report.run_inputs.append(loaded)
    if len(report.run_tables) > 1:
        _check_distinct_run_names(con, report.run_tables)
    report.query_id_type = _common_integer_type([loaded_qrels.query_id_type, *run_types])
    report.query_id_name = _common_name([loaded_qrels, *report.run_inputs])
    return report


def _load_subtopic_qrels(con, source, columns: dict, own: dict, duplicates: str):
    """The subtopic qrels into SUBTOPIC_QRELS_TABLE, and the qrels the ranking pass reads made from them: each
    judged document with its highest label over its subtopics (ndeval's MAP: relevant to any subtopic)."""
    subtopic_columns = {k: v for k, v in columns.items() if k != "score"} | own.get("subtopic_qrels", {})
    loaded = load(con, source, SUBTOPIC_QRELS_TABLE + "_source", "subtopic_qrels", subtopic_columns)
    dropped = resolve_duplicates(con, loaded, "subtopic_qrels", duplicates)
    con.execute(sqlgen.create_temp_table(SUBTOPIC_QRELS_TABLE, sqlgen.select_all(loaded.table)))
    files.check_unchanged(loaded)
    # a name of its own: QRELS_TABLE's source may be a view left by an evaluation of plain qrels
    derived = QRELS_TABLE + "_of_subtopics"
    con.execute(sqlgen.create_temp_table(
        derived, f"SELECT query_id, doc_id, max(relevance) AS relevance FROM {SUBTOPIC_QRELS_TABLE} "
                 "GROUP BY query_id, doc_id"))
    loaded.table = derived
    return loaded, dropped


def _common_name(inputs: list) -> str:
    """The query id column's name the inputs that have one agree on (`user_id`), for per_query and wide().

    TREC files and dicts have no name of their own; inputs naming it differently keep `query_id`, and so do
    the IR spellings (qid, query...), which name the same thing.
    """
    names = {loaded.columns.get("query_id") for loaded in inputs if loaded.fmt != "trec"}
    names = {name for name in names if name is not None and name.lower() not in IR_QUERY_NAMES}
    return names.pop() if len(names) == 1 else "query_id"


def _common_integer_type(types: list[str | None]) -> str | None:
    """The integer type all the inputs' query ids had, to give them back in it; None when any was text or differed."""
    if len(set(types)) == 1 and types[0] in INTEGER_TYPES:
        return types[0]
    return None


def run_name(source, index: int) -> str:
    """The name of the `index`-th run given without one: a path's file name without its extensions, else runN."""
    if isinstance(source, (str, Path)):
        name = Path(source).name
        for suffix in run_name_suffixes():
            if name.lower().endswith(suffix) and len(name) > len(suffix):
                name = name[: -len(suffix)]
        return name
    return f"run{index + 1}"


def _check_distinct_run_names(con, run_tables: list[tuple[str | None, str]]) -> None:
    """Every run's name, a table's own run ids included, told apart (check_distinct)."""
    names: list[str] = []
    for run_id, table in run_tables:
        if run_id is not None:
            names.append(run_id)
        else:  # the table's own run ids (a scan of the run_id column, only when several runs are given)
            names += [r[0] for r in con.execute(
                f"SELECT DISTINCT CAST(run_id AS VARCHAR) FROM {sqlgen.identifier(table)}").fetchall()]
    check_distinct(names)


def check_distinct(names: list[str]) -> None:
    """Two sources under one run name would be ranked as one system: refuse."""
    clashes = sorted(name for name in set(names) if names.count(name) > 1)
    if clashes:
        raise EvaluationError(f"two runs have the same name ({', '.join(clashes)}); pass a dict {{name: run}} "
                              "with distinct names")


def named_twice(label: str, name: str) -> EvaluationError:
    """A table that names its own runs, and a name given to it: which one is meant would be a guess."""
    return EvaluationError(f"{label}: has a run_id column and is also given the name '{name}'; pass it on its own "
                           "(run=table) to use its run_id column, or drop the column to call it by the name given")


def named_runs(run):
    """[(name or None, source, named by the user)]: a dict names its runs; paths are named after their file stem."""
    if isinstance(run, dict) and not _is_dict_of_runs(run):
        return [(None, run, False)]  # pytrec_eval shape {qid: {docid: score}}; {} is a run that retrieved nothing
    if isinstance(run, dict):
        return [(str(name), source, True) for name, source in run.items()]
    if isinstance(run, (list, tuple)) and not records.accepts(run):
        if not run:
            raise EvaluationError("no runs given: the list of runs is empty")
        return [(run_name(source, i), source, False) for i, source in enumerate(run)]
    return [(run_name(run, 0) if isinstance(run, (str, Path)) else None, run, False)]


def _is_dict_of_runs(run: dict) -> bool:
    """{name: source} rather than pytrec_eval's {qid: {docid: score}}: some value is not a dict of numbers.

    {name: {qid: {docid: score}}} (several pytrec_eval runs) is a dict of runs too.
    """
    if all(isinstance(value, numbers.Real) for value in run.values()):
        return False  # {doc_id: score}: one query's documents, which the dict reader names as such
    if all(isinstance(value, (list, tuple)) for value in run.values()):
        return False  # {user: [items]}: one run, ranked in list order
    return any(not isinstance(value, dict) or any(isinstance(inner, dict) for inner in value.values())
               for value in run.values())
