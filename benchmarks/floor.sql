-- The practical floor: one hand-written DuckDB statement for nDCG@10, AP, RR,
-- P@10 and R@100 with trec_eval semantics (trec_eval -c: judged queries
-- missing from the run score 0; run-only queries are ignored).  Nothing
-- generic: no macros, no measure parsing, only the work these five measures
-- need.  sqlrank is measured against this.
--
-- Inputs are session variables so the file stays one plain statement:
--   SET VARIABLE qrels = 'path/to/qrels.parquet';
--   SET VARIABLE run   = 'path/to/run.parquet';
-- Output: the long table (query_id, measure, value), query_id 'all' = mean.
WITH
-- Judgements.  Negative labels mean "unjudged" (as in trec_eval), so drop them.
qrels AS (
    SELECT query_id, doc_id, relevance AS rel
    FROM read_parquet(getvariable('qrels'))
    WHERE relevance >= 0
),
-- Every query that appears in the qrels file is evaluated (and averaged over),
-- even if it has no relevant documents or no run rows.
topics AS (
    SELECT DISTINCT query_id FROM read_parquet(getvariable('qrels'))
),
-- Per-query normalisers: R = number of relevant (label >= 1) documents, and
-- the ideal DCG@10: all positive labels sorted descending, cut at rank 10.
ideal AS (
    SELECT query_id,
           count(*) AS num_rel,
           sum(rel / log2(irank + 1)) FILTER (WHERE irank <= 10) AS idcg10
    FROM (
        SELECT query_id, rel,
               row_number() OVER (PARTITION BY query_id ORDER BY rel DESC) AS irank
        FROM qrels
        WHERE rel > 0
    )
    GROUP BY query_id
),
-- Rank the run like trec_eval: score descending, ties by doc_id descending.
-- The window reads the file directly: DuckDB then ranks a large run in slices
-- of query_ids (partitioned execution). Dropping run-only queries first (a
-- semi join with topics) puts a join between the scan and the window, which
-- stops that: 10M rows took 1.6 s that way and 1.5 s this way (medians of 4),
-- 100M rows under a 4GB limit 20.8 s against 15.2 s (one run each; at 100M
-- either form varies a lot between runs, see benchmarks/README.md). Run-only
-- queries have no judgments, so the join below drops them anyway.
ranked AS (
    SELECT query_id, doc_id,
           row_number() OVER (PARTITION BY query_id ORDER BY score DESC, doc_id DESC) AS rank
    FROM read_parquet(getvariable('run'))
),
-- Only retrieved relevant documents contribute to any of the five measures,
-- so keep just those hits; hit_no is the number of relevant docs at or above
-- this rank, which gives precision at each relevant rank for AP.
hits AS (
    SELECT query_id, rank, rel,
           row_number() OVER (PARTITION BY query_id ORDER BY rank) AS hit_no
    FROM ranked JOIN qrels USING (query_id, doc_id)
    WHERE rel > 0
),
-- Per-query sums over the hits.  Linear gain = label, discount 1/log2(rank+1).
per_hit AS (
    SELECT query_id,
           sum(rel / log2(rank + 1)) FILTER (WHERE rank <= 10) AS dcg10,
           sum(hit_no / rank) AS prec_sum,
           min(rank) AS first_rank,
           count(*) FILTER (WHERE rank <= 10) AS rel10,
           count(*) FILTER (WHERE rank <= 100) AS rel100
    FROM hits
    GROUP BY query_id
),
-- One row per judged query; a missing hit or normaliser row means 0.
per_query AS (
    SELECT t.query_id,
           coalesce(h.dcg10 / i.idcg10, 0) AS "nDCG@10",
           coalesce(h.prec_sum / i.num_rel, 0) AS "AP",
           coalesce(1 / h.first_rank, 0) AS "RR",
           coalesce(h.rel10, 0) / 10 AS "P@10",
           coalesce(h.rel100 / i.num_rel, 0) AS "R@100"
    FROM topics t
    LEFT JOIN ideal i USING (query_id)
    LEFT JOIN per_hit h USING (query_id)
),
-- Means over all judged queries, appended as query_id 'all'.
with_mean AS (
    SELECT * FROM per_query
    UNION ALL
    SELECT 'all', avg("nDCG@10"), avg("AP"), avg("RR"), avg("P@10"), avg("R@100")
    FROM per_query
)
-- Long format, like sqlrank's output, so both write the same amount.
UNPIVOT with_mean ON "nDCG@10", "AP", "RR", "P@10", "R@100"
    INTO NAME measure VALUE value
