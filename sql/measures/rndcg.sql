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
        -- the ideal gains, computed once and named (sql/21_ranking_parts.sql)
        list_transform([sqlrank.ideal_gains(ranking, 'linear', 'qrels')], lambda gains: list_transform(
            -- the R-levels: the ranks b where the ideal gain is about to change (or end), with the ideal DCG@b
            [list_filter(list_transform(
                 list_zip(gains, sqlrank.running_sum(list_transform(gains, lambda gain, i:
                                     gain * sqlrank.discount(i, kind := 'log2', base := 2)))),
                 lambda ideal, b: struct_pack(rank := b, ideal_dcg := ideal[2],
                                              level := b = len(gains) OR ideal[1] <> gains[b + 1])),
             lambda b: b.level)],
            lambda levels: (
                coalesce(list_transform(
                    -- the run's documents down to the last level and the levels, in one list by rank (a
                    -- document before a level of the same rank): the run's DCG summed along it is DCG@b at level b
                    [list_sort(list_concat(
                        list_transform(list_filter(ranking.documents, lambda d: d.rank <= len(gains)),
                                       lambda d: struct_pack(rank := d.rank, is_level := false, ideal_dcg := CAST(NULL AS DOUBLE),
                                                             term := sqlrank.gain(d.label, kind := 'linear')
                                                                     * sqlrank.discount(d.rank, kind := 'log2', base := 2))),
                        list_transform(levels, lambda b: struct_pack(rank := b.rank, is_level := true, ideal_dcg := b.ideal_dcg,
                                                                     term := CAST(0 AS DOUBLE)))))],
                    lambda events: list_sum(list_transform(
                        list_filter(list_zip(events, sqlrank.running_sum(list_transform(events, lambda e: e.term))),
                                    lambda point: point[1].is_level),
                        lambda point: point[2] / NULLIF(point[1].ideal_dcg, 0))))[1], 0)
                + CASE WHEN len(gains) + 1 < ranking.num_ret
                       THEN sqlrank.dcg_of(ranking, NULL, 'linear', 'log2', 2)
                            / NULLIF(sqlrank.ideal_dcg(gains, NULL, 'log2', 2), 0)
                       ELSE 0 END)
                / NULLIF(len(levels) + CASE WHEN len(gains) + 1 < ranking.num_ret THEN 1 ELSE 0 END, 0))[1])[1]
    END;

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- each point DCG@b / IDCG@b is linear in the gains: the expected DCG@b (sqlrank.expected_dcg) over it;
-- the levels, the ideal and whether the whole list adds a point do not read the order
CREATE OR REPLACE MACRO sqlrank.average_rndcg(ranking, k, rel) AS
    CASE WHEN sqlrank.num_relevant(ranking, rel) = 0 OR len(sqlrank.ideal_gains(ranking, 'linear', 'qrels')) = 0
         THEN CAST(0 AS DOUBLE)
    ELSE
        list_transform([sqlrank.ideal_gains(ranking, 'linear', 'qrels')], lambda gains: list_transform(
            [list_filter(list_transform(
                 list_zip(gains, sqlrank.running_sum(list_transform(gains, lambda gain, i:
                                     gain * sqlrank.discount(i, kind := 'log2', base := 2)))),
                 lambda ideal, b: struct_pack(rank := b, ideal_dcg := ideal[2],
                                              level := b = len(gains) OR ideal[1] <> gains[b + 1])),
             lambda b: b.level)],
            lambda levels: (
                coalesce(list_sum(list_transform(levels, lambda b: sqlrank.expected_dcg(ranking, b.rank, 'linear', 'log2', 2)
                                                                   / NULLIF(b.ideal_dcg, 0))), 0)
                + CASE WHEN len(gains) + 1 < ranking.num_ret
                       THEN sqlrank.expected_dcg(ranking, NULL, 'linear', 'log2', 2)
                            / NULLIF(sqlrank.ideal_dcg(gains, NULL, 'log2', 2), 0)
                       ELSE 0 END)
                / NULLIF(len(levels) + CASE WHEN len(gains) + 1 < ranking.num_ret THEN 1 ELSE 0 END, 0))[1])[1]
    END;
