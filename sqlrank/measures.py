"""Measure names: every spelling a user may write, parsed into a Measure from the registry's declarations.

Parsing accepts three spellings of a measure:

* ir_measures syntax: ``nDCG@10``, ``AP(rel=2)@100``, ``nDCG(gain=exp)@10``;
* trec_eval names: ``ndcg_cut_10``, ``ndcg_cut.10``, ``map``, ``P_5``, ``P.5,10``
  (``ndcg_cut`` and ``map_cut`` alone give trec_eval's default cutoffs);
* shorthands: ``ndcg@10``, ``map@10``, ``mrr``, ``hit@10``.

Every spelling resolves to one :class:`Measure` whose canonical name
(``str(measure)``) is the ir_measures spelling with non-default parameters.
Parameter values are validated here, so only known words and numbers ever
reach the SQL text.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, field

from .checks import messages
from .errors import MeasureError
from .registry import PARAMETERS, REGISTRY, MeasureDef, Parameter


# cutoffs above this are refused: the SQL uses the largest BIGINT for "no cutoff", and no ranking is longer
MAX_CUTOFF = 2_147_483_647


def parse_parameter(parameter: Parameter, text: str, measure: str) -> object:
    """A parameter's value from its text: one of its choices, or a finite number within its bounds."""
    if parameter.choices:
        if text in parameter.choices:
            return text
        close = difflib.get_close_matches(text, parameter.choices, n=1, cutoff=0.5)
        raise MeasureError(
            f"{measure}: unknown {parameter.name} '{text}' (expected one of: {', '.join(parameter.choices)})"
            + (f"; did you mean '{close[0]}'?" if close else "")
        )
    said = {"measure": measure, "parameter": parameter.name, "value": text}
    try:
        value = float(text)
    except ValueError:
        raise MeasureError(messages.render(messages.NOT_A_NUMBER, **said)) from None
    if not math.isfinite(value):
        raise MeasureError(messages.render(messages.NOT_FINITE, **said))
    if parameter.minimum_exclusive is not None and value <= parameter.minimum_exclusive:
        raise MeasureError(messages.render(messages.NOT_GREATER, **said, minimum=parameter.minimum_exclusive))
    return int(value) if value.is_integer() and abs(value) < 2 ** 53 else value  # 1e300 stays 1e+300


# trec_eval measure families whose cutoffs are written `name_k` / `name.k`, as trec_eval spells them
TREC_FAMILIES = {m.trec_family: m.name for m in REGISTRY.values() if m.trec_family}
_TREC_CUTOFF = {family.lower(): name for family, name in TREC_FAMILIES.items() if not REGISTRY[name].at}
_TREC_AT = {family.lower(): name for family, name in TREC_FAMILIES.items() if REGISTRY[name].at}
# `-m ndcg_cut` alone gives trec_eval's default cutoffs (m_ndcg_cut.c, m_map_cut.c); the other
# families are also sqlrank measures without a cutoff (P = relevant retrieved / retrieved, ...)
_TREC_DEFAULT_CUTOFFS = {m.trec_family.lower(): m.trec_default_cutoffs
                         for m in REGISTRY.values() if m.trec_default_cutoffs}

# Names are matched without regard to case, except where two measures differ only by case
# (ir_measures' RBP and trec_eval's rbp): the exact spelling is tried first, and a canonical name
# wins the case-insensitive match over another measure's alias.
_EXACT: dict[str, MeasureDef] = {s: m for m in REGISTRY.values() for s in (m.name, *m.aliases)}
_NAMES: dict[str, MeasureDef] = {a.lower(): m for m in REGISTRY.values() for a in m.aliases}
_NAMES.update({m.name.lower(): m for m in REGISTRY.values()})


@dataclass(frozen=True)
class Measure:
    """One measure with its parameters resolved (defaults filled in) and its cutoff."""

    definition: MeasureDef
    params: tuple[tuple[str, object], ...] = field(default=())
    k: int | None = None

    @property
    def name(self) -> str:
        return self.definition.name

    def param(self, name: str) -> object:
        return dict(self.params)[name]

    def __str__(self) -> str:
        at = self.definition.at
        shown = [f"{n}={v}" for n, v in self.params if v != PARAMETERS[n].default and n != at]
        text = self.name + (f"({','.join(shown)})" if shown else "")
        if at:
            return text + f"@{self.param(at)}"
        return text + (f"@{self.k}" if self.k is not None else "")


_IR_MEASURES_FORM = re.compile(r"^(?P<name>[A-Za-z0-9_]+)(?:\((?P<params>[^()]*)\))?(?:@(?P<k>[^@()]*))?$")
_TREC_FORM = re.compile(r"^(?P<name>[A-Za-z_]+?)(?:_|\.)(?P<ks>[0-9][0-9,]*)$")
# families whose `_x` is a real number (Rprec_mult_0.20, iprec_at_recall..10,.20): trec_eval's -m text
_TREC_AT_FORM = re.compile(r"^(?P<name>[A-Za-z_]+?)(?:_|\.)(?P<xs>[0-9.][0-9.,]*)$")


def parse(text: str, *, rel: float | None = None) -> list[Measure]:
    """Parse one measure string; trec_eval's `P.5,10` gives several measures.

    `rel` is the default relevance level for measures that do not name one
    (the CLI's --rel, trec_eval's -l).
    """
    spelling = text.strip()
    if not spelling:
        raise MeasureError("empty measure name; " + _known_names_hint())
    trec_at = _TREC_AT_FORM.match(spelling)
    if trec_at and trec_at.group("name").lower() in _TREC_AT:
        definition = REGISTRY[_TREC_AT[trec_at.group("name").lower()]]
        return [_build(spelling, definition, {}, x, rel) for x in trec_at.group("xs").split(",") if x]
    trec = _TREC_FORM.match(spelling)
    if trec and trec.group("name").lower() in _TREC_CUTOFF:
        definition = REGISTRY[_TREC_CUTOFF[trec.group("name").lower()]]
        ks = [part for part in trec.group("ks").split(",") if part]
        return [_build(spelling, definition, {}, k, rel) for k in ks]
    if spelling.lower() in _TREC_DEFAULT_CUTOFFS:
        definition = REGISTRY[TREC_FAMILIES[next(f for f in TREC_FAMILIES if f.lower() == spelling.lower())]]
        return [_build(spelling, definition, {}, str(k), rel) for k in _TREC_DEFAULT_CUTOFFS[spelling.lower()]]
    match = _IR_MEASURES_FORM.match(spelling)
    if not match:
        raise MeasureError(
            f"cannot read measure '{spelling}': expected NAME, NAME@k or NAME(param=value,...)@k, "
            "e.g. nDCG@10, AP(rel=2), ndcg_cut_10"
        )
    name = match.group("name")
    definition = _EXACT.get(name) or _NAMES.get(name.lower())
    if definition is None:
        raise MeasureError(f"unknown measure '{name}'{_suggestion(name, spelling)}; {_known_names_hint()}")
    raw_params = {}
    if match.group("params"):
        for item in match.group("params").split(","):
            key, sep, value = item.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise MeasureError(f"{spelling}: parameters are written name=value, got '{item.strip()}'")
            if key.strip() in raw_params:  # `gain=exp,gain=linear`: which one was meant would be a guess
                raise MeasureError(f"{spelling}: parameter '{key.strip()}' is given twice; give it once")
            raw_params[key.strip()] = value.strip()
    return [_build(spelling, definition, raw_params, match.group("k"), rel)]


def parse_all(texts, *, rel: float | None = None) -> list[Measure]:
    """Parse a list of measure strings; duplicates (same canonical measure) are kept once."""
    if rel is not None and (isinstance(rel, bool) or not isinstance(rel, (int, float)) or not math.isfinite(rel)):
        raise MeasureError(f"rel must be a finite number, got {rel!r}")  # it becomes a number in the SQL text
    if isinstance(texts, str):
        texts = [texts]
    elif not hasattr(texts, "__iter__"):
        raise MeasureError(f"measures are a list of names such as ['nDCG@10', 'AP'], got {type(texts).__name__} "
                           f"{texts!r}")
    seen: dict[str, Measure] = {}
    for text in texts:
        if not isinstance(text, str):
            raise MeasureError(f"measure names are strings, got {type(text).__name__} {text!r}")
        for measure in parse(text, rel=rel):
            seen.setdefault(str(measure), measure)
    if not seen:
        raise MeasureError("no measures given; " + _known_names_hint())
    return list(seen.values())


def _build(spelling: str, definition: MeasureDef, raw_params: dict, k_text, rel) -> Measure:
    if definition.at and k_text is not None:  # IPrec@0.1: the @ gives a parameter, not a cutoff
        if definition.at in raw_params:
            raise MeasureError(f"{spelling}: {definition.at} is given twice (@ and {definition.at}=); give it once")
        raw_params = {**raw_params, definition.at: k_text.strip()}
        k_text = None
    params = {}
    for key, value in raw_params.items():
        if key not in definition.params:
            allowed = ", ".join(definition.params) or "none"
            hint = difflib.get_close_matches(key, definition.params, n=1)
            raise MeasureError(
                f"{spelling}: {definition.name} has no parameter '{key}' (its parameters: {allowed})"
                + (f"; did you mean '{hint[0]}'?" if hint else "")
            )
        params[key] = parse_parameter(PARAMETERS[key], value, spelling)
    for key in definition.params:
        if key not in params:
            params[key] = rel if (key == "rel" and rel is not None) else PARAMETERS[key].default
    if definition.at and params[definition.at] is None:
        raise MeasureError(f"{spelling}: {definition.name} needs its {definition.at}, e.g. {definition.name}@0.5")
    if key_rel := params.get("rel"):
        params["rel"] = int(key_rel) if float(key_rel).is_integer() and abs(key_rel) < 2 ** 53 else key_rel
    k = None
    if k_text is not None:
        if not definition.cutoff:
            raise MeasureError(f"{spelling}: {definition.name} takes no cutoff (@k)")
        if not re.fullmatch(r"[0-9]+", k_text.strip()) or int(k_text) < 1:
            raise MeasureError(messages.render(messages.BAD_CUTOFF, measure=spelling, value=k_text))
        if int(k_text) > MAX_CUTOFF:
            raise MeasureError(messages.render(messages.CUTOFF_TOO_LARGE, measure=spelling, maximum=MAX_CUTOFF,
                                               value=k_text))
        k = int(k_text)
    return Measure(definition, tuple(sorted(params.items())), k)


def _suggestion(name: str, spelling: str) -> str:
    """` (did you mean 'nDCG@10'?)`: the closest known name, with the rest of what was typed."""
    known = [*_TREC_DEFAULT_CUTOFFS, *(a for m in REGISTRY.values() for a in m.aliases), *REGISTRY]
    by_lower = {s.lower(): s for s in known}  # the canonical spelling wins over a same-letters alias
    close = difflib.get_close_matches(name.lower(), list(by_lower), n=1, cutoff=0.5)
    return f" (did you mean '{by_lower[close[0]]}{spelling[len(name):]}'?)" if close else ""


def _known_names_hint() -> str:
    return "known measures: " + ", ".join(REGISTRY) + " (see `sqlrank measures`)"


# ---------------------------------------------------------------- documentation from the registry

def spellings(definition: MeasureDef) -> list[str]:
    """Every other way to write the measure: its aliases and trec_eval's `family_k` / `family.k` forms."""
    others = [a for a in definition.aliases if a.lower() != definition.name.lower()]  # names ignore case
    families = [f for f, name in TREC_FAMILIES.items() if name == definition.name]
    return others + [form for f in families for form in (f"{f}_k", f"{f}.k")]


def describe() -> list[dict]:
    """One row per measure, in registry order: what `sqlrank measures` prints and the README table shows.

    Keys: name, aliases, parameters ({name: default}), cutoff (takes @k), at (the parameter a real @x
    sets, or None), summary ("mean", "sum" or "gm" in the `all` row), definition, macro (the DuckDB table macro).
    """
    return [
        {
            "name": m.name,
            "aliases": spellings(m),
            "parameters": {p: PARAMETERS[p].default for p in m.params},
            "cutoff": m.cutoff,
            "at": m.at,
            "summary": m.aggregate,
            "definition": m.definition,
            "macro": f"sqlrank.{m.macro}",
        }
        for m in REGISTRY.values()
    ]


def markdown_table() -> str:
    """The README's measures and parameters tables, generated from the registry (a test keeps them in sync)."""
    lines = ["| measure | also written | parameters (default) | @k | `all` row | definition | SQL macro |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for row in describe():
        aliases = ", ".join(f"`{a}`" for a in row["aliases"]) or "—"
        params = ", ".join(f"{p}={d}" for p, d in row["parameters"].items() if p != row["at"]) or "—"
        takes = "yes" if row["cutoff"] else f"@{row['at']}" if row["at"] else "no"
        lines.append(f"| `{row['name']}` | {aliases} | {params} | {takes} | "
                     f"{row['summary']} | {row['definition']} | `{row['macro']}` |")
    lines += ["", "| parameter | values | default | meaning |", "| --- | --- | --- | --- |"]
    for parameter in PARAMETERS.values():
        values = ", ".join(f"`{c}`" for c in parameter.choices) or "a number"
        lines.append(f"| `{parameter.name}` | {values} | `{parameter.default}` | {parameter.help} |")
    return "\n".join(lines) + "\n"


def trec_name(measure: Measure) -> str:
    """trec_eval's name for a measure at trec_eval's parameters (`ndcg_cut_10`, `map`); else the canonical name."""
    definition = measure.definition
    non_default = [n for n, v in measure.params if v != PARAMETERS[n].default and n not in ("rel", definition.at)]
    if non_default:
        return str(measure)
    if definition.at and definition.trec_family:
        return f"{definition.trec_family}_{measure.param(definition.at):4.2f}"  # trec_eval prints %4.2f
    if measure.k is None and definition.trec_name:
        return definition.trec_name
    if measure.k is not None and definition.trec_family:
        return f"{definition.trec_family}_{measure.k}"
    return str(measure)
