-- sqlrank.shuffle_key(seed, trial, query_position, run_position) -> UBIGINT
-- sqlrank.tukey_hsd(per_query, trials := 10000, seed := 42)
--   -> (measure, run_a, run_b, queries, runs, difference, trials, as_extreme, p_value)
--
-- The randomised Tukey HSD test (Carterette 2012; Sakai 2018, ch. 4): every
-- pair of runs at once, with the family-wise error over all the pairs kept
-- at the level (no further correction needed). Under the null hypothesis the
-- runs are exchangeable on each query, so each trial shuffles the runs' values
-- within every query, and records the range of the run means,
-- max(mean) - min(mean). The p-value of a pair (a, b) is the share of trials
-- whose range is at least |mean_a - mean_b|: p = (as_extreme + 1) / (trials + 1)
-- (less 1e-9 * |mean_a - mean_b| for rounding).
-- Only the queries that every run of the measure has are used (`queries`).
-- One row per ordered pair (a, b) with a <> b; difference = mean_a - mean_b.
--
-- Deterministic for a seed whatever the number of threads: in trial t, the
-- runs' values of the query at position q go to the runs in the order of
-- shuffle_key(seed, t, q, run position), hash(seeded_hash(seed, t, q) xor run
-- position) (61_randomization.sql: a chained hash, not random()); queries and
-- runs are numbered in query_id and run_id order.
--
--   SELECT * FROM sqlrank.tukey_hsd('per_query', trials := 10000, seed := 42)
--   WHERE run_a = 'dense' AND run_b = 'bm25';
CREATE OR REPLACE MACRO sqlrank.shuffle_key(seed, trial, query_position, run_position) AS
    hash(xor(sqlrank.seeded_hash(seed, trial, query_position), CAST(run_position AS UBIGINT)));

CREATE OR REPLACE MACRO sqlrank.tukey_hsd(per_query, trials := 10000, seed := 42) AS TABLE
    WITH scored AS (
        SELECT run_id, measure, query_id, value
        FROM query_table(per_query) WHERE query_id <> 'all' AND value IS NOT NULL
    ), run_counts AS (
        SELECT measure, count(DISTINCT run_id) AS runs FROM scored GROUP BY measure
    ), complete AS (  -- the queries every run of the measure has
        SELECT measure, query_id
        FROM scored JOIN run_counts USING (measure)
        GROUP BY measure, query_id
        HAVING count(*) = any_value(runs)
    ), numbered AS (
        SELECT measure, run_id, value,
               dense_rank() OVER (PARTITION BY measure ORDER BY query_id) - 1 AS query_position,
               dense_rank() OVER (PARTITION BY measure ORDER BY run_id) - 1 AS run_position
        FROM scored JOIN complete USING (measure, query_id)
    ), shuffled AS (  -- the value's place (its slot) among the runs in each trial
        SELECT measure, trial, value,
               row_number() OVER (PARTITION BY measure, trial, query_position
                                  ORDER BY sqlrank.shuffle_key(seed, trial, query_position, run_position), run_position) AS slot
        FROM numbered CROSS JOIN range(sqlrank.resampling_trials(trials, seed, 0.5)) AS draws(trial)
    ), ranges AS (
        SELECT measure, trial, max(mean) - min(mean) AS spread
        FROM (SELECT measure, trial, slot, avg(value) AS mean FROM shuffled GROUP BY ALL)
        GROUP BY ALL
    ), means AS (
        SELECT measure, run_id, avg(value) AS mean, count(*) AS queries,
               count(*) OVER (PARTITION BY measure) AS runs
        FROM numbered GROUP BY measure, run_id
    ), pairs AS (
        SELECT a.measure, a.run_id AS run_a, b.run_id AS run_b, a.queries, a.runs, a.mean - b.mean AS difference
        FROM means AS a JOIN means AS b ON a.measure = b.measure AND a.run_id <> b.run_id
    )
    SELECT measure, run_a, run_b, any_value(queries) AS queries, any_value(runs) AS runs,
           any_value(difference) AS difference, count(*) AS trials,
           count(*) FILTER (WHERE spread >= abs(difference) * (1 - 1e-9)) AS as_extreme,
           (as_extreme + 1) / NULLIF(count(*) + 1, 0) AS p_value
    FROM pairs JOIN ranges USING (measure)
    GROUP BY measure, run_a, run_b;
