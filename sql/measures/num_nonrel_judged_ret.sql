-- sqlrank.measure_num_nonrel_judged_ret(ranking, k, rel) -> DOUBLE
--
-- NumNonRelJudgedRet@k: the retrieved documents within k that were judged
-- non-relevant (0 <= label < rel). Unjudged documents and negative labels
-- are not counted (trec_eval's num_nonrel_judged_ret). The `all` row sums it.
-- It needs the label-0 judgments (registry: judged_nonrelevant).
--
-- Example: labels by rank 1, (unjudged), 0, -1, 0 with rel 1:
--   NumNonRelJudgedRet = 2;  NumNonRelJudgedRet@3 = 1;  with rel 2 the label-1 document counts too: 3
CREATE OR REPLACE MACRO sqlrank.measure_num_nonrel_judged_ret(ranking, k, rel) AS
    CAST(len(list_filter(sqlrank.top_documents(ranking, k), lambda d: sqlrank.is_judged_nonrelevant(d.label, rel)))
         AS DOUBLE);
