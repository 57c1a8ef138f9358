-- sqlrank.measure_nerr_ia(ranking, k, rel, alpha) -> DOUBLE
--
-- nERR-IA@k: ERR-IA@k normalised by ndeval's ideal ranking (the greedy one of alpha_ndcg.sql):
--   nERR-IA@k = Σ_{i<=k} g_i / i  /  Σ_{i<=k} g*_i / i
-- 0 when the run gains nothing within k, and for a query the run missed. Without @k: the whole ranking.
--
-- Example: alpha 0.5, a {1, 2}, b {2}, c {3}; ranking a, c, x, b; the ideal a, c, b (2, 1, 0.5):
--   nERR-IA@4 = (2 + 1/2 + 0.5/4) / (2 + 1/2 + 0.5/3) = 2.625 / 2.6667 = 0.984375
CREATE OR REPLACE MACRO sqlrank.measure_nerr_ia(ranking, k, rel, alpha) AS
    list_transform([list_sum(list_transform(sqlrank.novelty_gains(ranking, k, rel, alpha), lambda hit: hit.gain / NULLIF(hit.rank, 0)))],
        lambda gained: coalesce(CASE WHEN gained > 0 THEN gained / NULLIF(list_sum(list_transform(
            list_filter(sqlrank.ideal_novelty_gains(ranking, k, rel, alpha), lambda gain, place: sqlrank.within(place, k)),
            lambda gain, place: gain / NULLIF(place, 0))), 0) END, 0))[1];
