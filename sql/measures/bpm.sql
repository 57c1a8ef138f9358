-- sqlrank.measure_bpm(ranking, k, T, min_rel, max_rel) -> DOUBLE
--
-- BPM, the static Bejeweled Player Model (Zhang, Liu, Li, Zhang, Xu & Ma 2017), as ir_measures computes
-- it through cwl_eval (BPM(T, min_rel, max_rel)@k): a C/W/L user (sql/23_cwl.sql) who reads until the
-- gain found reaches T or k documents are read, whichever comes first:
--   C(i) = 1 while the gain of positions 1..i is below T and i < k, else 0
-- so the user reads the first s documents, each with W = 1/s, and BPM@k = (the gain of positions 1..s) / s.
-- Gains are scaled from min_rel..max_rel into [0, 1]; without @k, k is cwl_eval's 1000 positions. 0 for a
-- query the run missed; min_rel below 0 or not below max_rel is an error (sqlrank.cwl_scale_ok).
--
-- Example: labels by rank 0, 1, 2, 2 with max_rel 2 (gains 0, 0.5, 1, 1), T = 1: the gain reaches
-- 1.5 >= T at position 3, so s = 3:  BPM@10 = (0 + 0.5 + 1) / 3 = 0.5;  BPM@2 = 0.5 / 2 = 0.25
CREATE OR REPLACE MACRO sqlrank.measure_bpm(ranking, k, T, min_rel, max_rel) AS
    CASE WHEN sqlrank.cwl_scale_ok(min_rel, max_rel, 'BPM') THEN
        list_transform([sqlrank.cwl_gains(ranking, min_rel, max_rel,
                                          least(coalesce(k, sqlrank.cwl_positions()), sqlrank.cwl_positions()))],
                       lambda gains: sqlrank.cwl_expected_gain(gains, list_transform(sqlrank.running_sum(gains),
                           lambda total: CASE WHEN total < T THEN 1.0 ELSE 0.0 END)))[1]
    END;
