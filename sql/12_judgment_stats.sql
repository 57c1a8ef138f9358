-- sqlrank.judgment_stats(qrels_table, rel := 1) -> (query_id, num_rel, num_nonrel)
--
-- Per query of the qrels:
--   num_rel     R, the number of relevant judgments (label >= rel and >= 0),
--               retrieved or not: the denominator of AP, R@k, Rprec, bpref
--   num_nonrel  N, the number of judged non-relevant documents (0 <= label < rel),
--               used by bpref
-- A query whose labels are all 0 or negative has R = 0 and is still listed:
-- it is evaluated (every measure 0) and counted in the mean, as in trec_eval.
CREATE OR REPLACE MACRO sqlrank.judgment_stats(qrels_table, rel := 1) AS TABLE
    SELECT
        query_id,
        sum(CASE WHEN sqlrank.is_relevant(relevance, rel) THEN 1 ELSE 0 END) AS num_rel,
        sum(CASE WHEN sqlrank.is_judged_nonrelevant(relevance, rel) THEN 1 ELSE 0 END) AS num_nonrel
    FROM query_table(qrels_table)
    GROUP BY query_id;
