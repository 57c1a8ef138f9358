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


def check_prefs(qrels, prefs, measures) -> None:
    """Preferences are given in place of the qrels, not beside them, and not with subtopic qrels."""
    diversity = [str(m) for m in measures if "subtopics" in m.definition.needs]
    if preference_measures(measures) and diversity:  # one call reads one kind of judgments in the qrels' place
        raise MeasureError(f"{', '.join(preference_measures(measures))} and {', '.join(diversity)}: the preference "
                           "and the diversity measures read different judgments (preferences, subtopic qrels); "
                           "evaluate them in two calls")
    if prefs is not None and qrels is not None:
        raise EvaluationError("preferences are given in place of the qrels, not beside them: pass " + option_hint(
            "qrels=None", "-R prefs or -R qrels_prefs") + " (the other measures then read each document's highest "
            "rel_level as its label), or evaluate the qrels in a second call")


def prefs_of_qrels_sql(qrels_table: str) -> str:
    """The qrels read as preferences when no preferences are given: one judgment group and sub-group per
    query (trec_eval's -R qrels_prefs takes the group from the iteration field, which sqlrank's qrels
    readers do not keep and which is one value in almost every qrels file); negative labels left out."""
    return (f"SELECT query_id, '0' AS jg, '0' AS jsg, doc_id, relevance AS rel_level FROM {qrels_table} "
            "WHERE relevance >= 0")  # a negative label: judged but unusable, as everywhere in sqlrank


def order_ties(ties: str) -> str:
    """The tie policy of the pass that orders the documents for the preference measures."""
    return "docid_asc" if ties == "trec" else ties
