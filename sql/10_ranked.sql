-- sqlrank.ranked(run_table, score_precision := 'double', one_run := false)
--   -> (every column of run_table, rank, num_ret; read through sqlrank.run_rows)
--
-- Ranks every query's documents the way trec_eval does:
--   rank = ROW_NUMBER() OVER (PARTITION BY [run_id,] query_id
--                             ORDER BY score DESC, doc_id DESC)
-- Highest score first; equal scores by doc id in DESCENDING byte order
-- (trec_eval's comparator puts the larger docno first). A rank column of the
-- input, if any, is ignored, as trec_eval ignores it.
-- num_ret is the number of documents retrieved for the query.
-- Other columns (a judgment joined beforehand, say) are passed through.
--
-- score_precision:
--   double   scores compare as DOUBLE (trec_eval 10; the default)
--   float32  scores are rounded to 32-bit floats before comparing, which
--            reproduces trec_eval 9.x / pytrec_eval ties (1.0 and
--            1.0000000001 are tied there, so 'b' ranks above 'a'). Scores beyond
--            float32's range become +-infinity, as C's cast makes them there
--            (DuckDB's own CAST to FLOAT raises an error instead).
-- An unknown score_precision is an error (on a run with rows), checked in a
-- WHERE above the window (a check inside the window's ORDER BY would make it
-- volatile, which DuckDB refuses). A valid value folds the WHERE away, so the
-- window reads the run directly: DuckDB can then rank a large run stored
-- grouped by query_id (as TREC files usually are) in slices of query_ids, one
-- after the other (partitioned execution), which any operator between the scan
-- and the window would stop (docs/performance.md#the-ranking-pass).
--
-- A run with a run_id column is ranked per run: many systems in one table.
-- one_run := true says the table holds a single run and has no run_id column:
-- the partition is then query_id itself instead of a key built from run_id and
-- query_id for every row, which costs a string per row. The engine sets it when it
-- knows; with a run_id column it would mix the runs' rankings, so leave it off.
--
-- Example: scores a=1.0, b=1.0, c=2.0 for one query -> c:1, b:2, a:3.
CREATE OR REPLACE MACRO sqlrank.ranking_score(score, score_precision := 'double') AS
    CASE
        WHEN score_precision <> 'float32' THEN CAST(score AS DOUBLE)
        -- beyond float32's range (from FLT_MAX + half an ulp) C's cast, so trec_eval 9.x
        -- and pytrec_eval, give +-infinity (1e300 and 1e301 tie); DuckDB's CAST refuses
        WHEN abs(score) >= 3.4028235677973366e38 THEN sign(score) * CAST('inf' AS DOUBLE)
        ELSE CAST(CAST(score AS FLOAT) AS DOUBLE)
    END;

CREATE OR REPLACE MACRO sqlrank.ranked(run_table, score_precision := 'double', one_run := false) AS TABLE
    SELECT *
    FROM (
        SELECT
            ranking_input.*,
            ROW_NUMBER() OVER ranking AS rank,
            -- same window (so the same sort) with a whole-partition frame
            count(*) OVER (ranking ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS num_ret
        FROM sqlrank.run_rows(run_table) AS ranking_input
        WINDOW ranking AS (
            -- one partition key whether or not the run has a run_id column: the
            -- two joined with a NUL byte, or query_id alone for one_run (a constant
            -- condition: DuckDB folds the CASE away)
            PARTITION BY CASE WHEN one_run THEN query_id ELSE concat_ws(chr(0), *COLUMNS('^((?i:run_id)|query_id)$')) END
            ORDER BY sqlrank.ranking_score(score, score_precision) DESC, doc_id DESC
        )
    ) AS ranked_rows
    WHERE sqlrank.choice(score_precision, ['double', 'float32'], 'score_precision') IS NOT NULL;

-- sqlrank.tie_key(relevance, ties) -> DOUBLE: where a document goes among equally scored ones,
-- lowest first, for the label policies (NULL for the others, which tie-break on doc_id alone).
-- A document's class is its label, unjudged documents and negative labels ("judged but
-- unusable", unjudged for every measure) together one class below 0: optimistic puts the
-- highest class first, pessimistic the lowest (docs/tie-policies.md).
CREATE OR REPLACE MACRO sqlrank.tie_key(relevance, ties) AS
    CASE ties
        WHEN 'optimistic' THEN -(CASE WHEN relevance >= 0 THEN relevance ELSE -1 END)
        WHEN 'pessimistic' THEN (CASE WHEN relevance >= 0 THEN relevance ELSE -1 END)
    END;
