-- sqlrank.measure_fall_out(ranking, k, rel) -> DOUBLE
--
-- FallOut@k: the judged non-relevant documents (0 <= label < rel) ranked within k,
-- over N, all the query's judged non-relevant documents: the false positive rate
-- at k, the share of the non-relevant ones the system let through. 0 when N = 0,
-- and for a query the run missed. Lower is better. torchmetrics'
-- retrieval_fall_out (whose targets judge every document ranked; its class
-- RetrievalFallOut scores N = 0 as 1 by default, empty_target_action='pos').
-- It needs the label-0 judgments (registry: judged_nonrelevant).
--
-- Example: judgments a=1, b=0, c=0, d=0; the run ranks a, b, x (unjudged), c:
--   FallOut = 2/3 (b, c; d not retrieved);  @2: 1/3 (b)
CREATE OR REPLACE MACRO sqlrank.measure_fall_out(ranking, k, rel) AS
    coalesce(len(list_filter(sqlrank.top_documents(ranking, k), lambda d: sqlrank.is_judged_nonrelevant(d.label, rel)))
             / NULLIF(CAST(sqlrank.num_judged_nonrelevant(ranking, rel) AS DOUBLE), 0), 0.0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- the chances of the judged non-relevant documents to land within k, added up, over N
CREATE OR REPLACE MACRO sqlrank.average_fall_out(ranking, k, rel) AS
    coalesce(list_sum(list_transform(list_filter(ranking.documents, lambda d: sqlrank.is_judged_nonrelevant(d.label, rel)),
                                     lambda d: sqlrank.tied_share(d, sqlrank.tied_cut(ranking, k))))
             / NULLIF(CAST(sqlrank.num_judged_nonrelevant(ranking, rel) AS DOUBLE), 0), 0.0);
