-- sqlrank.measure_ndcg_rel(ranking, k, gain) -> DOUBLE
--
-- nDCGrel, nDCG averaged over the relevant documents (trec_eval's ndcg_rel,
-- m_ndcg_rel.c, experimental): every retrieved document with a positive gain
-- adds nDCG at its rank (DCG@r over the ideal DCG@r, the ideal ranking cut at
-- its own length past that), every positive-gain judgment not retrieved adds
-- the nDCG of the whole list, and the sum is divided by the number of
-- positive-gain judgments; 0 when that sum is not positive. Log2 discount, the
-- ideal from all judgments. Gains are the labels (linear, trec_eval's
-- default), 2^label - 1 (exp), or a gain map (nDCGrel(gains={1:3,2:9}),
-- trec_eval's ndcg_rel.1=3,2=9: the labels it names get its gains, the others
-- stay linear; a document with a gain <= 0 adds its gain to the DCG but no
-- point). 0 when no judgment has a positive gain.
--
-- Example: judgments a=2, b=1, c=0; the run ranks c, a. Ideal [2, 1]:
-- a at rank 2 adds (2/log2 3) / (2 + 1/log2 3) = 1.2619 / 2.6309 = 0.4796; b, not
-- retrieved, adds the whole list's nDCG, the same 0.4796:  nDCGrel = 0.4796
-- With gains={1:3}: ideal [3, 2]; a adds (2/log2 3) / (3 + 2/log2 3) = 0.2961, b the
-- same:  nDCGrel = 0.2961
CREATE OR REPLACE MACRO sqlrank.measure_ndcg_rel(ranking, k, gain) AS
    coalesce(
        -- computed once and named (sql/21_ranking_parts.sql): the ideal DCG at every rank of the ideal ranking
        -- (its last, the whole ideal DCG), and each retrieved document paired with the run's DCG down to it
        list_transform([sqlrank.running_sum(list_transform(sqlrank.ideal_gains(ranking, gain, 'qrels'),
                                                           lambda ideal, i: ideal * sqlrank.discount(i, kind := 'log2', base := 2)))],
                       lambda ideal_dcgs: list_transform(
            [list_zip(ranking.documents,
                      sqlrank.running_sum(list_transform(ranking.documents,
                          lambda d: sqlrank.gain(d.label, kind := gain) * sqlrank.discount(d.rank, kind := 'log2', base := 2))))],
            lambda run_dcgs: list_transform(
                [list_filter(run_dcgs, lambda hit: sqlrank.gain(hit[1].label, kind := gain) > 0)],
                lambda hits: greatest(
                    (-- past the ideal ranking's end its DCG stays the whole ideal DCG
                     list_sum(list_transform(hits, lambda hit: hit[2] / NULLIF(ideal_dcgs[least(hit[1].rank, len(ideal_dcgs))], 0)))
                     -- each positive-gain judgment not retrieved: the whole list's nDCG
                     + (len(ideal_dcgs) - len(hits)) * run_dcgs[-1][2] / NULLIF(ideal_dcgs[-1], 0))
                    / NULLIF(len(ideal_dcgs), 0), 0))[1])[1])[1],
        0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- A document d with a gain, of a group of n places from rank s: in place j (chance 1/n) the run's DCG
-- down to it is the groups above's (each gain times its group's mean discount, in any order), d's gain
-- times discount(s + j), and the group's other gains spread evenly over its other places, so the
-- j places above d get (group gain - d's gain) / (n - 1) each; over the ideal DCG at s + j. The
-- judgments not retrieved add the expected DCG of the whole list over the ideal.
CREATE OR REPLACE MACRO sqlrank.average_ndcg_rel(ranking, k, gain) AS
    coalesce(
        (list_transform([sqlrank.running_sum(list_transform(sqlrank.ideal_gains(ranking, gain, 'qrels'),
                                                            lambda ideal_gain, i: ideal_gain * sqlrank.discount(i, kind := 'log2', base := 2)))],
                        lambda ideal_dcgs: list_sum(list_transform(
             list_filter(ranking.documents, lambda d: sqlrank.gain(d.label, kind := gain) > 0),
             lambda d: list_transform(
                 -- per document, once: the discounts of its group's places summed down to each, the groups
                 -- above's expected DCG, and the gain of its group's others spread over one place each
                 [struct_pack(
                     above_in_group := sqlrank.running_sum(list_transform(range(d.rank, d.rank + d.tied),
                         lambda place: sqlrank.discount(place, kind := 'log2', base := 2))),
                     above := coalesce(list_sum(list_transform(list_filter(ranking.documents, lambda e: e.rank < d.rank),
                                                               lambda e: sqlrank.gain(e.label, kind := gain)
                                                                         * sqlrank.tied_discount(e, NULL, 'log2', 2))), 0),
                     others := coalesce((list_sum(list_transform(list_filter(ranking.documents, lambda e: e.rank = d.rank),
                                                                 lambda e: sqlrank.gain(e.label, kind := gain)))
                                         - sqlrank.gain(d.label, kind := gain)) / NULLIF(d.tied - 1, 0), 0))],
                 lambda tie: list_sum(list_transform(range(0, d.tied), lambda j:
                     (tie.above
                      + sqlrank.gain(d.label, kind := gain) * sqlrank.discount(d.rank + j, kind := 'log2', base := 2)
                      + tie.others * CASE WHEN j = 0 THEN 0 ELSE tie.above_in_group[j] END)
                     / NULLIF(ideal_dcgs[least(d.rank + j, len(ideal_dcgs))], 0))) / NULLIF(d.tied, 0))[1])))[1]
         + (len(sqlrank.ideal_gains(ranking, gain, 'qrels'))
            - len(list_filter(ranking.documents, lambda d: sqlrank.gain(d.label, kind := gain) > 0)))
           * sqlrank.expected_dcg(ranking, NULL, gain, 'log2', 2)
           / NULLIF(sqlrank.ideal_dcg(sqlrank.ideal_gains(ranking, gain, 'qrels'), NULL, 'log2', 2), 0))
        / NULLIF(len(sqlrank.ideal_gains(ranking, gain, 'qrels')), 0),
        0);
