-- sqlrank.measure_ap(ranking, k, rel, denominator) -> DOUBLE
--
-- AP@k, average precision: the precision at each relevant document ranked
-- within k, added up and divided by
--   denominator := 'R'          the query's relevant judgments (trec_eval's map
--                               and map_cut_k; the default)
--                  'min_R_k'    min(R, k) (Spark's meanAveragePrecisionAt, Kaggle's apk)
--                  'retrieved'  the relevant documents within k
--   AP@k = Σ_{j-th relevant document, at rank r_j <= k} (j / r_j) / denominator
-- 0 when the denominator is 0. Relevant: label >= rel (sql/04_relevance.sql).
--
-- Example: R = 3; relevant documents at ranks 1 and 3 of the ranking:
--   AP = (1/1 + 2/3) / 3 = 0.5555555555555556;  with denominator 'retrieved': (1 + 2/3) / 2 = 0.8333
CREATE OR REPLACE MACRO sqlrank.measure_ap(ranking, k, rel, denominator) AS
    coalesce(
        -- Σ (1/r_j) · j, an inner product that adds in rank order
        list_inner_product(
            list_transform(sqlrank.relevant_ranks(ranking, k, rel), lambda r: 1.0 / NULLIF(r, 0)),
            CAST(range(1, len(sqlrank.relevant_ranks(ranking, k, rel)) + 1) AS DOUBLE[]))
        / NULLIF(CASE sqlrank.choice(denominator, ['R', 'min_R_k', 'retrieved'], 'denominator')
                     WHEN 'min_R_k' THEN least(sqlrank.num_relevant(ranking, rel), coalesce(k, 9223372036854775807))
                     WHEN 'retrieved' THEN len(sqlrank.relevant_ranks(ranking, k, rel))
                     ELSE sqlrank.num_relevant(ranking, rel)
                 END, 0),
        0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
CREATE OR REPLACE MACRO sqlrank.average_ap(ranking, k, rel, denominator) AS
    coalesce(
        sqlrank.expected_precision_sum(ranking, k, rel)
        / NULLIF(CASE sqlrank.choice(denominator, ['R', 'min_R_k', 'retrieved'], 'denominator')
                     WHEN 'min_R_k' THEN least(sqlrank.num_relevant(ranking, rel), coalesce(k, 9223372036854775807))
                     WHEN 'retrieved' THEN error('sqlrank: ties := ''average'' is not defined yet for '
                                                 || 'AP(denominator=retrieved), whose denominator varies with the '
                                                 || 'order; use denominator R or min_R_k')
                     ELSE sqlrank.num_relevant(ranking, rel)
                 END, 0),
        0);
