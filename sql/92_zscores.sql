-- sqlrank.zscore_term(value, aggregate) -> DOUBLE
-- sqlrank.zscore(term, mean, stddev) -> DOUBLE
--
-- trec_eval's -Z (convert_zscores.c): each query's value of a measure becomes
-- (value - mean) / stddev, the mean and standard deviation read for that query
-- and measure from a file of reference runs' scores; the z-scores are then
-- summarised as the measure's own `all` row is (sqlrank.summarize).
--   - A measure summarised by its geometric mean (gm_map, gm_bpref) keeps per
--     query the term it adds up, ln(max(v, 1e-5)), and that term is what is
--     z-scored; the `all` row is then exp(mean of the z-scores), as trec_eval's.
--   - No mean for the query and measure (NULL here), or a deviation of 0 with a
--     value other than the mean: -1000000, trec_eval's MISSING_ZSCORE_VALUE.
--   - A deviation of 0 with the value equal to the mean: 0.
CREATE OR REPLACE MACRO sqlrank.zscore_term(value, aggregate) AS
    CASE WHEN aggregate = 'gm' THEN sqlrank.aggregate_term(value, aggregate) ELSE value END;

CREATE OR REPLACE MACRO sqlrank.zscore(term, mean, stddev) AS
    CASE
        WHEN mean IS NULL THEN -1000000.0
        WHEN stddev <> 0 THEN (term - mean) / NULLIF(stddev, 0)
        WHEN term = mean THEN 0.0
        ELSE -1000000.0
    END;
