-- sqlrank.ap(qrels_table, run_table, k := NULL, rel := 1, denominator := 'R', depth := NULL, missing := 'zero', score_precision := 'double')
--   -> ([run_id,] query_id, value)
--
-- AP@k: Σ_{relevant i<=k} P@i / denominator (R by default, as trec_eval map / map_cut_k).
-- One row per query of the qrels (see sqlrank.measure_table for which queries
-- and for every parameter); `SELECT avg(value)` over it is the mean that
-- trec_eval prints as `all`. k := NULL means the whole list.
--
-- Example: relevant at ranks 1, 2, 4, 5 of 5, R = 4: (1/1 + 2/2 + 3/4 + 4/5) / 4 = 0.8875.
--
--   SELECT * FROM sqlrank.ap('qrels', 'run', k := 10);
CREATE OR REPLACE MACRO sqlrank.ap(qrels_table, run_table, k := NULL, rel := 1, denominator := 'R', depth := NULL, missing := 'zero', score_precision := 'double') AS TABLE
    SELECT COLUMNS('^(run_id|query_id)$'), ap AS value
    FROM sqlrank.run_measures(qrels_table, run_table, cutoffs := [k], rel := rel, denominator := denominator, depth := depth, missing := missing, score_precision := score_precision);
