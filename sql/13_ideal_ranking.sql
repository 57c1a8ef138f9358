-- sqlrank.ideal_ranking(qrels_table) -> (query_id, relevance, ideal_rank)
--
-- The ideal ordering used by IDCG (ideal := 'qrels', the default): every judged
-- document of the query with a positive label, retrieved or not, sorted by
-- label descending (trec_eval ndcg/ndcg_cut; Wikipedia). Sorting by label is
-- sorting by gain, since both gains are increasing in the label. Negative and
-- zero labels give no gain and are left out.
--
-- Example: labels A=3, B=3, C=2, D=2, E=1, F=1, G=0 -> ranks 1..6 for
-- 3, 3, 2, 2, 1, 1; IDCG@5 (linear, log2) = 3 + 3/log2 3 + 2/2 + 2/log2 5 + 1/log2 6
-- = 7.1409951840957.
CREATE OR REPLACE MACRO sqlrank.ideal_ranking(qrels_table) AS TABLE
    SELECT
        query_id,
        CAST(relevance AS DOUBLE) AS relevance,
        -- ties need no order: equal labels have equal gains
        ROW_NUMBER() OVER (PARTITION BY query_id ORDER BY relevance DESC) AS ideal_rank
    FROM query_table(qrels_table)
    WHERE relevance > 0;
