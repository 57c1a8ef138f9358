-- sqlrank.tie_groups(qrels_table, run_table, score_precision := 'double', one_run := false,
--     zero_labels := true, negative_labels := false, ties := 'average', depth := NULL)
--   -> ([run_id,] query_id, doc_id, relevance, rank, num_ret, tie_start, tied, cut)
--
-- The one pass for ties := 'average' (docs/tie-policies.md): instead of an order
-- within each group of equally scored documents, every kept document carries its
-- tie group: tie_start, the rank of the group's first place (1 + the documents
-- scored higher), and tied, the group's size. The measures' expectations over
-- the orderings of each group (sql/30_tie_average.sql) need nothing else: the
-- group's judged documents are the kept rows with that tie_start, the others
-- are unjudged. rank numbers the documents in no particular order within a
-- group; only its rank-1 row is read, as the mark that the ranking exists.
-- Documents kept, zero_labels, negative_labels, one_run and score_precision as
-- in sqlrank.judged_ranking. Its input is filtered by ties = 'average', a
-- constant, so that a call with another policy reads nothing.
-- depth keeps the first `depth` places of every ordering: the groups that start
-- within it, num_ret at most depth, and cut (the depth, NULL without one) for the
-- measures, since the last group kept may hold places beyond it
-- (sqlrank.tied_cut, sql/30_tie_average.sql).
CREATE OR REPLACE MACRO sqlrank.tie_groups(qrels_table, run_table, score_precision := 'double', one_run := false,
                                           zero_labels := true, negative_labels := false,
                                           ties := 'average', depth := NULL) AS TABLE
    WITH sqlrank_judgment AS (
        SELECT * FROM sqlrank.judgments(qrels_table)
        WHERE relevance > 0 OR (relevance = 0 AND zero_labels) OR (relevance < 0 AND negative_labels)
    ),
    grouped AS (
        SELECT
            COLUMNS('^(run_id|query_id|doc_id)$'),
            relevance,
            ROW_NUMBER() OVER tie AS rank,
            least(count(*) OVER (tie ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), depth) AS num_ret,
            rank() OVER tie AS tie_start,
            -- a RANGE frame of the current row spans its peers: the documents of equal score
            count(*) OVER (tie RANGE BETWEEN CURRENT ROW AND CURRENT ROW) AS tied,
            CAST(depth AS BIGINT) AS cut
        FROM (
            SELECT run.*, judgment.relevance
            FROM sqlrank.run_rows(run_table) AS run
            LEFT JOIN sqlrank_judgment AS judgment
                ON run.query_id = judgment.query_id AND run.doc_id = judgment.doc_id
            WHERE ties = 'average'
              AND sqlrank.choice(score_precision, ['double', 'float32'], 'score_precision') IS NOT NULL
        ) AS tie_input
        WINDOW tie AS (
            PARTITION BY CASE WHEN one_run THEN query_id ELSE concat_ws(chr(0), *COLUMNS('^(run_id|query_id)$')) END
            ORDER BY sqlrank.ranking_score(score, score_precision) DESC
        )
    )
    SELECT * FROM grouped WHERE (relevance IS NOT NULL OR rank = 1) AND (depth IS NULL OR tie_start <= depth);
