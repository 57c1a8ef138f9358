-- sqlrank.judged_ranking(qrels_table, run_table, depth := NULL, score_precision := 'double')
--   -> ([run_id,] query_id, doc_id, rank, num_ret, relevance)
--
-- The one pass over the run that every measure needs: rank the run
-- (sqlrank.ranked), keep the top `depth` documents of each ranking (trec_eval
-- -M; NULL keeps all), and attach the judgment of each retrieved document.
--
-- Only documents that carry information are kept: judged documents with a
-- label >= 0, plus the rank-1 row of every ranking (relevance NULL when
-- unjudged) so that each retrieved query, and its num_ret, is still present.
-- Unjudged documents and negative labels add nothing to any measure (no
-- gain, never relevant, never judged non-relevant), so dropping them here
-- keeps everything after this pass small.
CREATE OR REPLACE MACRO sqlrank.judged_ranking(qrels_table, run_table, depth := NULL, score_precision := 'double') AS TABLE
    SELECT
        ranking.* EXCLUDE (num_ret),
        CASE WHEN depth IS NULL THEN ranking.num_ret ELSE least(ranking.num_ret, depth) END AS num_ret,
        judgment.relevance
    FROM sqlrank.ranked(run_table, score_precision := score_precision) AS ranking
    LEFT JOIN (
        SELECT query_id, doc_id, CAST(relevance AS DOUBLE) AS relevance
        FROM query_table(qrels_table)
        WHERE relevance >= 0
    ) AS judgment USING (query_id, doc_id)
    WHERE (judgment.relevance IS NOT NULL OR ranking.rank = 1)
      AND (depth IS NULL OR ranking.rank <= depth);
