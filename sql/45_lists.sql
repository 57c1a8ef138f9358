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
-- The similarity of two items is the cosine of their vectors: with similarity 'features' the features table's;
-- with 'cooccurrence' each item's column of the user × item matrix of the training interactions (a user is a
-- feature of weight 1, so the dot of two items is the number of training users they share, and an item's norm
-- the square root of its number of users). An item without a vector, or with a vector of zeros, has
-- similarity 0 with every item (recommenders fills a missing pair with 0). No pair of items is formed where a
-- sum of vectors does: the sum of the cosines of an item to a set of items is its unit vector's dot with the
-- sum of their unit vectors, and the sum over the pairs of a set is (|Σ u|² - Σ |u|²) / 2.
--
-- sqlrank.unit_vectors(features_table) -> (doc_id, feature, weight)
--     each item's feature vector divided by its norm (an item with a vector of zeros has none)
-- sqlrank.item_codes(train_table) -> (doc_id, users, code)
--     each training item's number of distinct training users and a whole-number code, in doc_id order; a pair
--     of items is the BIGINT a.code * 2^32 + b.code (sqlrank.item_pair): one fixed-size key to join and group on,
--     not two texts
-- sqlrank.item_pair(a, b) -> the BIGINT key of the pair of item codes (a, b); a = key >> 32, b = key & (2^32 - 1)
-- sqlrank.shared_users(train_table, codes_table, left_table, right_table) -> (pair, cosine)
--     the co-occurrence cosine |U_a ∩ U_b| / √(|U_a| |U_b|) of each item a of left_table and b ≠ a of
--     right_table (their column code, of codes_table) that share a training user, U an item's distinct
--     training users; a < b alone when the two tables are one
-- sqlrank.intra_list_similarities(users_table, lists_table, train_table, features_table, k, similarity)
--     -> (run_id, query_id, similarity): the mean cosine over the pairs of distinct items of each user's top k,
--     for the users whose top k has two items or more (the others have no pair)
-- sqlrank.history_similarities(users_table, lists_table, train_table, features_table, k, similarity)
--     -> (run_id, query_id, doc_id, similarity): the mean cosine of each item of each user's top k to the
--     items of the user's training history (its distinct training items), for the users with a history
--
-- Example (co-occurrence): training u1: a, b; u2: a -> a = (u1: 1, u2: 1), b = (u1: 1); cos(a, b) = 1 / √2
--
-- Sums of floats add in DECIMAL(38, 24), whose integer addition gives the same bits in any order (an ordered
-- sum() over millions of groups sorts each group and holds them all); the terms round at 1e-24.
CREATE OR REPLACE MACRO sqlrank.unit_vectors(features_table) AS TABLE
    WITH norms AS (
        SELECT doc_id, sqrt(sum(weight * weight ORDER BY feature)) AS norm  -- ordered: a weight may be any size
        FROM query_table(features_table) GROUP BY doc_id
    )
    SELECT f.doc_id, f.feature, f.weight / NULLIF(n.norm, 0) AS weight
    FROM query_table(features_table) AS f JOIN norms AS n USING (doc_id)
    WHERE n.norm > 0;

CREATE OR REPLACE MACRO sqlrank.item_codes(train_table) AS TABLE
    SELECT doc_id, count(DISTINCT query_id) AS users, row_number() OVER (ORDER BY doc_id) AS code
    FROM query_table(train_table) GROUP BY doc_id;

CREATE OR REPLACE MACRO sqlrank.item_pair(a, b) AS a * 4294967296 + b;

CREATE OR REPLACE MACRO sqlrank.shared_users(train_table, codes_table, left_table, right_table) AS TABLE
    WITH seen AS (
        SELECT DISTINCT t.query_id, c.code
        FROM query_table(train_table) AS t JOIN query_table(codes_table) AS c USING (doc_id)
    ),
    shared AS (
        SELECT sqlrank.item_pair(l.code, r.code) AS pair, count(*) AS users
        FROM (FROM seen SEMI JOIN query_table(left_table) USING (code)) AS l
        JOIN (FROM seen SEMI JOIN query_table(right_table) USING (code)) AS r USING (query_id)
        WHERE l.code <> r.code AND (left_table <> right_table OR l.code < r.code)
        GROUP BY pair
    )
    SELECT s.pair, s.users / NULLIF(sqrt(CAST(ca.users * cb.users AS DOUBLE)), 0) AS cosine
    FROM shared AS s
    JOIN query_table(codes_table) AS ca ON ca.code = s.pair >> 32
    JOIN query_table(codes_table) AS cb ON cb.code = s.pair & 4294967295;

CREATE OR REPLACE MACRO sqlrank.intra_list_similarities(users_table, lists_table, train_table, features_table, k,
                                                        similarity) AS TABLE
    WITH lists AS (
        FROM sqlrank.user_lists(users_table, lists_table, k)
    ),
    sizes AS (
        SELECT run_id, query_id, count(*) AS items FROM lists GROUP BY run_id, query_id HAVING count(*) >= 2
    ),
    -- by features: twice the sum over the pairs of a list, per feature, is (Σ u)² - Σ u²
    per_feature AS (
        SELECT l.run_id, l.query_id,
               sum(CAST(v.weight AS DECIMAL(38, 24))) AS total,
               sum(CAST(v.weight * v.weight AS DECIMAL(38, 24))) AS squares
        FROM lists AS l JOIN sqlrank.unit_vectors(features_table) AS v USING (doc_id)
        WHERE similarity = 'features'
        GROUP BY l.run_id, l.query_id, v.feature
    ),
    by_features AS (
        SELECT run_id, query_id,
               sum(CAST((CAST(total AS DOUBLE) ^ 2 - CAST(squares AS DOUBLE)) * 0.5 AS DECIMAL(38, 24))) AS pairs
        FROM per_feature GROUP BY run_id, query_id
    ),
    -- by co-occurrence: the pairs of each list that share a training user
    codes AS (
        FROM sqlrank.item_codes(train_table) WHERE similarity = 'cooccurrence'
    ),
    coded AS (
        SELECT l.run_id, l.query_id, c.code FROM lists AS l JOIN codes AS c USING (doc_id)
    ),
    listed AS (
        SELECT DISTINCT code FROM coded
    ),
    by_cooccurrence AS (
        SELECT l1.run_id, l1.query_id, sum(CAST(s.cosine AS DECIMAL(38, 24))) AS pairs
        FROM coded AS l1
        JOIN coded AS l2 ON l2.run_id = l1.run_id AND l2.query_id = l1.query_id AND l1.code < l2.code
        JOIN sqlrank.shared_users(train_table, 'codes', 'listed', 'listed') AS s
          ON s.pair = sqlrank.item_pair(l1.code, l2.code)
        GROUP BY l1.run_id, l1.query_id
    ),
    sums AS (
        FROM by_features UNION ALL FROM by_cooccurrence
    )
    SELECT z.run_id, z.query_id,
           coalesce(CAST(s.pairs AS DOUBLE), 0.0) / NULLIF(z.items * (z.items - 1) * 0.5, 0) AS similarity
    FROM sizes AS z LEFT JOIN sums AS s USING (run_id, query_id);

CREATE OR REPLACE MACRO sqlrank.history_similarities(users_table, lists_table, train_table, features_table, k,
                                                     similarity) AS TABLE
    WITH lists AS (
        FROM sqlrank.user_lists(users_table, lists_table, k)
    ),
    history AS (
        SELECT DISTINCT query_id, doc_id FROM query_table(train_table)
    ),
    sizes AS (
        SELECT query_id, count(*) AS items FROM history GROUP BY query_id
    ),
    -- by features: the sum of an item's cosines to a history is its unit vector's dot with the history's sum
    history_sums AS (
        SELECT h.query_id, v.feature, CAST(sum(CAST(v.weight AS DECIMAL(38, 24))) AS DOUBLE) AS total
        FROM history AS h JOIN sqlrank.unit_vectors(features_table) AS v USING (doc_id)
        WHERE similarity = 'features'
        GROUP BY h.query_id, v.feature
    ),
    by_features AS (
        SELECT l.run_id, l.query_id, l.doc_id, sum(CAST(v.weight * s.total AS DECIMAL(38, 24))) AS total
        FROM lists AS l
        JOIN sqlrank.unit_vectors(features_table) AS v USING (doc_id)
        JOIN history_sums AS s ON s.query_id = l.query_id AND s.feature = v.feature
        GROUP BY l.run_id, l.query_id, l.doc_id
    ),
    -- by co-occurrence: the items of the history that share a training user with the item (an item seen before
    -- shares all its users with itself: cosine 1)
    codes AS (
        FROM sqlrank.item_codes(train_table) WHERE similarity = 'cooccurrence'
    ),
    coded AS (
        SELECT l.run_id, l.query_id, l.doc_id, c.code FROM lists AS l JOIN codes AS c USING (doc_id)
    ),
    listed AS (
        SELECT DISTINCT code FROM coded
    ),
    cosines AS (
        FROM sqlrank.shared_users(train_table, 'codes', 'listed', 'codes')
        UNION ALL
        SELECT sqlrank.item_pair(code, code), 1.0 FROM listed
    ),
    by_cooccurrence AS (
        SELECT l.run_id, l.query_id, l.doc_id, sum(CAST(s.cosine AS DECIMAL(38, 24))) AS total
        FROM coded AS l
        JOIN (SELECT h.query_id, c.code FROM history AS h JOIN codes AS c USING (doc_id)) AS h USING (query_id)
        JOIN cosines AS s ON s.pair = sqlrank.item_pair(l.code, h.code)
        GROUP BY l.run_id, l.query_id, l.doc_id
    ),
    sums AS (
        FROM by_features UNION ALL FROM by_cooccurrence
    )
    SELECT l.run_id, l.query_id, l.doc_id, coalesce(CAST(s.total AS DOUBLE), 0.0) / NULLIF(z.items, 0) AS similarity
    FROM lists AS l
    JOIN sizes AS z USING (query_id)
    LEFT JOIN sums AS s USING (run_id, query_id, doc_id);

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
