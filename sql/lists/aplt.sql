-- sqlrank.list_aplt(users_table, lists_table, train_table, catalogue_table, k, tail) -> (run_id, query_id, value)
--
-- APLT@k, average percentage of long tail: per user, the share of the top k that is long-tail items; the `all`
-- row, the mean over users (Abdollahpouri et al. 2019; RecBole's TailPercentage). The long tail as RecBole
-- defines it: with tail < 1 (its tail_ratio, default 0.1), the max(floor(tail · the training items), 1) items
-- with the fewest training interactions, ties by item id (sqlrank compares ids as text); with tail >= 1, every
-- training item with at most `tail` interactions. An item never interacted with in training is not in the tail
-- (RecBole counts only the training items). A user without a list: 0.
--
-- Example: training a, a, a, b, c, c (counts a 3, b 1, c 2), tail 0.5: floor(1.5) = 1 item, b;
--   u1 gets a, b: 1/2; u2 gets c, d: 0; all 0.25
CREATE OR REPLACE MACRO sqlrank.list_aplt(users_table, lists_table, train_table, catalogue_table, k, tail) AS TABLE
    WITH counted AS (
        SELECT doc_id, interactions, row_number() OVER (ORDER BY interactions, doc_id) AS place, count(*) OVER () AS items
        FROM sqlrank.item_interactions(train_table)
    ),
    long_tail AS (
        SELECT doc_id FROM counted
        WHERE CASE WHEN tail >= 1 THEN interactions <= tail ELSE place <= greatest(floor(items * tail), 1) END
    ),
    per_user AS (
        SELECT u.run_id, u.query_id,
               coalesce(count(t.doc_id) / NULLIF(CAST(count(l.doc_id) AS DOUBLE), 0), 0.0) AS value
        FROM query_table(users_table) AS u
        LEFT JOIN sqlrank.user_lists(users_table, lists_table, k) AS l USING (run_id, query_id)
        LEFT JOIN long_tail AS t ON t.doc_id = l.doc_id
        GROUP BY u.run_id, u.query_id
    )
    SELECT run_id, query_id, value FROM per_user
    UNION ALL
    SELECT run_id, 'all', sum(value ORDER BY query_id) / NULLIF(count(*), 0) FROM per_user GROUP BY run_id;
