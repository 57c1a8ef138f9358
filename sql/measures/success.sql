-- sqlrank.measure_success(ranking, k, rel) -> DOUBLE
--
-- Success@k (hit rate): 1 when a relevant document is ranked within k, else 0
-- (trec_eval's success_k).
--
-- Example: the first relevant document at rank 3: Success@1 = 0, Success@5 = 1.
CREATE OR REPLACE MACRO sqlrank.measure_success(ranking, k, rel) AS
    CAST(len(sqlrank.relevant_ranks(ranking, k, rel)) > 0 AS DOUBLE);
