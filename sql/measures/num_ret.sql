-- sqlrank.measure_num_ret(ranking, k) -> DOUBLE
--
-- NumRet@k: the documents retrieved for the query, at most k (trec_eval's
-- num_ret, after -M depth). The `all` row sums it over the queries.
--
-- Example: 7 documents retrieved: NumRet = 7, NumRet@5 = 5.
CREATE OR REPLACE MACRO sqlrank.measure_num_ret(ranking, k) AS
    CAST(least(ranking.num_ret, coalesce(k, 9223372036854775807)) AS DOUBLE);
