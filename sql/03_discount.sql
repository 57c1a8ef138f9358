-- sqlrank.discount(rank, kind := 'log2', base := 2) -> DOUBLE
--
-- The weight of rank i (1-based) in DCG.
--   log2      1 / log2(i + 1)                     (Burges; trec_eval; the default)
--   jarvelin  1 for i < base, 1 / log_base(i) after (the original definition of
--             Järvelin & Kekäläinen 2002; with base 2 ranks 1 and 2 are both undiscounted)
--   ln        1 / ln(i + 1)                       (natural-log variant)
--   log       1 / log_base(i + 1)                 (any base: scikit-learn's dcg_score(log_base=...))
--
--   sqlrank.discount(1)                       -> 1.0
--   sqlrank.discount(3)                       -> 0.5            (1 / log2 4)
--   sqlrank.discount(2, kind := 'jarvelin')   -> 1.0            (1 / log2 2)
--   sqlrank.discount(4, kind := 'jarvelin')   -> 0.5            (1 / log2 4)
--   sqlrank.discount(9, kind := 'log', base := 10) -> 1.0       (1 / log10 10)
--
-- Every denominator sits in NULLIF(..., 0), as everywhere in sqlrank: x / 0 is
-- NULL in DuckDB 1.x, +-infinity in DuckDB 2.0 and an error in standard SQL, and
-- NULLIF makes them agree. (None is ever 0 here; the rule is kept without exceptions.)
CREATE OR REPLACE MACRO sqlrank.discount(rank, kind := 'log2', base := 2) AS
    CASE
        WHEN sqlrank.choice(kind, ['log2', 'jarvelin', 'ln', 'log'], 'discount') IS NULL THEN NULL
        WHEN kind = 'log2' THEN 1.0 / NULLIF(log2(CAST(rank AS DOUBLE) + 1.0), 0)
        WHEN kind = 'ln' THEN 1.0 / NULLIF(ln(CAST(rank AS DOUBLE) + 1.0), 0)
        WHEN base <= 1 THEN error('sqlrank: discount base must be greater than 1, got ' || CAST(base AS VARCHAR))
        -- written as scikit-learn writes it, 1 / (ln(i + 1) / ln(base)), for its bits
        WHEN kind = 'log' THEN 1.0 / NULLIF(ln(CAST(rank AS DOUBLE) + 1.0) / NULLIF(ln(CAST(base AS DOUBLE)), 0), 0)
        WHEN rank < base THEN CAST(1 AS DOUBLE)
        ELSE ln(CAST(base AS DOUBLE)) / NULLIF(ln(CAST(rank AS DOUBLE)), 0)
    END;
