-- sqlrank.measure_auroc(ranking, k, rel) -> DOUBLE
--
-- AUROC@k: the area under the ROC curve of one query's ranking, over the judged
-- documents ranked within k: of the (relevant, judged non-relevant) pairs among
-- them, the share in which the relevant document ranks above (Mann-Whitney U over
-- P · N). Unjudged documents, and judged ones the run did not rank, take no part:
-- the ranked judged documents are the scored items of a recommender's test set.
-- 0 when the top k holds no relevant or no judged non-relevant document, and for a
-- query the run missed (torchmetrics' retrieval_auroc: no positive target gives 0,
-- and binary_auroc scores a curve without negatives 0). The `all` row: the mean,
-- torchmetrics' RetrievalAUROC; GAUC (RecBole) weights users by their items instead.
--
-- Example: judgments a=1, b=0, c=1, d=0; the run ranks a, b, x (unjudged), c, d:
--   pairs (a,b) (a,d) (c,d) in order, (c,b) not: AUROC = 3/4;  @2: a over b, 1/1 = 1
CREATE OR REPLACE MACRO sqlrank.measure_auroc(ranking, k, rel) AS
    coalesce(list_sum(list_transform(
                 list_filter(sqlrank.top_documents(ranking, k), lambda neg: sqlrank.is_judged_nonrelevant(neg.label, rel)),
                 lambda neg: len(list_filter(sqlrank.relevant_ranks(ranking, k, rel), lambda pos: pos < neg.rank))))
             / NULLIF(CAST(len(sqlrank.relevant_ranks(ranking, k, rel))
                           * len(list_filter(sqlrank.top_documents(ranking, k),
                                             lambda neg: sqlrank.is_judged_nonrelevant(neg.label, rel))) AS DOUBLE), 0),
             0.0);
