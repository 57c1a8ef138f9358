-- sqlrank.measure_nerr10(ranking, k, p, min_rel, max_rel) -> DOUBLE
--
-- NERR10, "not (but nearly) ERR" of Azzopardi, Moffat & Mackenzie 2021, their equation 10, as
-- ir_measures computes it through cwl_eval (NERR10(p, min_rel, max_rel), p = 0.9 by default): a C/W/L
-- user (sql/23_cwl.sql) with RBP's persistence p who also stops at a document with the chance of its gain:
--   C(i) = p · (1 - gain_i)
-- so the user reaches i with the chance p^(i-1) Π_{j<i} (1 - gain_j), over cwl_eval's 1000 positions.
-- Gains are scaled from min_rel..max_rel into [0, 1]. No cutoff. 0 for a query the run missed; min_rel
-- below 0 or not below max_rel is an error (sqlrank.cwl_scale_ok).
--
-- Example: labels by rank 2 with max_rel 2 (gain 1): the user stops there, reaches 1, 0, 0, ...:
--   NERR10 = 1 · 1 / 1 = 1.  Labels 0, 2: reaches 1, p, 0, ...:  NERR10 = p / (1 + p) = 0.9 / 1.9 = 0.47368...
CREATE OR REPLACE MACRO sqlrank.measure_nerr10(ranking, k, p, min_rel, max_rel) AS
    CASE WHEN sqlrank.cwl_scale_ok(min_rel, max_rel, 'NERR10') THEN
        list_transform([sqlrank.cwl_gains(ranking, min_rel, max_rel, sqlrank.cwl_positions())], lambda gains:
            sqlrank.cwl_expected_gain(gains, list_transform(gains, lambda gain_here: p * (1 - gain_here))))[1]
    END;
