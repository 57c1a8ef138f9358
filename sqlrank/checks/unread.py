"""The notice for a relevance level (`rel`) that some measures asked do not read.

Graded measures (nDCG, DCG...) take every positive label as a gain whatever `rel` says: with ratings 1-5 and
rel=4, Recall counts ratings >= 4 while nDCG also gains from ratings 1-3. A notice names them, and the gain map
that gives the labels below `rel` no gain, so that both read the same relevant items.
"""

from __future__ import annotations

import math

from ..registry import PARAMETERS
from .gains import _number


def rel_unread_notice(measures: list[tuple[str, object]], rel: float | None) -> str | None:
    """The notice when `rel` was given and a measure asked has no `rel` parameter; None otherwise.

    measures: (the name asked, the parsed Measure) pairs, as parse_labelled() gives them.
    """
    if rel is None:
        return None
    # a measure given its own gain map has said what each label is worth
    # canonical names: the same notice whichever spelling was asked, and from every door (Spark's buckets too)
    unread = [str(measure) for _, measure in measures
              if hasattr(measure, "definition") and "rel" not in measure.definition.params
              and dict(measure.params).get("gain", PARAMETERS["gain"].default) == PARAMETERS["gain"].default]
    if not unread:
        return None
    below = [label for label in range(1, math.ceil(rel)) if label < rel]
    gain = "{" + ",".join(f"{label}:0" for label in below) + "}"
    example = f"{unread[0].split('@')[0].split('(')[0]}(gain={gain})" + \
        (f"@{unread[0].split('@')[1]}" if "@" in unread[0] else "")
    fix = (f"to give labels below {_number(float(rel))} no gain, ask for e.g. {example}" if below
           else "their gains are the labels themselves")
    return (f"rel={_number(float(rel))} is not read by {', '.join(unread)}: every positive label is a gain there; "
            f"{fix}")
