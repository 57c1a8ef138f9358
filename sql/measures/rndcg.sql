-- sqlrank.measure_rndcg(ranking, k, rel) -> DOUBLE
--
-- RnDCG, nDCG averaged at the R-levels (trec_eval's Rndcg, m_Rndcg.c,
-- experimental): the ideal ranking (every judged document with a positive
-- label, best first) changes gain at ranks b_1 < b_2 < ... < b_m, the last
-- being its length L; at each b the point is DCG@b over the ideal DCG@b, and
-- one more point, the whole list's nDCG, when the run is longer than L + 1
-- (trec_eval's "implied change at num_retrieved", which its loop skips when
-- the run is exactly L + 1 long). RnDCG is the mean of the points. Linear
-- gains, log2 discount. 0 when R = 0 (relevant: label >= rel) or when no
-- judgment has a positive label (trec_eval: 0/0 there, with -l0).
--
-- Example: judgments a=1, b=1, c=0; the run ranks c, a, b, x. Ideal [1, 1]: one
-- level, ending at b = 2: (1/log2 3) / (1 + 1/log2 3) = 0.3869; the run (4) is
-- longer than 3, so the whole list adds (1/log2 3 + 1/2) / (1 + 1/log2 3) = 0.6934:
--   RnDCG = (0.3869 + 0.6934) / 2 = 0.5401
CREATE OR REPLACE MACRO sqlrank.measure_rndcg(ranking, k, rel) AS
    CASE WHEN sqlrank.num_relevant(ranking, rel) = 0 OR len(sqlrank.ideal_gains(ranking, 'linear', 'qrels')) = 0
         THEN CAST(0 AS DOUBLE)
    ELSE
        (coalesce(list_sum(list_transform(
             -- the R-levels: the ranks where the ideal gain is about to change (or end)
             list_filter(range(1, len(sqlrank.ideal_gains(ranking, 'linear', 'qrels')) + 1),
                         lambda b: b = len(sqlrank.ideal_gains(ranking, 'linear', 'qrels'))
                                   OR sqlrank.ideal_gains(ranking, 'linear', 'qrels')[b]
                                      <> sqlrank.ideal_gains(ranking, 'linear', 'qrels')[b + 1]),
             lambda b: sqlrank.dcg_of(ranking, b, 'linear', 'log2', 2)
                       / NULLIF(sqlrank.ideal_dcg(sqlrank.ideal_gains(ranking, 'linear', 'qrels'), b, 'log2', 2), 0))), 0)
         + CASE WHEN len(sqlrank.ideal_gains(ranking, 'linear', 'qrels')) + 1 < ranking.num_ret
                THEN sqlrank.dcg_of(ranking, NULL, 'linear', 'log2', 2)
                     / NULLIF(sqlrank.ideal_dcg(sqlrank.ideal_gains(ranking, 'linear', 'qrels'), NULL, 'log2', 2), 0)
                ELSE 0 END)
        / NULLIF(len(list_filter(range(1, len(sqlrank.ideal_gains(ranking, 'linear', 'qrels')) + 1),
                           lambda b: b = len(sqlrank.ideal_gains(ranking, 'linear', 'qrels'))
                                     OR sqlrank.ideal_gains(ranking, 'linear', 'qrels')[b]
                                        <> sqlrank.ideal_gains(ranking, 'linear', 'qrels')[b + 1]))
           + CASE WHEN len(sqlrank.ideal_gains(ranking, 'linear', 'qrels')) + 1 < ranking.num_ret THEN 1 ELSE 0 END, 0)
    END;
