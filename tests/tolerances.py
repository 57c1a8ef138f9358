"""How far a printed value may be from the double it was printed from.

A value printed to d decimals is within half a unit of its last digit, but a value that sits exactly
halfway (0.123455) may be computed a few ulps either side of it by two programs, and then rounds
either way: the gap is half a unit plus float noise. Comparing at exactly half a unit fails at random
on generated data, so every comparison with a printed value takes this tolerance.
"""

FLOAT_SLACK = 1e-9  # far above the ulps two orders of adding leave, far below any printed digit


def printed(decimals: int) -> float:
    """The tolerance for comparing a double with a value printed to `decimals` decimals."""
    return 0.5 * 10.0 ** -decimals + FLOAT_SLACK
