-- sqlrank.list_diversity(users_table, lists_table, train_table, catalogue_table, k, tail,
--                        features_table, relevant_table, similarity) -> (run_id, query_id, value)
--
-- Diversity@k, intra-list diversity (recommenders' diversity and user_diversity, after Zhang, Séaghdha, Quercia
-- and Jambor, Auralist, WSDM 2012, formula 3): per user, 1 - IntraListSimilarity@k, the mean cosine similarity
-- over the pairs of distinct items of the top k (item vectors from co-occurrence in the training interactions,
-- or from the items' features: sql/45_lists.sql). The `all` row, the mean over the users whose top k has a
-- pair: recommenders leaves the others out, and their own value is 0.
--
-- Example: u1 gets a, b, c with cos(a, b) = 1, cos(a, c) = cos(b, c) = 0: u1 = 1 - 1/3 = 2/3; u2 gets d
-- alone: 0, left out of `all` = 2/3
CREATE OR REPLACE MACRO sqlrank.list_diversity(users_table, lists_table, train_table, catalogue_table, k, tail,
                                               features_table, relevant_table, similarity) AS TABLE
    WITH per_user AS (
        SELECT s.run_id, s.query_id, 1 - s.similarity AS diversity  -- qualified: the parameter has its name
        FROM sqlrank.intra_list_similarities(users_table, lists_table, train_table, features_table, k,
                                             similarity) AS s
    )
    SELECT u.run_id, u.query_id, coalesce(p.diversity, 0.0) AS value
    FROM query_table(users_table) AS u LEFT JOIN per_user AS p USING (run_id, query_id)
    UNION ALL
    SELECT runs.run_id, 'all', coalesce(sum(p.diversity ORDER BY p.query_id) / NULLIF(count(p.query_id), 0), 0.0)
    FROM (SELECT DISTINCT run_id FROM query_table(users_table)) AS runs LEFT JOIN per_user AS p USING (run_id)
    GROUP BY runs.run_id;
