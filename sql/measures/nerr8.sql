-- sqlrank.measure_nerr8(ranking, k, min_rel, max_rel) -> DOUBLE
--
-- NERR8@k, "not (but nearly) ERR" of Azzopardi, Moffat & Mackenzie 2021, their equation 8, as
-- ir_measures computes it through cwl_eval (NERR8(min_rel, max_rel)@k): a C/W/L user (sql/23_cwl.sql)
-- stops at a document with the chance of its gain, and at k,
--   C(i) = 1 - gain_i for i < k
-- so the user reaches i <= k with the chance Π_{j<i} (1 - gain_j), and
--   NERR8@k = Σ_{i<=k} gain_i Π_{j<i} (1 - gain_j)  /  Σ_{i<=k} Π_{j<i} (1 - gain_j)
-- ERR's numerator without its 1/i, over the expected number of documents read. Gains are scaled from
-- min_rel..max_rel into [0, 1]; k is at most cwl_eval's 1000 positions, and without @k is 1000. 0 for a
-- query the run missed; min_rel below 0 or not below max_rel is an error (sqlrank.cwl_scale_ok).
--
-- Example: labels by rank 0, 1, 2 with max_rel 2 (gains 0, 0.5, 1): reaches 1, 1, 0.5:
--   NERR8@3 = (1 · 0.5 + 0.5 · 1) / (1 + 1 + 0.5) = 0.4;  NERR8@2 = 0.5 / 2 = 0.25
CREATE OR REPLACE MACRO sqlrank.measure_nerr8(ranking, k, min_rel, max_rel) AS
    CASE WHEN sqlrank.cwl_scale_ok(min_rel, max_rel, 'NERR8') THEN
        list_transform([sqlrank.cwl_gains(ranking, min_rel, max_rel,
                                          least(coalesce(k, sqlrank.cwl_positions()), sqlrank.cwl_positions()))],
                       lambda gains: sqlrank.cwl_expected_gain(gains, list_transform(gains, lambda gain_here:
                           1 - gain_here)))[1]
    END;
