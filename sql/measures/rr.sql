-- sqlrank.measure_rr(ranking, k, rel) -> DOUBLE
--
-- RR@k, reciprocal rank: 1 / the rank of the first relevant document, when it
-- is ranked within k; else 0 (trec_eval's recip_rank; its mean is MRR).
--
-- Example: the first relevant document at rank 3: RR = 1/3 = 0.3333; RR@2 = 0.
CREATE OR REPLACE MACRO sqlrank.measure_rr(ranking, k, rel) AS
    coalesce(1.0 / NULLIF(sqlrank.relevant_ranks(ranking, k, rel)[1], 0), 0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- Σ_j P(the group's first relevant document is in its place j) / (rank + j), over the places
-- within k; P(place j) = P(none in the first j) · r / (n - j)
CREATE OR REPLACE MACRO sqlrank.average_rr(ranking, k, rel) AS
    coalesce(list_sum(list_transform(
        range(0, least(sqlrank.first_relevant_group(ranking, rel).tied - sqlrank.first_relevant_group(ranking, rel).relevant,
                       coalesce(sqlrank.tied_cut(ranking, k), 9223372036854775806) - sqlrank.first_relevant_group(ranking, rel).rank) + 1),
        lambda j: sqlrank.none_within(sqlrank.first_relevant_group(ranking, rel).tied,
                                      sqlrank.first_relevant_group(ranking, rel).relevant, j)
                  * sqlrank.first_relevant_group(ranking, rel).relevant
                  / NULLIF(sqlrank.first_relevant_group(ranking, rel).tied - j, 0)
                  / NULLIF(sqlrank.first_relevant_group(ranking, rel).rank + j, 0))), 0.0);
