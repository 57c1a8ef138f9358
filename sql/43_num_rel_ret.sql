-- sqlrank.num_rel_ret(qrels_table, run_table, k := NULL, rel := 1, depth := NULL, missing := 'zero', score_precision := 'double')
--   -> ([run_id,] query_id, value)
--
-- NumRelRet: relevant documents retrieved (within k); summed in the all row.
-- One row per query of the qrels (see sqlrank.measure_table for which queries
-- and for every parameter); `SELECT avg(value)` over it is the mean that
-- trec_eval prints as `all`. k := NULL means the whole list.
--
-- Example: relevant documents at ranks 1, 4 and 600 with k := 100: 2.
--
--   SELECT * FROM sqlrank.num_rel_ret('qrels', 'run', k := 10);
CREATE OR REPLACE MACRO sqlrank.num_rel_ret(qrels_table, run_table, k := NULL, rel := 1, depth := NULL, missing := 'zero', score_precision := 'double') AS TABLE
    SELECT COLUMNS('^(run_id|query_id)$'), num_rel_ret AS value
    FROM sqlrank.run_measures(qrels_table, run_table, cutoffs := [k], rel := rel, depth := depth, missing := missing, score_precision := score_precision);
