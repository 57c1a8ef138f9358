-- sqlrank.measure_p(ranking, k, rel) -> DOUBLE
--
-- P@k, precision: the relevant documents within k, divided by k, always k,
-- even when the run retrieved fewer (trec_eval's P_k). Without a cutoff: the
-- relevant documents retrieved / the documents retrieved (trec_eval's set_P);
-- 0 when nothing was retrieved.
--
-- Example: relevant documents at ranks 1 and 3, 4 retrieved:
--   P@2 = 1/2 = 0.5;  P@10 = 2/10 = 0.2;  P = 2/4 = 0.5
CREATE OR REPLACE MACRO sqlrank.measure_p(ranking, k, rel) AS
    coalesce(CAST(len(sqlrank.relevant_ranks(ranking, k, rel)) AS DOUBLE)
             / NULLIF(coalesce(k, ranking.num_ret), 0), 0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
CREATE OR REPLACE MACRO sqlrank.average_p(ranking, k, rel) AS
    coalesce(sqlrank.expected_relevant(ranking, k, rel) / NULLIF(coalesce(k, ranking.num_ret), 0), 0);
