"""Paired significance tests over per-query values, multiple-testing corrections and effect sizes.

The parametric and rank tests take their distributions from scipy.stats (the
`compare` extra), never from formulas written here: the t-test is
scipy.stats.ttest_rel, the Wilcoxon signed-rank test scipy.stats.wilcoxon
(zero differences dropped, exact or normal as scipy chooses), the sign test
scipy.stats.binomtest over the wins and losses (ties dropped). scipy is
imported only when one of them is asked for. The resampling tests
(randomization, bootstrap, Tukey HSD) are SQL macros (sql/61_ .. 63_), run by
sqlrank.compare. The corrections are arithmetic on the p-values, here.
"""

from __future__ import annotations

import math
import warnings

from .errors import ChoiceError, EvaluationError

# test name -> what it is; the order is the order of the report's columns
TESTS = {
    "ttest": "paired Student t-test (scipy.stats.ttest_rel)",
    "wilcoxon": "Wilcoxon signed-rank test (scipy.stats.wilcoxon)",
    "sign": "sign test (scipy.stats.binomtest over wins and losses)",
    "randomization": "Fisher's randomization test, exact for few queries (sqlrank.randomization)",
    "bootstrap": "paired bootstrap test, shift method (sqlrank.bootstrap)",
    "tukey": "randomised Tukey HSD over all runs (sqlrank.tukey_hsd)",
}
TEST_ALIASES = {"t": "ttest", "t-test": "ttest", "student": "ttest", "signed-rank": "wilcoxon",
                "fisher": "randomization", "permutation": "randomization", "tukey-hsd": "tukey", "hsd": "tukey"}
SCIPY_TESTS = ("ttest", "wilcoxon", "sign")
CORRECTIONS = {"holm": "Holm", "bonferroni": "Bonferroni", "bh": "Benjamini-Hochberg", "none": "none"}
CORRECTION_ALIASES = {"fdr_bh": "bh", "benjamini-hochberg": "bh", "fdr": "bh", "no": "none"}


def test_names(tests) -> list[str]:
    """The tests asked for, as their canonical names, each once, in the order given."""
    if isinstance(tests, str):
        tests = [tests]
    if tests is None or not hasattr(tests, "__iter__"):
        raise EvaluationError(f"tests must be a test's name or a list of them ({', '.join(TESTS)}), got {tests!r}")
    names: list[str] = []
    for test in tests:
        name = TEST_ALIASES.get(str(test).lower(), str(test).lower())
        if name not in TESTS:
            raise ChoiceError(f"unknown test {test!r}: expected one of {', '.join(TESTS)}")
        if name not in names:
            names.append(name)
    if not names:
        raise ChoiceError(f"no test asked for: give one or more of {', '.join(TESTS)}")
    return names


def correction_name(correction: str | None, comparisons: int) -> str:
    """Holm when more than one comparison is made and none was named, else the one named."""
    if correction is None:
        return "holm" if comparisons > 1 else "none"
    name = CORRECTION_ALIASES.get(correction.lower(), correction.lower())
    if name not in CORRECTIONS:
        raise ChoiceError(f"unknown correction {correction!r}: expected one of {', '.join(CORRECTIONS)}")
    return name


def scipy_stats():
    try:
        import scipy.stats
    except ImportError:
        raise EvaluationError("the t-test, Wilcoxon and sign tests need scipy: in the sqlrank checkout, "
                              ".venv/bin/pip install -e '.[compare]' (or ask only for tests='randomization', "
                              "'bootstrap' or 'tukey')") from None
    return scipy.stats


def paired_test(test: str, differences: np.ndarray) -> tuple[float, float]:
    """(statistic, two-sided p-value) of one of SCIPY_TESTS over the paired differences (run - baseline, on
    the values' precision: sqlrank.differences_from); NaN where the test has no answer.

    t-test: t of the differences; undefined (NaN) for fewer than 2 or differences without variance
    (all equal, all ties included: t = 0/0 or d/0). Wilcoxon: the smaller rank sum (scipy's), undefined
    when every difference is 0. Sign test: the number of wins among wins + losses, undefined without either.
    """
    import numpy as np  # loaded when used: `import sqlrank` stays light

    stats = scipy_stats()
    differences = np.asarray(differences, dtype=float)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")  # scipy warns of ties: the report says n
        if test == "ttest":
            if len(differences) < 2 or np.all(differences == differences[0]):
                return math.nan, math.nan
            outcome = stats.ttest_1samp(differences, 0.0)
            return float(outcome.statistic), float(outcome.pvalue)
        if test == "wilcoxon":
            if not np.any(differences != 0):
                return math.nan, math.nan
            try:
                outcome = stats.wilcoxon(differences)
            except ValueError:  # no difference left that scipy can rank
                return math.nan, math.nan
            return float(outcome.statistic), float(outcome.pvalue)
        if test == "sign":
            wins = int(np.sum(differences > 0))
            losses = int(np.sum(differences < 0))
            if wins + losses == 0:
                return math.nan, math.nan
            return float(wins), float(stats.binomtest(wins, wins + losses, 0.5).pvalue)
    raise EvaluationError(f"{test!r} is not a paired test of scipy ({', '.join(SCIPY_TESTS)})")


def adjust(p_values, correction: str) -> list[float]:
    """The p-values adjusted for the family they form; NaN ones are left out of the family and stay NaN.

    holm: step-down, p_(i) * (m - i + 1) made monotone (Holm 1979);
    bonferroni: p * m; bh: step-up, p_(i) * m / i made monotone from the largest
    (Benjamini & Hochberg 1995). All capped at 1; the same numbers as
    statsmodels' multipletests(method='holm' | 'bonferroni' | 'fdr_bh').
    """
    import numpy as np

    p = np.asarray(p_values, dtype=float)
    adjusted = np.full(p.shape, math.nan)
    known = np.flatnonzero(~np.isnan(p))
    m = len(known)
    if m == 0 or correction == "none":
        return [float(x) for x in np.where(np.isnan(p), math.nan, p)]
    family = p[known]
    order = np.argsort(family, kind="stable")
    ranked = family[order]
    if correction == "bonferroni":
        values = np.minimum(ranked * m, 1.0)
    elif correction == "holm":
        values = np.minimum(np.maximum.accumulate(ranked * (m - np.arange(m))), 1.0)
    elif correction == "bh":
        values = np.minimum(np.minimum.accumulate((ranked * m / np.arange(1, m + 1))[::-1])[::-1], 1.0)
    else:
        raise ChoiceError(f"unknown correction {correction!r}: expected one of {', '.join(CORRECTIONS)}")
    in_place = np.empty(m)
    in_place[order] = values
    adjusted[known] = in_place
    return [float(x) for x in adjusted]


def effect_size(differences: np.ndarray) -> float:
    """Cohen's d_z: mean(difference) / sd(difference) (n - 1 in the sd); NaN when the sd is 0 or n < 2."""
    import numpy as np

    if len(differences) < 2:
        return math.nan
    sd = float(np.std(differences, ddof=1))
    return float(np.mean(differences)) / sd if sd > 0 else math.nan
