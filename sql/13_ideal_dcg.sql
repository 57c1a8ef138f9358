-- sqlrank.ideal_dcg(gains, discounts, k) -> DOUBLE
--
-- DCG@k of a ranking given as its gains, best first (the ideal ranking:
-- sqlrank.judgment_stats's ideal_gains, or the retrieved gains re-sorted for
-- ideal := 'run'): Σ_{i <= k} gains[i] · discounts[i]. `discounts` holds
-- sqlrank.discount(1), discount(2), ... and is at least as long as `gains`;
-- k is the cutoff (the largest BIGINT for the whole list). 0 when there is no
-- gain (gains NULL or empty).
--
-- Example: gains [3, 3, 2, 2, 1, 1], log2 discounts, k = 5:
-- 3 + 3/log2 3 + 2/2 + 2/log2 5 + 1/log2 6 = 7.1409951840957.
CREATE OR REPLACE MACRO sqlrank.ideal_dcg(gains, discounts, k) AS
    coalesce(list_inner_product(list_slice(gains, 1, k), list_slice(discounts, 1, least(k, len(gains)))), 0);
