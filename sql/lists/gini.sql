-- sqlrank.list_gini(users_table, lists_table, train_table, catalogue_table, k, tail) -> (run_id, query_id, value)
--
-- Gini@k, a measure of the whole run (its `all` row alone): the Gini index of how often each catalogue item is
-- recommended in the users' top k, 0 when every item is recommended as often, towards 1 when a few take all
-- (RecBole's GiniIndex): with the n catalogue items' counts sorted up, c_(1) <= ... <= c_(n) (an item never
-- recommended counts 0), Gini = Σ_j (2j - n - 1) c_(j) / (n Σ_j c_(j)). Lower is better. 0 without a
-- recommendation.
--
-- Example: catalogue a, b, c, d; u1 gets a, b; u2 gets a, c: counts 0, 1, 1, 2 (n = 4, 4 recommendations):
--   ((2·2 - 5) · 1 + (2·3 - 5) · 1 + (2·4 - 5) · 2) / (4 · 4) = 6/16
CREATE OR REPLACE MACRO sqlrank.list_gini(users_table, lists_table, train_table, catalogue_table, k, tail) AS TABLE
    WITH catalogue AS (SELECT count(DISTINCT doc_id) AS n FROM query_table(catalogue_table)),
    counts AS (
        SELECT l.run_id, count(*) AS recommended,
               row_number() OVER (PARTITION BY l.run_id ORDER BY count(*), l.doc_id) AS place,
               count(*) OVER (PARTITION BY l.run_id) AS items
        FROM sqlrank.user_lists(users_table, lists_table, k) AS l
        GROUP BY l.run_id, l.doc_id
    )
    -- the m recommended items take the top m places: place j among them is n - m + j among all
    SELECT runs.run_id, 'all' AS query_id,
           coalesce(sum((2 * (catalogue.n - items + place) - catalogue.n - 1) * recommended ORDER BY place)
                    / NULLIF(CAST(catalogue.n * sum(recommended) AS DOUBLE), 0), 0.0) AS value
    FROM (SELECT DISTINCT run_id FROM query_table(users_table)) AS runs CROSS JOIN catalogue
    LEFT JOIN counts USING (run_id)
    GROUP BY runs.run_id, catalogue.n;
