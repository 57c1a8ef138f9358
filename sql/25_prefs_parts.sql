-- The preference measures' shared pieces (trec_eval's m_prefs_*.c), over ranking.prefs (sql/24_prefs.sql)

-- fulfilled / possible, 0 without any possible (trec_eval leaves such a value 0)
CREATE OR REPLACE MACRO sqlrank.prefs_ratio(fulfilled, possible) AS
    coalesce(CAST(fulfilled AS DOUBLE) / NULLIF(possible, 0), 0);

-- the mean over the judgment groups of fulfilled / possible, as trec_eval averages them: a group without
-- any possible preference adds 0 but still counts, and a mean that is not above 0 is 0
CREATE OR REPLACE MACRO sqlrank.prefs_group_mean(ratios) AS
    CASE WHEN list_sum(ratios) > 0 THEN list_sum(ratios) / NULLIF(len(ratios), 0) ELSE 0 END;

-- the Rnonrel form: trec_eval adds every group's fulfilled / possible, even 0 / 0, whose NaN makes the
-- query's sum NaN and so its value 0
CREATE OR REPLACE MACRO sqlrank.prefs_rnonrel_mean(pairs) AS
    CASE WHEN list_bool_or(list_transform(pairs, lambda p: p.possible = 0)) THEN 0
         ELSE sqlrank.prefs_group_mean(list_transform(pairs,
                                                      lambda p: CAST(p.fulfilled AS DOUBLE) / NULLIF(p.possible, 0)))
    END;
