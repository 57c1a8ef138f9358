-- sqlrank.measure_g(ranking, k, gain) -> DOUBLE
--
-- G (trec_eval's G, m_G.c, an experimental measure between AP and nDCG):
-- each retrieved document with a gain earns gain / log2(2 + cost_i - gained_i),
-- where gained_i is the run's gain summed over ranks 1..i and cost_i the ideal's,
-- each rank costing max(its ideal gain, 1) (ranks past the ideal ranking cost 1);
-- the sum is divided by the ideal ranking's total gain. Gains are the labels
-- (linear, trec_eval's default), 2^label - 1 (exp), or a gain map (G(gains={1:3,2:9}),
-- trec_eval's G.1=3,2=9: the labels it names get its gains, the others stay linear;
-- a gain may be 0 or negative, and then earns that). The ideal ranking is every
-- judged document with a positive gain, highest first, whatever was retrieved.
-- 0 when no judgment has a positive gain.
--
-- Example: judgments a=2, b=0; the run ranks b, a. Ideal [2]: rank 1 costs 2,
-- rank 2 costs 1 (cost 3); gained by rank 2 is 2:
--   G = 2 / log2(2 + 3 - 2) / 2 = 1 / log2(3) = 0.6309
-- With gains={2:0.5}: ideal [0.5], ranks cost 1 each (cost 2), gained 0.5:
--   G = 0.5 / log2(2 + 2 - 0.5) / 0.5 = 1 / log2(3.5) = 0.5533
CREATE OR REPLACE MACRO sqlrank.measure_g(ranking, k, gain) AS
    -- the ideal gains, computed once and named (sql/21_ranking_parts.sql)
    list_transform([sqlrank.ideal_gains(ranking, gain, 'qrels')], lambda ideal_gains: coalesce(
        -- the ideal's cost above 1 per rank, summed up to each rank
        list_transform([sqlrank.running_sum(list_transform(ideal_gains, lambda g: greatest(g - 1, 0)))],
                       lambda extra_cost: list_sum(list_transform(
            -- each document with a gain (label 0 too, when a gain map gives it one), paired with its gain and the
            -- run's gain summed up to it
            list_transform([list_transform(list_filter(ranking.documents, lambda d: sqlrank.gain(d.label, kind := gain) <> 0),
                                           lambda d: struct_pack(rank := d.rank,
                                                                 doc_gain := sqlrank.gain(d.label, kind := gain)))],
                           lambda hits: list_zip(hits, sqlrank.running_sum(list_transform(hits, lambda h: h.doc_gain))))[1],
            lambda hit: hit[1].doc_gain / NULLIF(log2(
                2 + hit[1].rank + coalesce(extra_cost[least(hit[1].rank, len(extra_cost))], 0) - hit[2]), 0))))[1]
        / NULLIF(list_sum(ideal_gains), 0),
        0))[1];
