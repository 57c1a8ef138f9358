-- sqlrank.measure_st_recall(ranking, k, rel) -> DOUBLE
--
-- StRecall@k, subtopic recall (Zhai, Cohen & Lafferty, SIGIR 2003; ndeval's strec@k): the share
-- of the m subtopics some document covers that the top k cover:
--   StRecall@k = |subtopics covered within k| / m
-- 0 when m = 0, and for a query the run missed. Without @k: the whole ranking.
--
-- Example: a {1, 2}, b {2}, c {3}; ranking a, c, x, b:  StRecall@1 = 2/3;  StRecall@2 = 3/3 = 1
CREATE OR REPLACE MACRO sqlrank.measure_st_recall(ranking, k, rel) AS
    coalesce(CAST(len(list_distinct(flatten(list_transform(sqlrank.covering_documents(ranking, k, rel),
                                                           lambda doc: doc.subtopics)))) AS DOUBLE)
             / NULLIF(sqlrank.intent_count(ranking, rel), 0), 0);
