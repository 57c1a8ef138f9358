"""Fusion parameters in a file: what optimize_fusion chose or trained, kept as JSON for `sqlrank fuse --params`.

The file is one JSON object whose keys are sqlrank.fuse's (and ranx's) parameter names, e.g.

    {"probs": [[0.61, 0.42, 0.3], [0.55, 0.5, 0.21]], "w": 3}       # slidefuse, two runs
    {"weights": [0.3, 0.7]}                                          # wsum

a per-run value listing the runs in the order `sqlrank fuse` is given them (docs/fusion.md#trained-parameters).
"""

from __future__ import annotations

import json
import os
from numbers import Real

from .errors import InputError, OutputError

NUMBERS = ("k", "phi", "gamma", "sigma")  # one number each
PER_RUN_NUMBERS = ("weights", "map_scores")  # one number per run
PER_RUN_LISTS = ("probs", "log_odds")  # one list of numbers per run
WHOLE_NUMBERS = ("w",)
KEYS = NUMBERS + PER_RUN_NUMBERS + PER_RUN_LISTS + WHOLE_NUMBERS
EXAMPLE = '{"probs": [[0.6, 0.4], [0.5, 0.3]], "w": 3}'


def read(path: str | os.PathLike) -> dict:
    """The parameters in a JSON file, checked: each key one of KEYS, each value of its shape."""
    try:
        with open(path, encoding="utf-8") as file:
            params = json.load(file)
    except OSError as error:
        raise InputError(f"{path}: cannot be read ({error.strerror or error}); give the fusion parameters' JSON file") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: is not UTF-8 text; expected a JSON object such as {EXAMPLE}") from None
    except json.JSONDecodeError as error:
        raise InputError(f"{path}:{error.lineno}:{error.colno}: not JSON ({error.msg}); expected an object such as "
                         f"{EXAMPLE}") from None
    if not isinstance(params, dict):
        raise InputError(f"{path}: expected a JSON object such as {EXAMPLE}, found a {type(params).__name__}")
    for key, value in params.items():
        if key not in KEYS:
            raise InputError(f"{path}: unknown fusion parameter '{key}'; the parameters are {', '.join(KEYS)}")
        _check(path, key, value)
    return params


def write(params: dict, path: str | os.PathLike, inputs: tuple = ()) -> None:
    """Write parameters (optimize_fusion's, or ranx's with numpy arrays) as a JSON file, atomically."""
    from . import export

    plain = {}
    for key, value in params.items():
        if key not in KEYS:
            raise OutputError(f"unknown fusion parameter '{key}'; the parameters are {', '.join(KEYS)}")
        plain[key] = _plain(value)
        _check(path, key, plain[key])
    export.write_bytes([json.dumps(plain, indent=1).encode("utf-8") + b"\n"], path, inputs)


def _plain(value):
    """numpy arrays and scalars as JSON's lists and numbers."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _is_number(value) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


def _check(path, key: str, value) -> None:
    if key in NUMBERS:
        ok, expected = _is_number(value), "a number"
    elif key in WHOLE_NUMBERS:
        ok, expected = _is_number(value) and value >= 0 and value == int(value), "a whole number >= 0"
    elif key in PER_RUN_NUMBERS:
        ok, expected = isinstance(value, list) and all(map(_is_number, value)), "a list of numbers, one per run"
    else:
        ok = isinstance(value, list) and all(isinstance(run, list) and all(map(_is_number, run)) for run in value)
        expected = "a list of lists of numbers, one list per run"
    if not ok:
        raise InputError(f"{path}: '{key}' must be {expected}; found {json.dumps(value)[:80]}")
