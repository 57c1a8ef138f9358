-- sqlrank.measure_success(ranking, k, rel) -> DOUBLE
--
-- Success@k (hit rate): 1 when a relevant document is ranked within k, else 0
-- (trec_eval's success_k).
--
-- Example: the first relevant document at rank 3: Success@1 = 0, Success@5 = 1.
CREATE OR REPLACE MACRO sqlrank.measure_success(ranking, k, rel) AS
    CAST(len(sqlrank.relevant_ranks(ranking, k, rel)) > 0 AS DOUBLE);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- within k somewhere in the first relevant group: 1 - the chance that its first places within k hold none
CREATE OR REPLACE MACRO sqlrank.average_success(ranking, k, rel) AS
    coalesce(1.0 - sqlrank.none_within(
        sqlrank.first_relevant_group(ranking, rel).tied,
        sqlrank.first_relevant_group(ranking, rel).relevant,
        least(greatest(coalesce(sqlrank.tied_cut(ranking, k), 9223372036854775806) - sqlrank.first_relevant_group(ranking, rel).rank + 1, 0),
              sqlrank.first_relevant_group(ranking, rel).tied)), 0.0);
