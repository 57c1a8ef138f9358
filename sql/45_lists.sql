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

-- The item similarities (Diversity, IntraListSimilarity, Serendipity) read one more canonical table:
--   features   (doc_id, feature, weight): each item's feature vector, one row per non-zero component
--              (an embedding's position and value, or a category with weight 1)
--
-- sqlrank.item_vectors(train_table, features_table, similarity) -> (doc_id, feature, weight)
--     the vectors the cosine reads: with similarity 'features' the features table; with 'cooccurrence' each
--     item's column of the user × item matrix of the training interactions (a user is a feature of weight 1)
-- sqlrank.cosine_pairs(pairs_table, train_table, features_table, similarity) -> (a, b, similarity)
--     the cosine of the item vectors a and b for each distinct pair (a, b) of pairs_table; 0 when an item has
--     no vector or a vector of zeros (recommenders fills a missing pair with 0)
-- sqlrank.intra_list_similarities(users_table, lists_table, train_table, features_table, k, similarity)
--     -> (run_id, query_id, similarity): the mean cosine over the pairs of distinct items of each user's top k,
--     for the users whose top k has two items or more (the others have no pair)
--
-- Example (co-occurrence): training u1: a, b; u2: a -> a = (u1: 1, u2: 1), b = (u1: 1); cos(a, b) = 1 / √2
CREATE OR REPLACE MACRO sqlrank.item_vectors(train_table, features_table, similarity) AS TABLE
    SELECT doc_id, feature, weight FROM query_table(features_table) WHERE similarity = 'features'
    UNION ALL
    SELECT DISTINCT doc_id, query_id AS feature, 1.0 AS weight FROM query_table(train_table)
    WHERE similarity = 'cooccurrence';

CREATE OR REPLACE MACRO sqlrank.cosine_pairs(pairs_table, train_table, features_table, similarity) AS TABLE
    WITH wanted AS (
        SELECT DISTINCT a, b FROM query_table(pairs_table)
    ),
    vectors AS (
        FROM sqlrank.item_vectors(train_table, features_table, similarity)
        SEMI JOIN (SELECT a AS doc_id FROM wanted UNION SELECT b FROM wanted) USING (doc_id)
    ),
    norms AS (
        SELECT doc_id, sqrt(sum(weight * weight ORDER BY feature)) AS norm, count(*) AS size
        FROM vectors GROUP BY doc_id
    ),
    -- the item with the shorter vector is read component by component and looked up in the other's, so that a
    -- pair costs its shorter vector (a popular item's co-occurrence vector holds thousands of users)
    oriented AS (
        SELECT w.a, w.b,
               CASE WHEN coalesce(na.size, 0) <= coalesce(nb.size, 0) THEN w.a ELSE w.b END AS shorter,
               CASE WHEN coalesce(na.size, 0) <= coalesce(nb.size, 0) THEN w.b ELSE w.a END AS longer
        FROM wanted AS w
        LEFT JOIN norms AS na ON na.doc_id = w.a
        LEFT JOIN norms AS nb ON nb.doc_id = w.b
    ),
    dots AS (
        SELECT o.a, o.b, sum(vs.weight * vl.weight ORDER BY vs.feature) AS dot
        FROM oriented AS o
        JOIN vectors AS vs ON vs.doc_id = o.shorter
        JOIN vectors AS vl ON vl.doc_id = o.longer AND vl.feature = vs.feature
        GROUP BY o.a, o.b
    )
    SELECT w.a, w.b, coalesce(d.dot / NULLIF(na.norm * nb.norm, 0), 0.0) AS similarity
    FROM wanted AS w
    LEFT JOIN dots AS d USING (a, b)
    LEFT JOIN norms AS na ON na.doc_id = w.a
    LEFT JOIN norms AS nb ON nb.doc_id = w.b;

CREATE OR REPLACE MACRO sqlrank.intra_list_similarities(users_table, lists_table, train_table, features_table, k,
                                                        similarity) AS TABLE
    WITH lists AS (
        FROM sqlrank.user_lists(users_table, lists_table, k)
    ),
    pairs AS (
        SELECT l1.run_id, l1.query_id, l1.doc_id AS a, l2.doc_id AS b
        FROM lists AS l1 JOIN lists AS l2 USING (run_id, query_id)
        WHERE l1.doc_id < l2.doc_id
    )
    SELECT p.run_id, p.query_id, sum(s.similarity ORDER BY p.a, p.b) / NULLIF(count(*), 0) AS similarity
    FROM pairs AS p JOIN sqlrank.cosine_pairs('pairs', train_table, features_table, similarity) AS s USING (a, b)
    GROUP BY p.run_id, p.query_id;

-- sqlrank.list_weights(users_table, lists_table, train_table, k) -> (run_id, query_id, items, pair, history)
--     how much each user weighs in the `all` row of a per-user list measure, for an engine that makes that row
--     from the per-user values (Spark; registry.ListMeasureDef.all_weight): the items of the top k (Novelty,
--     whose `all` row is over every recommendation), 1 when the top k has a pair of items (Diversity,
--     IntraListSimilarity), 1 when the user has a top k and a training history (Serendipity), else 0
CREATE OR REPLACE MACRO sqlrank.list_weights(users_table, lists_table, train_table, k) AS TABLE
    SELECT u.run_id, u.query_id, CAST(count(l.doc_id) AS DOUBLE) AS items,
           CASE WHEN count(l.doc_id) >= 2 THEN 1.0 ELSE 0.0 END AS pair,
           CASE WHEN count(l.doc_id) >= 1 AND u.query_id IN (SELECT query_id FROM query_table(train_table))
                THEN 1.0 ELSE 0.0 END AS history
    FROM query_table(users_table) AS u
    LEFT JOIN sqlrank.user_lists(users_table, lists_table, k) AS l USING (run_id, query_id)
    GROUP BY u.run_id, u.query_id;
