-- sqlrank.measure_nerr9(ranking, k, min_rel, max_rel) -> DOUBLE
--
-- NERR9@k, "not (but nearly) ERR" of Azzopardi, Moffat & Mackenzie 2021, their equation 9, as
-- ir_measures computes it through cwl_eval (NERR9(min_rel, max_rel)@k): the C/W/L user
-- (sql/23_cwl.sql) of NERR8 who also reads on with the chance i / (i + 1), ERR's 1/i:
--   C(i) = (i / (i + 1)) · (1 - gain_i) for i < k
-- so the user reaches i <= k with the chance (1/i) Π_{j<i} (1 - gain_j), and
--   NERR9@k = Σ_{i<=k} (gain_i / i) Π_{j<i} (1 - gain_j)  /  Σ_{i<=k} (1/i) Π_{j<i} (1 - gain_j)
-- Gains are scaled from min_rel..max_rel into [0, 1]; k is at most cwl_eval's 1000 positions, and
-- without @k is 1000. 0 for a query the run missed; min_rel below 0 or not below max_rel is an error
-- (sqlrank.cwl_scale_ok).
--
-- Example: labels by rank 0, 1, 2 with max_rel 2 (gains 0, 0.5, 1): reaches 1, 1/2, 1/3 · 0.5:
--   NERR9@3 = (0.5 / 2 + 1 / 6) / (1 + 1/2 + 1/6) = 0.25
CREATE OR REPLACE MACRO sqlrank.measure_nerr9(ranking, k, min_rel, max_rel) AS
    CASE WHEN sqlrank.cwl_scale_ok(min_rel, max_rel, 'NERR9') THEN
        list_transform([sqlrank.cwl_gains(ranking, min_rel, max_rel,
                                          least(coalesce(k, sqlrank.cwl_positions()), sqlrank.cwl_positions()))],
                       lambda gains: sqlrank.cwl_expected_gain(gains, list_transform(gains, lambda gain_here, at_rank:
                           at_rank / NULLIF(at_rank + 1, 0) * (1 - gain_here))))[1]
    END;
