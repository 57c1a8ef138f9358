-- sqlrank.idcg(qrels_table, run_table, k := NULL, gain := 'linear', discount := 'log2', base := 2, ideal := 'qrels', depth := NULL, missing := 'zero', score_precision := 'double')
--   -> ([run_id,] query_id, value)
--
-- IDCG@k: DCG@k of the ideal ordering (ideal := qrels: all positive judgments; run: the retrieved labels re-sorted).
-- One row per query of the qrels (see sqlrank.measure_table for which queries
-- and for every parameter); `SELECT avg(value)` over it is the mean that
-- trec_eval prints as `all`. k := NULL means the whole list.
--
-- Example: labels A=3, B=3, C=2, D=2, E=1, F=1, G=0: IDCG@5 = 3 + 3/log2 3 + 2/2 + 2/log2 5 + 1/log2 6 = 7.1409951840957.
--
--   SELECT * FROM sqlrank.idcg('qrels', 'run', k := 10);
CREATE OR REPLACE MACRO sqlrank.idcg(qrels_table, run_table, k := NULL, gain := 'linear', discount := 'log2', base := 2, ideal := 'qrels', depth := NULL, missing := 'zero', score_precision := 'double') AS TABLE
    SELECT COLUMNS('^(run_id|query_id)$'), idcg AS value
    FROM sqlrank.run_measures(qrels_table, run_table, cutoffs := [k], gain := gain, discount := discount, base := base, ideal := ideal, depth := depth, missing := missing, score_precision := score_precision);
