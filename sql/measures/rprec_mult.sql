-- sqlrank.measure_rprec_mult(ranking, k, rel, multiple) -> DOUBLE
--
-- RprecMult@multiple, precision at a multiple of R (trec_eval's Rprec_mult_x,
-- m_Rprec_mult.c): P@c with c = (long)(multiple · R + 0.9), the rank truncated
-- after adding 0.9 (not rounded, unlike IPrec's level in trec_eval 10); always
-- divided by c, ranks the run did not fill counting as non-relevant. 0 when c is 0
-- (R = 0). RprecMult@1 is Rprec when R documents were retrieved. Whole list.
--
-- Example: R = 4; relevant documents at ranks 1 and 4, 4 retrieved:
--   RprecMult@0.2 = P@1 = 1 ((long)(0.8 + 0.9) = 1);  RprecMult@1 = P@4 = 0.5;  RprecMult@2 = P@8 = 0.25
--
-- the cutoff is computed once, outside the lambdas that read the documents, and passed in by name:
-- inside them R would be counted again for every document (sql/21_ranking_parts.sql)
CREATE OR REPLACE MACRO sqlrank.measure_rprec_mult(ranking, k, rel, multiple) AS
    list_transform([floor(CAST(multiple AS DOUBLE) * sqlrank.num_relevant(ranking, rel) + CAST(0.9 AS DOUBLE))],
        lambda cut: coalesce(CAST(len(sqlrank.relevant_ranks(ranking, CAST(cut AS BIGINT), rel)) AS DOUBLE)
                             / NULLIF(cut, 0), 0))[1];

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- P@c: c = (long)(multiple · R + 0.9) does not read the order
CREATE OR REPLACE MACRO sqlrank.average_rprec_mult(ranking, k, rel, multiple) AS
    list_transform([floor(CAST(multiple AS DOUBLE) * sqlrank.num_relevant(ranking, rel) + CAST(0.9 AS DOUBLE))],
        lambda cut: coalesce(sqlrank.expected_relevant(ranking, CAST(cut AS BIGINT), rel) / NULLIF(cut, 0), 0))[1];
