-- sqlrank.measure_alpha_ndcg(ranking, k, rel, alpha) -> DOUBLE
--
-- alpha-nDCG@k (Clarke et al., SIGIR 2008) as ndeval computes it: the run's alpha-DCG@k over that of
-- ndeval's ideal ranking, built greedily from every judged document (at each rank the document of
-- the highest novelty gain given those above it, the larger doc_id of equal gains):
--   alpha-nDCG@k = Σ_{i<=k} g_i / log2(i+1)  /  Σ_{i<=k} g*_i / log2(i+1)
-- g as in alpha_dcg.sql, g* the ideal ranking's gains. 0 when the run gains nothing within k (no
-- subtopic covered: m = 0), and for a query the run missed. Without @k: the whole ranking.
--
-- Example: alpha 0.5, a {1, 2}, b {2}, c {3}; ranking a, c, x, b. The ideal is a, c, b (gains 2, 1, 0.5):
--   alpha-nDCG@4 = (2 + 1/log2 3 + 0.5/log2 5) / (2 + 1/log2 3 + 0.5/2) = 2.8462 / 2.8809 = 0.987969
CREATE OR REPLACE MACRO sqlrank.measure_alpha_ndcg(ranking, k, rel, alpha) AS
    list_transform([list_sum(list_transform(sqlrank.novelty_gains(ranking, k, rel, alpha),
                                            lambda hit: hit.gain * sqlrank.novelty_discount(hit.rank)))],
        lambda gained: coalesce(CASE WHEN gained > 0 THEN gained / NULLIF(list_sum(list_transform(
            list_filter(sqlrank.ideal_novelty_gains(ranking, k, rel, alpha), lambda gain, place: sqlrank.within(place, k)),
            lambda gain, place: gain * sqlrank.novelty_discount(place))), 0) END, 0))[1];
