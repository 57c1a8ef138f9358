-- sqlrank.measure_unjudged(ranking, k) -> DOUBLE
--
-- Unjudged@k: the documents within k that have no judgment (or a negative
-- label, "judged but unusable"), divided by k, always k: ranks the run did
-- not fill count as judged (trec_eval 10's unj_k, m_unjudged.c, a "red
-- flag" for a run the judgments cover poorly). Without a cutoff: over the
-- documents retrieved; 0 when nothing was retrieved. It needs the label-0
-- judgments (registry: judged_nonrelevant): a judged document is one in
-- ranking.documents with a label >= 0, the unjudged ones are the ranks between them.
--
-- Example: labels by rank 1, (unjudged), 0, -1 (negative), 4 documents:
--   Unjudged@2 = 1/2;  Unjudged@4 = 2/4;  Unjudged@10 = 2/10;  Unjudged = 2/4
CREATE OR REPLACE MACRO sqlrank.measure_unjudged(ranking, k) AS
    coalesce(CAST(least(ranking.num_ret, coalesce(k, ranking.num_ret))
                  - len(list_filter(sqlrank.top_documents(ranking, k), lambda d: d.label >= 0)) AS DOUBLE)
             / NULLIF(coalesce(k, ranking.num_ret), 0), 0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- the places within k less the expected judged documents there (each its chance to land within k)
CREATE OR REPLACE MACRO sqlrank.average_unjudged(ranking, k) AS
    coalesce((least(ranking.num_ret, coalesce(k, ranking.num_ret))
              - coalesce(list_sum(list_transform(list_filter(ranking.documents, lambda d: d.label >= 0),
                                                 lambda d: sqlrank.tied_share(d, sqlrank.tied_cut(ranking, k)))), 0.0))
             / NULLIF(coalesce(k, ranking.num_ret), 0), 0);
