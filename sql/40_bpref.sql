-- sqlrank.bpref(qrels_table, run_table, k := NULL, rel := 1, depth := NULL, missing := 'zero', score_precision := 'double')
--   -> ([run_id,] query_id, value)
--
-- bpref: (1/R) Σ_{relevant retrieved d} (1 - min(n_d, R) / min(N, R)), trec_eval's definition.
-- One row per query of the qrels (see sqlrank.measure_table for which queries
-- and for every parameter); `SELECT avg(value)` over it is the mean that
-- trec_eval prints as `all`. k := NULL means the whole list.
--
-- Example: R = 2, N = 2, ranking [rel, nonrel, rel]: (1 + (1 - 1/2)) / 2 = 0.75.
--
--   SELECT * FROM sqlrank.bpref('qrels', 'run');
CREATE OR REPLACE MACRO sqlrank.bpref(qrels_table, run_table, k := NULL, rel := 1, depth := NULL, missing := 'zero', score_precision := 'double') AS TABLE
    SELECT COLUMNS('^(run_id|query_id)$'), bpref AS value
    FROM sqlrank.run_measures(qrels_table, run_table, cutoffs := [k], rel := rel, depth := depth, missing := missing, score_precision := score_precision);
