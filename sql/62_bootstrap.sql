-- sqlrank.bootstrap_draw(seed, trial, draw, queries) -> BIGINT in 0 .. queries - 1
-- sqlrank.bootstrap(differences, trials := 10000, seed := 42, confidence := 0.95)
--   -> (run_id, baseline, measure, queries, mean_difference, ci_low, ci_high, trials, as_extreme, p_value)
-- sqlrank.bootstrap_test(per_query, run_a, run_b, trials := 10000, seed := 42, confidence := 0.95) -> the same, one pair
--
-- The paired bootstrap over queries: each trial draws `queries` queries with
-- replacement and takes the mean of their differences.
-- * ci_low, ci_high: the percentile bootstrap interval of the mean difference
--   (the (1 - confidence) / 2 and (1 + confidence) / 2 quantiles of the trial
--   means, interpolated: quantile_cont). Percentile, not BCa: it needs no
--   jackknife pass, and with the tens of queries and more of an IR test
--   collection the two differ little.
-- * p_value: the two-sided bootstrap test of a zero mean difference by the
--   shift method (Efron & Tibshirani 1993, 16.4; Sakai 2006): the trial means,
--   centred on the observed mean, stand for the null distribution;
--   p = (as_extreme + 1) / (trials + 1) where as_extreme counts the trials with
--   |mean* - mean| >= |mean| (less 1e-9 * mean |difference| for rounding);
--   NULL (undefined) when every difference is the same non-zero number (one
--   query, or no variance): then every resample is the observed mean.
--
-- Deterministic for a seed whatever the number of threads: draw j of trial t
-- is the query at position bootstrap_draw(seed, t, j, n), seeded_hash(seed, t, j) % n
-- (61_randomization.sql: a chained hash, not random()),
-- positions numbering each comparison's queries in query_id order.
--
--   SELECT * FROM sqlrank.bootstrap_test('per_query', 'dense', 'bm25', trials := 10000, seed := 42);
CREATE OR REPLACE MACRO sqlrank.bootstrap_draw(seed, trial, draw, queries) AS
    CAST(sqlrank.seeded_hash(seed, trial, draw) % CAST(queries AS UBIGINT) AS BIGINT);

CREATE OR REPLACE MACRO sqlrank.bootstrap(differences, trials := 10000, seed := 42, confidence := 0.95) AS TABLE
    WITH comparisons AS (
        SELECT run_id, baseline, measure, count(*) AS queries, avg(difference) AS observed,
               avg(abs(difference)) AS scale, list(difference ORDER BY query_id) AS sample,
               -- every difference the same and not 0 (one query, or no variance): every resample is the
               -- observed mean, so the shift method has no null distribution: p is undefined (NULL)
               min(difference) = max(difference) AND observed <> 0 AS degenerate
        FROM query_table(differences) GROUP BY ALL
    ), means AS (
        SELECT run_id, baseline, measure, trial,
               avg(sample[1 + sqlrank.bootstrap_draw(seed, trial, draw, queries)]) AS mean
        FROM comparisons
        CROSS JOIN range(sqlrank.resampling_trials(trials, seed, confidence)) AS draws(trial)
        CROSS JOIN LATERAL (SELECT unnest(range(queries)) AS draw) AS draw_numbers
        GROUP BY ALL
    )
    SELECT run_id, baseline, measure, any_value(queries) AS queries, any_value(observed) AS mean_difference,
           quantile_cont(mean, (1 - confidence) * 0.5) AS ci_low,
           quantile_cont(mean, (1 + confidence) * 0.5) AS ci_high,
           count(*) AS trials,
           count(*) FILTER (WHERE abs(mean - observed) >= abs(observed) - 1e-9 * scale) AS as_extreme,
           CASE WHEN NOT any_value(degenerate) THEN (as_extreme + 1) / NULLIF(count(*) + 1, 0) END AS p_value
    FROM means JOIN comparisons USING (run_id, baseline, measure)
    GROUP BY run_id, baseline, measure;

CREATE OR REPLACE MACRO sqlrank.bootstrap_test(per_query, run_a, run_b, trials := 10000, seed := 42, confidence := 0.95) AS TABLE
    WITH pairs AS (FROM sqlrank.paired_differences(per_query, run_a, run_b))
    FROM sqlrank.bootstrap('pairs', trials := trials, seed := seed, confidence := confidence);
