-- The practical floor for a measure set with only cutoffs: nDCG@10, P@10 and
-- RR@10, one hand-written DuckDB statement with trec_eval semantics
-- (trec_eval -c: judged queries missing from the run score 0; run-only
-- queries are ignored).  The same plan as floor.sql, the way one writes it by
-- hand: rank the run with one window, keep the top 10, join the relevant
-- judgments.  sqlrank's cutoff-only contender is measured against this.
--
-- Inputs are session variables, as in floor.sql:
--   SET VARIABLE qrels = 'path/to/qrels.parquet';
--   SET VARIABLE run   = 'path/to/run.parquet';
-- Output: the long table (query_id, measure, value), query_id 'all' = mean.
WITH
-- Judgements: negative labels mean "unjudged" (as in trec_eval).
qrels AS (
    SELECT query_id, doc_id, relevance AS rel
    FROM read_parquet(getvariable('qrels'))
    WHERE relevance >= 0
),
-- Every query of the qrels is evaluated and averaged over.
topics AS (
    SELECT DISTINCT query_id FROM read_parquet(getvariable('qrels'))
),
-- The ideal DCG@10: positive labels sorted descending, cut at rank 10.
ideal AS (
    SELECT query_id, sum(rel / log2(irank + 1)) AS idcg10
    FROM (
        SELECT query_id, rel,
               row_number() OVER (PARTITION BY query_id ORDER BY rel DESC) AS irank
        FROM qrels
        WHERE rel > 0
    )
    WHERE irank <= 10
    GROUP BY query_id
),
-- Rank the run like trec_eval (score descending, ties by doc_id descending)
-- and keep the top 10. The window reads the file directly, as in floor.sql
-- (no semi join with topics before it: that stops DuckDB's partitioned
-- window); the join below drops run-only queries.
top10 AS (
    SELECT query_id, doc_id, rank
    FROM (
        SELECT query_id, doc_id,
               row_number() OVER (PARTITION BY query_id ORDER BY score DESC, doc_id DESC) AS rank
        FROM read_parquet(getvariable('run'))
    )
    WHERE rank <= 10
),
-- Per-query sums over the relevant documents of the top 10.
per_hit AS (
    SELECT query_id,
           sum(rel / log2(rank + 1)) AS dcg10,
           min(rank) AS first_rank,
           count(*) AS rel10
    FROM top10 JOIN qrels USING (query_id, doc_id)
    WHERE rel > 0
    GROUP BY query_id
),
-- One row per judged query; a missing row means 0.
per_query AS (
    SELECT t.query_id,
           coalesce(h.dcg10 / i.idcg10, 0) AS "nDCG@10",
           coalesce(h.rel10, 0) / 10 AS "P@10",
           coalesce(1 / h.first_rank, 0) AS "RR@10"
    FROM topics t
    LEFT JOIN ideal i USING (query_id)
    LEFT JOIN per_hit h USING (query_id)
),
with_mean AS (
    SELECT * FROM per_query
    UNION ALL
    SELECT 'all', avg("nDCG@10"), avg("P@10"), avg("RR@10") FROM per_query
)
UNPIVOT with_mean ON "nDCG@10", "P@10", "RR@10"
    INTO NAME measure VALUE value
