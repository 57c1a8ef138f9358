-- sqlrank.measure_hits(ranking, k, rel) -> DOUBLE
--
-- Hits@k (ranx's hits): the relevant documents ranked within k, as
-- NumRelRet@k counts them, but averaged over the queries in the `all` row,
-- as ranx reports it (NumRelRet sums them, as trec_eval's num_rel_ret does).
-- Not Success@k, which is 1 when there is at least one.
--
-- Example: relevant documents at ranks 1, 3 and 7: Hits@5 = 2, Hits = 3; a
-- second query with one at rank 2 has Hits@5 = 1, so the `all` row is 1.5.
CREATE OR REPLACE MACRO sqlrank.measure_hits(ranking, k, rel) AS
    CAST(len(sqlrank.relevant_ranks(ranking, k, rel)) AS DOUBLE);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
CREATE OR REPLACE MACRO sqlrank.average_hits(ranking, k, rel) AS
    sqlrank.expected_relevant(ranking, k, rel);
