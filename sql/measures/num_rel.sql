-- sqlrank.measure_num_rel(ranking, k, rel) -> DOUBLE
--
-- NumRel: R, the query's relevant judgments (label >= rel), retrieved or not
-- (trec_eval's num_rel). It takes no cutoff and reads only the judgments. The
-- `all` row sums it over the queries.
--
-- Example: judgments A=2, B=1, C=0, D=-1: NumRel = 2; NumRel(rel=2) = 1.
CREATE OR REPLACE MACRO sqlrank.measure_num_rel(ranking, k, rel) AS
    CAST(sqlrank.num_relevant(ranking, rel) AS DOUBLE);
