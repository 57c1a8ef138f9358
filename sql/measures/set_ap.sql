-- sqlrank.measure_set_ap(ranking, k, rel) -> DOUBLE
--
-- SetAP, unranked set average precision: set precision times set recall,
--   SetAP = relevant retrieved² / (retrieved · R)
-- over the whole list (after depth); the order of the documents plays no
-- part. 0 when nothing was retrieved or R = 0. trec_eval's set_map
-- (m_set_map.c, once "exact_unranked_avg_prec"); ir_measures' SetAP.
--
-- Example: 4 retrieved, 2 of them relevant, R = 5:
--   SetAP = 2² / (4 · 5) = 0.2  (= 2/4 · 2/5)
CREATE OR REPLACE MACRO sqlrank.measure_set_ap(ranking, k, rel) AS
    coalesce(
        CAST(len(sqlrank.relevant_ranks(ranking, NULL, rel)) AS DOUBLE) * len(sqlrank.relevant_ranks(ranking, NULL, rel))
        / NULLIF(CAST(ranking.num_ret AS DOUBLE) * sqlrank.num_relevant(ranking, rel), 0),
        0);
