-- sqlrank.measure_nrbp(ranking, k, rel, alpha, patience) -> DOUBLE
--
-- NRBP, novelty- and rank-biased precision (Clarke et al., ICTIR 2009), as ndeval computes it:
-- the novelty gains weighted as RBP weighs ranks, patience^(i-1) (ndeval's -beta), normalised
-- collection-independently:
--   NRBP = (1 - (1 - alpha) · patience) / m · Σ_i g_i · patience^(i-1)
-- over the whole ranking (no @k, as in ndeval). g as in alpha_dcg.sql; 0 when m = 0, and for a
-- query the run missed.
--
-- Example: alpha 0.5, patience 0.5, a {1, 2}, b {2}, c {3}; ranking a, c, x, b (gains 2, 1, -, 0.5):
--   NRBP = (1 - 0.25) / 3 · (2 + 1 · 0.5 + 0.5 · 0.125) = 0.25 · 2.5625 = 0.640625
CREATE OR REPLACE MACRO sqlrank.measure_nrbp(ranking, k, rel, alpha, patience) AS
    coalesce((1 - (1 - alpha) * patience) / NULLIF(sqlrank.intent_count(ranking, rel), 0)
             * list_sum(list_transform(sqlrank.novelty_gains(ranking, NULL, rel, alpha),
                                       lambda hit: hit.gain * pow(patience, hit.rank - 1))), 0);
