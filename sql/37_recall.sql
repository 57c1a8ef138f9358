-- sqlrank.recall(qrels_table, run_table, k := NULL, rel := 1, depth := NULL, missing := 'zero', score_precision := 'double')
--   -> ([run_id,] query_id, value)
--
-- R@k: relevant in the top k / R; 0 when R = 0 (trec_eval recall_k).
-- One row per query of the qrels (see sqlrank.measure_table for which queries
-- and for every parameter); `SELECT avg(value)` over it is the mean that
-- trec_eval prints as `all`. k := NULL means the whole list.
--
-- Example: 3 relevant documents in the top 10 of R = 6: R@10 = 0.5.
--
--   SELECT * FROM sqlrank.recall('qrels', 'run', k := 10);
CREATE OR REPLACE MACRO sqlrank.recall(qrels_table, run_table, k := NULL, rel := 1, depth := NULL, missing := 'zero', score_precision := 'double') AS TABLE
    SELECT COLUMNS('^(run_id|query_id)$'), r AS value
    FROM sqlrank.run_measures(qrels_table, run_table, cutoffs := [k], rel := rel, depth := depth, missing := missing, score_precision := score_precision);
