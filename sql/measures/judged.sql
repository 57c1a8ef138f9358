-- sqlrank.measure_judged(ranking, k) -> DOUBLE
--
-- Judged@k, ir_measures' judgment rate: the documents within k that the
-- qrels list (any label, a negative one too) divided by the documents there
-- are, min(k, retrieved) (not by k, unlike trec_eval's unj_k). 0 when
-- nothing was retrieved. Ties are trec_eval's (score, then doc id
-- descending); ir_measures' own implementation breaks them by doc id
-- ascending, so the two differ when tied documents straddle the cutoff.
-- It needs the label-0 and the negative judgments (registry).
--
-- Example: labels by rank 1, (unjudged), 0, -1: Judged@2 = 1/2;  Judged@10 = 3/4
CREATE OR REPLACE MACRO sqlrank.measure_judged(ranking, k) AS
    coalesce(CAST(len(sqlrank.top_documents(ranking, k)) AS DOUBLE)
             / NULLIF(least(ranking.num_ret, coalesce(k, ranking.num_ret)), 0), 0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- the expected judged documents within k (each its chance to land within k) over a fixed denominator
CREATE OR REPLACE MACRO sqlrank.average_judged(ranking, k) AS
    coalesce(coalesce(list_sum(list_transform(ranking.documents, lambda d: sqlrank.tied_share(d, sqlrank.tied_cut(ranking, k)))), 0.0)
             / NULLIF(least(ranking.num_ret, coalesce(k, ranking.num_ret)), 0), 0);
