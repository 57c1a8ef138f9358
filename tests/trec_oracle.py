"""trec_eval 10's whole `all_trec` catalogue in plain Python, for tests only.

An independent oracle: written from the definitions of trec_eval 10.0's
measures (one `m_*.c` file each in usnistgov/trec_eval; read, not copied)
and checked line by line against that binary's 17-digit output in
tests/data/trec_eval/. It shares nothing with sqlrank's SQL. One small
function per measure, so that each definition can be read on its own; the
docstrings say, one line each, what trec_eval does that a reader would not
guess (these become the SQL files' headers).

Inputs are dicts in pytrec_eval's shape, qrels {query: {doc: label}} and run
{query: {doc: score}}, or trec files through `read_qrels` / `read_run`.

    values = evaluate(qrels, run, ALL_TREC)              # trec_eval -q -m all_trec
    values = evaluate(qrels, run, ["P.5,7,3"], Options(rel_level=2, complete=True))
    values["301"]["P_5"], values["all"]["map"]

The ir_measures measures trec_eval lacks (ERR, Judged, RBP(p, rel), SetP,
SetR, SetF, SetAP, IPrec) are at the end, written from their papers.
"""

from __future__ import annotations

import gzip
import math
import re
import struct
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

NOT_IN_QRELS = -1   # a retrieved doc the qrels do not list
NEGATIVE_LABEL = -2  # a retrieved doc the qrels list with a label < 0 ("in the pool, unjudged")
MIN_GEO_MEAN = 1e-5  # the floor of gm_map and gm_bpref before the log
INFAP_EPSILON = 1e-5


# ---------------------------------------------------------------- reading trec files

_ATOL = re.compile(r"\s*([+-]?\d+)")
_ATOF = re.compile(r"\s*([+-]?(?:inf(?:inity)?|nan|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?))", re.IGNORECASE)


def atol(text: str) -> int:
    """C's atol: the leading integer, 0 when there is none (`1.9` -> 1, `x` -> 0)."""
    match = _ATOL.match(text)
    return int(match.group(1)) if match else 0


def atof(text: str) -> float:
    """C's atof: the longest leading number, 0.0 when there is none (`3abc` -> 3.0)."""
    match = _ATOF.match(text)
    return float(match.group(1)) if match else 0.0


def _lines(path: Path):
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            if fields and not fields[0].startswith("#"):  # a '#' first on the line is a comment (10.0)
                yield fields


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    """`qid iter docno rel` lines; labels read with atol, as trec_eval does."""
    qrels: dict[str, dict[str, int]] = {}
    for query, _iteration, doc, label in _lines(path):
        judged = qrels.setdefault(query, {})
        if doc in judged:
            raise ValueError(f"{path}: duplicate judgment of {doc} for query {query}")
        judged[doc] = atol(label)
    return qrels


def read_run(path: Path) -> tuple[dict[str, dict[str, float]], str]:
    """({query: {doc: score}}, runid): scores read with atof, rank column ignored, runid = tag of the last line."""
    run: dict[str, dict[str, float]] = {}
    runid = ""
    for fields in _lines(path):
        query, _iteration, doc, _rank, score, runid = fields[:6]  # words after the tag are ignored
        run.setdefault(query, {})[doc] = atof(score)
    return run, runid


# ---------------------------------------------------------------- one query's ranking

@dataclass(frozen=True)
class Options:
    """trec_eval's command-line switches that change numbers."""

    rel_level: int = 1            # -l: relevant means label >= rel_level
    complete: bool = False        # -c: qrels queries missing from the run score 0 and count in the mean
    max_docs: int | None = None   # -M: keep only the first max_docs of each ranking
    judged_only: bool = False     # -J: drop retrieved docs without a label >= 0 (after ranking)
    num_docs: int = 0             # -N: collection size (only utility's 4th coefficient uses it)
    float32: bool = False         # rank on scores cast to float32 (trec_eval 9.x, pytrec_eval); 10.0 keeps doubles
    recall_rounding: str = "10"   # iprec_at_recall's docs needed: "10" lround(x * R), "9" (long)(x * R + 0.9)


def float32(score: float) -> float:
    """The score as a 32-bit float."""
    try:
        return struct.unpack("f", struct.pack("f", score))[0]
    except OverflowError:  # beyond float32's range C's cast gives infinity
        return math.copysign(math.inf, score)


@dataclass
class Ranking:
    """One query as every measure sees it: the retrieved docs' values in rank order, and the qrels' label counts."""

    values: list[int]          # per rank: the label (>= 0), NOT_IN_QRELS or NEGATIVE_LABEL
    levels: Counter            # qrels label (>= 0 only) -> how many docs carry it
    rel_level: int
    num_docs: int = 0
    recall_rounding: str = "10"
    missing: bool = False      # a -c placeholder for a qrels query with no run lines

    @property
    def num_ret(self) -> int:
        return len(self.values)

    @property
    def num_rel(self) -> int:
        """R: qrels docs with label >= rel_level (negative labels never count)."""
        return sum(count for label, count in self.levels.items() if label >= self.rel_level)

    def relevant(self, value: int) -> bool:
        return value >= 0 and value >= self.rel_level

    def judged_nonrelevant(self, value: int) -> bool:
        return 0 <= value < self.rel_level

    def hits(self, k: int | None = None) -> int:
        return sum(self.relevant(value) for value in self.values[:k])

    @property
    def num_rel_ret(self) -> int:
        return self.hits()


def rank(judgments: dict[str, int], scores: dict[str, float], options: Options = Options()) -> Ranking:
    """trec_eval's ranking: score descending, equal scores by docno descending (byte order), then -M, then -J.

    Python orders str by code point, which is UTF-8's byte order. A negative
    label marks a doc "in the pool, unjudged": not relevant, not judged
    non-relevant, not counted in the label levels.
    """
    key = float32 if options.float32 else float
    docs = sorted(sorted(scores, reverse=True), key=lambda doc: key(scores[doc]), reverse=True)
    if options.max_docs is not None:
        docs = docs[:options.max_docs]
    values = []
    for doc in docs:
        label = judgments.get(doc)
        values.append(NOT_IN_QRELS if label is None else NEGATIVE_LABEL if label < 0 else label)
    if options.judged_only:
        values = [value for value in values if value >= 0]
    levels = Counter(label for label in judgments.values() if label >= 0)
    return Ranking(values, levels, options.rel_level, options.num_docs, options.recall_rounding)


# ---------------------------------------------------------------- gains (ndcg, ndcg_rel, Rndcg, G, rbp)

def parse_gain_pairs(pairs: tuple[tuple[str, float], ...]) -> dict[int, float]:
    """`1=3,2=9,4=4.5` -> {1: 3.0, 2: 9.0, 4: 4.5}; names that are not integers (rbp's `p`) are not gains."""
    return {int(name): value for name, value in pairs if re.fullmatch(r"[+-]?\d+", name)}


@dataclass
class Gains:
    """A label's gain (its own value unless a pair says otherwise) and the ideal list of positive gains."""

    by_value: dict[int, float]
    ideal: list[float] = field(default_factory=list)

    def __call__(self, value: int) -> float:
        return self.by_value.get(value, 0.0)


def gains(ranking: Ranking, pairs=()) -> Gains:
    """Gain per label level 0..max label of the query (and any level a pair names).

    The ideal list holds every qrels doc whose level has a positive gain,
    highest gain first; it is not cut at the number retrieved. trec_eval sorts
    the levels with a comparator that truncates the gain difference to int,
    so fractional custom gains less than 1 apart may come out in another
    order there (not reproduced: the oracle sorts them properly).
    """
    custom = parse_gain_pairs(pairs)
    top = max(ranking.levels) if ranking.levels else -1
    by_value = {level: float(level) for level in range(top + 1)}
    by_value.update(custom)
    ideal = []
    for level, gain in sorted(by_value.items(), key=lambda item: -item[1]):
        if gain > 0:
            ideal += [gain] * ranking.levels.get(level, 0)
    return Gains(by_value, ideal)


def log2_discount(rank_: int) -> float:
    """1 / log2(rank + 1): rank 1 is not discounted."""
    return 1.0 / math.log2(rank_ + 1)


def dcg(gain_values) -> float:
    return sum(gain * log2_discount(i) for i, gain in enumerate(gain_values, start=1) if gain != 0)


# ---------------------------------------------------------------- the measures, one function each

def num_ret(r: Ranking) -> float:
    """Docs retrieved (after -M and -J); summed over queries in the `all` row."""
    return float(r.num_ret)


def num_rel(r: Ranking) -> float:
    """R: qrels docs with label >= -l; summed over queries."""
    return float(r.num_rel)


def num_rel_ret(r: Ranking) -> float:
    """Relevant docs retrieved; summed over queries."""
    return float(r.num_rel_ret)


def num_nonrel_judged_ret(r: Ranking) -> float:
    """Retrieved docs judged non-relevant (0 <= label < -l); unjudged and negative labels are not counted; summed."""
    return float(sum(r.judged_nonrelevant(value) for value in r.values))


def average_precision(r: Ranking, k: int | None = None) -> float:
    """Sum of P@rank over the relevant docs in the top k, divided by R (not by min(R, k)); 0 when R = 0."""
    found, total = 0, 0.0
    for i, value in enumerate(r.values[:k], start=1):
        if r.relevant(value):
            found += 1
            total += found / i
    return total / r.num_rel if r.num_rel else 0.0


def gm_map(r: Ranking) -> float:
    """log(max(AP, 1e-5)) per query; the `all` row is exp of the mean, so a geometric mean with AP floored at 1e-5."""
    return math.log(max(average_precision(r), MIN_GEO_MEAN))


def r_precision(r: Ranking) -> float:
    """Relevant in the top R, over R; with fewer than R retrieved, relevant retrieved over R."""
    return r.hits(r.num_rel) / r.num_rel if r.num_rel and r.num_ret else 0.0


def bpref(r: Ranking) -> float:
    """(1/R) sum over retrieved relevant of 1 - min(n, R)/min(N, R), n = judged non-relevant above, N = in the qrels.

    Docs not in the qrels and negative labels are skipped: they neither help nor hurt.
    """
    big_n = sum(count for label, count in r.levels.items() if label < r.rel_level)
    above, total = 0, 0.0
    for value in r.values:
        if r.judged_nonrelevant(value):
            above += 1
        elif r.relevant(value):
            total += 1.0 if above == 0 else 1.0 - min(above, r.num_rel) / min(big_n, r.num_rel)
    return total / r.num_rel if r.num_rel else 0.0


def gm_bpref(r: Ranking) -> float:
    """log(max(bpref, 1e-5)); geometric mean over queries like gm_map."""
    return math.log(max(bpref(r), MIN_GEO_MEAN))


def recip_rank(r: Ranking) -> float:
    """1 / rank of the first relevant doc in the whole list; 0 when none."""
    return next((1.0 / i for i, value in enumerate(r.values, start=1) if r.relevant(value)), 0.0)


def lround(x: float) -> int:
    """C's lround for x >= 0: halves away from zero, on the double as it is (no decimal re-rounding)."""
    whole = math.floor(x)
    return whole + (1 if x - whole >= 0.5 else 0)


def interpolated_precision(r: Ranking, recall: float) -> float:
    """Max of P@i over ranks i at or below the rank where lround(recall * R) relevant docs have been seen.

    trec_eval 10 rounds recall * R to the nearest count (lround); 9.x and
    pytrec_eval used (long)(recall * R + 0.9), which differs by up to one
    relevant doc. Level 0 (and any level rounding to 0 docs) starts at the
    first relevant doc. 0 when that many relevant docs were not retrieved.
    """
    exact = recall * r.num_rel
    needed = max(lround(exact) if r.recall_rounding == "10" else int(exact + 0.9), 1)
    if needed > r.num_rel_ret:
        return 0.0
    best, found = 0.0, 0
    for i, value in enumerate(r.values, start=1):
        found += r.relevant(value)
        if found >= needed:
            best = max(best, found / i)
    return best


def precision(r: Ranking, k: int) -> float:
    """Relevant in the top k over k, always k: missing ranks count as non-relevant."""
    return r.hits(k) / k


def recall(r: Ranking, k: int) -> float:
    """Relevant in the top k over R; 0 when R = 0."""
    return r.hits(k) / r.num_rel if r.num_rel else 0.0


def relstring(r: Ranking, length: int) -> str:
    """The first `length` docs as one character each: the label 0-9, '>' above 9, '-' not in qrels, '.' negative label.

    Printed per query only, quoted; the -c placeholder of a missing query prints ''.
    """
    chars = []
    for value in r.values[:max(int(length), 0)]:
        chars.append(">" if value > 9 else str(value) if value >= 0 else "-" if value == NOT_IN_QRELS else ".")
    return "'" + "".join(chars) + "'"


def inf_ap(r: Ranking) -> float:
    """Inferred AP (Yilmaz & Aslam 2006), trec_eval's form.

    At a judged relevant doc at rank k: 1/k + ((k-1)/k) * (|pool above|/(k-1))
    * (rel above + eps)/(rel above + nonrel above + 2 eps), 1 at rank 1, eps
    = 1e-5; the pool above counts judged docs and negative labels ("in the
    pool, unjudged"), docs not in the qrels count as 0s. Summed, over R.
    """
    relevant_above = nonrelevant_above = negative_above = 0
    total = 0.0
    for k, value in enumerate(r.values, start=1):
        if value == NOT_IN_QRELS:
            continue
        if value == NEGATIVE_LABEL:
            negative_above += 1
        elif r.judged_nonrelevant(value):
            nonrelevant_above += 1
        else:
            if k == 1:
                total += 1.0
            else:
                pool_above = relevant_above + nonrelevant_above + negative_above
                total += 1.0 / k + ((k - 1) / k) * (pool_above / (k - 1)) * (
                    (relevant_above + INFAP_EPSILON) / (relevant_above + nonrelevant_above + 2 * INFAP_EPSILON))
            relevant_above += 1
    return total / r.num_rel if r.num_rel else total


def rprec_mult(r: Ranking, multiple: float) -> float:
    """P at rank (long)(multiple * R + 0.9) (truncated, not rounded as iprec_at_recall is in 10.0); 0 if that is 0."""
    cutoff = int(multiple * r.num_rel + 0.9)
    return precision(r, cutoff) if cutoff > 0 else 0.0


def utility(r: Ranking, a: float, b: float, c: float, d: float) -> float:
    """a*rel_ret + b*nonrel_ret + c*rel_not_ret + d*nonrel_not_ret, the last from -N; averaged (not summed) over queries."""
    rel_ret = r.num_rel_ret
    return (a * rel_ret + b * (r.num_ret - rel_ret) + c * (r.num_rel - rel_ret)
            + d * (r.num_docs + rel_ret - r.num_ret - r.num_rel))


def eleven_pt_avg(r: Ranking, *recalls: float) -> float:
    """Mean of iprec_at_recall over the recall levels given (default the 11 levels 0.0 .. 1.0)."""
    return sum(interpolated_precision(r, level) for level in recalls) / len(recalls)


def bin_g(r: Ranking) -> float:
    """Sum over retrieved relevant docs of 1/log2(2 + docs above it that are not relevant, unjudged included), over R."""
    total, found = 0.0, 0
    for i, value in enumerate(r.values):
        if r.relevant(value):
            total += 1.0 / math.log2(2 + i - found)
            found += 1
    return total / r.num_rel if found else 0.0


def g(r: Ranking, *pairs) -> float:
    """Sum of gain_i / log2(2 + cost_i - gained_i), over the ideal list's total gain.

    cost_i = sum over ranks <= i of max(ideal gain at that rank, 1) (ranks
    past the ideal list cost 1), gained_i = sum of the run's gains up to i;
    docs with gain 0 add nothing. 0 when no qrels doc has a positive gain.
    """
    table = gains(r, pairs)
    total_ideal = sum(table.ideal)
    if total_ideal <= 0:
        return 0.0
    cost = gained = result = 0.0
    for i, value in enumerate(r.values):
        gain = table(value)
        gained += gain
        cost += max(table.ideal[i], 1.0) if i < len(table.ideal) else 1.0
        if gain != 0:
            result += gain / math.log2(2 + cost - gained)
    return result / total_ideal


def ndcg(r: Ranking, *pairs) -> float:
    """DCG of the whole list over DCG of the whole ideal list (not cut at the number retrieved); linear gains = labels.

    Custom gains `ndcg.1=3,2=9` replace a label's gain; unnamed labels keep
    gain = label; a gain may be 0 or negative (then out of the ideal list).
    """
    table = gains(r, pairs)
    ideal = dcg(table.ideal)
    return dcg(table(value) for value in r.values) / ideal if ideal > 0 else 0.0


def ndcg_cut(r: Ranking, k: int) -> float:
    """DCG@k over the ideal list's DCG@k; always the plain labels as gains (no custom gains)."""
    table = gains(r)
    ideal = dcg(table.ideal[:k])
    return dcg(table(value) for value in r.values[:k]) / ideal if ideal > 0 else 0.0


def ndcg_rel(r: Ranking, *pairs) -> float:
    """nDCG averaged over the positive-gain docs of the ideal list.

    Each retrieved doc with positive gain at rank i adds nDCG@i (DCG@i over
    the ideal DCG@i, the ideal capped at its own length); every such doc not
    retrieved adds the nDCG of the whole list. Divided by the ideal list's
    length. 0 when that sum is not positive.
    """
    table = gains(r, pairs)
    ideal = table.ideal
    if not ideal:
        return 0.0
    total, running, found = 0.0, 0.0, 0
    for i, value in enumerate(r.values, start=1):
        gain = table(value)
        running += gain * log2_discount(i) if gain != 0 else 0.0
        if gain > 0:
            total += running / dcg(ideal[:i])
            found += 1
    total += (len(ideal) - found) * running / dcg(ideal)
    return total / len(ideal) if total > 0 else 0.0


def rndcg(r: Ranking, *pairs) -> float:
    """nDCG averaged over the R-levels: the ranks b where the ideal gain changes, b = 1 .. len(ideal list).

    At each b: DCG@min(b, num_ret) over ideal DCG@b. One more point, the
    nDCG of the whole list, when the ideal list ends at least two ranks
    before the run does (trec_eval's "implied change at num_retrieved"; its
    loop skips it when the ideal list is exactly one shorter). 0 when R = 0;
    NaN (trec_eval: 0/0) when R > 0 but no doc has a positive gain (-l0).
    """
    if r.num_rel == 0:
        return 0.0
    table = gains(r, pairs)
    ideal = table.ideal
    if not ideal:
        return math.nan
    run_gains = [table(value) for value in r.values]
    points = []
    for b in range(1, len(ideal) + 1):
        ideal_next = ideal[b] if b < len(ideal) else 0.0
        if ideal_next != ideal[b - 1]:
            points.append(dcg(run_gains[:b]) / dcg(ideal[:b]))
    if len(ideal) + 1 < r.num_ret:
        points.append(dcg(run_gains) / dcg(ideal))
    return sum(points) / len(points)


def relative_precision(r: Ranking, k: int) -> float:
    """Relevant in the top k over min(k, R): precision up to R, recall after; 0 when R = 0."""
    return r.hits(k) / min(k, r.num_rel) if r.num_rel else 0.0


def success(r: Ranking, k: int) -> float:
    """1 if a relevant doc is in the top k."""
    return 1.0 if r.hits(k) else 0.0


def set_p(r: Ranking) -> float:
    """Relevant retrieved over retrieved (the whole list, after -M)."""
    return r.num_rel_ret / r.num_ret if r.num_ret else 0.0


def set_relative_p(r: Ranking) -> float:
    """Relevant retrieved over min(retrieved, R); 0 when either is 0."""
    return r.num_rel_ret / min(r.num_ret, r.num_rel) if r.num_ret and r.num_rel else 0.0


def set_recall(r: Ranking) -> float:
    """Relevant retrieved over R."""
    return r.num_rel_ret / r.num_rel if r.num_rel else 0.0


def set_map(r: Ranking) -> float:
    """Relevant retrieved squared over (retrieved * R): set precision times set recall."""
    return r.num_rel_ret ** 2 / (r.num_ret * r.num_rel) if r.num_ret and r.num_rel else 0.0


def set_f(r: Ranking, beta: float = 1.0) -> float:
    """(beta + 1) P R / (beta P + R) with set P and R: trec_eval's parameter is used as is, not squared.

    So trec_eval's set_F.b is the usual F measure with beta^2 = b; 0 when nothing relevant was retrieved.
    """
    if not (r.num_ret and r.num_rel and r.num_rel_ret):
        return 0.0
    p, rec = set_p(r), set_recall(r)
    return (beta + 1.0) * p * rec / (beta * p + rec)


def rbp(r: Ranking, *pairs) -> float:
    """Rank-biased precision (Moffat & Zobel 2008), trec_eval's form: (1 - p) sum gain_i p^(i-1), p = 0.9 by default.

    Gains are the labels (or custom pairs, `rbp.p=0.95,2=1`), divided by the
    query's largest gain when that exceeds 1 (so graded labels are scaled per
    query to [0, 1], not thresholded by -l).
    """
    p = next((value for name, value in pairs if name == "p"), 0.9)
    table = gains(r, pairs)
    low, high = min([0.0, *table.by_value.values()]), max([0.0, *table.by_value.values()])
    if low < 0 or high > 1:
        table.by_value = {level: (gain - low) / (high - low) for level, gain in table.by_value.items()}
    return (1.0 - p) * sum(table(value) * p ** i for i, value in enumerate(r.values))


def rbp_resid(r: Ranking) -> float:
    """The residual of rbp alone (p = 0.9, fixed): (1 - p) sum over unjudged ranks of p^(i-1), plus p^num_ret.

    Unjudged = not in the qrels or a negative label. 0 when no retrieved doc
    is unjudged: the tail p^num_ret of a short list is then left out too.
    """
    p = 0.9
    unjudged = [i for i, value in enumerate(r.values) if value < 0]
    return p ** r.num_ret + (1 - p) * sum(p ** i for i in unjudged) if unjudged else 0.0


def unjudged(r: Ranking, k: int) -> float:
    """Docs in the top k not in the qrels or with a negative label, over k (always k)."""
    return sum(value < 0 for value in r.values[:k]) / k


# ---------------------------------------------------------------- the catalogue: names, parameters, aggregates

@dataclass(frozen=True)
class Family:
    """One trec_eval measure name with its parameter kind, defaults and how the `all` row combines queries.

    kinds: none; cutoffs (integers, one line each `P_5`); levels (reals, one
    line each `%4.2f`: `iprec_at_recall_0.10`); values (reals, one line
    named after the parameter text: `utility_2,-1,0,0`); pairs (`name=value`
    list, one line: `ndcg_1=3,2=9`).
    """

    name: str
    compute: Callable
    kind: str = "none"
    default: tuple = ()
    aggregate: str = "mean"  # mean | sum | gm (geometric, values are logs) | none (per query only) | count | runid


LONG_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
RECALL_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

FAMILIES = [
    Family("runid", None, aggregate="runid"),
    Family("num_q", None, aggregate="count"),
    Family("num_ret", num_ret, aggregate="sum"),
    Family("num_rel", num_rel, aggregate="sum"),
    Family("num_rel_ret", num_rel_ret, aggregate="sum"),
    Family("map", average_precision),
    Family("gm_map", gm_map, aggregate="gm"),
    Family("Rprec", r_precision),
    Family("bpref", bpref),
    Family("recip_rank", recip_rank),
    Family("iprec_at_recall", interpolated_precision, "levels", RECALL_LEVELS),
    Family("P", precision, "cutoffs", LONG_CUTS),
    Family("relstring", relstring, "values", (10,), aggregate="none"),
    Family("recall", recall, "cutoffs", LONG_CUTS),
    Family("infAP", inf_ap),
    Family("gm_bpref", gm_bpref, aggregate="gm"),
    Family("Rprec_mult", rprec_mult, "levels", (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    Family("utility", utility, "values", (1.0, -1.0, 0.0, 0.0)),
    Family("11pt_avg", eleven_pt_avg, "values", RECALL_LEVELS),
    Family("binG", bin_g),
    Family("G", g, "pairs"),
    Family("ndcg", ndcg, "pairs"),
    Family("ndcg_rel", ndcg_rel, "pairs"),
    Family("Rndcg", rndcg, "pairs"),
    Family("ndcg_cut", ndcg_cut, "cutoffs", LONG_CUTS),
    Family("map_cut", average_precision, "cutoffs", LONG_CUTS),
    Family("relative_P", relative_precision, "cutoffs", LONG_CUTS),
    Family("success", success, "cutoffs", (1, 5, 10)),
    Family("set_P", set_p),
    Family("set_relative_P", set_relative_p),
    Family("set_recall", set_recall),
    Family("set_map", set_map),
    Family("set_F", set_f, "values", (1.0,)),
    Family("num_nonrel_judged_ret", num_nonrel_judged_ret, aggregate="sum"),
    Family("rbp", rbp, "pairs"),
    Family("rbp_resid", rbp_resid),
    Family("unj", unjudged, "cutoffs", (5, 10, 20)),
]
BY_NAME = {family.name: family for family in FAMILIES}
ALL_TREC = tuple(family.name for family in FAMILIES)


@dataclass(frozen=True)
class Measure:
    """A family with its parameters, as `-m name.params` gives them."""

    family: Family
    params: tuple
    text: str | None  # the parameter text as written, None for the defaults

    def lines(self) -> list[tuple[str, tuple]]:
        """[(printed name, arguments)] — one per cutoff or level, else one."""
        name, kind = self.family.name, self.family.kind
        if kind == "cutoffs":
            return [(f"{name}_{k}", (k,)) for k in self.params]
        if kind == "levels":
            return [(f"{name}_{level:4.2f}", (level,)) for level in self.params]
        printed = name if self.text is None else f"{name}_{self.text}"
        return [(printed, self.params)]


def parse(spec: str) -> Measure:
    """`P.5,7,3`, `ndcg.1=3,2=9,4=4.5`, `iprec_at_recall..10,.20`, `utility.2,-1,0,0`, or a bare family name.

    The parameter text starts after the first '.'. Cutoffs are read with
    atol (`23.4` -> 23) and sorted, levels with atof and sorted; `values`
    and `pairs` keep their order, and the line is named after the text as
    written (`11pt_avg_.25,.5,.75`).
    """
    name, _, text = spec.partition(".")
    family = BY_NAME.get(name)
    if family is None:
        raise ValueError(f"trec_eval has no measure {name!r}")
    if not _:
        return Measure(family, family.default, None)
    items = text.split(",")
    if family.kind == "cutoffs":
        cutoffs = sorted(atol(item) for item in items)
        if len(set(cutoffs)) != len(cutoffs) or cutoffs[0] <= 0:
            raise ValueError(f"{spec}: cutoffs must be positive, without duplicates")
        params = tuple(cutoffs)
    elif family.kind == "levels":
        params = tuple(sorted(atof(item) for item in items))
    elif family.kind == "values":
        params = tuple(atof(item) for item in items)
    elif family.kind == "pairs":
        params = tuple((left, atof(right)) for left, _eq, right in (item.partition("=") for item in items))
    else:
        raise ValueError(f"{name} takes no parameters")
    return Measure(family, params, text)


# ---------------------------------------------------------------- evaluation: per query and the `all` row

def placeholder(judgments: dict[str, int], options: Options) -> Ranking:
    """The -c stand-in for a qrels query the run lacks: 0 on every measure but num_rel, log(1e-5) for gm_*."""
    levels = Counter(label for label in judgments.values() if label >= 0)
    return Ranking([], levels, options.rel_level, options.num_docs, options.recall_rounding, missing=True)


def query_values(ranking: Ranking, measures: list[Measure]) -> dict[str, float | str]:
    values: dict[str, float | str] = {}
    for measure in measures:
        family = measure.family
        if family.compute is None:
            continue
        for name, args in measure.lines():
            if ranking.missing and family.aggregate == "gm":
                values[name] = math.log(MIN_GEO_MEAN)
            elif ranking.missing and family.name == "relstring":
                values[name] = "''"
            elif ranking.missing and family.name != "num_rel":
                values[name] = 0.0  # utility, unj and rbp_resid too: trec_eval resets them for the stand-in
            else:
                values[name] = family.compute(ranking, *args)
    return values


def evaluate(qrels: dict, run: dict, measures=ALL_TREC, options: Options = Options(),
             runid: str = "") -> dict[str, dict[str, float | str]]:
    """{query: {printed measure: value}} plus 'all', as `trec_eval -q` prints them.

    Queries are the qrels' (byte order); run queries without qrels are
    ignored. A qrels query with no run lines is an error in trec_eval 10
    unless -c, which scores it 0 and averages over all qrels queries.
    """
    parsed = {}
    for spec in measures:  # a family named again replaces its parameters (`-m all_trec -m relstring.20`)
        measure = parse(spec) if isinstance(spec, str) else spec
        parsed[measure.family.name] = measure
    parsed = list(parsed.values())
    per_query: dict[str, dict] = {}
    for query in sorted(qrels):
        if run.get(query):
            ranking = rank(qrels[query], run[query], options)
        elif options.complete:
            ranking = placeholder(qrels[query], options)
        else:
            raise ValueError(f"query {query} has judgments but no run lines (trec_eval 10 stops here; use -c)")
        per_query[query] = query_values(ranking, parsed)
    summary_row = summary(per_query, parsed, qrels, options, runid)
    summary_only = {name for measure in parsed if measure.family.aggregate == "gm" for name, _ in measure.lines()}
    result = {query: {name: value for name, value in values.items() if name not in summary_only}
              for query, values in per_query.items()}  # gm_* print only in the `all` row
    result["all"] = summary_row
    return result


def summary(per_query: dict, measures: list[Measure], qrels: dict, options: Options, runid: str) -> dict:
    """The `all` row: means, sums for counts, geometric means for gm_*, the query count, the run's tag.

    With -c the num_rel total is recounted from the qrels as labels > 0,
    whatever -l says (so with -c -l2 it exceeds the sum of the per-query values).
    """
    count = len(per_query)
    row: dict[str, float | str] = {}
    for measure in measures:
        family = measure.family
        for name, _args in measure.lines():
            values = [values[name] for values in per_query.values() if name in values]
            if family.aggregate == "runid":
                row[name] = runid
            elif family.aggregate == "count":
                row[name] = float(count)
            elif family.aggregate == "sum":
                row[name] = float(sum(values))
            elif family.aggregate == "gm":
                row[name] = math.exp(sum(values) / count) if count else 0.0
            elif family.aggregate == "mean":
                row[name] = sum(values) / count if count else 0.0
    if options.complete and "num_rel" in row:
        row["num_rel"] = float(sum(label > 0 for judged in qrels.values() for label in judged.values()))
    return row


# ---------------------------------------------------------------- ir_measures' measures that trec_eval lacks

def err(r: Ranking, k: int | None = None, max_grade: int = 4) -> float:
    """Expected reciprocal rank (Chapelle et al. 2009), gdeval's form: sum over ranks i <= k of R_i / i * prod_{j<i} (1 - R_j).

    R = (2^label - 1) / 2^max_grade, not / (2^max_grade - 1): a top-grade doc
    stops 15/16 of users (gdeval fixes max_grade at 4 and refuses larger
    labels; so does this oracle). Labels <= 0 and docs not in the qrels give
    R = 0. 0 for a query without a positive label (gdeval prints nothing
    for it, ir_measures fills in 0).
    """
    if any(label > max_grade for label in r.levels):
        raise ValueError(f"label above max_grade {max_grade}")
    total, still_looking = 0.0, 1.0
    for i, value in enumerate(r.values[:k], start=1):
        stop = (2.0 ** value - 1.0) / 2.0 ** max_grade if value > 0 else 0.0
        total += still_looking * stop / i
        still_looking *= 1.0 - stop
    return total


def judged(r: Ranking, k: int) -> float:
    """Docs in the top k that the qrels list (any label, negative ones too) over min(k, retrieved), not over k.

    ir_measures' own implementation breaks score ties by doc id ascending,
    unlike trec_eval; the oracle takes the ranking it is given.
    """
    top = r.values[:k]
    return sum(value != NOT_IN_QRELS for value in top) / len(top) if top else 0.0


def rbp_binary(r: Ranking, p: float = 0.8, rel: int = 1) -> float:
    """RBP (Moffat & Zobel 2008) as ir_measures' RBP(p, rel): (1 - p) sum over ranks with label >= rel of p^(i-1).

    Binary gains from `rel`, p = 0.8 by default (trec_eval's rbp: 0.9 and
    scaled graded gains); the whole list (ir_measures' cwl_eval stops at 1000 docs).
    """
    return (1.0 - p) * sum(p ** i for i, value in enumerate(r.values) if value >= 0 and value >= rel)


def hits(r: Ranking, k: int | None = None) -> float:
    """ranx's hits@k: relevant docs in the top k (a count, not Success's 0/1)."""
    return float(r.hits(k))


def f1(r: Ranking, k: int | None = None) -> float:
    """ranx's f1@k: harmonic mean of P@k (over k) and R@k; 0 when both are 0."""
    p = r.hits(k) / (k if k is not None else max(r.num_ret, 1))
    rec = recall(r, k)
    return 2 * p * rec / (p + rec) if p + rec else 0.0


def with_rel(r: Ranking, rel: int) -> Ranking:
    """The same ranking with another relevance level (ir_measures' `rel=` parameter)."""
    return Ranking(r.values, r.levels, rel, r.num_docs, r.recall_rounding, r.missing)


# ir_measures' spelling -> (oracle function, how its parameters map): the names sqlrank must accept
IR_MEASURES = {
    "ERR@k": err,                          # ERR(max_grade=4)@k
    "Judged@k": judged,
    "RBP(p, rel)": rbp_binary,
    "SetP(rel)": set_p,                    # = trec_eval set_P -l rel
    "SetP(rel, relative=True)": set_relative_p,
    "SetR(rel)": set_recall,
    "SetF(rel, beta)": set_f,              # beta passed to set_F unsquared, as ir_measures does
    "SetAP(rel)": set_map,
    "IPrec@r": interpolated_precision,     # ir_measures computes it through pytrec_eval: 9.x rounding
    "NumRet(rel)": num_rel_ret,            # NumRet alone = num_ret
    "hits@k": hits,
    "f1@k": f1,
}
