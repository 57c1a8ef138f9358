-- sqlrank.gain(relevance, kind := 'linear') -> DOUBLE
--
-- The gain of a document with the given relevance label.
--   linear  gain = label                 (trec_eval, Järvelin & Kekäläinen; the default)
--   exp     gain = 2^label - 1           (Burges et al.; the "industry"/Kaggle form)
-- Labels <= 0, NULL (unjudged) and negative labels ("judged but unusable")
-- all give 0, as in trec_eval.
--
--   sqlrank.gain(3)                 -> 3.0
--   sqlrank.gain(3, kind := 'exp')  -> 7.0
--   sqlrank.gain(-1)                -> 0.0
CREATE OR REPLACE MACRO sqlrank.gain(relevance, kind := 'linear') AS
    CASE
        WHEN sqlrank.choice(kind, ['linear', 'exp'], 'gain') IS NULL THEN NULL
        WHEN relevance IS NULL OR relevance <= 0 THEN CAST(0 AS DOUBLE)
        WHEN kind = 'linear' THEN CAST(relevance AS DOUBLE)
        ELSE power(2.0, CAST(relevance AS DOUBLE)) - 1.0
    END;
