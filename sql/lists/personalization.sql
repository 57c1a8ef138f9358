-- sqlrank.list_personalization(users_table, lists_table, train_table, catalogue_table, k, tail) -> (run_id, query_id, value)
--
-- Personalization@k, a measure of the whole run (its `all` row alone): 1 - the mean cosine similarity of two
-- users' top k over every pair of users with a list, cos(u, v) = |L_u ∩ L_v| / sqrt(|L_u| |L_v|)
-- (recmetrics' personalization, over binary item vectors). No pair is formed: an item in the lists of users
-- with weights w_u = 1 / sqrt(|L_u|) adds ((Σ w_u)² - Σ w_u²) / 2 to the sum over pairs, so the cost is one
-- pass over the recommendations, not the users squared. 0 with fewer than two users.
--
-- Example: u1 gets a, b; u2 gets a, c; u3 gets d, e: cos = 1/2, 0, 0; 1 - (1/2) / 3 = 5/6
CREATE OR REPLACE MACRO sqlrank.list_personalization(users_table, lists_table, train_table, catalogue_table, k, tail) AS TABLE
    WITH lists AS (
        SELECT run_id, query_id, doc_id, 1 / NULLIF(sqrt(count(*) OVER (PARTITION BY run_id, query_id)), 0) AS w
        FROM sqlrank.user_lists(users_table, lists_table, k)
    ),
    per_item AS (
        SELECT run_id, doc_id, (sum(w ORDER BY query_id) ^ 2 - sum(w * w ORDER BY query_id)) * 0.5 AS pairs
        FROM lists GROUP BY run_id, doc_id
    ),
    per_run AS (
        SELECT runs.run_id,
               (SELECT count(DISTINCT query_id) FROM lists WHERE lists.run_id = runs.run_id) AS users,
               (SELECT sum(pairs ORDER BY doc_id) FROM per_item WHERE per_item.run_id = runs.run_id) AS similarity
        FROM (SELECT DISTINCT run_id FROM query_table(users_table)) AS runs
    )
    SELECT run_id, 'all' AS query_id,
           CASE WHEN users < 2 THEN 0.0 ELSE 1 - coalesce(similarity, 0.0) / NULLIF(users * (users - 1) * 0.5, 0) END AS value
    FROM per_run;
