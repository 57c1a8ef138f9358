-- sqlrank.measure_num_nonrel_judged_ret(ranking, k, rel) -> DOUBLE
--
-- NumNonRelJudgedRet@k: the judged non-relevant documents (0 <= label < rel)
-- ranked within k (trec_eval's num_nonrel_judged_ret). With num_ret and
-- num_rel_ret it tells how much of a run was judged: retrieved documents that
-- are neither are unjudged (or carry a negative label, which counts as
-- unjudged). The `all` row sums it over the queries. It needs the label-0
-- judgments (registry: judged_nonrelevant).
--
-- Example: judgments a=1, b=0, c=0, d=-1; the run ranks a, b, x (unjudged), c, d:
--   NumNonRelJudgedRet = 2 (b, c);  @3: 1 (b);  with rel := 2 (a is then judged non-relevant): 3
CREATE OR REPLACE MACRO sqlrank.measure_num_nonrel_judged_ret(ranking, k, rel) AS
    CAST(len(list_filter(sqlrank.top_documents(ranking, k),
                         lambda d: sqlrank.is_judged_nonrelevant(d.label, rel))) AS DOUBLE);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- the chances of the judged non-relevant documents to land within k, added up
CREATE OR REPLACE MACRO sqlrank.average_num_nonrel_judged_ret(ranking, k, rel) AS
    coalesce(list_sum(list_transform(list_filter(ranking.documents, lambda d: sqlrank.is_judged_nonrelevant(d.label, rel)),
                                     lambda d: sqlrank.tied_share(d, sqlrank.tied_cut(ranking, k)))), 0.0);
