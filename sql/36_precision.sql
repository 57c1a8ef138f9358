-- sqlrank.p(qrels_table, run_table, k := NULL, rel := 1, depth := NULL, missing := 'zero', score_precision := 'double')
--   -> ([run_id,] query_id, value)
--
-- P@k: relevant in the top k / k, always k (trec_eval P_k); without k: relevant retrieved / retrieved.
-- Named p (ir_measures' P), not precision: PRECISION is an SQL keyword
-- (DOUBLE PRECISION), so `FROM sqlrank.precision(...)` is a syntax error.
-- One row per query of the qrels (see sqlrank.measure_table for which queries
-- and for every parameter); `SELECT avg(value)` over it is the mean that
-- trec_eval prints as `all`. k := NULL means the whole list.
--
-- Example: 15 retrieved, 4 of them relevant: P@20 = 4/20 = 0.2.
--
--   SELECT * FROM sqlrank.p('qrels', 'run', k := 10);
CREATE OR REPLACE MACRO sqlrank.p(qrels_table, run_table, k := NULL, rel := 1, depth := NULL, missing := 'zero', score_precision := 'double') AS TABLE
    SELECT COLUMNS('^(run_id|query_id)$'), p AS value
    FROM sqlrank.run_measures(qrels_table, run_table, cutoffs := [k], rel := rel, depth := depth, missing := missing, score_precision := score_precision);
