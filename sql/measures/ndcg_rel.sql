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
