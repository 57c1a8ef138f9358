-- sqlrank.measure_sdcg(ranking, k, min_rel, max_rel) -> DOUBLE
--
-- SDCG@k, scaled DCG, as ir_measures computes it through cwl_eval (SDCG(min_rel, max_rel)@k, cwl_eval's
-- NDCG-k): DCG@k over the DCG@k of k documents of the top label, as if the judgments held at least k of
-- them; the C/W/L user (sql/23_cwl.sql) reads on from position i < k with the chance
-- log2(i + 1) / log2(i + 2), so reaches i with the chance 1 / log2(i + 1):
--   SDCG@k = Σ_{i<=k} gain_i / log2(i + 1)  /  Σ_{i<=k} 1 / log2(i + 1)
-- Gains are scaled from min_rel..max_rel into [0, 1]; k is at most cwl_eval's 1000 positions, and
-- without @k is 1000. 0 for a query the run missed; min_rel below 0 or not below max_rel is an error
-- (sqlrank.cwl_scale_ok).
--
-- Example: labels by rank 2, 0, 1 with max_rel 2 (gains 1, 0, 0.5):
--   SDCG@3 = (1 + 0.5 / 2) / (1 + 1 / log2(3) + 1 / 2) = 1.25 / 2.13092975357146 = 0.586598407...
CREATE OR REPLACE MACRO sqlrank.measure_sdcg(ranking, k, min_rel, max_rel) AS
    CASE WHEN sqlrank.cwl_scale_ok(min_rel, max_rel, 'SDCG') THEN
        list_transform([sqlrank.cwl_gains(ranking, min_rel, max_rel,
                                          least(coalesce(k, sqlrank.cwl_positions()), sqlrank.cwl_positions()))],
                       lambda gains: sqlrank.cwl_expected_gain(gains, list_transform(gains, lambda gain_here, at_rank:
                           log2(at_rank + 1) / NULLIF(log2(at_rank + 2), 0))))[1]
    END;
