"""Every measure and parameter of sqlrank, declared once, as data.

A measure is three things: its formula, a scalar SQL macro in
``sql/measures/<macro>.sql`` (``sqlrank.measure_<macro>(ranking, k, <parameters>)``);
one entry here; and its test file. Everything else is read from this entry:
the names the parser accepts, the defaults, the trec_eval spellings, how the
``all`` row aggregates the queries, what the one ranking pass must keep for
it, the DuckDB shell's table macro ``sqlrank.<macro>(qrels, run, ...)``, the
catalogue table of docs/measures.md and ``sqlrank measures``. docs/adding-a-measure.md walks
through it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Parameter:
    """A measure parameter: its default, and its choices (none: a number)."""

    name: str
    default: object
    choices: tuple[str, ...] = ()
    help: str = ""
    minimum_exclusive: float | None = None  # a number must be greater than this
    within: tuple[float, float] | None = None  # a number must lie from the first to the second, both included


PARAMETERS: dict[str, Parameter] = {
    p.name: p
    for p in (
        Parameter("rel", 1, help="minimum label of a relevant document (trec_eval -l)"),
        Parameter("gain", "linear", ("linear", "exp"),
                  "linear = label; exp = 2^label - 1; or a gain map, written gains={1:3,2:9} (trec_eval's ndcg.1=3,2=9): "
                  "the labels it names get its gains, the others stay linear"),
        Parameter("discount", "log2", ("log2", "jarvelin", "ln", "log"),
                  "1/log2(i+1); Järvelin's 1/log_base(i) from i = base; 1/ln(i+1); 1/log_base(i+1)"),
        Parameter("base", 2, help="log base of the jarvelin and log discounts", minimum_exclusive=1),
        Parameter("ideal", "qrels", ("qrels", "run"), "ideal ranking from all judgments, or from the retrieved list"),
        Parameter("denominator", "R", ("R", "min_R_k", "retrieved"),
                  "AP divides by R, min(R, k) or relevant retrieved"),
        Parameter("relevant_retrieved", 1, help="Utility's weight of each relevant document retrieved"),
        Parameter("nonrelevant_retrieved", -1, help="Utility's weight of each other document retrieved"),
        Parameter("relevant_missed", 0, help="Utility's weight of each relevant document not retrieved"),
        Parameter("recall", None, help="IPrec's recall level, written IPrec@0.1 (trec_eval's iprec_at_recall_0.10)"),
        Parameter("multiple", None, help="RprecMult's multiple of R, written RprecMult@0.2 (trec_eval's Rprec_mult_0.20)"),
        Parameter("p", 0.8, help="RBP's persistence: the chance of reading on from one rank to the next "
                                 "(NERR10's default is 0.9, Compat's 0.95, as in ir_measures)",
                  minimum_exclusive=0),
        Parameter("max_grade", 4, help="ERR's highest label: R = (2^label - 1) / 2^max_grade (gdeval's 4)"),
        Parameter("levels", (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
                  help="AvgIPrec's recall levels, written levels=[0.25,0.5,0.75] (trec_eval's 11pt_avg..25,.5,.75)"),
        Parameter("beta", 1, help="SetF's weight of recall, used as is (trec_eval's set_F.x; the usual F_b has b²)"),
        Parameter("interpolation", "trec_eval10", ("trec_eval10", "trec_eval9"),
                  "IPrec's and AvgIPrec's count of relevant documents for recall · R: trec_eval 10's lround, or "
                  "trec_eval 9's (long)(recall · R + 0.9), which pytrec_eval, ir_measures, ranx and PyTerrier print"),
        # the C/W/L user models (ir_measures' cwl_eval provider) and Compat
        Parameter("T", 1, help="C/W/L's total gain the user wants (INST, INSQ, BPM, NERR11), in scaled gains",
                  minimum_exclusive=0),
        Parameter("min_rel", 0, help="C/W/L's lowest label: gain = (label - min_rel) / (max_rel - min_rel), clipped "
                                     "into [0, 1]"),
        Parameter("max_rel", 1, help="C/W/L's highest label: labels from it up gain 1 (1: binary gains; ir_measures "
                                     "has no default: give your scale's highest label for graded gains)"),
        Parameter("normalize", "True", ("True", "False"),
                  "Compat: True divides by the ideal ranking's own compatibility (ir_measures' spelling)"),
        # the diversity measures' (ndeval's -alpha and -beta, with its defaults)
        Parameter("alpha", 0.5, help="the diversity measures' redundancy penalty: each document above covering a "
                  "subtopic multiplies that subtopic's gain by 1 - alpha (ndeval -alpha); from 0 (no penalty) to 1 "
                  "(only a subtopic's first document gains)", within=(0, 1)),
        Parameter("patience", 0.5, help="NRBP's chance of reading on from one rank to the next (ndeval -beta, "
                  "ir_measures' beta)", minimum_exclusive=0),
    )
}

# How the `all` row summarises a measure over the evaluated queries.
#   gm: the geometric mean of the values floored at 1e-5 (trec_eval's gm_map, gm_bpref)
#   weighted: the mean weighted by sqlrank.weight_<macro>(ranking, k, <parameters>), defined in the measure's
#             own file (RecBole's GAUC weights each user by their positives); 0 when every weight is 0
AGGREGATES = ("mean", "sum", "gm", "weighted")
# what else an evaluation gives over the queries on request, for every measure (sql/91_spread.sql)
SPREADS = ("std", "stderr", "median", "std_population")

# What a measure needs the one ranking pass to keep beyond the judged documents with a gain:
#   whole_ranking       every retrieved document, whatever the cutoff (no top-k shortcut)
#   judged_nonrelevant  the judgments labelled 0 (judged, not relevant)
#   negative_labels     the judgments with a negative label (in the pool but unjudged: infAP, Judged)
#   subtopics           the subtopic qrels (query_id, subtopic_id, doc_id, relevance): the diversity measures
#   judges              with subtopics: the second key names a judge (trec_eval's qrels_jg), the *_avgjg measures
#   preferences         trec_eval's preferences (query_id, jg, jsg, doc_id, rel_level): the preference measures
NEEDS = ("whole_ranking", "judged_nonrelevant", "negative_labels", "subtopics", "judges", "preferences")

# What a measure is under ties='average', the expectation over the orderings of each tie group
# (docs/tie-policies.md):
#   average  sqlrank.average_<macro>, in the measure's own file, computes the expectation in closed form
#            (the pieces it shares with the others: sql/30_tie_average.sql)
#   same     the measure does not read the order (counts of the whole list, num_ret), so its own macro
#            gives the expectation from the tie groups' struct too
#   None     not defined yet: evaluating it with ties='average' is a MeasureError naming it
TIES_AVERAGE = ("average", "same")


@dataclass(frozen=True)
class MeasureDef:
    name: str  # canonical, as ir_measures spells it
    macro: str  # sql/measures/<macro>.sql defines sqlrank.measure_<macro>; the shell's table macro is sqlrank.<macro>
    definition: str  # one line, for `sqlrank measures` and the README
    params: tuple[str, ...] = ()  # keys of PARAMETERS, in the scalar macro's argument order
    cutoff: bool = True  # takes @k
    aggregate: str = "mean"
    better: str = "higher"  # or "lower" (Unjudged): which values the paper table marks as the best
    reads_ranking: bool = True  # False: the judgments alone decide it (NumRel), so it sets no ranking depth
    needs: tuple[str, ...] = ()
    # extra needs under one parameter value: {("ideal", "run"): ("whole_ranking",)}
    needs_when: dict = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    # trec_eval's names: the whole-list measure, and the family whose cutoffs it writes `family_k`
    trec_name: str | None = None
    trec_family: str | None = None
    # what `-m family` alone means, as trec_eval's own default cutoffs for that family
    trec_default_cutoffs: tuple[float, ...] = ()
    # the parameter that `@x` and trec_eval's `family_x` set when x is a real number, not a cutoff
    # (IPrec@0.1 is IPrec(recall=0.1), trec_eval's iprec_at_recall_0.10); such a measure has no @k
    at: str | None = None
    # the parameters trec_eval's `name.v1,v2,...` sets, in order (`utility.2,-1,0,0`, `set_F.0.5`); a list
    # parameter (levels) takes all the values (`11pt_avg..25,.5`); None: a value sqlrank cannot use, which must be 0
    trec_values: tuple[str | None, ...] = ()
    # trec_eval prints it in the `all` row only (num_q, gm_map, gm_bpref): so does the trec layout
    trec_all_only: bool = False
    ties_average: str | None = None  # one of TIES_AVERAGE, or None
    # parameter values under which the average is not defined even so: (("denominator", "retrieved"),)
    ties_average_unless: tuple[tuple[str, object], ...] = ()
    # with a depth too (a tie group across the depth is kept in part): False where the expectation is not
    # defined yet, a document's term reading which of its group's others the depth kept; the parameter
    # values under which it is not (ideal=run: the ideal of a random part of the group)
    ties_average_depth: bool = True
    ties_average_depth_unless: tuple[tuple[str, object], ...] = ()
    # a parameter's default for this measure where it is not PARAMETERS' own, as ir_measures gives it
    # (NERR10's p is 0.9, Compat's 0.95, RBP's 0.8)
    defaults: dict = field(default_factory=dict)

    def default(self, parameter: str) -> object:
        """This measure's default value of one of its parameters."""
        return self.defaults.get(parameter, PARAMETERS[parameter].default)

    def needs_for(self, params: dict) -> set[str]:
        """What this measure, with these parameter values, needs from the ranking pass."""
        extra = {need for (name, value), needs in self.needs_when.items() if params.get(name) == value
                 for need in needs}
        return set(self.needs) | extra


# what an evaluation computes when no measure is named: the measures most papers report
DEFAULT_MEASURES = ("nDCG@10", "AP", "RR", "P@10", "R@100")
# the measure MAPFuse weighs each run by (sqlrank/fusion.py), as ranx trains it
MAPFUSE_MEASURE = "AP"

_TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)  # trec_eval's ndcg_cut and map_cut defaults

REGISTRY: dict[str, MeasureDef] = {
    m.name: m
    for m in (
        MeasureDef("nDCG", "ndcg", "DCG@k / IDCG@k; 0 when IDCG@k = 0", ("gain", "discount", "base", "ideal"),
                   needs_when={("ideal", "run"): ("whole_ranking",)}, aliases=("ndcg",),
                   trec_name="ndcg", trec_family="ndcg_cut", trec_default_cutoffs=_TREC_CUTOFFS,
                   ties_average="average",
                   ties_average_depth_unless=(("ideal", "run"),)),
        MeasureDef("DCG", "dcg", "Σ_{i<=k} gain(label_i) · discount(i)", ("gain", "discount", "base"),
                   aliases=("dcg",), trec_name="dcg", ties_average="average"),
        MeasureDef("IDCG", "idcg", "DCG@k of the ideal ordering", ("gain", "discount", "base", "ideal"),
                   needs_when={("ideal", "run"): ("whole_ranking",)}, aliases=("ideal_dcg",), trec_name="ideal_dcg",
                   ties_average="same",
                   ties_average_depth_unless=(("ideal", "run"),)),
        MeasureDef("CG", "cg", "Σ_{i<=k} gain(label_i)", ("gain",), ties_average="average"),
        MeasureDef("AP", "ap", "Σ_{relevant i<=k} P@i / denominator (R by default)", ("rel", "denominator"),
                   aliases=("map",), trec_name="map", trec_family="map_cut", trec_default_cutoffs=_TREC_CUTOFFS,
                   ties_average="average",
                   ties_average_unless=(("denominator", "retrieved"),)),
        MeasureDef("RR", "rr", "1 / rank of the first relevant document within k, else 0", ("rel",),
                   aliases=("recip_rank", "mrr"), trec_name="recip_rank", ties_average="average"),
        MeasureDef("P", "p", "relevant in top k / k (always k); without @k: relevant retrieved / retrieved", ("rel",),
                   aliases=("precision", "SetP", "set_P"), trec_name="set_P", trec_family="P",
                   ties_average="average"),
        MeasureDef("R", "recall", "relevant in top k / R; 0 when R = 0", ("rel",), aliases=("recall", "SetR", "set_recall"),
                   trec_name="set_recall", trec_family="recall", ties_average="average"),
        MeasureDef("Rprec", "rprec", "relevant in top R / R; 0 when R = 0", ("rel",), cutoff=False,
                   needs=("whole_ranking",), trec_name="Rprec", ties_average="average"),
        MeasureDef("Success", "success", "1 if a relevant document is in the top k, else 0", ("rel",),
                   aliases=("hit", "hit_rate", "HitRate"), trec_family="success", ties_average="average"),
        MeasureDef("bpref", "bpref", "trec_eval's bpref (judged non-relevant documents ranked above relevant ones)",
                   ("rel",), cutoff=False, needs=("judged_nonrelevant",), trec_name="bpref", ties_average="average",
                   ties_average_depth=False),
        MeasureDef("NumRet", "num_ret", "documents retrieved (within k)", (), aggregate="sum", aliases=("num_ret",),
                   trec_name="num_ret", ties_average="same"),
        MeasureDef("NumRel", "num_rel", "relevant judgments of the query (R)", ("rel",), cutoff=False,
                   aggregate="sum", reads_ranking=False, aliases=("num_rel",), trec_name="num_rel",
                   ties_average="same"),
        MeasureDef("NumRelRet", "num_rel_ret", "relevant documents retrieved (within k)", ("rel",), aggregate="sum",
                   aliases=("num_rel_ret",), trec_name="num_rel_ret", ties_average="average"),
        MeasureDef("Hits", "hits", "relevant documents within k, averaged over queries (ranx's hits; NumRelRet sums)",
                   ("rel",), aliases=("hits",), ties_average="average"),
        MeasureDef("NumNonRelJudgedRet", "num_nonrel_judged_ret", "judged non-relevant documents retrieved (within k)",
                   ("rel",), aggregate="sum", needs=("judged_nonrelevant",), aliases=("num_nonrel_judged_ret",),
                   trec_name="num_nonrel_judged_ret", ties_average="average"),
        MeasureDef("FallOut", "fall_out", "judged non-relevant in top k / N (all judged non-relevant); 0 when N = 0",
                   ("rel",), needs=("judged_nonrelevant",), aliases=("fallout", "fall_out"), ties_average="average"),
        MeasureDef("AUROC", "auroc", "(relevant, non-relevant) pairs of judged documents within k ranked in order / "
                   "all such pairs; 0 without both", ("rel",), needs=("judged_nonrelevant",),
                   aliases=("auc", "RetrievalAUROC")),
        MeasureDef("NumQ", "num_q", "1 per evaluated query: the `all` row counts the queries", (), cutoff=False,
                   aggregate="sum", reads_ranking=False, aliases=("num_q",), trec_name="num_q", trec_all_only=True,
                   ties_average="same"),
        MeasureDef("RelP", "rel_p", "relevant in top k / min(k, R); without @k: relevant retrieved / min(retrieved, R)",
                   ("rel",), aliases=("SetRelP", "set_relative_P"), trec_name="set_relative_P", trec_family="relative_P",
                   trec_default_cutoffs=_TREC_CUTOFFS, ties_average="average"),
        MeasureDef("Unjudged", "unjudged", "documents within k without a judgment (or a negative label) / k",
                   (), needs=("judged_nonrelevant",), trec_family="unj", trec_default_cutoffs=(5, 10, 20),
                   ties_average="average", better="lower"),
        MeasureDef("Utility", "utility", "weighted count of relevant retrieved, other retrieved, relevant missed",
                   ("rel", "relevant_retrieved", "nonrelevant_retrieved", "relevant_missed"), cutoff=False,
                   aliases=("utility",), trec_name="utility", ties_average="average",
                   # trec_eval's fourth weight counts the collection's non-relevant documents not retrieved
                   trec_values=("relevant_retrieved", "nonrelevant_retrieved", "relevant_missed", None)),
        MeasureDef("GMAP", "gm_map", "AP per query; the `all` row is the geometric mean, AP floored at 1e-5",
                   ("rel",), aggregate="gm", aliases=("gm_map",), trec_name="gm_map", trec_all_only=True,
                   ties_average="average"),
        MeasureDef("GMbpref", "gm_bpref", "bpref per query; the `all` row is the geometric mean, floored at 1e-5",
                   ("rel",), cutoff=False, aggregate="gm", needs=("judged_nonrelevant",), aliases=("gm_bpref",),
                   trec_name="gm_bpref", trec_all_only=True, ties_average="average",
                   ties_average_depth=False),
        MeasureDef("binG", "bin_g", "(1/R) Σ over relevant retrieved of 1 / log2(2 + non-relevant documents above)",
                   ("rel",), cutoff=False, trec_name="binG", ties_average="average",
                   ties_average_depth=False),
        MeasureDef("IPrec", "iprec", "highest precision once lround(recall · R) relevant documents are retrieved",
                   ("rel", "recall", "interpolation"), cutoff=False, at="recall", trec_family="iprec_at_recall",
                   trec_default_cutoffs=(0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)),
        MeasureDef("AvgIPrec", "avg_iprec", "mean of IPrec at the recall levels 0.0, 0.1, ..., 1.0 (11-point average)",
                   ("rel", "levels", "interpolation"), cutoff=False, aliases=("11pt_avg",), trec_name="11pt_avg", trec_values=("levels",)),
        MeasureDef("RprecMult", "rprec_mult", "P@c with c = (long)(multiple · R + 0.9)", ("rel", "multiple"),
                   cutoff=False, at="multiple", trec_family="Rprec_mult",
                   trec_default_cutoffs=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0), ties_average="average"),
        MeasureDef("G", "g", "Σ gain / log2(2 + ideal cost - gain so far), over the ideal total gain", ("gain",),
                   cutoff=False, trec_name="G"),
        MeasureDef("nDCGrel", "ndcg_rel", "nDCG averaged over the positive-gain judgments", ("gain",), cutoff=False,
                   aliases=("ndcg_rel",), trec_name="ndcg_rel", ties_average="average",
                   ties_average_depth=False),
        MeasureDef("RnDCG", "rndcg", "nDCG averaged at the ranks where the ideal gain changes", ("rel", "gain"),
                   cutoff=False, aliases=("Rndcg",), trec_name="Rndcg", ties_average="average"),
        MeasureDef("RBP", "rbp", "(1 - p) Σ_{relevant i<=k} p^(i-1), rank-biased precision", ("rel", "p"),
                   ties_average="average"),
        # judged_nonrelevant: a gain map with a negative gain rescales label 0's gain above 0, as trec_eval does
        MeasureDef("GradedRBP", "graded_rbp", "trec_eval's rbp: (1 - 0.9) Σ gain_i 0.9^(i-1), gains scaled into [0, 1]",
                   ("gain",), cutoff=False, needs=("judged_nonrelevant",), aliases=("rbp",), trec_name="rbp",
                   ties_average="average"),
        MeasureDef("RBPResidual", "rbp_residual", "RBP's unjudged and unseen weight: 1 - (1 - 0.9) Σ_{judged i} 0.9^(i-1)",
                   (), cutoff=False, needs=("judged_nonrelevant",), aliases=("rbp_resid",), trec_name="rbp_resid",
                   ties_average="average",
                   ties_average_depth=False),
        MeasureDef("ERR", "err", "Σ_{i<=k} R_i / i · Π_{j<i} (1 - R_j), R = (2^grade - 1) / 2^max_grade, grade = gain",
                   ("max_grade", "gain"), ties_average="average"),
        MeasureDef("infAP", "inf_ap", "inferred AP: expected precision at relevant documents from a sampled pool, over R",
                   ("rel",), needs=("judged_nonrelevant", "negative_labels"), trec_name="infAP",
                   ties_average="average"),
        MeasureDef("Judged", "judged", "documents within k that have a judgment / min(k, retrieved)", (),
                   needs=("judged_nonrelevant", "negative_labels"), ties_average="average"),
        MeasureDef("SetAP", "set_ap", "relevant retrieved² / (retrieved · R): set precision × set recall", ("rel",),
                   cutoff=False, aliases=("set_map",), trec_name="set_map", ties_average="same",
                   ties_average_depth=False),
        MeasureDef("SetF", "set_f", "(beta + 1) · P · R / (beta · P + R) of the retrieved set, or of P@k and R@k",
                   ("rel", "beta"), aliases=("set_F",), trec_name="set_F", trec_values=("beta",),
                   ties_average="average"),
        # ---- the C/W/L user models as ir_measures' cwl_eval provider computes them (sql/23_cwl.sql), ranx's rbp.p
        MeasureDef("INST", "inst", "C/W/L: reads on with ((i + T + T_i - 1) / (i + T + T_i))², T_i = T - gain so far",
                   ("T", "min_rel", "max_rel"), cutoff=False),
        MeasureDef("INSQ", "insq", "C/W/L: reads on with ((i + 2T - 1) / (i + 2T))²", ("T", "min_rel", "max_rel"),
                   cutoff=False),
        MeasureDef("BPM", "bpm", "C/W/L: gain of the first s documents / s, s where the gain reaches T or k",
                   ("T", "min_rel", "max_rel")),
        MeasureDef("SDCG", "sdcg", "DCG@k / the DCG@k of k top-label documents, gains scaled into [0, 1]",
                   ("min_rel", "max_rel")),
        MeasureDef("NERR8", "nerr8", "C/W/L: reads on with 1 - gain_i up to k (ERR's stops without its 1/i)",
                   ("min_rel", "max_rel")),
        MeasureDef("NERR9", "nerr9", "C/W/L: reads on with i / (i + 1) · (1 - gain_i) up to k", ("min_rel", "max_rel")),
        MeasureDef("NERR10", "nerr10", "C/W/L: reads on with p · (1 - gain_i)", ("p", "min_rel", "max_rel"),
                   cutoff=False, defaults={"p": 0.9}),
        MeasureDef("NERR11", "nerr11", "C/W/L: reads on with ((i + 2T - 1) / (i + 2T))² · (1 - gain_i)",
                   ("T", "min_rel", "max_rel"), cutoff=False),
        MeasureDef("LabelRBP", "label_rbp", "(1 - p) Σ_{relevant i<=k} label_i · p^(i-1): ranx's rbp.p",
                   ("rel", "p"), ties_average="average"),
        # ---- ir_measures' Compat and Accuracy
        MeasureDef("Compat", "compat", "rank-biased overlap (p) with the ideal ranking, over the ideal's own",
                   ("p", "normalize"), cutoff=False, defaults={"p": 0.95}),
        MeasureDef("Accuracy", "accuracy", "(relevant, other) pairs within k ranked relevant first / all such pairs",
                   ("rel",)),
        # the diversity measures (ndeval's, docs/measures.md#diversity-measures): they read subtopic qrels
        MeasureDef("alpha_nDCG", "alpha_ndcg", "alpha-DCG@k over that of ndeval's greedy ideal ranking",
                   ("rel", "alpha"), needs=("subtopics",), aliases=("alpha-nDCG",)),
        MeasureDef("alpha_DCG", "alpha_dcg", "Σ novelty gain / log2(i+1) over the same with every subtopic at every rank",
                   ("rel", "alpha"), needs=("subtopics",), aliases=("alpha-DCG",)),
        MeasureDef("ERR_IA", "err_ia", "Σ novelty gain / i over the same with every subtopic at every rank (intent-aware ERR)",
                   ("rel", "alpha"), needs=("subtopics",), aliases=("ERR-IA",)),
        MeasureDef("nERR_IA", "nerr_ia", "ERR-IA@k over that of ndeval's greedy ideal ranking",
                   ("rel", "alpha"), needs=("subtopics",), aliases=("nERR-IA",)),
        MeasureDef("NRBP", "nrbp", "(1 - (1 - alpha) patience) / subtopics · Σ novelty gain · patience^(i-1)",
                   ("rel", "alpha", "patience"), cutoff=False, needs=("subtopics", "whole_ranking")),
        MeasureDef("nNRBP", "nnrbp", "NRBP over that of ndeval's greedy ideal ranking",
                   ("rel", "alpha", "patience"), cutoff=False, needs=("subtopics", "whole_ranking")),
        MeasureDef("P_IA", "p_ia", "subtopics covered by each of the top k, summed, / (k · subtopics): intent-aware P@k",
                   ("rel",), needs=("subtopics",), aliases=("P-IA",)),
        MeasureDef("AP_IA", "ap_ia", "each subtopic's AP, averaged over the subtopics (ndeval's MAP-IA)", ("rel",),
                   cutoff=False, needs=("subtopics", "whole_ranking"), aliases=("MAP-IA", "MAP_IA")),
        MeasureDef("StRecall", "st_recall", "subtopics covered within k / subtopics", ("rel",), needs=("subtopics",),
                   aliases=("strec", "subtopic_recall")),
        # trec_eval's multi-judge measures (-R qrels_jg): a measure against each judge's qrels, averaged over the
        # judges; they read multi-judge qrels as the diversity measures read subtopic qrels (sql/24_judges.sql)
        MeasureDef("AP_avgjg", "ap_avgjg", "AP against each judge's qrels, averaged over the query's judges", ("rel",),
                   cutoff=False, needs=("subtopics", "judges"), aliases=("map_avgjg",),
                   trec_name="map_avgjg"),
        MeasureDef("P_avgjg", "p_avgjg", "P@k against each judge's qrels, averaged over the query's judges", ("rel",),
                   needs=("subtopics", "judges"), trec_family="P_avgjg", trec_default_cutoffs=_TREC_CUTOFFS),
        MeasureDef("RprecMult_avgjg", "rprec_mult_avgjg", "RprecMult against each judge's qrels (c_j from R_j), "
                   "averaged over the query's judges", ("rel", "multiple"), cutoff=False, at="multiple",
                   needs=("subtopics", "judges"), trec_family="Rprec_mult_avgjg",
                   trec_default_cutoffs=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
        # trec_eval's yaap (m_yaap.c): AP's numerator smoothed against R, averageable over queries
        MeasureDef("yaap", "yaap", "ln((1 + S) / (1 + R - S)), S = Σ P@i over the relevant retrieved (AP's numerator)",
                   ("rel",), cutoff=False, trec_name="yaap"),
        # ---- trec_eval's preference measures (-R prefs / qrels_prefs, docs/measures.md#preference-measures):
        # they read preferences, each named as trec_eval prints it; the counts are summed in the `all` row
        *(MeasureDef(name, name.lower(), definition, cutoff=False, aggregate=aggregate, trec_name=name,
                     needs=("preferences", "judged_nonrelevant", "whole_ranking"))
          for name, aggregate, definition in (
              ("prefs_num_prefs_poss", "sum", "the preferences of every judgment group, retrieved or not"),
              ("prefs_num_prefs_ful", "sum", "the preferences fulfilled (A above B, or A retrieved and B not)"),
              ("prefs_num_prefs_ful_ret", "sum", "the preferences fulfilled with both documents retrieved"),
              ("prefs_simp", "mean", "preferences fulfilled / preferences possible"),
              ("prefs_pair", "mean", "over the document pairs some group orders, the share fulfilled, averaged"),
              ("prefs_avgjg", "mean", "each judgment group's fulfilled / possible, averaged over the groups"),
              ("prefs_avgjg_Rnonrel", "mean", "prefs_avgjg with each group's non-relevant documents counted as R"),
              ("prefs_simp_ret", "mean", "prefs_simp over the pairs with both documents retrieved"),
              ("prefs_pair_ret", "mean", "prefs_pair over the pairs with both documents retrieved"),
              ("prefs_avgjg_ret", "mean", "prefs_avgjg over the pairs with both documents retrieved"),
              ("prefs_avgjg_Rnonrel_ret", "mean", "prefs_avgjg_Rnonrel over the retrieved documents"),
              ("prefs_simp_imp", "mean", "prefs_simp over the pairs with at least one document retrieved"),
              ("prefs_pair_imp", "mean", "prefs_pair over the pairs with at least one document retrieved"),
              ("prefs_avgjg_imp", "mean", "prefs_avgjg over the pairs with at least one document retrieved"))),
        # the recommender measures beyond accuracy (docs/recommenders.md)
        MeasureDef("GAUC", "gauc", "per user, the AUC of relevant against every other ranked item; the `all` row "
                   "weights each user by their relevant items (RecBole's GAUC)", ("rel",), cutoff=False,
                   aggregate="weighted", needs=("whole_ranking",), ties_average="average", ties_average_depth=False),
    )
}

# ranx's spellings that are another measure with parameters (no alias can say that); hits, HitRate,
# recall, precision, map, mrr and ndcg are aliases of their own measures. rbp.95 is not here: trec_eval
# reads `rbp.x` as its own rbp's value list.
RANX_SPELLINGS: dict[str, str] = {
    "f1": "SetF",  # 2 P R / (P + R): SetF with beta 1, at @k of P@k and R@k
    "r-precision": "Rprec",
    "ndcg_burges": "nDCG(gain=exp)",
    "dcg_burges": "DCG(gain=exp)",
}

_LONG = "5,10,15,20,30,100,200,500,1000"  # trec_eval's cutoffs of P, recall, ndcg_cut, map_cut, relative_P
# trec_eval's named sets (`-m official`, its default without -m; `-m all_trec`), spelled as trec_eval's
# -m takes them and in the order it prints them. `runid` and `relstring` are the trec layout's two
# text lines (the run's tag; the labels of the first ten documents), not numbers.
NAMED_SETS: dict[str, tuple[str, ...]] = {
    "official": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                 "recip_rank", "iprec_at_recall", f"P.{_LONG}"),
    "all_trec": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                 "recip_rank", "iprec_at_recall", f"P.{_LONG}", "relstring", f"recall.{_LONG}", "infAP",
                 "gm_bpref", "Rprec_mult", "utility", "11pt_avg", "binG", "G", "ndcg", "ndcg_rel", "Rndcg",
                 "ndcg_cut", "map_cut", "relative_P", "success.1,5,10", "set_P", "set_relative_P", "set_recall",
                 "set_map", "set_F", "num_nonrel_judged_ret", "rbp", "rbp_resid", "unj"),
    "qrels_jg": ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"),
    # trec_eval's -m all_prefs: the preference measures (they read -R prefs or qrels_prefs), in its order
    "all_prefs": ("runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
                  "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
                  "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp"),
}


# ---------------------------------------------------------------- the list measures (beyond accuracy, docs/recommenders.md)
# Measures of the recommended lists themselves, not of their relevance: each is read from every evaluated user's
# top k items and an input beside the truth and the run (LIST_INPUTS), by one table macro,
# sql/lists/<macro>.sql's sqlrank.list_<macro>(users, lists, train, catalogue, k, tail), a measure of item
# similarities with three more, (..., features, relevant, similarity) (docs/recommenders.md).
# A whole-run measure (coverage, Gini, personalization) has its `all` row alone.

LIST_INPUTS = {
    "train": "the training interactions (user, item), one row each: item popularity, and the catalogue without items",
    "items": "the catalogue, one item per row (an item_id or doc_id column); without it, the training items",
    # the item similarities of Diversity, IntraListSimilarity and Serendipity (sqlrank/item_features.py)
    "features": "the items' features: a vector per item (a list column, or one number column per component) or "
                "categories (a text column, one row per category, or a list of them), for similarity=features",
}


@dataclass(frozen=True)
class ListMeasureDef:
    name: str
    macro: str  # sql/lists/<macro>.sql defines sqlrank.list_<macro>
    definition: str  # one line, for `sqlrank measures`
    inputs: tuple[str, ...]  # keys of LIST_INPUTS it reads; ("train", "items"): either one (the catalogue)
    whole_run: bool = False  # only an `all` row
    aliases: tuple[str, ...] = ()
    better: str = "higher"
    params: tuple[str, ...] = ()  # keys of LIST_PARAMETERS
    similarities: bool = False  # reads item similarities: its macro also takes features, relevant, similarity
    # how its `all` row weighs each user, for an engine that makes it from the per-user values (Spark): None,
    # each user 1; else a column of sqlrank.list_weights (sql/45_lists.sql): items, pair or history
    all_weight: str | None = None
    # what the rest of sqlrank reads of a measure (result layouts, plots): a list measure has a cutoff and a mean
    cutoff: bool = True
    aggregate: str = "mean"
    trec_name: None = None
    trec_family: None = None
    at: None = None


LIST_PARAMETERS: dict[str, Parameter] = {
    "tail": Parameter("tail", 0.1, help="APLT's long tail: below 1 the share of the training items with the fewest "
                                        "interactions (at least one item), from 1 on the most interactions a tail "
                                        "item has (RecBole's tail_ratio)", minimum_exclusive=0),
    # recommenders' item_sim_measure: item_cooccurrence_count (its default) or item_feature_vector
    "similarity": Parameter("similarity", "cooccurrence", ("cooccurrence", "features"),
                            help="the items' cosine similarity: of their columns of the training interactions "
                                 "(co-occurrence) or of their features vectors (the features input)"),
}

LIST_MEASURES: dict[str, ListMeasureDef] = {
    m.name: m
    for m in (
        ListMeasureDef("Novelty", "novelty", "mean -log2(item's share of the training interactions) of the top k; "
                       "the `all` row over every recommendation (recommenders)", ("train",), aliases=("novelty",),
                       all_weight="items"),
        ListMeasureDef("ARP", "arp", "mean training interactions of the top k items (RecBole's AveragePopularity)",
                       ("train",), aliases=("AveragePopularity",), better="lower"),
        ListMeasureDef("APLT", "aplt", "share of the top k in the long tail of the training items (RecBole's "
                       "TailPercentage)", ("train",), aliases=("TailPercentage",), params=("tail",)),
        ListMeasureDef("CatalogCoverage", "catalog_coverage", "distinct items in the top k lists / "
                       "catalogue items", ("train", "items"), whole_run=True,
                       aliases=("catalog_coverage", "ItemCoverage")),
        ListMeasureDef("DistributionalCoverage", "distributional_coverage", "Shannon entropy (bits) of "
                       "the items' share of the top k recommendations", (), whole_run=True,
                       aliases=("distributional_coverage",)),
        ListMeasureDef("Gini", "gini", "Gini index of how often each catalogue item is in the top k "
                       "(RecBole's GiniIndex)", ("train", "items"), whole_run=True, aliases=("GiniIndex",),
                       better="lower"),
        ListMeasureDef("Personalization", "personalization", "1 - mean cosine similarity of two users' "
                       "top k lists", (), whole_run=True, aliases=("personalization",)),
        # the measures of item similarity (recommenders' python_evaluation): the similarity parameter says
        # whether they read the training interactions or the features (ListMeasure.inputs)
        ListMeasureDef("Diversity", "diversity", "1 - mean cosine similarity of the pairs of items in the top k "
                       "(recommenders' diversity)", (), aliases=("diversity", "ILD"), params=("similarity",),
                       similarities=True, all_weight="pair"),
        ListMeasureDef("IntraListSimilarity", "intra_list_similarity", "mean cosine similarity of the pairs of "
                       "items in the top k (ILS)", (), aliases=("ILS", "intra_list_similarity"), better="lower",
                       params=("similarity",), similarities=True, all_weight="pair"),
        ListMeasureDef("Serendipity", "serendipity", "mean over the top k of (1 - mean similarity to the user's "
                       "training items) if relevant, else 0 (recommenders' serendipity)", ("train",),
                       aliases=("serendipity",), params=("similarity",), similarities=True,
                       all_weight="history"),
    )
}
