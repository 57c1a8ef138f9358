-- sqlrank.list_distributional_coverage(users_table, lists_table, train_table, catalogue_table, k, tail) -> (run_id, query_id, value)
--
-- DistributionalCoverage@k, a measure of the whole run (its `all` row alone): the Shannon entropy, in bits, of
-- how often each item is recommended, -Σ p(i) log2 p(i) with p(i) = the item's share of all the
-- recommendations in the users' top k (Shani and Gunawardana 2010, formula 21; recommenders'
-- distributional_coverage). 0 for one item alone; log2 of the items when each is recommended as often.
-- RecBole's ShannonEntropy differs: natural log, divided by the distinct items.
--
-- Example: u1 gets a, b; u2 gets a, c: p = 1/2, 1/4, 1/4: 1/2 · 1 + 2 · 1/4 · 2 = 1.5
CREATE OR REPLACE MACRO sqlrank.list_distributional_coverage(users_table, lists_table, train_table, catalogue_table, k, tail) AS TABLE
    WITH counts AS (
        SELECT l.run_id, l.doc_id, count(*) / NULLIF(CAST(sum(count(*)) OVER (PARTITION BY l.run_id) AS DOUBLE), 0) AS p
        FROM sqlrank.user_lists(users_table, lists_table, k) AS l
        GROUP BY l.run_id, l.doc_id
    )
    SELECT runs.run_id, 'all' AS query_id, coalesce(-sum(p * log2(p) ORDER BY doc_id), 0.0) AS value
    FROM (SELECT DISTINCT run_id FROM query_table(users_table)) AS runs LEFT JOIN counts USING (run_id)
    GROUP BY runs.run_id;
