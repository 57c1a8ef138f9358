-- sqlrank.measure_num_rel_ret(ranking, k, rel) -> DOUBLE
--
-- NumRelRet@k: the relevant documents ranked within k (trec_eval's
-- num_rel_ret). The `all` row sums it over the queries.
--
-- Example: relevant documents at ranks 1, 3 and 7: NumRelRet = 3, NumRelRet@5 = 2.
CREATE OR REPLACE MACRO sqlrank.measure_num_rel_ret(ranking, k, rel) AS
    CAST(len(sqlrank.relevant_ranks(ranking, k, rel)) AS DOUBLE);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
CREATE OR REPLACE MACRO sqlrank.average_num_rel_ret(ranking, k, rel) AS
    sqlrank.expected_relevant(ranking, k, rel);
