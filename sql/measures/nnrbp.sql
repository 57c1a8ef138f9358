-- sqlrank.measure_nnrbp(ranking, k, rel, alpha, patience) -> DOUBLE
--
-- nNRBP: NRBP normalised by ndeval's ideal ranking (the greedy one of alpha_ndcg.sql):
--   nNRBP = Σ_i g_i · patience^(i-1)  /  Σ_i g*_i · patience^(i-1)
-- over the whole ranking. 0 when the run gains nothing, and for a query the run missed (ndeval
-- prints nan, 0 / 0, for a query whose judgments cover no subtopic).
--
-- Example: alpha 0.5, patience 0.5, a {1, 2}, b {2}, c {3}; ranking a, c, x, b; the ideal a, c, b:
--   nNRBP = (2 + 1 · 0.5 + 0.5 · 0.125) / (2 + 1 · 0.5 + 0.5 · 0.25) = 2.5625 / 2.625 = 0.976190
CREATE OR REPLACE MACRO sqlrank.measure_nnrbp(ranking, k, rel, alpha, patience) AS
    list_transform([list_sum(list_transform(sqlrank.novelty_gains(ranking, NULL, rel, alpha),
                                            lambda hit: hit.gain * pow(patience, hit.rank - 1)))],
        lambda gained: coalesce(CASE WHEN gained > 0 THEN gained / NULLIF(list_sum(list_transform(
            sqlrank.ideal_novelty_gains(ranking, NULL, rel, alpha), lambda gain, place: gain * pow(patience, place - 1))), 0)
            END, 0))[1];
