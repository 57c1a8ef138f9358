-- sqlrank.dcg(qrels_table, run_table, k := NULL, gain := 'linear', discount := 'log2', base := 2, depth := NULL, missing := 'zero', score_precision := 'double')
--   -> ([run_id,] query_id, value)
--
-- DCG@k: Σ_{i<=k} gain(label_i) · discount(i).
-- One row per query of the qrels (see sqlrank.measure_table for which queries
-- and for every parameter); `SELECT avg(value)` over it is the mean that
-- trec_eval prints as `all`. k := NULL means the whole list.
--
-- Example: labels by rank [2, 3, 0, 1, 2], gain exp: 3 + 7/log2 3 + 0 + 1/log2 5 + 3/log2 6 = 9.007743254777221.
--
--   SELECT * FROM sqlrank.dcg('qrels', 'run', k := 10);
CREATE OR REPLACE MACRO sqlrank.dcg(qrels_table, run_table, k := NULL, gain := 'linear', discount := 'log2', base := 2, depth := NULL, missing := 'zero', score_precision := 'double') AS TABLE
    SELECT COLUMNS('^(run_id|query_id)$'), dcg AS value
    FROM sqlrank.run_measures(qrels_table, run_table, cutoffs := [k], gain := gain, discount := discount, base := base, depth := depth, missing := missing, score_precision := score_precision);
