-- sqlrank.measure_accuracy(ranking, k, rel) -> DOUBLE
--
-- Accuracy@k as ir_measures computes it (its accuracy provider): the share of the (relevant,
-- non-relevant) pairs of the top k documents that the run ranks relevant first,
--   Accuracy@k = 1 - Σ_j (r_j - j) / (N_k · m)
-- m the relevant documents (label >= rel) in the top k, r_j the rank of the j-th of them, which has
-- r_j - j non-relevant documents above it, and N_k the other documents of the top k, unjudged ones
-- included. 0 when the top k holds no relevant document or no other one, and for a query the run
-- missed: ir_measures leaves a query without a relevant document retrieved out of its mean, and fails
-- on a query whose retrieved documents are all relevant (docs/measures.md#accuracy).
--
-- Example: labels by rank 1, 0, 1, unjudged (m = 2, N = 2; the relevant ones have 0 and 1 non-relevant
-- documents above):  Accuracy = 1 - (0 + 1) / (2 · 2) = 0.75;  Accuracy@2 = 1 - 0 / (1 · 1) = 1
CREATE OR REPLACE MACRO sqlrank.measure_accuracy(ranking, k, rel) AS
    list_transform([sqlrank.relevant_ranks(ranking, k, rel)], lambda hits: coalesce(
        1 - list_sum(list_transform(hits, lambda hit, j: hit - j))
            / NULLIF(CAST((least(coalesce(k, ranking.num_ret), ranking.num_ret) - len(hits)) * len(hits) AS DOUBLE), 0),
        0))[1];
