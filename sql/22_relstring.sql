-- sqlrank.relstring(ranking, k) -> VARCHAR
--
-- trec_eval's relstring line (m_relstring.c): the first k retrieved documents of a
-- ranking, one character each, quoted: the label 0-9 of a judged document ('>' above
-- 9, a fraction cut to its whole part), '-' for a document without a judgment, '.'
-- for a negative label. The ranking must keep the zero and negative labels
-- (sqlrank.judged_ranking with zero_labels and negative_labels), or those would read '-'.
--
-- Example: judgments A=2, B=0, D=-1; a run ranking A, X, B, D (X unjudged) gives,
-- with k = 10, '2-0.' (four documents retrieved, so four characters).
CREATE OR REPLACE MACRO sqlrank.relstring(ranking, k) AS
    '''' || array_to_string(list_transform(
        range(1, least(ranking.num_ret, coalesce(k, ranking.num_ret)) + 1),
        lambda i: coalesce(list_transform(
            list_filter(ranking.documents, lambda d: d.rank = i),
            lambda d: CASE WHEN d.label > 9 THEN '>' WHEN d.label < 0 THEN '.'
                           ELSE CAST(CAST(floor(d.label) AS BIGINT) AS VARCHAR) END)[1], '-')), '') || '''';
