-- sqlrank.measure_insq(ranking, k, T, min_rel, max_rel) -> DOUBLE
--
-- INSQ (Moffat, Scholer & Thomas 2012) as ir_measures computes it through cwl_eval
-- (INSQ(T, min_rel, max_rel)): the C/W/L user (sql/23_cwl.sql) of INST whose chance of reading on
-- does not look at the gain found so far,
--   C(i) = ((i + 2T - 1) / (i + 2T))²
-- so the user reaches position i with the chance (2T / (i - 1 + 2T))². INSQ = Σ_i W(i) · gain_i over
-- cwl_eval's 1000 positions, gains scaled from min_rel..max_rel into [0, 1]. No cutoff. 0 for a query the
-- run missed; min_rel below 0 or not below max_rel is an error (sqlrank.cwl_scale_ok).
--
-- Example: labels by rank 0, 2 with max_rel 2 (gains 0, 1), T = 1: reaches 1, 4/9, 4/16, ..., 4/(i + 1)²,
-- which add up to 4 · Σ_{j=2}^{1001} 1 / j² = 2.57574225873821:
--   INSQ = (4/9) / 2.57574225873821 = 0.172550045...
CREATE OR REPLACE MACRO sqlrank.measure_insq(ranking, k, T, min_rel, max_rel) AS
    CASE WHEN sqlrank.cwl_scale_ok(min_rel, max_rel, 'INSQ') THEN
        list_transform([sqlrank.cwl_gains(ranking, min_rel, max_rel, sqlrank.cwl_positions())], lambda gains:
            sqlrank.cwl_expected_gain(gains, list_transform(gains, lambda gain_here, at_rank:
                pow((at_rank + 2 * T - 1) / NULLIF(at_rank + 2 * T, 0), 2))))[1]
    END;
