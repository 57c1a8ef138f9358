-- sqlrank.measure_rndcg(ranking, k, rel, gain) -> DOUBLE
--
-- RnDCG, nDCG averaged at the R-levels (trec_eval's Rndcg, m_Rndcg.c,
-- experimental): the ideal ranking (every judged document with a positive
-- label, best first) changes gain at ranks b_1 < b_2 < ... < b_m, the last
-- being its length L; at each b the point is DCG@b over the ideal DCG@b, and
-- one more point, the whole list's nDCG, when the run is longer than L + 1
-- (trec_eval's "implied change at num_retrieved", which its loop skips when
-- the run is exactly L + 1 long). RnDCG is the mean of the points. Log2
-- discount; gains are the labels (linear, trec_eval's default), 2^label - 1
-- (exp), or a gain map (RnDCG(gains={1:3,2:9}), trec_eval's Rndcg.1=3,2=9: the
-- labels it names get its gains, the others stay linear; two labels of equal
-- gain make one level). 0 when R = 0 (relevant: label >= rel) or when no
-- judgment has a positive gain (trec_eval: 0/0 there, with -l0).
--
-- Example: judgments a=1, b=1, c=0; the run ranks c, a, b, x. Ideal [1, 1]: one
-- level, ending at b = 2: (1/log2 3) / (1 + 1/log2 3) = 0.3869; the run (4) is
-- longer than 3, so the whole list adds (1/log2 3 + 1/2) / (1 + 1/log2 3) = 0.6934:
--   RnDCG = (0.3869 + 0.6934) / 2 = 0.5401
-- With gains={1:2} on judgments a=1, b=2, c=0: ideal [2, 2], one level at b = 2; the
-- run ranks c, a, b, x: (2/log2 3) / (2 + 2/log2 3) = 0.3869, and the whole list
-- (2/log2 3 + 2/2) / (2 + 2/log2 3) = 0.6934: the same 0.5401
CREATE OR REPLACE MACRO sqlrank.measure_rndcg(ranking, k, rel, gain) AS
    CASE WHEN sqlrank.num_relevant(ranking, rel) = 0 THEN CAST(0 AS DOUBLE)
    ELSE coalesce(
        -- the ideal gains, computed once and named (sql/21_ranking_parts.sql)
        list_transform([sqlrank.ideal_gains(ranking, gain, 'qrels')], lambda gains: list_transform(
            -- the ideal DCG at every rank (its last, the whole ideal DCG); the run's DCG down to each document
            -- retrieved, with its rank; and the R-levels: the ranks b where the ideal gain is about to change
            [struct_pack(ideal_dcgs := sqlrank.running_sum(list_transform(gains, lambda level_gain, i:
                                           level_gain * sqlrank.discount(i, kind := 'log2', base := 2))),
                         run_dcgs := list_zip(list_transform(ranking.documents, lambda d: d.rank),
                                              sqlrank.running_sum(list_transform(ranking.documents, lambda d:
                                                  sqlrank.gain(d.label, kind := gain)
                                                  * sqlrank.discount(d.rank, kind := 'log2', base := 2)))),
                         levels := list_filter(range(1, len(gains) + 1),
                                               lambda b: b = len(gains) OR gains[b] <> gains[b + 1]),
                         -- the "implied change at num_retrieved" (trec_eval), when the run is longer than L + 1
                         whole := len(gains) + 1 < ranking.num_ret)],
            -- at each level b, DCG@b (the run's DCG at its last document ranked b or above) over the ideal DCG@b
            lambda parts: (coalesce(list_sum(list_transform(parts.levels, lambda b:
                               coalesce(parts.run_dcgs[len(list_filter(parts.run_dcgs, lambda r: r[1] <= b))][2], 0)
                               / NULLIF(parts.ideal_dcgs[b], 0))), 0)
                           + CASE WHEN parts.whole
                                  THEN coalesce(parts.run_dcgs[-1][2], 0) / NULLIF(parts.ideal_dcgs[-1], 0)
                                  ELSE 0 END)
                          / NULLIF(len(parts.levels) + CASE WHEN parts.whole THEN 1 ELSE 0 END, 0))[1])[1],
        0)
    END;

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- each point DCG@b / IDCG@b is linear in the gains: the expected DCG@b (sqlrank.expected_dcg) over it;
-- the levels, the ideal and whether the whole list adds a point do not read the order
CREATE OR REPLACE MACRO sqlrank.average_rndcg(ranking, k, rel, gain) AS
    CASE WHEN sqlrank.num_relevant(ranking, rel) = 0 OR len(sqlrank.ideal_gains(ranking, gain, 'qrels')) = 0
         THEN CAST(0 AS DOUBLE)
    ELSE
        list_transform([sqlrank.ideal_gains(ranking, gain, 'qrels')], lambda gains: list_transform(
            [list_filter(list_transform(
                 list_zip(gains, sqlrank.running_sum(list_transform(gains, lambda ideal_gain, i:
                                     ideal_gain * sqlrank.discount(i, kind := 'log2', base := 2)))),
                 lambda ideal, b: struct_pack(rank := b, ideal_dcg := ideal[2],
                                              level := b = len(gains) OR ideal[1] <> gains[b + 1])),
             lambda b: b.level)],
            lambda levels: (
                coalesce(list_sum(list_transform(levels, lambda b: sqlrank.expected_dcg(ranking, b.rank, gain, 'log2', 2)
                                                                   / NULLIF(b.ideal_dcg, 0))), 0)
                + CASE WHEN len(gains) + 1 < ranking.num_ret
                       THEN sqlrank.expected_dcg(ranking, NULL, gain, 'log2', 2)
                            / NULLIF(sqlrank.ideal_dcg(gains, NULL, 'log2', 2), 0)
                       ELSE 0 END)
                / NULLIF(len(levels) + CASE WHEN len(gains) + 1 < ranking.num_ret THEN 1 ELSE 0 END, 0))[1])[1]
    END;
