-- sqlrank.measure_inst(ranking, k, T, min_rel, max_rel) -> DOUBLE
--
-- INST (Moffat, Bailey, Scholer & Thomas 2015) as ir_measures computes it through cwl_eval
-- (INST(T, min_rel, max_rel)): a C/W/L user (sql/23_cwl.sql) who wants T units of gain and reads on
-- from position i with the chance
--   C(i) = ((i + T + T_i - 1) / (i + T + T_i))²,  T_i = T - (the gain of positions 1..i)
-- so the more gain still missing, the longer the user reads on. INST = Σ_i W(i) · gain_i over
-- cwl_eval's 1000 positions, gains scaled from min_rel..max_rel into [0, 1]. No cutoff. 0 for a query the
-- run missed; min_rel below 0 or not below max_rel is an error (sqlrank.cwl_scale_ok).
--
-- Example: labels by rank 1, 0 with max_rel 1 (gains 1, 0, then 998 zeros), T = 1: T_i = 0 from
-- position 1 on, so C(i) = (i / (i + 1))² and the user reaches position i with the chance 1 / i²:
--   INST = 1 / Σ_{i=1}^{1000} 1 / i² = 1 / 1.64393456668156 = 0.608296717...
CREATE OR REPLACE MACRO sqlrank.measure_inst(ranking, k, T, min_rel, max_rel) AS
    CASE WHEN sqlrank.cwl_scale_ok(min_rel, max_rel, 'INST') THEN
        list_transform([sqlrank.cwl_gains(ranking, min_rel, max_rel, sqlrank.cwl_positions())], lambda gains:
            sqlrank.cwl_expected_gain(gains, list_transform(sqlrank.running_sum(gains), lambda total, at_rank:
                pow((at_rank + 2 * T - total - 1) / NULLIF(at_rank + 2 * T - total, 0), 2))))[1]
    END;
