-- sqlrank.measure_ndcg_rel(ranking, k) -> DOUBLE
--
-- nDCGrel, nDCG averaged over the relevant documents (trec_eval's ndcg_rel,
-- m_ndcg_rel.c, experimental): every retrieved document with a positive gain
-- adds nDCG at its rank (DCG@r over the ideal DCG@r, the ideal ranking cut at
-- its own length past that), every positive-gain judgment not retrieved adds
-- the nDCG of the whole list, and the sum is divided by the number of
-- positive-gain judgments. Linear gains (the labels), log2 discount, the
-- ideal from all judgments. 0 when no judgment has a positive label.
--
-- Example: judgments a=2, b=1, c=0; the run ranks c, a. Ideal [2, 1]:
-- a at rank 2 adds (2/log2 3) / (2 + 1/log2 3) = 1.2619 / 2.6309 = 0.4796; b, not
-- retrieved, adds the whole list's nDCG, the same 0.4796:  nDCGrel = 0.4796
CREATE OR REPLACE MACRO sqlrank.measure_ndcg_rel(ranking, k) AS
    coalesce(
        (list_sum(list_transform(
             list_filter(ranking.documents, lambda d: d.label > 0),
             -- not `d`: the shared macros' own lambdas are named d, and a macro argument is pasted in as text
             lambda hit: sqlrank.dcg_of(ranking, hit.rank, 'linear', 'log2', 2)
                         / NULLIF(sqlrank.ideal_dcg(sqlrank.ideal_gains(ranking, 'linear', 'qrels'), hit.rank, 'log2', 2), 0)))
         + (len(sqlrank.ideal_gains(ranking, 'linear', 'qrels'))
            - len(list_filter(ranking.documents, lambda d: d.label > 0)))
           * sqlrank.dcg_of(ranking, NULL, 'linear', 'log2', 2)
           / NULLIF(sqlrank.ideal_dcg(sqlrank.ideal_gains(ranking, 'linear', 'qrels'), NULL, 'log2', 2), 0))
        / NULLIF(len(sqlrank.ideal_gains(ranking, 'linear', 'qrels')), 0),
        0);
