-- sqlrank.ndcg(qrels_table, run_table, k := NULL, gain := 'linear', discount := 'log2', base := 2, ideal := 'qrels', depth := NULL, missing := 'zero', score_precision := 'double')
--   -> ([run_id,] query_id, value)
--
-- nDCG@k: DCG@k / IDCG@k; 0 when IDCG@k = 0 (trec_eval ndcg, ndcg_cut_k).
-- One row per query of the qrels (see sqlrank.measure_table for which queries
-- and for every parameter); `SELECT avg(value)` over it is the mean that
-- trec_eval prints as `all`. k := NULL means the whole list.
--
-- Example: system ranking A,E,C,D,F against A=3, B=3, C=2, D=2, E=1, F=1: (3 + 1/log2 3 + 2/2 + 2/log2 5 + 1/log2 6) / 7.1409951840957 = 0.8232936061974518.
--
--   SELECT * FROM sqlrank.ndcg('qrels', 'run', k := 10);
CREATE OR REPLACE MACRO sqlrank.ndcg(qrels_table, run_table, k := NULL, gain := 'linear', discount := 'log2', base := 2, ideal := 'qrels', depth := NULL, missing := 'zero', score_precision := 'double') AS TABLE
    SELECT COLUMNS('^(run_id|query_id)$'), ndcg AS value
    FROM sqlrank.run_measures(qrels_table, run_table, cutoffs := [k], gain := gain, discount := discount, base := base, ideal := ideal, depth := depth, missing := missing, score_precision := score_precision);
