-- sqlrank.measure_g(ranking, k) -> DOUBLE
--
-- G (trec_eval's G, m_G.c, an experimental measure between AP and nDCG):
-- each retrieved document with a gain earns gain / log2(2 + cost_i - gained_i),
-- where gained_i is the run's gain summed over ranks 1..i and cost_i the ideal's,
-- each rank costing max(its ideal gain, 1) (ranks past the ideal ranking cost 1);
-- the sum is divided by the ideal ranking's total gain. Gains are the labels
-- (linear); the ideal ranking is every judged document with a positive label,
-- best first, whatever was retrieved. 0 when no judgment has a positive label.
--
-- Example: judgments a=2, b=0; the run ranks b, a. Ideal [2]: rank 1 costs 2,
-- rank 2 costs 1 (cost 3); gained by rank 2 is 2:
--   G = 2 / log2(2 + 3 - 2) / 2 = 1 / log2(3) = 0.6309
CREATE OR REPLACE MACRO sqlrank.measure_g(ranking, k) AS
    coalesce(
        list_sum(list_transform(
            list_filter(ranking.documents, lambda d: d.label > 0),
            lambda d, j: d.label / NULLIF(log2(
                2 + d.rank
                -- the ideal's cost above 1 per rank, up to this rank
                + coalesce(list_sum(list_transform(list_slice(sqlrank.ideal_gains(ranking, 'linear', 'qrels'), 1, d.rank),
                                                   lambda g: greatest(g - 1, 0))), 0)
                -- the run's gain up to this document
                - list_sum(list_transform(list_slice(list_filter(ranking.documents, lambda e: e.label > 0), 1, j),
                                          lambda e: e.label))), 0)))
        / NULLIF(list_sum(sqlrank.ideal_gains(ranking, 'linear', 'qrels')), 0),
        0);
