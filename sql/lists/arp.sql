-- sqlrank.list_arp(users_table, lists_table, train_table, catalogue_table, k, tail) -> (run_id, query_id, value)
--
-- ARP@k, average recommendation popularity: per user, the mean number of training interactions of the items in
-- the top k (Abdollahpouri et al. 2019; RecBole's AveragePopularity); the `all` row, the mean over users. An
-- item never interacted with counts 0 (RecBole's item_count.get(item, 0)). A user without a list: 0.
--
-- Example: training a, a, a, b; u1 gets a, b; u2 gets b, c: u1 = (3 + 1) / 2 = 2, u2 = (1 + 0) / 2; all 1.25
CREATE OR REPLACE MACRO sqlrank.list_arp(users_table, lists_table, train_table, catalogue_table, k, tail) AS TABLE
    WITH per_user AS (
        SELECT u.run_id, u.query_id,
               coalesce(list_sum(list(CAST(coalesce(i.interactions, 0) AS DOUBLE) ORDER BY l.rank)
                                 FILTER (WHERE l.doc_id IS NOT NULL)) / NULLIF(count(l.doc_id), 0), 0.0) AS value
        FROM query_table(users_table) AS u
        LEFT JOIN sqlrank.user_lists(users_table, lists_table, k) AS l USING (run_id, query_id)
        LEFT JOIN sqlrank.item_interactions(train_table) AS i ON i.doc_id = l.doc_id
        GROUP BY u.run_id, u.query_id
    )
    SELECT run_id, query_id, value FROM per_user
    UNION ALL
    SELECT run_id, 'all', sum(value ORDER BY query_id) / NULLIF(count(*), 0) FROM per_user GROUP BY run_id;
