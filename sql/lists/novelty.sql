-- sqlrank.list_novelty(users_table, lists_table, train_table, catalogue_table, k, tail) -> (run_id, query_id, value)
--
-- Novelty@k: the mean self-information of the recommended items, -log2(the item's share of the training
-- interactions) (Castells, Vargas and Wang, ECIR 2011; recommenders' python_evaluation.novelty). Per user, the
-- mean over the user's top k; the `all` row, as recommenders, over every recommendation of the run: the users'
-- sums over their items, so a user with a longer list weighs more. An item never interacted with in training
-- adds 0 (recommenders' inner join leaves it out of the sum, not of the count). A user without a list: 0.
--
-- Example: training a, a, a, b (a: 3/4, b: 1/4); u1 gets a, b; u2 gets b, c:
--   u1 = (log2(4/3) + 2) / 2, u2 = (2 + 0) / 2; all = (log2(4/3) + 2 + 2 + 0) / 4
CREATE OR REPLACE MACRO sqlrank.list_novelty(users_table, lists_table, train_table, catalogue_table, k, tail) AS TABLE
    WITH per_user AS (
        SELECT u.run_id, u.query_id,
               coalesce(list_sum(list(coalesce(-log2(i.share), 0.0) ORDER BY l.rank) FILTER (WHERE l.doc_id IS NOT NULL)),
                        0.0) AS total,
               count(l.doc_id) AS items
        FROM query_table(users_table) AS u
        LEFT JOIN sqlrank.user_lists(users_table, lists_table, k) AS l USING (run_id, query_id)
        LEFT JOIN sqlrank.item_interactions(train_table) AS i ON i.doc_id = l.doc_id
        GROUP BY u.run_id, u.query_id
    )
    SELECT run_id, query_id, coalesce(total / NULLIF(items, 0), 0.0) AS value FROM per_user
    UNION ALL
    SELECT run_id, 'all', coalesce(sum(total ORDER BY query_id) / NULLIF(sum(items), 0), 0.0) FROM per_user
    GROUP BY run_id;
