-- sqlrank.num_ret(qrels_table, run_table, k := NULL, depth := NULL, missing := 'zero', score_precision := 'double')
--   -> ([run_id,] query_id, value)
--
-- NumRet: documents retrieved (within k); summed, not averaged, in the all row.
-- One row per query of the qrels (see sqlrank.measure_table for which queries
-- and for every parameter); `SELECT avg(value)` over it is the mean that
-- trec_eval prints as `all`. k := NULL means the whole list.
--
-- Example: a run with 500 documents for the query: 500.
--
--   SELECT * FROM sqlrank.num_ret('qrels', 'run', k := 10);
CREATE OR REPLACE MACRO sqlrank.num_ret(qrels_table, run_table, k := NULL, depth := NULL, missing := 'zero', score_precision := 'double') AS TABLE
    SELECT COLUMNS('^(run_id|query_id)$'), num_ret AS value
    FROM sqlrank.run_measures(qrels_table, run_table, cutoffs := [k], depth := depth, missing := missing, score_precision := score_precision);
