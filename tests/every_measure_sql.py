"""One SELECT of every registry measure over sqlrank's ranking structs, for the tests that compare them all at once.

The column of each measure is named by its macro (`ndcg`, `recall`, ...). Parameters are SQL
text (a literal or a named placeholder such as `$rel`); a measure takes the ones its registry entry declares.
"""

from __future__ import annotations

import sqlrank


def every_measure(rankings: str, k: str = "NULL", **params: str) -> str:
    """`SELECT [run_id,] query_id, measure_ndcg(ranking, k, ...) AS ndcg, ... FROM <rankings>`."""
    # a parameter without a default (IPrec's recall, written @0.5) gets 0.5
    defaults = {name: "0.5" if p.default is None else sqlrank.sqlgen.literal(p.default)
                for name, p in sqlrank.registry.PARAMETERS.items()}
    values = []
    for definition in sqlrank.REGISTRY.values():
        # the diversity measures read ranking.intents (tests/measures/diversity_cases.py), the preference measures
        # ranking.prefs (tests/measures/prefs_cases.py)
        if {"subtopics", "preferences"} & set(definition.needs):
            continue
        # every macro takes k; one whose measure takes no @k reads the whole ranking or honours k as a prefix
        arguments = ["ranking", k]
        arguments += [params.get(name, defaults[name]) for name in definition.params]
        values.append(f"sqlrank.measure_{definition.macro}({', '.join(arguments)}) AS {definition.macro}")
    return f"SELECT COLUMNS('^(run_id|query_id)$'), {', '.join(values)} FROM {rankings}"

