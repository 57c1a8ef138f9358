-- sqlrank.measure_compat(ranking, k, p, normalize) -> DOUBLE
--
-- Compat, Clarke, Vtyurina & Smucker's compatibility (2021), as ir_measures computes it: the rank-biased
-- overlap (RBO, persistence p) of the run with an ideal ranking of the query's relevant documents,
--   RBO = Σ_{i=1}^{D} p^(i-1) · |run_i ∩ ideal_i| / i  /  Σ_{i=1}^{D} p^(i-1)
-- run_i and ideal_i the first i documents of each, D the longer of the two. The ideal ranking holds
-- every judgment with a label > 0, highest label first, and within a label the retrieved documents
-- first in the run's order (so it is the ideal most compatible with the run). A retrieved relevant
-- document at rank r and place q of the ideal is in the overlap from depth max(r, q) on, so the sum is
-- Σ over those documents of Σ_{i=max(r,q)}^{D} p^(i-1) / i. normalize 'True' divides by the ideal's
-- own RBO with itself, so the ideal run scores 1 (the default, as in ir_measures); 'False' gives the
-- RBO. No cutoff: the whole run. 0 when the query has no relevant document, or for a query the run
-- missed. ir_measures orders an ideal label's documents by their run scores, reading 0 for the
-- documents not retrieved: it puts a retrieved document with a score below 0 after them, sqlrank
-- does not (docs/measures.md#compat).
--
-- Example: labels by rank 0, 2, 1 (ideal: the label-2 document, then the label-1 one), p = 0.5, D = 3:
--   overlaps at depths 1, 2, 3: 0, 1, 2;  ideal's own: 1, 2, 2
--   Compat = (0.5 · 1/2 + 0.25 · 2/3) / (1 + 0.5 · 2/2 + 0.25 · 2/3) = 0.41667 / 1.66667 = 0.25
CREATE OR REPLACE MACRO sqlrank.measure_compat(ranking, k, p, normalize) AS
    list_transform([struct_pack(
        ideal := len(list_filter(ranking.labels, lambda label: label > 0)),
        depth := greatest(ranking.num_ret, len(list_filter(ranking.labels, lambda label: label > 0))),
        hits := list_filter(ranking.documents, lambda d: d.label > 0))],
        -- tails[m] = Σ_{i=m}^{D} p^(i-1) / i, added from the smallest term up: never below 0
        lambda query: list_transform([list_reverse(sqlrank.running_sum(list_reverse(list_transform(
                                          range(1, query.depth + 1), lambda at_depth: pow(p, at_depth - 1) / NULLIF(at_depth, 0)))))],
            lambda tails: coalesce(
                -- each retrieved relevant document's weight from the depth both lists hold it on
                list_sum(list_transform(query.hits, lambda hit: list_transform(
                    [greatest(hit.rank, len(list_filter(ranking.labels, lambda label: label > hit.label))
                                        + len(list_filter(query.hits, lambda other: other.label = hit.label
                                                                                    AND other.rank < hit.rank)) + 1)],
                    lambda both_from: tails[both_from])[1]))
                / NULLIF(CASE sqlrank.choice(normalize, ['True', 'False'], 'normalize')
                             WHEN 'True' THEN list_sum(list_transform(range(1, query.depth + 1), lambda at_depth:
                                                  pow(p, at_depth - 1) * least(at_depth, query.ideal) / NULLIF(at_depth, 0)))
                             ELSE list_sum(list_transform(range(1, query.depth + 1), lambda at_depth: pow(p, at_depth - 1)))
                         END, 0), 0))[1])[1];
