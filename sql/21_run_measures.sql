-- sqlrank.run_measures(qrels_table, run_table, cutoffs := [NULL], rel := 1,
--     gain := 'linear', discount := 'log2', base := 2, ideal := 'qrels',
--     denominator := 'R', depth := NULL, missing := 'zero', score_precision := 'double')
--   -> the columns of sqlrank.measure_table
--
-- sqlrank.judged_ranking (the one pass over the run) followed by
-- sqlrank.measure_table. The per-measure macros (sqlrank.ndcg, sqlrank.ap, …)
-- pick one column of this.
CREATE OR REPLACE MACRO sqlrank.run_measures(
    qrels_table, run_table,
    cutoffs := [NULL], rel := 1, gain := 'linear', discount := 'log2', base := 2,
    ideal := 'qrels', denominator := 'R', depth := NULL, missing := 'zero', score_precision := 'double'
) AS TABLE
WITH sqlrank_judged_ranking AS MATERIALIZED (
    SELECT * FROM sqlrank.judged_ranking(qrels_table, run_table, depth := depth, score_precision := score_precision)
)
SELECT *
FROM sqlrank.measure_table(
    qrels_table, 'sqlrank_judged_ranking',
    cutoffs := cutoffs, rel := rel, gain := gain, discount := discount, base := base,
    ideal := ideal, denominator := denominator, missing := missing
);
