-- sqlrank.measure_nerr11(ranking, k, T, min_rel, max_rel) -> DOUBLE
--
-- NERR11, "not (but nearly) ERR" of Azzopardi, Moffat & Mackenzie 2021, their equation 11 (ir_measures'
-- docstring says 12), as ir_measures computes it through cwl_eval (NERR11(T, min_rel, max_rel)): a
-- C/W/L user (sql/23_cwl.sql) with INSQ's patience for T units of gain who also stops at a document
-- with the chance of its gain:
--   C(i) = ((i + 2T - 1) / (i + 2T))² · (1 - gain_i)
-- so the user reaches i with the chance (2T / (i - 1 + 2T))² Π_{j<i} (1 - gain_j), over cwl_eval's 1000
-- positions. Gains are scaled from min_rel..max_rel into [0, 1]. No cutoff. 0 for a query the run
-- missed; min_rel below 0 or not below max_rel is an error (sqlrank.cwl_scale_ok).
--
-- Example: labels by rank 0, 2 with max_rel 2 (gains 0, 1), T = 1: reaches 1, 4/9, then 0:
--   NERR11 = (4/9) / (1 + 4/9) = 4/13 = 0.307692...
CREATE OR REPLACE MACRO sqlrank.measure_nerr11(ranking, k, T, min_rel, max_rel) AS
    CASE WHEN sqlrank.cwl_scale_ok(min_rel, max_rel, 'NERR11') THEN
        list_transform([sqlrank.cwl_gains(ranking, min_rel, max_rel, sqlrank.cwl_positions())], lambda gains:
            sqlrank.cwl_expected_gain(gains, list_transform(gains, lambda gain_here, at_rank:
                pow((at_rank + 2 * T - 1) / NULLIF(at_rank + 2 * T, 0), 2) * (1 - gain_here))))[1]
    END;
