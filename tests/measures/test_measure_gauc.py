"""GAUC (sql/measures/gauc.sql): the worked example, and RecBole's GAUC on random cases.

RecBole (with torch) is too heavy a test dependency for this suite: `recbole_gauc` follows its source
(recbole/evaluator/metrics.py, GAUC.metric_info) in numpy: each user's descending rank sum of the positives
over every scored item, users without a positive or a negative left out, the AUC from the rank sum, then
the mean weighted by the positives. sqlrank counts ordered pairs in SQL instead.
"""

import functools

import numpy as np
import pyarrow as pa
import pytest

import sqlrank

QRELS = {"u1": {"a": 1, "c": 1}, "u2": {"a": 1}, "u3": {"x": 1}}
RUN = {"u1": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}, "u2": {"a": 1.0, "b": 2.0, "c": 3.0}, "u3": {"x": 1.0}}


def test_the_worked_example(score):
    # u1: a over b, d; c over d: 3 of 4 pairs. u2: a last, 0. u3: no negative, 0 and weight 0
    assert score("GAUC", QRELS, RUN) == {"u1": 0.75, "u2": 0.0, "u3": 0.0}
    assert all_row(QRELS, RUN) == pytest.approx((2 * 0.75 + 1 * 0.0) / 3, abs=1e-15)


def test_no_user_with_both_positives_and_negatives_gives_0():
    assert all_row({"u": {"a": 1}}, {"u": {"a": 1.0}}) == 0.0


def all_row(qrels, run) -> float:
    """The `all` row from sqlrank.evaluate, checked equal to sqlrank.summary over the shell's table macro."""
    result = sqlrank.evaluate(qrels, run, ["GAUC"])
    value = result.summary["GAUC"]
    con = shell()
    sqlrank.load_qrels(con, qrels, "qrels")
    sqlrank.load_run(con, run, "run")
    con.execute("CREATE OR REPLACE TABLE per_user AS SELECT 'GAUC' AS measure, * FROM sqlrank.gauc('qrels', 'run')")
    ((shell_value,),) = con.execute("SELECT value FROM sqlrank.summary('per_user')").fetchall()
    assert shell_value == pytest.approx(value, abs=1e-15)
    return value


@functools.cache
def shell():
    """One connection with the shell's macros for every check: installing them is the slow part."""
    return sqlrank.connect()


def recbole_gauc(scores: list[np.ndarray], positives: list[np.ndarray]) -> tuple[list[float], float]:
    """Per user the AUC (0 for a user left out), and RecBole's GAUC over the users."""
    pos_rank_sum, user_len, pos_len = [], [], []
    for user_scores, user_positives in zip(scores, positives):
        # RecBole's mean rank from the top: tied items share the mean of their places
        above = (user_scores[None, :] > user_scores[:, None]).sum(axis=1)
        tied = (user_scores[None, :] == user_scores[:, None]).sum(axis=1)
        descending_rank = above + (tied + 1) / 2
        pos_rank_sum.append(descending_rank[user_positives == 1].sum())
        user_len.append(len(user_scores))
        pos_len.append(user_positives.sum())
    pos_rank_sum, user_len, pos_len = (np.array(values, dtype=float) for values in (pos_rank_sum, user_len, pos_len))
    neg_len = user_len - pos_len
    kept = (pos_len != 0) & (neg_len != 0)
    pair_num = (user_len + 1) * pos_len - pos_len * (pos_len + 1) / 2 - pos_rank_sum
    user_auc = np.where(kept, pair_num / np.where(kept, neg_len * pos_len, 1), 0.0)
    return list(user_auc), float((user_auc[kept] * pos_len[kept]).sum() / pos_len[kept].sum())


@pytest.mark.parametrize("ties", ["trec", "average"])
def test_equal_to_recbole_gauc_on_random_cases(ties):
    """12 random cases of 10 users scoring 1-20 items each, the truth listing only the positives (implicit
    feedback, as RecBole's test set): some users have no positive, some nothing else. Each case is a run of its
    own users, all evaluated at once (missing='skip'), and its `all` row is that case's GAUC. Distinct scores
    under ties='trec'; scores of a few values under ties='average', RecBole's mean ranks."""
    qrels, runs, expected_users, expected_all = {}, {}, {}, {}
    for seed in range(12):
        generator = np.random.default_rng(seed)
        run, scores, positives = {}, [], []
        for user in range(10):
            name, items = f"c{seed:02d}u{user}", int(generator.integers(1, 21))
            user_scores = (generator.permutation(items) + generator.random(items) / 2 if ties == "trec"
                           else generator.integers(0, 4, items).astype(float))
            user_positives = (generator.random(items) < generator.random()).astype(int)
            # a user with no positive has a judged 0, so that the user is evaluated
            qrels[name] = {f"i{i}": 1 for i in np.flatnonzero(user_positives)} or {"i0": 0}
            run[name] = {f"i{i}": float(user_scores[i]) for i in range(items)}
            scores.append(user_scores)
            positives.append(user_positives)
        runs[f"case{seed:02d}"] = run
        per_user, expected_all[f"case{seed:02d}"] = recbole_gauc(scores, positives)
        expected_users.update({(f"case{seed:02d}", name): value for name, value in zip(run, per_user)})
    assert sum(np.isnan(value) for value in expected_all.values()) == 0
    result = sqlrank.evaluate(qrels, runs, ["GAUC"], missing="skip", ties=ties).to_arrow().to_pylist()
    users = {(row["run_id"], row["query_id"]): row["value"] for row in result if row["query_id"] != "all"}
    assert users == pytest.approx(expected_users, abs=1e-12)
    means = {row["run_id"]: row["value"] for row in result if row["query_id"] == "all"}
    assert means == pytest.approx(expected_all, abs=1e-12)
    con = shell()  # the shell's table macro and sqlrank.summary give the same
    sqlrank.load_qrels(con, qrels, "qrels")
    sqlrank.load_run(con, pa.table({"run_id": [case for case, run in runs.items() for items in run.values()
                                               for _ in items],
                                    "query_id": [user for run in runs.values() for user, items in run.items()
                                                 for _ in items],
                                    "doc_id": [item for run in runs.values() for items in run.values()
                                               for item in items],
                                    "score": [score for run in runs.values() for items in run.values()
                                              for score in items.values()]}), "run")
    con.execute("CREATE OR REPLACE TABLE per_user AS SELECT 'GAUC' AS measure, * FROM sqlrank.gauc('qrels', 'run', "
                f"missing := 'skip', ties := '{ties}')")
    shell_means = dict(con.execute("SELECT run_id, value FROM sqlrank.summary('per_user')").fetchall())
    assert shell_means == pytest.approx(expected_all, abs=1e-12)
