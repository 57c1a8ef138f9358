-- sqlrank.measure_alpha_dcg(ranking, k, rel, alpha) -> DOUBLE
--
-- alpha-DCG@k (Clarke et al., SIGIR 2008) as ndeval computes it, with its collection-independent
-- ("ideal ideal") normalisation: the novelty gains of the run's top k, each discounted by
-- 1/log2(rank + 1), over what the first k ranks would give if each covered all m subtopics:
--   alpha-DCG@k = Σ_{i<=k} g_i / log2(i+1)  /  Σ_{i<=k} m (1 - alpha)^(i-1) / log2(i+1)
--   g_i = Σ over the subtopics document i covers of (1 - alpha)^(documents above i covering it)
-- m is the number of subtopics some document covers (a judgment >= rel); 0 when m = 0, and for a
-- query the run missed. Without @k: the run's depth. ndeval leaves @1 unnormalised (its loops start
-- at rank 2: alpha-DCG@1 = g_1, up to m); here @1 is normalised as every other k.
--
-- Example: alpha 0.5, subtopics 1, 2 and 3 covered by a {1, 2}, b {2}, c {3}; ranking a, c, x, b:
--   gains 2, 1, -, 0.5;  alpha-DCG@4 = (2 + 1/log2 3 + 0.5/log2 5) / (3 + 1.5/log2 3 + 0.75/2 + 0.375/log2 5)
--   = 2.8462 / 4.4828 = 0.634917
CREATE OR REPLACE MACRO sqlrank.measure_alpha_dcg(ranking, k, rel, alpha) AS
    coalesce(list_sum(list_transform(sqlrank.novelty_gains(ranking, k, rel, alpha),
                                     lambda hit: hit.gain * sqlrank.novelty_discount(hit.rank)))
             / NULLIF(sqlrank.ideal_ideal(ranking, k, rel, alpha, false), 0), 0);
