-- sqlrank.measure_rprec(ranking, k, rel) -> DOUBLE
--
-- Rprec, R-precision: the relevant documents within the top R, divided by R,
-- R being the query's relevant judgments; 0 when R = 0 (trec_eval's Rprec).
-- It takes no cutoff (k is always NULL) and reads the whole ranking.
--
-- Example: R = 3; relevant documents at ranks 1, 3 and 7: Rprec = 2/3 = 0.6667
--
-- R is computed once, outside the lambdas that read the documents, and passed in by name: inside
-- them it would be counted again for every document (sql/21_ranking_parts.sql)
CREATE OR REPLACE MACRO sqlrank.measure_rprec(ranking, k, rel) AS
    list_transform([sqlrank.num_relevant(ranking, rel)], lambda r:
        coalesce(CAST(len(sqlrank.relevant_ranks(ranking, r, rel)) AS DOUBLE) / NULLIF(r, 0), 0))[1];

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
CREATE OR REPLACE MACRO sqlrank.average_rprec(ranking, k, rel) AS
    list_transform([sqlrank.num_relevant(ranking, rel)], lambda r:
        coalesce(sqlrank.expected_relevant(ranking, r, rel) / NULLIF(r, 0), 0))[1];
