-- sqlrank.judged_ranking(qrels_table, run_table, depth := NULL, score_precision := 'double')
--   -> ([run_id,] query_id, doc_id, relevance, rank, num_ret)
--
-- The one pass over the run that every measure needs: attach the judgment
-- of each retrieved document, rank the run (sqlrank.ranked), keep the top
-- `depth` documents of each ranking (trec_eval -M; NULL keeps all).
--
-- Only documents that carry information are kept: judged documents with a
-- label >= 0, plus the rank-1 row of every ranking (relevance NULL when
-- unjudged) so that each retrieved query, and its num_ret, is still present.
-- Unjudged documents and negative labels add nothing to any measure (no
-- gain, never relevant, never judged non-relevant), so dropping them here
-- keeps everything after this pass small.
--
-- The join comes before the window on purpose: DuckDB then filters the
-- window's output in the same pipeline instead of probing a hash table with
-- every ranked row afterwards (measured: about 25% faster on 10M rows).
CREATE OR REPLACE MACRO sqlrank.judged_ranking(qrels_table, run_table, depth := NULL, score_precision := 'double') AS TABLE
    WITH sqlrank_run_with_judgments AS (
        SELECT run.*, judgment.relevance
        FROM query_table(run_table) AS run
        LEFT JOIN (
            SELECT query_id, doc_id, CAST(relevance AS DOUBLE) AS relevance
            FROM query_table(qrels_table)
            WHERE relevance >= 0
        ) AS judgment ON run.query_id = judgment.query_id AND run.doc_id = judgment.doc_id
    )
    SELECT
        COLUMNS('^(run_id|query_id|doc_id|relevance|rank)$'),
        CASE WHEN depth IS NULL THEN num_ret ELSE least(num_ret, depth) END AS num_ret
    FROM sqlrank.ranked('sqlrank_run_with_judgments', score_precision := score_precision)
    WHERE (relevance IS NOT NULL OR rank = 1)
      AND (depth IS NULL OR rank <= depth);
