"""A plain-Python oracle of sqlrank's measures, for tests only.

Written straight from docs/trec-semantics.md and docs/measures.md, one obvious loop
per measure, sharing nothing with the SQL. The property tests check that the
SQL macros equal it on random inputs, for the parameters pytrec_eval does not
have (exponential gain, Järvelin and ln discounts, the ideal from the run,
other AP denominators, real-valued labels).

Inputs are dicts in pytrec_eval's shape: qrels {query: {doc: label}},
run {query: {doc: score}}.
"""

from __future__ import annotations

import math
import struct

MEASURES = ("cg", "dcg", "idcg", "ndcg", "ap", "rr", "p", "r", "rprec", "success", "bpref",
            "num_ret", "num_rel", "num_rel_ret")


def float32(score: float) -> float:
    """The score as a 32-bit float (trec_eval 9.x / pytrec_eval keep scores that way)."""
    try:
        return struct.unpack("f", struct.pack("f", score))[0]
    except OverflowError:  # beyond float32's range C's cast gives infinity; struct refuses
        return math.copysign(math.inf, score)


def ranking(scores: dict[str, float], score_precision: str = "double") -> list[str]:
    """Documents by score descending, equal scores by doc id descending (trec_eval).

    Python compares str by code point, which is the byte order of UTF-8.
    """
    key = float32 if score_precision == "float32" else float
    by_doc = sorted(scores, reverse=True)
    return sorted(by_doc, key=lambda doc: key(scores[doc]), reverse=True)  # stable: ties keep doc order


def gain(label, kind: str = "linear") -> float:
    if label is None or label <= 0:
        return 0.0
    return float(label) if kind == "linear" else 2.0 ** label - 1.0


def discount(rank: int, kind: str = "log2", base: float = 2) -> float:
    if kind == "log2":
        return 1.0 / math.log2(rank + 1)
    if kind == "ln":
        return 1.0 / math.log(rank + 1)
    return 1.0 if rank < base else 1.0 / math.log(rank, base)


def dcg_of(labels, gain_kind, discount_kind, base) -> float:
    return sum(gain(label, gain_kind) * discount(i, discount_kind, base) for i, label in enumerate(labels, start=1))


def query_measures(judgments: dict, ranked: list[str], k: int | None = None, *, rel: float = 1,
                   gain_kind: str = "linear", discount_kind: str = "log2", base: float = 2,
                   ideal: str = "qrels", denominator: str = "R") -> dict[str, float]:
    """Every measure of one query: `ranked` is the retrieved list in rank order."""
    def relevant(doc) -> bool:
        label = judgments.get(doc)
        return label is not None and label >= 0 and label >= rel

    top = ranked if k is None else ranked[:k]
    labels = [judgments.get(doc) for doc in top]
    hits = [relevant(doc) for doc in top]
    big_r = sum(1 for label in judgments.values() if label >= 0 and label >= rel)
    big_n = sum(1 for label in judgments.values() if 0 <= label < rel)

    if ideal == "qrels":
        ideal_labels = sorted((label for label in judgments.values() if label > 0), reverse=True)
    else:
        retrieved = (judgments.get(doc) for doc in ranked)
        ideal_labels = sorted((label for label in retrieved if label is not None and label > 0), reverse=True)
    if k is not None:
        ideal_labels = ideal_labels[:k]
    dcg = dcg_of(labels, gain_kind, discount_kind, base)
    idcg = dcg_of(ideal_labels, gain_kind, discount_kind, base)

    precision_sum, found = 0.0, 0
    for i, hit in enumerate(hits, start=1):
        if hit:
            found += 1
            precision_sum += found / i
    ap_denominator = {"R": big_r, "min_R_k": min(big_r, k) if k is not None else big_r, "retrieved": found}[denominator]
    first = next((i for i, hit in enumerate(hits, start=1) if hit), None)

    bpref, nonrelevant_above = 0.0, 0
    for doc in top:
        label = judgments.get(doc)
        if label is None or label < 0:
            continue  # unjudged, or judged but unusable: skipped
        if label >= rel:
            bpref += 1.0 if nonrelevant_above == 0 else 1.0 - min(nonrelevant_above, big_r) / min(big_n, big_r)
        else:
            nonrelevant_above += 1

    p_denominator = k if k is not None else len(ranked)
    return {
        "cg": sum(gain(label, gain_kind) for label in labels),
        "dcg": dcg,
        "idcg": idcg,
        "ndcg": dcg / idcg if idcg > 0 else 0.0,
        "ap": precision_sum / ap_denominator if ap_denominator else 0.0,
        "rr": 1.0 / first if first else 0.0,
        "p": found / p_denominator if p_denominator else 0.0,
        "r": found / big_r if big_r else 0.0,
        "rprec": sum(relevant(doc) for doc in ranked[:big_r]) / big_r if big_r else 0.0,
        "success": 1.0 if first else 0.0,
        "bpref": bpref / big_r if big_r else 0.0,
        "num_ret": float(len(top)),
        "num_rel": float(big_r),
        "num_rel_ret": float(found),
    }


def evaluate(qrels: dict, run: dict, k: int | None = None, *, missing: str = "zero",
             score_precision: str = "double", **params) -> dict[str, dict[str, float]]:
    """{query: {measure: value}} for the qrels queries (docs/measures.md#missing).

    A qrels query absent from the run scores 0 on everything but num_rel
    (missing='zero', trec_eval -c) or is left out ('skip'); run queries
    without judgments are always left out.
    """
    result = {}
    for query, judgments in qrels.items():
        if query in run and run[query]:
            result[query] = query_measures(judgments, ranking(run[query], score_precision), k, **params)
        elif missing == "zero":
            result[query] = query_measures(judgments, [], k, **params)
    return result
