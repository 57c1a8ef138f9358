-- sqlrank.rprec(qrels_table, run_table, k := NULL, rel := 1, depth := NULL, missing := 'zero', score_precision := 'double')
--   -> ([run_id,] query_id, value)
--
-- Rprec: relevant in the top R / R; 0 when R = 0 (trec_eval Rprec).
-- One row per query of the qrels (see sqlrank.measure_table for which queries
-- and for every parameter); `SELECT avg(value)` over it is the mean that
-- trec_eval prints as `all`. k := NULL means the whole list.
--
-- Example: R = 4, relevant at ranks 1, 3, 7: Rprec = 2/4 = 0.5.
--
--   SELECT * FROM sqlrank.rprec('qrels', 'run');
CREATE OR REPLACE MACRO sqlrank.rprec(qrels_table, run_table, k := NULL, rel := 1, depth := NULL, missing := 'zero', score_precision := 'double') AS TABLE
    SELECT COLUMNS('^(run_id|query_id)$'), rprec AS value
    FROM sqlrank.run_measures(qrels_table, run_table, cutoffs := [k], rel := rel, depth := depth, missing := missing, score_precision := score_precision);
