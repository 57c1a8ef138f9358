"""Unjudged@k (sql/measures/unjudged.sql), trec_eval 10's unj_k."""

# labels by rank: 1, (unjudged), 0, -1 (negative: counts as unjudged)
QRELS = {"q": {"a": 1, "c": 0, "d": -1}}
RUN = {"q": {"a": 4.0, "u": 3.0, "c": 2.0, "d": 1.0}}


def test_the_worked_example(score):
    assert score("Unjudged@2", QRELS, RUN) == {"q": 0.5}
    assert score("unj_4", QRELS, RUN) == {"q": 0.5}
    assert score("Unjudged@10", QRELS, RUN) == {"q": 0.2}  # always k: unfilled ranks count as judged
    assert score("Unjudged", QRELS, RUN) == {"q": 0.5}


def test_trec_family_alone_gives_its_default_cutoffs():
    import sqlrank
    assert [str(m) for m in sqlrank.parse_measures("unj")] == ["Unjudged@5", "Unjudged@10", "Unjudged@20"]


def test_a_query_the_run_missed_scores_0(score):
    assert score("Unjudged@5", {**QRELS, "other": {"a": 1}}, RUN)["other"] == 0.0
