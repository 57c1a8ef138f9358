-- sqlrank.measure_recall(ranking, k, rel) -> DOUBLE
--
-- R@k, recall: the relevant documents within k, divided by R, the query's
-- relevant judgments (retrieved or not); 0 when R = 0 (trec_eval's recall_k).
--
-- Example: R = 4; relevant documents at ranks 1 and 3: R@2 = 1/4 = 0.25; R@10 = 2/4 = 0.5
CREATE OR REPLACE MACRO sqlrank.measure_recall(ranking, k, rel) AS
    coalesce(CAST(len(sqlrank.relevant_ranks(ranking, k, rel)) AS DOUBLE)
             / NULLIF(sqlrank.num_relevant(ranking, rel), 0), 0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
CREATE OR REPLACE MACRO sqlrank.average_recall(ranking, k, rel) AS
    coalesce(sqlrank.expected_relevant(ranking, k, rel) / NULLIF(sqlrank.num_relevant(ranking, rel), 0), 0);
