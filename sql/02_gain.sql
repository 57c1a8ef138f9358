-- sqlrank.gain(relevance, kind := 'linear') -> DOUBLE
--
-- The gain of a document with the given relevance label.
--   linear  gain = label                 (trec_eval, Järvelin & Kekäläinen; the default)
--   exp     gain = 2^label - 1           (Burges et al.; the "industry"/Kaggle form)
-- Labels <= 0, NULL (unjudged) and negative labels ("judged but unusable")
-- all give 0, as in trec_eval. A gain=exp label of 1024 or more is an error (2^label
-- is beyond the largest double).
--
--   sqlrank.gain(3)                 -> 3.0
--   sqlrank.gain(3, kind := 'exp')  -> 7.0
--   sqlrank.gain(-1)                -> 0.0
CREATE OR REPLACE MACRO sqlrank.gain(relevance, kind := 'linear') AS
    CASE
        WHEN sqlrank.choice(kind, ['linear', 'exp'], 'gain') IS NULL THEN NULL
        WHEN relevance IS NULL OR relevance <= 0 THEN CAST(0 AS DOUBLE)
        WHEN kind = 'linear' THEN CAST(relevance AS DOUBLE)
        -- 2^1024 is beyond the largest double: inf would make nDCG 0 or 1 whatever the ranking
        WHEN relevance >= 1024 THEN error('sqlrank.gain: gain=exp of the label ' || CAST(relevance AS VARCHAR)
                                          || ' is beyond the largest number a double holds (2^label - 1 overflows '
                                          || 'from label 1024); use gain=linear, or labels below 1024')
        ELSE power(2.0, CAST(relevance AS DOUBLE)) - 1.0
    END;
