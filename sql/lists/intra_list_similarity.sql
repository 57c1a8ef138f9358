-- sqlrank.list_intra_list_similarity(users_table, lists_table, train_table, catalogue_table, k, tail,
--                                    features_table, relevant_table, similarity) -> (run_id, query_id, value)
--
-- IntraListSimilarity@k (ILS; Ziegler, McNee, Konstan and Lausen, WWW 2005; recommenders' intra-list
-- similarity, the `avg_il_sim` its user_diversity subtracts from 1): per user, the mean cosine similarity over
-- the pairs of distinct items of the top k, the items' vectors from co-occurrence in the training interactions
-- (similarity 'cooccurrence', recommenders' item_cooccurrence_count) or from their features ('features',
-- item_feature_vector). The `all` row, the mean over the users whose top k has a pair: recommenders leaves the
-- others out, and their own value is 0.
--
-- Example: u1 gets a, b, c with cos(a, b) = 1, cos(a, c) = cos(b, c) = 0: u1 = 1/3; u2 gets d alone: 0,
-- left out of `all` = 1/3
CREATE OR REPLACE MACRO sqlrank.list_intra_list_similarity(users_table, lists_table, train_table, catalogue_table, k,
                                                           tail, features_table, relevant_table, similarity) AS TABLE
    WITH per_user AS (
        FROM sqlrank.intra_list_similarities(users_table, lists_table, train_table, features_table, k, similarity)
    )
    SELECT u.run_id, u.query_id, coalesce(p.similarity, 0.0) AS value
    FROM query_table(users_table) AS u LEFT JOIN per_user AS p USING (run_id, query_id)
    UNION ALL
    SELECT runs.run_id, 'all', coalesce(sum(p.similarity ORDER BY p.query_id) / NULLIF(count(p.query_id), 0), 0.0)
    FROM (SELECT DISTINCT run_id FROM query_table(users_table)) AS runs LEFT JOIN per_user AS p USING (run_id)
    GROUP BY runs.run_id;
