-- sqlrank.measure_err(ranking, k, max_grade) -> DOUBLE
--
-- ERR@k, expected reciprocal rank (Chapelle, Metzler, Zhang & Grinspan 2009),
-- as gdeval computes it (the TREC Web track's script, which ir_measures runs):
-- a user reads down the list and stops at rank i with probability R_i, having
-- read on past every document above it,
--   ERR@k = Σ_{i <= k} (R_i / i) · Π_{j < i} (1 - R_j),  R = (2^label - 1) / 2^max_grade
-- Labels <= 0, unjudged documents and negative labels give R = 0. The
-- denominator is 2^max_grade, not 2^max_grade - 1: even a top-grade document
-- stops only 15/16 of the users with gdeval's max_grade 4 (fixed there, a
-- parameter here). A label above max_grade is an error, as in gdeval.
--
-- Example: labels by rank 0, 1, 3 (max_grade 4: R = 0, 1/16, 7/16):
--   ERR = (1/16) / 2 + (15/16) · (7/16) / 3 = 0.1680;  ERR@2 = 0.03125
CREATE OR REPLACE MACRO sqlrank.measure_err(ranking, k, max_grade) AS
    CASE WHEN ranking.labels[1] > max_grade
         THEN error('sqlrank: ERR: a label (' || CAST(ranking.labels[1] AS VARCHAR) || ') is above max_grade ('
                    || CAST(max_grade AS VARCHAR) || '); pass ERR(max_grade=...) with the highest grade')
    ELSE coalesce(list_sum(list_transform(
        list_filter(sqlrank.top_documents(ranking, k), lambda d: d.label > 0),
        lambda hit, j: (pow(2, hit.label) - 1) / NULLIF(pow(2, max_grade), 0) / NULLIF(hit.rank, 0)
            * coalesce(list_product(list_transform(
                  list_slice(list_filter(sqlrank.top_documents(ranking, k), lambda d: d.label > 0), 1, j - 1),
                  lambda above: 1 - (pow(2, above.label) - 1) / NULLIF(pow(2, max_grade), 0))), 1))), 0)
    END;
