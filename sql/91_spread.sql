-- sqlrank.spread(query_values, aggregate) -> DOUBLE
--
-- How a measure's values spread over the queries, on request beside the `all`
-- row's mean (evaluate(..., aggregates=[...]); ranx's return_std):
--   std             the sample standard deviation (divides by n - 1); NULL for one query
--   stderr          the standard error of the mean: std / sqrt(n)
--   median          the middle value (the mean of the two middle ones for even n)
--   std_population  the population standard deviation (divides by n), as numpy's
--                   np.std and so ranx's return_std compute it
-- over the per-query values of the queries in the mean (missing='zero' included, 'skip' not).
--
-- Example: values 0.2, 0.4, 0.9: mean 0.5, std = sqrt((0.09 + 0.01 + 0.16) / 2) = 0.3606,
-- stderr = 0.3606 / sqrt(3) = 0.2082, median 0.4, std_population = sqrt(0.26 / 3) = 0.2944.
CREATE OR REPLACE MACRO sqlrank.spread(query_values, aggregate) AS
    CASE sqlrank.choice(aggregate, ['std', 'stderr', 'median', 'std_population'], 'aggregate')
        WHEN 'std' THEN list_aggregate(query_values, 'stddev_samp')
        WHEN 'stderr' THEN list_aggregate(query_values, 'stddev_samp') / NULLIF(sqrt(len(query_values)), 0)
        WHEN 'median' THEN list_aggregate(query_values, 'median')
        ELSE list_aggregate(query_values, 'stddev_pop')
    END;
