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

import dataclasses

import difflib
import math
import re
from dataclasses import dataclass, field

from . import defined
from .checks import messages
from .errors import MeasureError
from .lists import parse_list_measure
from .registry import NAMED_SETS, PARAMETERS, RANX_SPELLINGS, REGISTRY, MeasureDef, Parameter


# cutoffs above this are refused: the SQL uses the largest BIGINT for "no cutoff", and no ranking is longer
MAX_CUTOFF = 2_147_483_647


def parse_parameter(parameter: Parameter, text: str, measure: str) -> object:
    """A parameter's value from its text: one of its choices, or a finite number within its bounds.

    Two parameters also take a list: `gain` a gain map `{1:3,2:9}`, `levels` recall levels `[0.25,0.5]`.
    """
    if parameter.name == "gain" and text.startswith("{"):
        return gain_map(text, measure)
    if isinstance(parameter.default, tuple):
        return recall_levels(text, measure)
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
    if parameter.within is not None and not parameter.within[0] <= value <= parameter.within[1]:
        low, high = parameter.within
        raise MeasureError(messages.render(messages.NOT_WITHIN, **said, low=low, high=high))
    return int(value) if value.is_integer() and abs(value) < 2 ** 53 else value  # 1e300 stays 1e+300


def gain_map(text: str, measure: str) -> str:
    """`{1:3,2:9,4:4.5}` checked and written the one way the SQL reads it (sqlrank.mapped_gain).

    Labels are whole numbers >= 0, each named once (a map naming 0 keeps the label-0 judgments in the ranking
    pass: engine.reads_zero_labels); gains are finite numbers.
    """
    inner = text.strip()
    if not (inner.startswith("{") and inner.endswith("}")) or not inner[1:-1].strip():
        raise MeasureError(messages.render(messages.GAIN_MAP_FORM, measure=measure, value=text))
    pairs = {}
    for item in inner[1:-1].split(","):
        label, sep, gain = item.partition(":")
        if not sep or not re.fullmatch(r"\s*[0-9]+\s*", label) or int(label) < 0:
            raise MeasureError(messages.render(messages.GAIN_MAP_ENTRY, measure=measure, entry=item.strip()))
        if int(label) in pairs:
            raise MeasureError(messages.render(messages.GAIN_MAP_TWICE, measure=measure, label=int(label)))
        pairs[int(label)] = parse_parameter(Parameter("gain", 0), gain.strip(), measure)
    return "{" + ",".join(f"{label}:{gain!r}" for label, gain in pairs.items()) + "}"


def recall_levels(text: str, measure: str) -> tuple[float, ...]:
    """`[0.25,0.5,0.75]` -> (0.25, 0.5, 0.75): recall levels between 0 and 1."""
    inner = text.strip()
    if not (inner.startswith("[") and inner.endswith("]")) or not inner[1:-1].strip():
        raise MeasureError(f"{measure}: recall levels are written levels=[0.25,0.5,0.75], got '{text}'")
    levels = []
    for item in inner[1:-1].split(","):
        try:
            level = float(item)
        except ValueError:
            level = math.nan
        if not 0 <= level <= 1:
            raise MeasureError(f"{measure}: a recall level is a number from 0 to 1, got '{item.strip()}'")
        levels.append(level)
    return tuple(levels)


def _split_params(text: str) -> list[str]:
    """`gains={1:3,2:9},gain=exp` -> the two items: commas inside {} or [] belong to the value."""
    items, depth, start = [], 0, 0
    for position, char in enumerate(text):
        depth += char in "{[" and 1 or char in "}]" and -1 or 0
        if char == "," and depth == 0:
            items.append(text[start:position])
            start = position + 1
    return items + [text[start:]]


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
        shown = [_shown_parameter(n, v) for n, v in self.params if v != self.definition.default(n) and n != at]
        text = self.name + (f"({','.join(shown)})" if shown else "")
        if at:
            return text + f"@{self.param(at)}"
        return text + (f"@{self.k}" if self.k is not None else "")


def family(measure: Measure) -> str:
    """The measure without its cutoff: nDCG(gain=exp) for nDCG(gain=exp)@10 (a measure whose @ is a parameter,
    iprec_at_recall@0.1, is its own family)."""
    if measure.definition.at or measure.k is None:
        return str(measure)
    return str(dataclasses.replace(measure, k=None))


@dataclass(frozen=True)
class TextMeasure:
    """One of trec_eval's two text lines, which only the trec layout prints: `runid` (the run's tag, in the
    `all` row) and `relstring` (the labels of the first k documents, per query: 0-9, '>' above 9, '-' not
    judged, '.' a negative label)."""

    name: str  # "runid" or "relstring"
    k: int | None = None

    def __str__(self) -> str:
        return self.name if self.k in (None, 10) else f"{self.name}_{self.k}"  # trec_eval's own names


_RELSTRING_FORM = re.compile(r"^relstring(?:[_.](?P<k>[0-9]+))?$")


def _shown_parameter(name: str, value) -> str:
    if name == "gain" and str(value).startswith("{"):
        return f"gains={value}"  # ir_measures' name of a gain map
    if isinstance(value, tuple):
        return f"{name}=[{','.join(_number(v) for v in value)}]"
    return f"{name}={value}"


_IR_MEASURES_FORM = re.compile(r"^(?P<name>[A-Za-z0-9_-]+)(?:\((?P<params>[^()]*)\))?(?:@(?P<k>[^@()]*))?$")
# ranx's relevance level suffix: map@10-l2 is AP(rel=2)@10
_RANX_LEVEL = re.compile(r"^(?P<name>[A-Za-z0-9_-]+?)(?P<k>@[0-9]+)?-l(?P<rel>[0-9]+)$")
_TREC_FORM = re.compile(r"^(?P<name>[A-Za-z_]+?)(?:_|\.)(?P<ks>[0-9][0-9.,]*)$")
# families whose `_x` is a real number (Rprec_mult_0.20, iprec_at_recall..10,.20): trec_eval's -m text
_TREC_AT_FORM = re.compile(r"^(?P<name>[A-Za-z_]+?)(?:_|\.)(?P<xs>[0-9.][0-9.,]*)$")


def parse(text: str, *, rel: float | None = None, interpolation: str | None = None) -> list[Measure | TextMeasure]:
    """Parse one measure string; trec_eval's `P.5,10` and the named sets (`all_trec`) give several measures.

    `rel` is the default relevance level for measures that do not name one
    (the CLI's --rel, trec_eval's -l); `interpolation` likewise for IPrec and AvgIPrec (the CLI's --interpolation).
    """
    defaults = {name: value for name, value in (("rel", rel), ("interpolation", interpolation)) if value is not None}
    return _parse(text, defaults)


def _parse(text: str, defaults: dict) -> list[Measure | TextMeasure]:
    """parse(), with the caller's defaults for the parameters a spelling does not name."""
    spelling = text.strip()
    if not spelling:
        raise MeasureError("empty measure name; " + _known_names_hint())
    if spelling in NAMED_SETS:
        return [measure for name in NAMED_SETS[spelling] for measure in _parse(name, defaults)]
    if (listed := parse_list_measure(spelling)) is not None:  # a measure of the lists themselves (lists.py)
        return [listed]
    if spelling == "runid":
        return [TextMeasure("runid")]
    if relstring := _RELSTRING_FORM.match(spelling):
        k = int(relstring.group("k") or 10)
        if not 1 <= k <= MAX_CUTOFF:
            raise MeasureError(f"{spelling}: the number of documents must be a whole number >= 1, got {k}")
        return [TextMeasure("relstring", k)]
    trec_at = _TREC_AT_FORM.match(spelling)
    if trec_at and trec_at.group("name").lower() in _TREC_AT:
        definition = REGISTRY[_TREC_AT[trec_at.group("name").lower()]]
        # in increasing order, as trec_eval sorts a family's values (`P.5,7,3` prints P_3, P_5, P_7)
        xs = sorted((x for x in trec_at.group("xs").split(",") if x), key=_number_or_text)
        return [_build(spelling, definition, {}, x, defaults) for x in xs]
    if values := _trec_values(spelling, defaults):
        return values
    trec = _TREC_FORM.match(spelling)
    if trec and trec.group("name").lower() in _TREC_CUTOFF:
        definition = REGISTRY[_TREC_CUTOFF[trec.group("name").lower()]]
        # a fractional cutoff is cut to its whole part, as trec_eval reads it (ndcg_cut.23.4 is ndcg_cut_23)
        ks = sorted((part.split(".")[0] for part in trec.group("ks").split(",") if part), key=_number_or_text)
        return [_build(spelling, definition, {}, k, defaults) for k in ks]
    if spelling.lower() in _TREC_DEFAULT_CUTOFFS:
        definition = REGISTRY[TREC_FAMILIES[next(f for f in TREC_FAMILIES if f.lower() == spelling.lower())]]
        return [_build(spelling, definition, {}, str(k), defaults) for k in _TREC_DEFAULT_CUTOFFS[spelling.lower()]]
    if level := _RANX_LEVEL.match(spelling):
        return _parse(f"{level.group('name')}(rel={level.group('rel')}){level.group('k') or ''}", defaults)
    match = _IR_MEASURES_FORM.match(spelling)
    if match and match.group("name").lower() in RANX_SPELLINGS:
        meant = RANX_SPELLINGS[match.group("name").lower()]
        if "(" in meant and match.group("params"):
            raise MeasureError(f"{spelling}: {match.group('name')} is {meant}; write that with your parameters")
        if "(" not in meant and match.group("params"):
            meant += f"({match.group('params')})"
        return _parse(meant + (f"@{match.group('k')}" if match.group("k") is not None else ""), defaults)
    if not match:
        raise MeasureError(
            f"cannot read measure '{spelling}': expected NAME, NAME@k or NAME(param=value,...)@k, "
            "e.g. nDCG@10, AP(rel=2), ndcg_cut_10"
        )
    name = match.group("name")
    definition = _EXACT.get(name) or _NAMES.get(name.lower()) or defined.lookup(name)
    if definition is None:
        raise MeasureError(f"unknown measure '{name}'{_suggestion(name, spelling)}; {_known_names_hint()}")
    raw_params = {}
    if match.group("params"):
        for item in _split_params(match.group("params")):
            key, sep, value = item.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise MeasureError(f"{spelling}: parameters are written name=value, got '{item.strip()}'")
            if key.strip() in raw_params:  # `gain=exp,gain=linear`: which one was meant would be a guess
                raise MeasureError(f"{spelling}: parameter '{key.strip()}' is given twice; give it once")
            raw_params[key.strip()] = value.strip()
    if "gains" in raw_params and "gain" in definition.params:  # ir_measures' gains={...}: the gain map
        if "gain" in raw_params:
            raise MeasureError(f"{spelling}: give gain or gains, not both")
        raw_params["gain"] = raw_params.pop("gains")
        if not raw_params["gain"].startswith("{"):
            raise MeasureError(f"{spelling}: a gain map is written gains={{label:gain,...}}, e.g. gains={{1:3,2:9}}")
    if match.group("k") is not None and "," in match.group("k"):  # nDCG@10,20: one measure per cutoff
        return [_build(spelling, definition, raw_params, k, defaults) for k in match.group("k").split(",")]
    return [_build(spelling, definition, raw_params, match.group("k"), defaults)]


def _number_or_text(text: str) -> tuple:
    """A sort key: numbers by value, then anything else (which _build refuses with its message)."""
    try:
        return (0, float(text), "")
    except ValueError:
        return (1, 0.0, text)


_TREC_VALUES_FORM = re.compile(r"^(?P<name>[A-Za-z0-9_]+?)\.(?P<values>.+)$")


def _trec_values(spelling: str, defaults: dict) -> list[Measure] | None:
    """trec_eval's value lists after a dot: `utility.2,-1,0,0` (its four weights), `set_F.0.5` (beta),
    `11pt_avg..25,.5,.75` (recall levels) and gain maps `ndcg.1=3,2=9` for every measure with a gain;
    None when the spelling is none of these."""
    match = _TREC_VALUES_FORM.match(spelling)
    definition = match and (_EXACT.get(match.group("name")) or _NAMES.get(match.group("name").lower()))
    if not definition:
        return None
    values = match.group("values")
    names = definition.trec_values
    if names and isinstance(PARAMETERS[names[0]].default, tuple):  # a list: every value goes in it
        return [_build(spelling, definition, {names[0]: f"[{values}]"}, None, defaults)]
    if names:
        items = values.split(",")
        if len(names) == 1 and len(items) > 1:  # set_F.1.0,0.5,2.4: one measure a value, as P.5,10 (docs/measures.md#setf)
            return [_build(spelling, definition, {names[0]: item}, None, defaults) for item in items]
        if len(items) != len(names):
            raise MeasureError(f"{spelling}: {match.group('name')} takes {len(names)} value(s) after the dot "
                               f"({', '.join(n or '0' for n in names)}), got {len(items)}")
        for position, (name, item) in enumerate(zip(names, items), start=1):
            if name is None and parse_parameter(Parameter("value", 0), item, spelling) != 0:
                raise MeasureError(f"{spelling}: value {position} weighs the documents outside the judgments and "
                                   "the run, which needs the collection's size; sqlrank does not know it: give 0")
        return [_build(spelling, definition, {n: v for n, v in zip(names, items) if n}, None, defaults)]
    if "gain" in definition.params and "=" in values:
        pairs = "{" + ",".join(pair.replace("=", ":", 1) for pair in values.split(",")) + "}"
        return [_build(spelling, definition, {"gain": pairs}, None, defaults)]
    return None


def split_names(text: str) -> list[str]:
    """`"ndcg_cut_10 map"` or `"nDCG@10,map"` -> the two names: a list split on spaces (trec_eval's -m) and on
    commas before a name (a letter); a comma before a number is a list of values (`P.5,10`, `nDCG@10,20`,
    `utility.2,-1,0,0`, `11pt_avg..25,.5`), and spaces
    and commas inside parentheses or braces (`AP(rel = 2)`, `RBP(p=0.8,rel=2)`) stay in their name."""
    names, depth, current = [], 0, ""
    for index, char in enumerate(text):
        depth += char in "({[" and 1 or char in ")}]" and -1 or 0
        before_name = char == "," and text[index + 1:index + 2].isalpha()
        if (char.isspace() or before_name) and depth == 0:
            names, current = names + [current] if current else names, ""
        else:
            current += char
    return names + [current] if current else names


def _is_ir_measures(measure) -> bool:
    """An ir_measures Measure object (nDCG@10, AP(rel=2)): its str() is its name, which sqlrank reads."""
    return type(measure).__module__.startswith("ir_measures.")


def _names_in(given) -> list[str]:
    """The names in one item of a measure list: a string's names (split_names), an ir_measures object's own."""
    if _is_ir_measures(given):
        return [str(given)]
    if not isinstance(given, str):
        raise MeasureError(f"measure names are strings, got {type(given).__name__} {given!r}")
    return split_names(given) or [given]  # a blank name: parse() says it is empty


def parse_all(texts, *, rel: float | None = None, interpolation: str | None = None,
              text_lines: bool = False) -> list[Measure]:
    """Parse a list of measure strings; duplicates (same canonical measure) are kept once.

    trec_eval's text lines (runid, relstring: TextMeasure) are kept only with `text_lines`, for the
    evaluation that the trec layout prints; everything else reads numbers and leaves them out.
    """
    return [measure for _, measure in parse_labelled(texts, rel=rel, interpolation=interpolation, text_lines=text_lines)]


def parse_labelled(texts, *, rel: float | None = None, interpolation: str | None = None,
                   text_lines: bool = False) -> list[tuple[str, Measure]]:
    """parse_all's measures, each with the name a result reports it under: the spelling the user wrote
    (`map` stays `map`); a spelling that gives several measures names each as it was written there,
    trec_eval's way (`P.5,10`: P_5, P_10; `all_trec`) or ir_measures' (`nDCG@10,20`: nDCG@10, nDCG@20).
    A label another measure has already taken gives way to the canonical name."""
    if rel is not None and (isinstance(rel, bool) or not isinstance(rel, (int, float)) or not math.isfinite(rel)):
        raise MeasureError(f"rel must be a finite number, got {rel!r}")  # it becomes a number in the SQL text
    choices = PARAMETERS["interpolation"].choices
    if interpolation is not None and interpolation not in choices:
        raise MeasureError(f"unknown interpolation {interpolation!r} (expected one of: {', '.join(choices)})")
    if isinstance(texts, (bytes, bytearray)):
        raise MeasureError(f"measures are text, got {type(texts).__name__} {texts!r}; decode them "
                           f"({texts!r}.decode()) or pass [{texts.decode(errors='replace')!r}]")
    if isinstance(texts, str) or _is_ir_measures(texts):
        texts = [texts]
    elif not hasattr(texts, "__iter__"):
        raise MeasureError(f"measures are a list of names such as ['nDCG@10', 'AP'], got {type(texts).__name__} "
                           f"{texts!r}")
    seen: dict[str, tuple[str, Measure]] = {}
    for text in (name for given in texts for name in _names_in(given)):
        parsed = parse(text, rel=rel, interpolation=interpolation)
        for measure in parsed:
            if isinstance(measure, TextMeasure):
                if not text_lines:
                    continue
                # named again, relstring takes its new length in its place, as trec_eval's -m does
                # (`-m all_trec -m relstring.20`)
                earlier = next((key for key, (_, m) in seen.items()
                                if isinstance(m, TextMeasure) and m.name == measure.name), None)
                seen = {(str(measure) if key == earlier else key): ((str(measure), measure) if key == earlier else entry)
                        for key, entry in seen.items()}
                seen.setdefault(str(measure), (str(measure), measure))
                continue
            if len(parsed) == 1:
                label = text.strip()
            else:
                label = str(measure) if "@" in text else trec_name(measure)
            if label in {taken for taken, _ in seen.values()}:
                label = str(measure)
            seen.setdefault(str(measure), (label, measure))
    if seen and all(isinstance(measure, TextMeasure) for _, measure in seen.values()):
        raise MeasureError("runid and relstring are text lines printed beside measures in the trec layout; "
                           "name a measure too, e.g. -m map")
    if not seen:
        raise MeasureError("no measures given; " + _known_names_hint())
    return list(seen.values())


def _build(spelling: str, definition: MeasureDef, raw_params: dict, k_text, defaults: dict) -> Measure:
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
            params[key] = defaults.get(key, definition.default(key))
    if definition.at and params[definition.at] is None:
        raise MeasureError(f"{spelling}: {definition.name} needs its {definition.at}, e.g. {definition.name}@0.5")
    if "max_rel" in params and not 0 <= params["min_rel"] < params["max_rel"]:
        raise MeasureError(messages.render(messages.GAIN_SCALE, measure=definition.name, low=params["min_rel"],
                                           high=params["max_rel"]))
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
    """` (did you mean 'nDCG@10'?)`: a known name close to the one typed, with the rest of what was typed.

    Only a close match (difflib ratio >= 0.75: a typo, not another measure that shares letters), never
    the spelling typed itself; a trec_eval family written with @k (`ndcg_cut@10`) is told its two
    spellings, trec_eval's `ndcg_cut_10` and `nDCG@10`, and so is one written without the `_` (`ndcg_cut10`).
    """
    rest = spelling[len(name):]
    family = next((f for f in TREC_FAMILIES if f.lower() == name.lower()), None)
    cutoff = re.fullmatch(r"@([0-9]+)", rest)
    if family and cutoff:
        return f" (did you mean '{family}_{cutoff.group(1)}' or '{TREC_FAMILIES[family]}{rest}'?)"
    glued = re.fullmatch(r"(.*[^0-9_])_?([0-9]+)", spelling)  # `ndcg_cut10`: the family and its cutoff run together
    family = glued and next((f for f in TREC_FAMILIES if f.lower() == glued.group(1).lower().rstrip("_")), None)
    if family:
        return f" (did you mean '{family}_{glued.group(2)}' or '{TREC_FAMILIES[family]}@{glued.group(2)}'?)"
    known = [*_TREC_DEFAULT_CUTOFFS, *(a for m in REGISTRY.values() for a in m.aliases), *REGISTRY, *RANX_SPELLINGS]
    by_lower = {s.lower(): s for s in known if s.lower() != name.lower()}  # the canonical spelling wins
    ratio = {s: difflib.SequenceMatcher(None, name.lower(), s).ratio() for s in by_lower}
    close = sorted((s for s in ratio if ratio[s] >= 0.75), key=lambda s: -ratio[s])
    if not close:
        return ""
    # as close as the closest (`hitz`: hit and hits): every measure meant that way is named, with what it is
    tied = [s for s in close if ratio[s] >= ratio[close[0]] - 0.05]
    suggested = []
    for lower in tied:
        spelled = by_lower[lower]
        if lower in _TREC_DEFAULT_CUTOFFS and rest:  # a family takes `_k`, not `@k` or parameters
            spelled = TREC_FAMILIES[next(f for f in TREC_FAMILIES if f.lower() == lower)]
        meaning = _meaning(spelled)
        if meaning not in [m for _, m in suggested]:
            suggested.append((spelled + rest, meaning))
    if len(suggested) == 1:
        return f" (did you mean '{suggested[0][0]}'?)"
    return " (did you mean " + " or ".join(f"'{text}' ({meaning})" for text, meaning in suggested) + "?)"


def _meaning(spelling: str) -> str:
    """The canonical measure a known spelling names (a ranx spelling by what it stands for)."""
    meant = RANX_SPELLINGS.get(spelling.lower(), spelling)
    found = _EXACT.get(meant) or _NAMES.get(meant.lower()) or REGISTRY.get(TREC_FAMILIES.get(meant, ""))
    return found.name if found else meant


def _known_names_hint() -> str:
    return "known measures: " + ", ".join(REGISTRY) + " (see `sqlrank measures`)"


# ---------------------------------------------------------------- documentation from the registry

def spellings(definition: MeasureDef) -> list[str]:
    """Every other way to write the measure: its aliases and trec_eval's `family_k` / `family.k` forms."""
    others = [a for a in definition.aliases if a.lower() != definition.name.lower()]  # names ignore case
    families = [f for f, name in TREC_FAMILIES.items() if name == definition.name]
    return others + [form for f in families for form in (f"{f}_k", f"{f}.k")]


def describe() -> list[dict]:
    """One row per measure, in registry order: what `sqlrank measures` prints and docs/measures.md's catalogue table shows.

    Keys: name, aliases, parameters ({name: default}), cutoff (takes @k), at (the parameter a real @x
    sets, or None), summary ("mean", "sum", "gm" or "weighted" in the `all` row), definition, macro (the DuckDB table macro).
    """
    return [
        {
            "name": m.name,
            "aliases": spellings(m),
            "parameters": {p: m.default(p) for p in m.params},
            "cutoff": m.cutoff,
            "at": m.at,
            "summary": m.aggregate,
            "definition": m.definition,
            "macro": f"sqlrank.{m.macro}",
        }
        for m in REGISTRY.values()
    ]


def markdown_table() -> str:
    """docs/measures.md's catalogue, the measures and parameters tables, generated from the registry (a test keeps them in sync)."""
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
        values = ", ".join(f"`{c}`" for c in parameter.choices) or (
            "a list of numbers" if isinstance(parameter.default, tuple) else "a number")
        lines.append(f"| `{parameter.name}` | {values} | `{parameter.default}` | {parameter.help} |")
    return "\n".join(lines) + "\n"


def trec_name(measure: Measure) -> str:
    """trec_eval's name for a measure at trec_eval's parameters (`ndcg_cut_10`, `map`); else the canonical name."""
    definition = measure.definition
    # rel and interpolation are trec_eval's options (-l, its version), not part of its names
    non_default = [n for n, v in measure.params
                   if v != definition.default(n) and n not in ("rel", "interpolation", definition.at)]
    if non_default:
        return _trec_values_name(measure, non_default) or str(measure)
    if definition.at and definition.trec_family:
        return f"{definition.trec_family}_{measure.param(definition.at):4.2f}"  # trec_eval prints %4.2f
    if measure.k is None and definition.trec_name:
        return definition.trec_name
    if measure.k is not None and definition.trec_family:
        return f"{definition.trec_family}_{measure.k}"
    return str(measure)


def trec_name_as_asked(label: str, measure: Measure) -> str:
    """trec_eval's name of a measure under the name it was asked by: a value list asked trec_eval's way
    (`set_F.0.50`, `utility.2.0,-1,0,0`, `11pt_avg.0.25,0.5`, `ndcg.1=3.0,2=9`) is printed with its values as
    typed, `set_F_0.50`, as trec_eval prints it; any other measure as trec_name gives it."""
    definition, match = measure.definition, _TREC_VALUES_FORM.match(label.strip())
    if (match and definition.trec_name and measure.k is None
            and match.group("name").lower() == definition.trec_name.lower()
            and (definition.trec_values or "=" in match.group("values"))):
        return f"{definition.trec_name}_{match.group('values')}"
    return trec_name(measure)


def _trec_values_name(measure: Measure, non_default: list[str]) -> str | None:
    """trec_eval's name of a measure given a value list (`utility_2,-1,0,0`, `11pt_avg_.25,.5,.75`,
    `ndcg_1=3,2=9,4=4.5`), or None when trec_eval has no such name."""
    definition, params = measure.definition, dict(measure.params)
    if not definition.trec_name or measure.k is not None:
        return None
    if non_default == ["gain"] and str(params["gain"]).startswith("{"):
        return f"{definition.trec_name}_{params['gain'][1:-1].replace(':', '=')}"
    if definition.trec_values and set(non_default) <= set(definition.trec_values):
        if isinstance(PARAMETERS[definition.trec_values[0]].default, tuple):
            shown = [_short(v) for v in params[definition.trec_values[0]]]
        else:
            shown = [_short(params[n]) if n else "0" for n in definition.trec_values]
        return f"{definition.trec_name}_{','.join(shown)}"
    return None


def _number(value: float) -> str:
    """2 not 2.0; 0.25 as repr writes it."""
    return str(int(value)) if float(value).is_integer() else repr(value)


def _short(value: float) -> str:
    """A number as trec_eval's value lists write it: 2 not 2.0, .25 not 0.25."""
    text = _number(value)
    return text[1:] if text.startswith("0.") else text
