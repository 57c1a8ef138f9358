-- sqlrank.success(qrels_table, run_table, k := NULL, rel := 1, depth := NULL, missing := 'zero', score_precision := 'double')
--   -> ([run_id,] query_id, value)
--
-- Success@k: 1 if a relevant document is in the top k, else 0 (trec_eval success_k).
-- One row per query of the qrels (see sqlrank.measure_table for which queries
-- and for every parameter); `SELECT avg(value)` over it is the mean that
-- trec_eval prints as `all`. k := NULL means the whole list.
--
-- Example: first relevant document at rank 3: Success@1 = 0, Success@5 = 1.
--
--   SELECT * FROM sqlrank.success('qrels', 'run', k := 10);
CREATE OR REPLACE MACRO sqlrank.success(qrels_table, run_table, k := NULL, rel := 1, depth := NULL, missing := 'zero', score_precision := 'double') AS TABLE
    SELECT COLUMNS('^(run_id|query_id)$'), success AS value
    FROM sqlrank.run_measures(qrels_table, run_table, cutoffs := [k], rel := rel, depth := depth, missing := missing, score_precision := score_precision);
