-- sqlrank.measure_err_ia(ranking, k, rel, alpha) -> DOUBLE
--
-- ERR-IA@k, intent-aware expected reciprocal rank (Chapelle et al., CIKM 2009), as ndeval computes
-- it: each subtopic's ERR with the stop chance alpha of a covering document, summed over the
-- subtopics, which is the novelty gains over their ranks; normalised collection-independently, over
-- the first k ranks each covering all m subtopics:
--   ERR-IA@k = Σ_{i<=k} g_i / i  /  Σ_{i<=k} m (1 - alpha)^(i-1) / i
-- g as in alpha_dcg.sql. 0 when m = 0, and for a query the run missed. Without @k: the run's depth.
-- ndeval leaves @1 unnormalised (ERR-IA@1 = g_1); here @1 is normalised as every other k.
--
-- Example: alpha 0.5, a {1, 2}, b {2}, c {3}; ranking a, c, x, b (gains 2, 1, -, 0.5):
--   ERR-IA@4 = (2 + 1/2 + 0.5/4) / (3 + 1.5/2 + 0.75/3 + 0.375/4) = 2.625 / 4.09375 = 0.641221
CREATE OR REPLACE MACRO sqlrank.measure_err_ia(ranking, k, rel, alpha) AS
    coalesce(list_sum(list_transform(sqlrank.novelty_gains(ranking, k, rel, alpha), lambda hit: hit.gain / NULLIF(hit.rank, 0)))
             / NULLIF(sqlrank.ideal_ideal(ranking, k, rel, alpha, true), 0), 0);
