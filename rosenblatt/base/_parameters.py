"""Every estimator parameter's constraint, written once.

Each estimator lists the names of its parameters in one tuple, ``_PARAMETERS``,
and builds its ``_parameter_constraints`` (checked by scikit-learn's machinery
at the start of ``fit``/``partial_fit``) from it with :func:`constraints`. A
contract test checks that the tuple, ``__init__`` and the docstring agree.
"""

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

SHUFFLE_MODES = ("none", "once", "every_epoch")


class WholeNumber(Interval):
    """scikit-learn's ``Interval(Integral, ...)`` without ``True`` and ``False``: a
    ``bool`` is an ``int`` to Python, so ``max_iter=True`` would train one epoch."""

    def __init__(self, left, right, *, closed):
        super().__init__(Integral, left, right, closed=closed)

    def is_satisfied_by(self, val):
        return not isinstance(val, (bool, np.bool_)) and super().is_satisfied_by(val)


class RealNumber(Interval):
    """scikit-learn's ``Interval(Real, ...)`` without ``True`` and ``False``: to
    Python a ``bool`` is a number, so ``eta=True`` would be a rate of 1."""

    def __init__(self, left, right, *, closed):
        super().__init__(Real, left, right, closed=closed)

    def is_satisfied_by(self, val):
        return not isinstance(val, (bool, np.bool_)) and super().is_satisfied_by(val)


INIT_MODES = ("zeros", "uniform", "normal")

CONSTRAINTS = {
    "eta": [RealNumber(0, None, closed="neither")],
    "fit_intercept": ["boolean"],
    "max_iter": [WholeNumber(1, None, closed="left")],
    "max_updates": [WholeNumber(1, None, closed="left")],
    "pocket": ["boolean"],
    "shuffle": [StrOptions(set(SHUFFLE_MODES))],
    "init": [StrOptions(set(INIT_MODES)), "array-like"],
    "random_state": [
        WholeNumber(0, 2**32 - 1, closed="both"),
        np.random.RandomState,
        np.random.Generator,
        None,
    ],
    "record": ["boolean"],
    "class_weight": [StrOptions({"balanced"}), dict, None],
    "warm_start": ["boolean"],
    "early_stopping": ["boolean"],
    "validation_fraction": [RealNumber(0, 1, closed="neither")],
    "n_iter_no_change": [WholeNumber(1, None, closed="left")],
    "n_jobs": [WholeNumber(None, None, closed="neither"), None],
    "average": ["boolean"],
    "margin": [RealNumber(0, None, closed="left")],
    "tol": [RealNumber(0, None, closed="left"), None],
    "stop_mistake_free": ["boolean"],
    "penalty": [StrOptions({"l2", "l1", "elasticnet"}), None],
    "alpha": [RealNumber(0, None, closed="left")],
    "l1_ratio": [RealNumber(0, 1, closed="both")],
    "weights_dtype": [StrOptions({"float64", "float32"})],
}


def constraints(names, **own):
    """``_parameter_constraints`` for the parameters ``names``: the shared entry
    of each, or the estimator's ``own`` entry where it differs or is its alone.

    >>> sorted(constraints(("eta", "degree"), degree=[int]))
    ['degree', 'eta']
    """
    unknown = set(names) - set(CONSTRAINTS) - set(own)
    if unknown:
        raise KeyError(f"no constraint for parameter(s) {sorted(unknown)}")
    return {name: own[name] if name in own else CONSTRAINTS[name] for name in names}
