"""sqlrank.compare's tests against their references.

t-test, Wilcoxon and sign test equal scipy.stats on the same paired samples;
the corrections equal statsmodels' multipletests; the exact randomization test
equals a brute-force enumeration of the sign flips; the sampled one is within
its Monte-Carlo error of the exact one, and the same for a seed whatever the
number of DuckDB threads and whichever door (Python or SQL) it is asked from;
the bootstrap and Tukey HSD macros equal plain-Python versions fed the same
draws.
"""

from __future__ import annotations

import itertools
import math
import sys
import warnings

import numpy as np
import pyarrow as pa
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

import sqlrank
from sqlrank import significance

# values with many ties and zero differences (a measure takes few values on few judged documents),
# and arbitrary ones
VALUE = st.one_of(st.sampled_from([0.0, 0.125, 0.25, 0.5, 1.0]), st.floats(0, 1, allow_nan=False))
PAIRS = st.integers(2, 25).flatmap(lambda n: st.tuples(st.lists(VALUE, min_size=n, max_size=n),
                                                        st.lists(VALUE, min_size=n, max_size=n)))


def per_query(runs: dict[str, list[float]], measure: str = "AP") -> pa.Table:
    """A per-query table (run_id, query_id, measure, value) with queries q00, q01, ... in order."""
    rows = [(run, f"q{i:02d}", measure, value) for run, values in runs.items() for i, value in enumerate(values)]
    return pa.table({name: [row[i] for row in rows] for i, name in enumerate(("run_id", "query_id", "measure", "value"))})


def same(ours, theirs) -> bool:
    """Equal to 1e-12 (relative for large numbers), NaN (ours None) where scipy gives NaN."""
    theirs = float(theirs)
    if math.isnan(theirs):
        return ours is None
    if math.isinf(theirs):
        return ours == theirs
    return ours is not None and abs(ours - theirs) <= 1e-12 * max(1.0, abs(theirs))


SHARED = sqlrank.connect()  # one connection for the Hypothesis examples: the library is installed once


@settings(max_examples=20, deadline=None)
@given(PAIRS)
def test_paired_tests_equal_scipy(pair):
    run, base = pair
    comparison = sqlrank.compare(per_query({"base": base, "run": run}), baseline="base",
                                 tests=["ttest", "wilcoxon", "sign"], ci_trials=10, connection=SHARED)
    row = comparison.row("run", "AP")
    a, b = np.array(run), np.array(base)
    d = on_precision(a, b)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy's warnings of constant samples and ties
        t = scipy.stats.ttest_1samp(d, 0.0) if len(set(d)) > 1 else scipy.stats.ttest_1samp([math.nan], 0.0)
        w = _scipy_wilcoxon(d) if np.any(d != 0) else (math.nan, math.nan)
        wins, losses = int(np.sum(d > 0)), int(np.sum(d < 0))
    assert same(row["ttest_statistic"], t.statistic) and same(row["ttest_p_value"], t.pvalue)
    assert same(row["wilcoxon_statistic"], w[0]) and same(row["wilcoxon_p_value"], w[1])
    if wins + losses:
        assert row["sign_statistic"] == wins
        assert same(row["sign_p_value"], scipy.stats.binomtest(wins, wins + losses, 0.5).pvalue)
    else:
        assert row["sign_p_value"] is None
    assert (row["wins"], row["ties"], row["losses"]) == (wins, len(a) - wins - losses, losses)
    assert row["queries"] == len(a)
    sd = np.std(d, ddof=1)
    assert same(row["effect_size"], np.mean(d) / sd if sd > 0 else math.nan)
    assert same(row["delta"], np.mean(a) - np.mean(b))


def on_precision(a, b) -> np.ndarray:
    """The differences a - b as compare documents them: rounded (half away from 0) to a step of
    2^-40 of the largest |value|, a power of two."""
    largest = max(np.max(np.abs(a)), np.max(np.abs(b)))
    step = 2.0 ** (math.ceil(math.log2(largest)) - 40) if largest > 0 else 1.0
    return np.array([math.copysign(math.floor(abs(x) / step + 0.5), x) * step for x in a - b])


def _scipy_wilcoxon(d):
    try:
        result = scipy.stats.wilcoxon(d)
        return result.statistic, result.pvalue
    except ValueError:
        return math.nan, math.nan


def test_two_queries_and_all_ties():
    """n = 2, and a run equal to the baseline on every query: no test can tell, and none pretends to."""
    comparison = sqlrank.compare(per_query({"base": [0.5, 0.25], "same": [0.5, 0.25], "up": [1.0, 0.75]}),
                                 tests=["ttest", "wilcoxon", "sign", "randomization"], ci_trials=10)
    same_row, up = comparison.row("same", "AP"), comparison.row("up", "AP")
    assert (same_row["wins"], same_row["ties"], same_row["losses"]) == (0, 2, 0)
    assert same_row["ttest_p_value"] is None and same_row["sign_p_value"] is None
    assert same_row["randomization_p_value"] == 1.0  # every flip of zeros is as extreme
    # up: both differences +0.5: t undefined (sd 0: never a p of 0), the exact randomization p = 2/4 (all + or all -)
    assert up["ttest_statistic"] is None and up["ttest_p_value"] is None
    assert up["randomization_p_value"] == 0.5
    assert up["wilcoxon_p_value"] == scipy.stats.wilcoxon([1.0, 0.75], [0.5, 0.25]).pvalue


P_VALUES = st.lists(st.one_of(st.sampled_from([0.0, 0.01, 0.04, 0.05, 0.5, 1.0]), st.floats(0, 1)),
                    min_size=1, max_size=30)


@settings(max_examples=20, deadline=None)
@given(P_VALUES)
def test_corrections_equal_statsmodels(p_values):
    for ours, theirs in (("holm", "holm"), ("bonferroni", "bonferroni"), ("bh", "fdr_bh")):
        expected = multipletests(p_values, method=theirs)[1]
        assert np.allclose(significance.adjust(p_values, ours), expected, rtol=0, atol=1e-12), ours
    assert significance.adjust(p_values, "none") == p_values


def test_correction_leaves_nan_out_of_the_family():
    adjusted = significance.adjust([0.01, math.nan, 0.04], "holm")
    assert adjusted[0] == pytest.approx(0.02, abs=1e-15) and math.isnan(adjusted[1])
    assert adjusted[2] == pytest.approx(0.04, abs=1e-15)


def brute_force_p(d) -> float:
    """Every one of the 2^n sign flips: the share whose |sum| reaches the observed |sum|."""
    d = np.asarray(d, dtype=float)
    observed, tolerance = abs(d.sum()), 1e-9 * np.abs(d).sum()
    hits = sum(abs(np.dot(signs, d)) >= observed - tolerance for signs in itertools.product((1, -1), repeat=len(d)))
    return hits / 2 ** len(d)


def randomization(con, table: pa.Table, a: str, b: str, **options) -> dict:
    con.register("per_query", table)
    named = "".join(f", {name} := {value}" for name, value in options.items())
    return con.sql(f"FROM sqlrank.randomization_test('per_query', '{a}', '{b}'{named})").to_arrow_table().to_pylist()[0]


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 12).flatmap(lambda n: st.lists(st.tuples(VALUE, VALUE), min_size=n, max_size=n)))
def test_exact_randomization_equals_brute_force(pairs):
    run, base = [p[0] for p in pairs], [p[1] for p in pairs]
    found = randomization(SHARED, per_query({"base": base, "run": run}), "run", "base", trials=10000)
    assert found["method"] == "exact" and found["permutations"] == 2 ** len(pairs)
    assert found["p_value"] == pytest.approx(brute_force_p(np.array(run) - np.array(base)), abs=1e-15)


def test_exact_randomization_worked_example(con):
    """Differences 0.25, 0.5, -0.125: |sum| >= 0.625 for +-(0.25 + 0.5 - 0.125) and +-(0.25 + 0.5 + 0.125): 4/8."""
    found = randomization(con, per_query({"a": [0.25, 0.5, 0.0], "b": [0.0, 0.0, 0.125]}), "a", "b")
    assert (found["method"], found["as_extreme"], found["p_value"]) == ("exact", 4, 0.5)


def sixteen_queries():
    rng = np.random.default_rng(7)
    base = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], 16)
    return per_query({"base": list(base), "run": list(np.clip(base + rng.normal(0.12, 0.3, 16), 0, 1))})


def test_sampled_randomization_within_monte_carlo_error_of_exact(con):
    table = sixteen_queries()
    values = {run: np.array([r["value"] for r in table.to_pylist() if r["run_id"] == run]) for run in ("base", "run")}
    exact = brute_force_p(values["run"] - values["base"])  # 65,536 flips
    for seed in (1, 2, 3):
        found = randomization(con, table, "run", "base", trials=10000, seed=seed)
        assert found["method"] == "sampled" and found["permutations"] == 10000
        error = math.sqrt(exact * (1 - exact) / 10000)
        assert abs(found["p_value"] - exact) <= 4 * error + 1 / 10001, (seed, found["p_value"], exact)


def test_sampled_randomization_uses_the_documented_signs(con):
    """as_extreme recounted in numpy with the signs of sqlrank.flip_sign(seed, trial, position)."""
    table = sixteen_queries()
    found = randomization(con, table, "run", "base", trials=500, seed=9)
    d = np.array([r["value"] for r in table.to_pylist() if r["run_id"] == "run"]) - \
        np.array([r["value"] for r in table.to_pylist() if r["run_id"] == "base"])
    signs = np.array(con.execute("SELECT list(sqlrank.flip_sign(9, trial, position) ORDER BY position) "
                             "FROM range(500) t(trial), range(16) p(position) GROUP BY trial ORDER BY trial").fetchall(),
                     dtype=float).reshape(500, 16)
    hits = int(np.sum(np.abs(signs @ d) >= abs(d.sum()) - 1e-9 * np.abs(d).sum()))
    assert found["as_extreme"] == hits and found["p_value"] == (hits + 1) / 501


def test_randomization_same_for_a_seed_across_threads_and_doors():
    table = sixteen_queries()
    seen = set()
    for threads in (1, 2, 4):
        with sqlrank.connect() as con:
            con.execute(f"SET threads = {threads}")
            seen.add(randomization(con, table, "run", "base", trials=3000, seed=5)["p_value"])
    python = sqlrank.compare(table, baseline="base", tests=["randomization"], trials=3000, seed=5, ci_trials=10)
    seen.add(python.row("run", "AP")["randomization_p_value"])
    assert len(seen) == 1
    with sqlrank.connect() as con:
        others = {randomization(con, table, "run", "base", trials=3000, seed=s)["as_extreme"] for s in range(6)}
    assert len(others) > 1  # the seed matters


def test_bootstrap_equals_numpy_with_the_same_draws(con):
    table = sixteen_queries()
    con.register("per_query", table)
    found = con.sql("FROM sqlrank.bootstrap_test('per_query', 'run', 'base', trials := 400, seed := 3, "
                    "confidence := 0.9)").to_arrow_table().to_pylist()[0]
    rows = table.to_pylist()
    d = np.array([r["value"] for r in rows if r["run_id"] == "run"]) - \
        np.array([r["value"] for r in rows if r["run_id"] == "base"])
    draws = np.array(con.execute("SELECT list(sqlrank.bootstrap_draw(3, trial, draw, 16) ORDER BY draw) "
                             "FROM range(400) t(trial), range(16) j(draw) GROUP BY trial ORDER BY trial").fetchall(),
                     dtype=int).reshape(400, 16)
    means = d[draws].mean(axis=1)
    assert found["ci_low"] == pytest.approx(np.quantile(means, 0.05), abs=1e-12)
    assert found["ci_high"] == pytest.approx(np.quantile(means, 0.95), abs=1e-12)
    hits = int(np.sum(np.abs(means - d.mean()) >= abs(d.mean()) - 1e-9 * np.abs(d).mean()))
    assert found["as_extreme"] == hits and found["p_value"] == (hits + 1) / 401


def tukey_plain(con, runs: dict[str, list[float]], trials: int, seed: int) -> dict:
    """Randomised Tukey HSD in plain Python, with the permutations of sqlrank.shuffle_key."""
    names = sorted(runs)
    values = np.array([runs[name] for name in names])  # runs x queries
    n_runs, n_queries = values.shape
    keys = {}
    for trial, q, r, key in con.execute(
            f"SELECT trial, q, r, sqlrank.shuffle_key({seed}, trial, q, r) FROM range({trials}) t(trial), "
            f"range({n_queries}) a(q), range({n_runs}) b(r)").fetchall():
        keys[trial, q, r] = key
    spreads = []
    for trial in range(trials):
        slots = np.zeros((n_runs, n_queries))
        for q in range(n_queries):
            order = sorted(range(n_runs), key=lambda r: (keys[trial, q, r], r))  # order[i]: the run put in slot i
            for slot, r in enumerate(order):
                slots[slot, q] = values[r, q]
        means = slots.mean(axis=1)
        spreads.append(means.max() - means.min())
    spreads = np.array(spreads)
    means = values.mean(axis=1)
    result = {}
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i != j:
                difference = means[i] - means[j]
                hits = int(np.sum(spreads >= abs(difference) * (1 - 1e-9)))
                result[a, b] = (difference, hits, (hits + 1) / (trials + 1))
    return result


def test_tukey_hsd_equals_plain_python_with_the_same_permutations(con):
    rng = np.random.default_rng(11)
    runs = {name: list(rng.choice([0.0, 0.2, 0.5, 0.8, 1.0], 9) + shift)
            for name, shift in (("a", 0.0), ("b", 0.1), ("c", 0.3), ("d", -0.05))}
    con.register("per_query", per_query(runs))
    found = con.sql("FROM sqlrank.tukey_hsd('per_query', trials := 300, seed := 4)").to_arrow_table().to_pylist()
    expected = tukey_plain(con, runs, 300, 4)
    assert len(found) == 12
    for row in found:
        difference, hits, p = expected[row["run_a"], row["run_b"]]
        assert row["difference"] == pytest.approx(difference, abs=1e-12)
        assert (row["as_extreme"], row["p_value"]) == (hits, p)
        assert (row["queries"], row["runs"], row["trials"]) == (9, 4, 300)
    # the largest difference (c against d) is the least likely to be reached by chance
    smallest = min(found, key=lambda row: row["p_value"])
    assert {smallest["run_a"], smallest["run_b"]} == {"c", "d"}


def test_tukey_uses_only_queries_every_run_has(con):
    table = per_query({"a": [0.1, 0.2, 0.3], "b": [0.3, 0.2, 0.1]})
    extra = pa.table({"run_id": ["a"], "query_id": ["q99"], "measure": ["AP"], "value": [1.0]})
    con.register("per_query", pa.concat_tables([table, extra]))
    rows = con.execute("FROM sqlrank.tukey_hsd('per_query', trials := 50)").fetchall()
    assert {row[3] for row in rows} == {3}


def test_without_scipy_the_error_says_what_to_install(monkeypatch):
    table = pa.table({"run_id": ["base", "base", "run", "run"], "query_id": ["q1", "q2", "q1", "q2"],
                      "measure": ["AP"] * 4, "value": [0.1, 0.2, 0.3, 0.5]})
    monkeypatch.setitem(sys.modules, "scipy.stats", None)  # an import of it now raises ImportError
    with pytest.raises(sqlrank.EvaluationError) as error:
        sqlrank.compare(table, tests=["ttest"])
    assert str(error.value) == ("the t-test, Wilcoxon and sign tests need scipy: in the sqlrank checkout, "
                                ".venv/bin/pip install -e '.[compare]' (or ask only for tests='randomization', "
                                "'bootstrap' or 'tukey')")
    assert sqlrank.compare(table, tests=["randomization"]).row("run", "AP")["wins"] == 2  # the way out it names
