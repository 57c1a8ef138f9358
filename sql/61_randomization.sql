-- sqlrank.seeded_hash(seed, trial, item) -> UBIGINT
-- sqlrank.flip_mask(seed, trial, block) -> UBIGINT in 0..255
-- sqlrank.flip_sign(seed, trial, query_position) -> +1 or -1
-- sqlrank.randomization(differences, trials := 10000, seed := 42)
--   -> (run_id, baseline, measure, queries, mean_difference, method, permutations, as_extreme, p_value)
-- sqlrank.randomization_test(per_query, run_a, run_b, trials := 10000, seed := 42) -> the same, one pair
--
-- Fisher's randomization (permutation) test of paired differences, two-sided.
-- Under the null hypothesis the two runs are exchangeable on every query, so
-- each difference is as likely to have had the other sign. The statistic is
-- the sum (so the mean) of the differences; the p-value is the share of sign
-- assignments whose |sum| is at least the observed |sum|.
--
-- * exact: when 2^queries <= trials, every one of the 2^n assignments is
--   enumerated (trial t flips the query at position p when bit p of t is set),
--   and p = as_extreme / 2^n.
-- * sampled: otherwise `trials` assignments are drawn, and
--   p = (as_extreme + 1) / (trials + 1) (the observed assignment counts as one
--   of them, so p is never 0; Phipson & Smyth 2010); its Monte-Carlo standard
--   error is about sqrt(p (1 - p) / trials).
--
-- Deterministic for a seed, whatever the number of threads: query p of trial t
-- flips when bit (p % 8) of flip_mask(seed, t, p // 8) is set, a hash of the
-- three numbers, not a random() whose draws depend on the thread. The hash is
-- chained, hash(hash(hash(seed) xor trial) xor item): DuckDB's hash(a, b, c)
-- combines the hashes of its arguments so that two items of one trial differ by
-- a constant in their low bits (the signs of two blocks were the same flips).
-- Positions
-- number each comparison's queries in query_id order. (The hash is DuckDB's:
-- the same seed gives the same p-value within one DuckDB version.)
-- Eight queries share one hash: their 256 possible signed sums are computed
-- once per comparison (as the 16 sums of each half of four, added), and each
-- trial adds one of them per block of eight, instead of one term per query
-- (8x fewer rows than a sign per query and trial).
-- "At least as extreme" allows for rounding: |sum| >= |observed| - 1e-9 * sum |difference|.
--
-- Example: differences 0.25, 0.5, -0.125 (3 queries, 8 assignments): the sums
-- with |sum| >= 0.625 are +-(0.25 + 0.5 - 0.125) and +-(0.25 + 0.5 + 0.125): p = 4/8 = 0.5.
--   SELECT * FROM sqlrank.randomization_test('per_query', 'dense', 'bm25', trials := 10000, seed := 42);
CREATE OR REPLACE MACRO sqlrank.seeded_hash(seed, trial, item) AS
    hash(xor(hash(xor(hash(CAST(seed AS BIGINT)), CAST(trial AS UBIGINT))), CAST(item AS UBIGINT)));

CREATE OR REPLACE MACRO sqlrank.flip_mask(seed, trial, block) AS
    sqlrank.seeded_hash(seed, trial, block) & 255;

CREATE OR REPLACE MACRO sqlrank.flip_sign(seed, trial, query_position) AS
    1 - 2 * CAST((sqlrank.flip_mask(seed, trial, query_position >> 3) >> CAST(query_position & 7 AS INTEGER)) & 1 AS INTEGER);

CREATE OR REPLACE MACRO sqlrank.randomization(differences, trials := 10000, seed := 42) AS TABLE
    WITH numbered AS (  -- comparisons numbered 1, 2, ... (an integer groups faster than three names)
        SELECT run_id, baseline, measure, difference,
               dense_rank() OVER (ORDER BY run_id, baseline, measure) AS comparison,
               row_number() OVER (PARTITION BY run_id, baseline, measure ORDER BY query_id) - 1 AS query_position
        FROM query_table(differences)
    ), comparisons AS (
        SELECT comparison, any_value(run_id) AS run_id, any_value(baseline) AS baseline,
               any_value(measure) AS measure, count(*) AS queries, sum(difference) AS observed,
               sum(abs(difference)) AS scale,
               queries <= 62 AND (CAST(1 AS BIGINT) << CAST(least(queries, 62) AS INTEGER)) <= trials AS exact,
               CASE WHEN exact THEN CAST(1 AS BIGINT) << CAST(least(queries, 62) AS INTEGER) ELSE trials END AS permutations
        FROM numbered GROUP BY comparison
    ), halves AS (  -- each block of eight as two halves of four, and the 16 signed sums of each half
        SELECT comparison, block,
               list_transform(range(16), lambda mask: coalesce(list_sum(list_transform(eight[1:4],
                   lambda difference, i: CASE WHEN (mask >> CAST(i - 1 AS INTEGER)) & 1 = 1 THEN -difference ELSE difference END)), 0))
                   AS low,
               list_transform(range(16), lambda mask: coalesce(list_sum(list_transform(eight[5:8],
                   lambda difference, i: CASE WHEN (mask >> CAST(i - 1 AS INTEGER)) & 1 = 1 THEN -difference ELSE difference END)), 0))
                   AS high
        FROM (SELECT comparison, query_position >> 3 AS block, list(difference ORDER BY query_position) AS eight
              FROM numbered GROUP BY comparison, block)
    ), block_sums AS MATERIALIZED (  -- the 256 signed sums of each block, bit i of mask flipping its query i
        SELECT comparison, block, exact, permutations,
               list_transform(range(256), lambda mask: low[1 + (mask & 15)] + high[1 + (mask >> 4)]) AS sums
        FROM halves JOIN comparisons USING (comparison)
    ), statistics AS (  -- every comparison draws range(trials); an exact one keeps its first 2^n below
        SELECT comparison, trial, any_value(permutations) AS permutations,
               sum(sums[1 + CAST(CASE WHEN exact THEN (trial >> CAST(8 * block AS INTEGER)) & 255
                                  ELSE sqlrank.flip_mask(seed, trial, block) END AS BIGINT)]) AS signed_sum
        FROM block_sums CROSS JOIN range(sqlrank.resampling_trials(trials, seed, 0.5)) AS draws(trial)
        GROUP BY comparison, trial
    )
    SELECT any_value(run_id) AS run_id, any_value(baseline) AS baseline, any_value(measure) AS measure,
           any_value(queries) AS queries, any_value(observed) / NULLIF(any_value(queries), 0) AS mean_difference,
           CASE WHEN any_value(exact) THEN 'exact' ELSE 'sampled' END AS method,
           any_value(permutations) AS permutations,
           -- filtered here, in the aggregate: as a WHERE the optimizer made `trial < permutations` an
           -- inequality join of the trials with the blocks, five times slower than this
           count(*) FILTER (WHERE trial < permutations AND abs(signed_sum) >= abs(observed) - 1e-9 * scale) AS as_extreme,
           CASE WHEN any_value(exact) THEN as_extreme / NULLIF(any_value(permutations), 0)
                ELSE (as_extreme + 1) / NULLIF(any_value(permutations) + 1, 0) END AS p_value
    FROM statistics JOIN comparisons USING (comparison, permutations)
    GROUP BY comparison
    ORDER BY comparison;

CREATE OR REPLACE MACRO sqlrank.randomization_test(per_query, run_a, run_b, trials := 10000, seed := 42) AS TABLE
    WITH pairs AS (FROM sqlrank.paired_differences(per_query, run_a, run_b))
    FROM sqlrank.randomization('pairs', trials := trials, seed := seed);
