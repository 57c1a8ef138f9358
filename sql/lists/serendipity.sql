-- sqlrank.list_serendipity(users_table, lists_table, train_table, catalogue_table, k, tail,
--                          features_table, relevant_table, similarity) -> (run_id, query_id, value)
--
-- Serendipity@k (recommenders' serendipity, user_serendipity and user_item_serendipity, after Zhang et al.,
-- Auralist, WSDM 2012, and Eugene Yan's "Serendipity: accuracy's unpopular best friend", 2020): an item of the
-- user's top k scores (1 - its mean cosine similarity to the items of the user's training history) × 1 when the
-- truth judges it relevant (label >= 1), else 0; the user, the mean over the top k; the `all` row, the mean over
-- the users with a list and a training history (recommenders' inner join leaves the others out; their own value
-- is 0). The history is the user's distinct training items; the similarity as for Diversity (sql/45_lists.sql).
--
-- Example: u1 has seen a, b and gets c (relevant; cos(c, a) = 1/2, cos(c, b) = 0) and d (not relevant):
-- c = 1 - 1/4 = 3/4, d = 0; u1 = 3/8
CREATE OR REPLACE MACRO sqlrank.list_serendipity(users_table, lists_table, train_table, catalogue_table, k, tail,
                                                 features_table, relevant_table, similarity) AS TABLE
    WITH per_item AS (
        SELECT s.run_id, s.query_id, s.doc_id AS item,
               CASE WHEN r.doc_id IS NULL THEN 0.0 ELSE 1 - s.similarity END AS value
        FROM sqlrank.history_similarities(users_table, lists_table, train_table, features_table, k, similarity) AS s
        LEFT JOIN (SELECT DISTINCT query_id, doc_id FROM query_table(relevant_table)) AS r
               ON r.query_id = s.query_id AND r.doc_id = s.doc_id
    ),
    per_user AS (
        SELECT run_id, query_id, sum(value ORDER BY item) / NULLIF(count(*), 0) AS serendipity
        FROM per_item GROUP BY run_id, query_id
    )
    SELECT u.run_id, u.query_id, coalesce(p.serendipity, 0.0) AS value
    FROM query_table(users_table) AS u LEFT JOIN per_user AS p USING (run_id, query_id)
    UNION ALL
    SELECT runs.run_id, 'all', coalesce(sum(p.serendipity ORDER BY p.query_id) / NULLIF(count(p.query_id), 0), 0.0)
    FROM (SELECT DISTINCT run_id FROM query_table(users_table)) AS runs LEFT JOIN per_user AS p USING (run_id)
    GROUP BY runs.run_id;
