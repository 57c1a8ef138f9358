"""What the engine does for trec_eval's preference measures (docs/measures.md#preference-measures).

They read preferences (readers/prefs.py), given in place of the qrels, and order the retrieved documents
as trec_eval's form_prefs_counts does: by score, ties by doc id ascending (its other measures break them
descending), so under ties='trec' the runs are ranked a second time, into PREFS_ORDER_TABLE.
"""

from __future__ import annotations

from .errors import EvaluationError, MeasureError, option_hint

PREFS_ORDER_TABLE = "sqlrank_prefs_order"


def preference_measures(measures) -> list[str]:
    """The names of the measures asked that read preferences."""
    return [str(m) for m in measures if "preferences" in m.definition.needs]


def check_prefs(qrels, prefs, measures, ties: str) -> None:
    """The preference measures read preferences, given in place of the qrels; the same on every door."""
    asked = preference_measures(measures)
    if asked and prefs is None:
        raise MeasureError(f"{', '.join(asked)}: the preference measures read preferences (query_id, jg, jsg, "
                           "doc_id, rel_level; TREC: qid jg jsg docno rel_level): pass " + option_hint(
                               "prefs=<path or table> (and qrels=None; prefs_from_qrels=True to read qrels as "
                               "preferences)", "-R prefs, or -R qrels_prefs to read the qrels as preferences"))
    if prefs is not None and qrels is not None:
        raise EvaluationError("preferences are given in place of the qrels, not beside them: pass " + option_hint(
            "qrels=None", "-R prefs or -R qrels_prefs") + " (the other measures then read each document's highest "
            "rel_level as its label), or evaluate the qrels in a second call")
    if asked and ties == "average":
        raise MeasureError(f"{', '.join(asked)}: ties='average' is not defined for the preference measures; "
                           "use another ties policy (the default, trec, orders them as trec_eval does)")


def order_ties(ties: str) -> str:
    """The tie policy of the pass that orders the documents for the preference measures."""
    return "docid_asc" if ties == "trec" else ties
