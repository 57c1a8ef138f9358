-- sqlrank.list_catalog_coverage(users_table, lists_table, train_table, catalogue_table, k, tail) -> (run_id, query_id, value)
--
-- CatalogCoverage@k, a measure of the whole run (its `all` row alone): the distinct items in the users' top k,
-- over the catalogue's items (Shani and Gunawardana 2010; recommenders' catalog_coverage, whose catalogue is the
-- training items; RecBole's ItemCoverage, over every item). A recommended item outside the catalogue still
-- counts above, as in recommenders.
--
-- Example: catalogue a, b, c, d; u1 gets a, b; u2 gets b, e: {a, b, e} = 3/4
CREATE OR REPLACE MACRO sqlrank.list_catalog_coverage(users_table, lists_table, train_table, catalogue_table, k, tail) AS TABLE
    SELECT run_id, 'all' AS query_id,
           coalesce(count(DISTINCT doc_id) / NULLIF(CAST((SELECT count(DISTINCT doc_id) FROM query_table(catalogue_table))
                                                         AS DOUBLE), 0), 0.0) AS value
    FROM (SELECT DISTINCT run_id FROM query_table(users_table)) AS runs
    LEFT JOIN sqlrank.user_lists(users_table, lists_table, k) AS l USING (run_id)
    GROUP BY run_id;
