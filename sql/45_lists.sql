-- The pieces the list measures share (sql/lists/, the measures of the recommended lists themselves, beyond
-- accuracy: docs/recommenders.md). They read four canonical tables, with text ids:
--   users      (run_id, query_id): the users evaluated, as the missing and empty policies left them
--   lists      (run_id, query_id, doc_id, rank): each run's ranked items per user (sqlrank.ranked's order)
--   train      (query_id, doc_id): the training interactions, one row each (popularity)
--   catalogue  (doc_id): every item that could be recommended (an items table, else the training items)
--
-- sqlrank.user_lists(users_table, lists_table, k) -> (run_id, query_id, doc_id, rank)
--     the items of each evaluated user's list within k (k NULL: the whole list)
-- sqlrank.item_interactions(train_table) -> (doc_id, interactions, share)
--     each training item's number of interactions, and its share of all the interactions
--
-- Example: lists u1: a b c, u2: a d, users u1 alone, k 2 -> u1's a (1), b (2).
CREATE OR REPLACE MACRO sqlrank.user_lists(users_table, lists_table, k) AS TABLE
    SELECT l.run_id, l.query_id, l.doc_id, l.rank
    FROM query_table(lists_table) AS l SEMI JOIN query_table(users_table) AS u USING (run_id, query_id)
    WHERE k IS NULL OR l.rank <= k;

CREATE OR REPLACE MACRO sqlrank.item_interactions(train_table) AS TABLE
    SELECT doc_id, count(*) AS interactions,
           count(*) / NULLIF(CAST(sum(count(*)) OVER () AS DOUBLE), 0) AS share
    FROM query_table(train_table)
    GROUP BY doc_id;
