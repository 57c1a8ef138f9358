"""Measures users define: a SQL expression over the ranking struct, registered at run time (docs/custom-measures.md).

    sqlrank.define("MyP", "coalesce(CAST(len(sqlrank.relevant_ranks(ranking, k, rel)) AS DOUBLE)"
                          " / NULLIF(coalesce(k, ranking.num_ret), 0), 0)", params=("rel",))
    sqlrank.evaluate(qrels, run, ["MyP@10", "P@10"])

A definition is a MeasureDef like the registry's, and the parser finds it after the built-in names, so
a defined measure takes the same spellings (`MyP(rel=2)@10`), checks and policies as a built-in one and is
one more column of the same single pass. Its formula is the expression, over `ranking` (documents,
num_ret, labels: sql/20_rankings.sql), `k` (the cutoff, NULL for none) and the parameters it declares;
each evaluation installs it in its connection as a temporary macro (one connection's catalog, so threads
and the process's shared database never see each other's), checked by sqlrank.defined_value. The DuckDB
shell's contract is the pair of macros shell_sql() writes: the formula, then a table macro built on
sqlrank.defined_rankings, which checks what the built-in table macros check.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

import duckdb

from . import sqlgen
from .checks import messages
from .errors import MeasureError, first_line
from .registry import AGGREGATES, NEEDS, PARAMETERS, MeasureDef

# what the one pass keeps for a defined measure unless told otherwise: every retrieved document, whatever the
# cutoff, and the label-0 judgments, so that an expression reads the whole ranking it is told it reads; a
# measure that reads only relevant documents within k may pass needs=() to get the top-k shortcut
DEFAULT_NEEDS = ("whole_ranking", "judged_nonrelevant")
# the ties policies that give one order, the only ones an expression over the order is defined under
ORDER_POLICIES = ("trec", "docid_asc", "optimistic", "pessimistic", "input")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class DefinedMeasure(MeasureDef):
    """A measure a user defined: the registry's declaration, and the SQL expression that is its formula."""

    expression: str = ""

    def keywords(self) -> dict:
        """define()'s keywords that make this measure again (in another process: a Spark worker)."""
        return {"name": self.name, "expression": self.expression, "cutoff": self.cutoff,
                "aggregate": self.aggregate, "params": self.params, "needs": self.needs,
                "definition": self.definition, "better": self.better}


_DEFINED: dict[str, DefinedMeasure] = {}  # by the name in lower case: names are matched without regard to case
# a weighted mean (GAUC's) reads the weights' own macro, sqlrank.weight_<macro>, which a definition does not give
DEFINED_AGGREGATES = tuple(aggregate for aggregate in AGGREGATES if aggregate != "weighted")

_LOCK = threading.Lock()


def define(name: str, expression: str, *, cutoff: bool = True, aggregate: str = "mean", params=(),
           needs=DEFAULT_NEEDS, definition: str | None = None, better: str = "higher") -> DefinedMeasure:
    """Register a measure whose per-query value is `expression`, for every later evaluation in this process.

    expression: one SQL expression over `ranking` (ranking.documents, ranking.num_ret, ranking.labels),
        `k` (the cutoff; NULL without one) and each parameter in `params` by its name; the shared pieces
        sqlrank.relevant_ranks, sqlrank.num_relevant, sqlrank.dcg_of, ... may be called (docs/adding-a-measure.md).
    cutoff: whether it takes @k. aggregate: how the `all` row summarises it ("mean", "sum", "gm").
    params: parameters of the registry it takes, e.g. ("rel",) (then `MyP(rel=2)` and the CLI's --rel set it).
    needs: what the one ranking pass keeps for it (the registry's needs); by default the whole ranking and
        the label-0 judgments.
    Defining a name again replaces its definition; a built-in measure's name, in any spelling, is refused.
    The expression is tried on a few rankings before it is registered: an expression DuckDB cannot run, or
    one that gives no finite number, is a MeasureError naming the measure and DuckDB's message.
    """
    measure = _declaration(name, expression, cutoff, aggregate, params, needs, definition, better)
    try_expression(measure)
    with _LOCK:
        _DEFINED[measure.name.lower()] = measure
    return measure


def undefine(name: str) -> None:
    """Forget a measure defined with define() (nothing when there is none of that name)."""
    with _LOCK:
        _DEFINED.pop(str(name).lower(), None)


def defined_measures() -> list[DefinedMeasure]:
    """The measures defined in this process, in the order they were defined."""
    return list(_DEFINED.values())


def lookup(name: str) -> DefinedMeasure | None:
    """The defined measure of this name (in any case), or None."""
    return _DEFINED.get(name.lower())


def _declaration(name, expression, cutoff, aggregate, params, needs, definition, better) -> DefinedMeasure:
    """The definition checked as data: a name free of the built-in ones, known choices, one expression."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise MeasureError(f"a defined measure's name is a letter then letters, digits or _, e.g. MyP; got {name!r}")
    _refuse_builtin(name)
    if not isinstance(expression, str) or not expression.strip():
        raise MeasureError(f"{name}: the expression is the measure's SQL, e.g. "
                           f"'len(sqlrank.relevant_ranks(ranking, k, 1))'; got {expression!r}")
    for option, value, allowed in (("aggregate", aggregate, DEFINED_AGGREGATES), ("better", better, ("higher", "lower"))):
        if value not in allowed:
            raise MeasureError(f"{name}: unknown {option} {value!r} (expected one of: {', '.join(allowed)})")
    if not isinstance(cutoff, bool):
        raise MeasureError(f"{name}: cutoff is true or false, got {cutoff!r}")
    params, needs = _names(name, "params", params, PARAMETERS), _names(name, "needs", needs, NEEDS)
    if _statements(expression) != 1:
        raise MeasureError(f"{name}: the expression must be one SQL expression, without ';': {_shown(expression)}")
    macro = "defined_" + name.lower()
    return DefinedMeasure(name, macro, definition or f"defined in SQL: {' '.join(expression.split())}", params,
                          cutoff=cutoff, aggregate=aggregate, better=better, needs=needs, expression=expression.strip())


def _statements(expression: str) -> int:
    """How many statements `SELECT (expression)` is: more than one when the expression holds a `;`."""
    try:
        return len(duckdb.extract_statements(f"SELECT ({expression})"))
    except duckdb.Error:
        return 1  # SQL DuckDB cannot parse: try_expression says so in DuckDB's words


def _names(measure: str, option: str, given, known) -> tuple[str, ...]:
    """A list option (params, needs) as a tuple of known names, each once."""
    if isinstance(given, str):
        given = (given,)
    names = tuple(dict.fromkeys(given or ()))
    unknown = [n for n in names if n not in known]
    if unknown:
        raise MeasureError(f"{measure}: unknown {option} {unknown[0]!r} (expected some of: {', '.join(known)})")
    return names


def _refuse_builtin(name: str) -> None:
    """A MeasureError when `name` is already a spelling of a built-in measure (nDCG, map, P_5, hits, all_trec ...)."""
    from .measures import parse

    try:
        taken = parse(name)  # the parser tries every built-in spelling before the defined measures
    except MeasureError:
        return
    if not all(isinstance(getattr(m, "definition", None), DefinedMeasure) for m in taken):
        meaning = ", ".join(str(m) for m in taken[:3]) + (", ..." if len(taken) > 3 else "")
        raise MeasureError(f"{name} is already a name of sqlrank's own measures (it reads as {meaning}); give the "
                           "measure you define another name (`sqlrank measures` lists the built-in ones)")


def _shown(expression: str) -> str:
    text = " ".join(expression.split())
    return text if len(text) <= 80 else text[:77] + "..."


# ---------------------------------------------------------------- its SQL

def function_name(measure: DefinedMeasure) -> str:
    """The temporary macro an evaluation calls for the measure (its connection's own)."""
    return f"sqlrank_{measure.macro}"


def temp_macro_sql(measure: DefinedMeasure) -> str:
    """`CREATE OR REPLACE TEMP MACRO sqlrank_defined_myp(ranking, k, ...)`: the expression, its value checked."""
    arguments = ", ".join(("ranking", "k", *measure.params))
    return (f"CREATE OR REPLACE TEMP MACRO {function_name(measure)}({arguments}) AS\n"
            f"    {_checked(measure)}")


def _checked(measure: DefinedMeasure) -> str:
    """The expression's value as a DOUBLE, through sqlrank.defined_value (a finite number, or an error naming it)."""
    return sqlgen.call("sqlrank.defined_value", f"CAST(({measure.expression}) AS DOUBLE)",
                       sqlgen.literal(measure.name), "ranking")


def install(con, measures) -> None:
    """The temporary macro of each defined measure among `measures`, in `con` (once each)."""
    for measure in _asked(measures):
        try:
            con.execute(temp_macro_sql(measure))
        except duckdb.Error as error:  # a macro DuckDB took at define() but not here (another DuckDB, a dropped macro)
            raise expression_error(measure, error) from None


def expression_error(measure: DefinedMeasure, error: Exception) -> MeasureError:
    """DuckDB's refusal of the expression, in one line naming the measure."""
    message = first_line(error)
    if own := _own_words(message, [measure]):
        return own
    return MeasureError(f"{measure.name}: its SQL expression fails in DuckDB: {message} "
                        f"(expression: {_shown(measure.expression)})")


def _own_words(message: str, measures: list[DefinedMeasure]) -> MeasureError | None:
    """sqlrank.defined_value's message about one of `measures` (`MyP: its expression gave NULL ...`) out of
    DuckDB's (`Invalid Input Error: sqlrank: MyP: ...`), or None."""
    for measure in measures:
        start = message.find(f"sqlrank: {measure.name}: ")
        if start >= 0:
            return MeasureError(message[start + len("sqlrank: "):])
    return None


# rankings the expression is tried on before it is registered: a query the run missed, one with judged
# documents of several labels (an unjudged one at rank 2) and label-0 judgments
_TRIAL_RANKINGS = (
    "struct_pack(documents := list_filter([struct_pack(rank := CAST(1 AS BIGINT), label := CAST(0 AS DOUBLE))], "
    "lambda d: false), num_ret := CAST(0 AS BIGINT), labels := [CAST(1 AS DOUBLE), 0.0])",
    "struct_pack(documents := [struct_pack(rank := CAST(1 AS BIGINT), label := CAST(2 AS DOUBLE)), "
    "struct_pack(rank := CAST(3 AS BIGINT), label := CAST(0 AS DOUBLE)), "
    "struct_pack(rank := CAST(4 AS BIGINT), label := CAST(1 AS DOUBLE))], num_ret := CAST(5 AS BIGINT), "
    "labels := [CAST(2 AS DOUBLE), 1.0, 1.0, 0.0, 0.0])",
)


def try_expression(measure: DefinedMeasure) -> None:
    """The expression run on the trial rankings at each cutoff it may get, its parameters at their defaults."""
    from .macros import library_connection

    cutoffs = ("CAST(NULL AS BIGINT)", "CAST(2 AS BIGINT)") if measure.cutoff else ("CAST(NULL AS BIGINT)",)
    defaults = [sqlgen.literal(measure.default(name)) for name in measure.params]
    calls = [sqlgen.call(function_name(measure), ranking, cutoff, *defaults)
             for ranking in _TRIAL_RANKINGS for cutoff in cutoffs]
    with library_connection() as con:
        try:
            con.execute(temp_macro_sql(measure))
            con.execute(f"SELECT {', '.join(calls)}").fetchall()
        except duckdb.Error as error:
            raise expression_error(measure, error) from None


def evaluation_error(measures, error: Exception) -> MeasureError | None:
    """A failed measures statement told as the defined measures' (which DuckDB's message may not name), or
    None when none was asked."""
    defined = _asked(measures)
    if not defined:
        return None
    message = first_line(error)
    return _own_words(message, defined) or MeasureError(f"evaluation failed in a defined measure's SQL ({', '.join(m.name for m in defined)}): "
                        f"{message}")


def check_ties(measures, ties: str) -> None:
    """A defined measure under a ties policy that gives no single order ('average'): refused by name."""
    asked = _asked(measures)
    if ties not in ORDER_POLICIES and asked:
        raise MeasureError(messages.render(messages.DEFINED_AVERAGE, policy=f"ties='{ties}'", measure=asked[0].name))


# ---------------------------------------------------------------- the DuckDB shell

def shell_sql(measure: DefinedMeasure) -> str:
    """The two macros that make `measure` in the DuckDB shell (the contract of docs/custom-measures.md): its
    formula `sqlrank.measure_<name>(ranking, k, <params>)` and its table macro `sqlrank.<name>(qrels, run, ...)`,
    which checks its cutoff and parameters as a built-in one does (macros.py)."""
    from .macros import RUN_OPTIONS, parameter_argument, parameter_check

    name, label = measure.name.lower(), sqlgen.literal(measure.name)
    formula = ", ".join(("ranking", "k", *measure.params))
    options = ([("k", None)] if measure.cutoff else []) + [(p, measure.default(p)) for p in measure.params]
    signature = ", ".join(["qrels_table", "run_table"] + [f"{option} := {sqlgen.literal(value)}" for option, value
                                                         in options + list(RUN_OPTIONS)])
    cutoff = sqlgen.call("sqlrank.valid_cutoff", "k", label) if measure.cutoff else "NULL"
    value = sqlgen.call(f"sqlrank.measure_{name}", "ranking", cutoff,
                        *(parameter_argument(p) for p in measure.params))
    checks = " AND ".join(parameter_check(p, f"sqlrank.{name}") for p in measure.params) or "true"
    forwarded = ", ".join(f"{option} := {option}" for option, _ in RUN_OPTIONS)
    return (f"CREATE OR REPLACE MACRO sqlrank.measure_{name}({formula}) AS\n    {measure.expression};\n\n"
            f"CREATE OR REPLACE MACRO sqlrank.{name}({signature}) AS TABLE\n"
            f"    SELECT * EXCLUDE (ranking), sqlrank.defined_value({value}, {label}, ranking) AS value\n"
            f"    FROM sqlrank.defined_rankings(qrels_table, run_table, {label}, {'k' if measure.cutoff else 'NULL'}, "
            f"{forwarded})\n"
            f"    WHERE {checks};\n")


def library_sql() -> str:
    """sqlrank.defined_value and sqlrank.defined_rankings, the library's part of every defined measure."""
    where = {"measure": "measure", "retrieved": "ranking.num_ret"}
    not_a_number = f"error('sqlrank: ' || {sqlgen.template(messages.DEFINED_NOT_A_NUMBER, **where, found=_found())})"
    average = sqlgen.template(messages.DEFINED_AVERAGE, policy=sqlgen.literal("ties := 'average'"), measure="measure")
    return f"""
-- sqlrank.defined_value(value, measure, ranking) -> DOUBLE
--     the value of a measure a user defined (sqlrank/defined.py), or an error naming it when the expression
--     gave NULL, NaN or an infinity: an `all` row would otherwise leave the query out, or be NaN
--     (`value` is the whole expression, pasted in as text: the lambda computes it once)
CREATE OR REPLACE MACRO sqlrank.defined_value(value, measure, ranking) AS
    list_transform([value], lambda sqlrank_value:
        CASE WHEN sqlrank_value IS NOT NULL AND isfinite(sqlrank_value) THEN sqlrank_value ELSE {not_a_number} END)[1];

-- true under a ties policy that gives one order; an error naming the measure under ties := 'average'
CREATE OR REPLACE MACRO sqlrank.defined_ties(ties, measure) AS
    CASE WHEN ties = 'average' THEN error('sqlrank: ' || {average}) ELSE true END;

-- sqlrank.defined_rankings(qrels_table, run_table, measure, k, depth, missing, score_precision, judged_only, ties,
--     qrels_columns, run_columns, validate) -> ([run_id,] query_id, ranking)
--     the rankings a defined measure's table macro reads, every judgment kept (label 0 too, as the Python door
--     keeps them for a defined measure); its cutoff k checked as a built-in one's, ties := 'average' refused by
--     name, on a row of their own (a filter on the rankings would not run when there are none: average has none)
CREATE OR REPLACE MACRO sqlrank.defined_rankings(qrels_table, run_table, measure, k, depth := NULL,
                                                 missing := 'zero', score_precision := 'double',
                                                 judged_only := false, ties := 'trec', qrels_columns := NULL,
                                                 run_columns := NULL, validate := true) AS TABLE
    SELECT *
    FROM sqlrank.run_rankings(qrels_table, run_table, depth := depth, missing := missing,
                              score_precision := score_precision, judged_only := judged_only, ties := ties,
                              qrels_columns := qrels_columns, run_columns := run_columns, validate := validate)
    UNION ALL BY NAME
    SELECT CAST(NULL AS VARCHAR) AS query_id
    FROM (SELECT 1) AS one
    WHERE NOT (sqlrank.defined_ties(ties, measure) AND (k IS NULL OR sqlrank.valid_cutoff(k, measure) IS NOT NULL));
"""


def _found() -> str:
    return "CASE WHEN sqlrank_value IS NULL THEN 'NULL' ELSE CAST(sqlrank_value AS VARCHAR) END"


def defined_keywords(measures) -> list[dict]:
    """The keywords of each defined measure among `measures` (parsed Measures), to define them in another process."""
    return [measure.keywords() for measure in _asked(measures)]


def _asked(measures) -> list[DefinedMeasure]:
    """The defined measures among parsed `measures`, each once."""
    return list({m.definition.name: m.definition for m in measures
                 if isinstance(getattr(m, "definition", None), DefinedMeasure)}.values())


def redefine(keywords: list[dict]) -> None:
    """The measures of another process (keywords()), defined in this one: a Spark worker's."""
    for given in keywords:
        if lookup(given["name"]) is None or lookup(given["name"]).keywords() != given:
            define(**given)


__all__ = ["define", "undefine", "defined_measures", "DefinedMeasure", "DEFAULT_NEEDS", "ORDER_POLICIES"]
