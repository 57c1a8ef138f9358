-- sqlrank.cg(qrels_table, run_table, k := NULL, gain := 'linear', depth := NULL, missing := 'zero', score_precision := 'double')
--   -> ([run_id,] query_id, value)
--
-- CG@k: Σ_{i<=k} gain(label_i); order does not matter.
-- One row per query of the qrels (see sqlrank.measure_table for which queries
-- and for every parameter); `SELECT avg(value)` over it is the mean that
-- trec_eval prints as `all`. k := NULL means the whole list.
--
-- Example: seed 002's two lists [0.5, 0.9, 0.3, 0.6, 0.1] and [0.6, 0.5, 0.1, 0.3, 0.9] both have CG = 2.4.
--
--   SELECT * FROM sqlrank.cg('qrels', 'run', k := 10);
CREATE OR REPLACE MACRO sqlrank.cg(qrels_table, run_table, k := NULL, gain := 'linear', depth := NULL, missing := 'zero', score_precision := 'double') AS TABLE
    SELECT COLUMNS('^(run_id|query_id)$'), cg AS value
    FROM sqlrank.run_measures(qrels_table, run_table, cutoffs := [k], gain := gain, depth := depth, missing := missing, score_precision := score_precision);
