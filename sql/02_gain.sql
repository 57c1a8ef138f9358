-- sqlrank.mapped_gain(relevance, gains) -> DOUBLE
--
-- A gain map, written '{1:3,2:9,4:4.5}' (ir_measures' gains={1:3,2:9,4:4.5},
-- trec_eval's ndcg.1=3,2=9,4=4.5): a label the map names gets its gain, any
-- other label its linear gain (itself, 0 when <= 0), as trec_eval's gains do.
-- The parser (sqlrank/measures.py) writes the map: whole-number labels >= 0,
-- finite gains. Example: with '{1:3,2:9,4:4.5}' labels 1, 2, 3, 4 gain 3, 9, 3, 4.5;
-- with '{0:1,1:2}' (trec_eval's ndcg.0=1,1=2) a judged non-relevant document gains 1.
CREATE OR REPLACE MACRO sqlrank.mapped_gain(relevance, gains) AS
    coalesce(
        list_transform(list_filter(string_split(trim(gains, '{}'), ','),
                                   lambda pair: CAST(split_part(pair, ':', 1) AS DOUBLE) = relevance),
                       lambda pair: CAST(split_part(pair, ':', 2) AS DOUBLE))[1],
        CASE WHEN relevance IS NULL OR relevance <= 0 THEN CAST(0 AS DOUBLE) ELSE CAST(relevance AS DOUBLE) END);

-- sqlrank.map_gains(gain) -> [DOUBLE]
--
-- The gains a gain map names, in its order ('{1:3,2:9,4:4.5}' -> [3, 9, 4.5]); [] for
-- 'linear' and 'exp'. trec_eval's rbp scales by the largest and smallest gain of every
-- level its table holds, the levels a map names among them, whether judged or not.
CREATE OR REPLACE MACRO sqlrank.map_gains(gain) AS
    CASE WHEN starts_with(gain, '{')
         THEN list_transform(string_split(trim(gain, '{}'), ','), lambda pair: CAST(split_part(pair, ':', 2) AS DOUBLE))
         ELSE CAST([] AS DOUBLE[]) END;

-- sqlrank.gain(relevance, kind := 'linear') -> DOUBLE
--
-- The gain of a document with the given relevance label.
--   linear  gain = label                 (trec_eval, Järvelin & Kekäläinen; the default)
--   exp     gain = 2^label - 1           (Burges et al.; the "industry"/Kaggle form)
--   '{1:3,2:9}'  a gain map (sqlrank.mapped_gain above)
-- Labels <= 0, NULL (unjudged) and negative labels ("judged but unusable")
-- all give 0, as in trec_eval. A gain=exp label of 1024 or more is an error (2^label
-- is beyond the largest double).
--
--   sqlrank.gain(3)                 -> 3.0
--   sqlrank.gain(3, kind := 'exp')  -> 7.0
--   sqlrank.gain(-1)                -> 0.0
CREATE OR REPLACE MACRO sqlrank.gain(relevance, kind := 'linear') AS
    CASE
        WHEN starts_with(kind, '{') THEN sqlrank.mapped_gain(relevance, kind)
        WHEN sqlrank.choice(kind, ['linear', 'exp'], 'gain') IS NULL THEN NULL
        WHEN relevance IS NULL OR relevance <= 0 THEN CAST(0 AS DOUBLE)
        WHEN kind = 'linear' THEN CAST(relevance AS DOUBLE)
        -- 2^1024 is beyond the largest double: inf would make nDCG 0 or 1 whatever the ranking
        WHEN relevance >= 1024 THEN error('sqlrank.gain: gain=exp of the label ' || CAST(relevance AS VARCHAR)
                                          || ' is beyond the largest number a double holds (2^label - 1 overflows '
                                          || 'from label 1024); use gain=linear, or labels below 1024')
        ELSE power(2.0, CAST(relevance AS DOUBLE)) - 1.0
    END;

