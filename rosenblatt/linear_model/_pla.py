"""The perceptron learning algorithm (PLA) of Kowalczyk and the Data Science Lab blog."""

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval

from .. import _kernels
from ..base import BasePerceptron
from ._params import ATTRIBUTES, parameters


class PLA(BasePerceptron):
    __doc__ = f"""Perceptron learning algorithm: fix one misclassified point, chosen at random.

    Start from ``init``; then repeat: classify every point, and if some are
    misclassified (``y (w·x + b) <= 0``, so ``sign(0)`` counts as wrong, as with
    ``np.sign`` in the book) pick one uniformly at random and update
    ``w += eta y x``, ``b += eta y``. Stop when none is left, or after
    ``max_updates`` updates with a ``ConvergenceWarning``.

    The pick is Kowalczyk's ``pick_one_from``: the indices of the misclassified
    points, in index order, are shuffled with the estimator's generator and the
    first is taken. With ``init="uniform"`` the start is one ``rand(d + 1)``
    call, bias first, so ``random_state=np.random.RandomState(88)`` reproduces
    Code Listing 14 of *SVM Succinctly*.

    Not online (each step looks at every point), so no ``partial_fit``.

    Parameters
    ----------
    {parameters("eta", "fit_intercept")}
    max_updates : int, default=10000
        Largest number of updates before giving up with a ``ConvergenceWarning``.
    {parameters("init", "random_state", "record", "class_weight", "warm_start",
                "n_jobs")}

    Attributes
    ----------
    {ATTRIBUTES}

    ``n_iter_`` counts PLA iterations, one update each, so it equals
    ``n_updates_`` for a binary problem.

    References
    ----------
    Kowalczyk, *SVM Succinctly*, ch. 3, Code Listings 11-14; Abu-Mostafa et al.,
    *Learning from Data*, §1.1.2.

    Examples
    --------
    >>> import numpy as np
    >>> from rosenblatt import PLA
    >>> from rosenblatt.datasets import load_svm_succinctly
    >>> X, y = load_svm_succinctly()
    >>> model = PLA(init="uniform", random_state=np.random.RandomState(88)).fit(X, y)
    >>> print(model.intercept_, model.coef_, model.n_updates_)
    [-44.35244895] [[1.50714969 5.52834138]] 175
    """

    _parameter_constraints = {
        **{
            key: value for key, value in BasePerceptron._parameter_constraints.items()
            if key not in {"max_iter", "shuffle", "early_stopping", "validation_fraction",
                           "n_iter_no_change"}
        },
        "max_updates": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        *,
        eta=1.0,
        fit_intercept=True,
        max_updates=10000,
        init="zeros",
        random_state=None,
        record=False,
        class_weight=None,
        warm_start=False,
        n_jobs=None,
    ):
        self.eta = eta
        self.fit_intercept = fit_intercept
        self.max_updates = max_updates
        self.init = init
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.n_jobs = n_jobs

    def _train(self, problem, X, Xk, y, sw, n_epochs, stopper):
        wrong = np.empty(X.shape[0], dtype=np.intp)
        coef, intercept = problem.coef, problem.intercept
        while True:
            count = _kernels.misclassified_rows(Xk, y, sw, coef, intercept[0], wrong)
            problem.converged = count == 0
            if problem.converged or problem.n_updates >= self.max_updates:
                return
            candidates = wrong[:count].copy()
            problem.rng.shuffle(candidates)
            i = candidates[0]
            activation = _kernels.activation(Xk, i, coef, intercept[0])
            step = self.eta * sw[i] * y[i]
            _kernels.update_row(Xk, i, coef, step)
            if self.fit_intercept:
                intercept[0] += step
            problem.n_updates += 1
            problem.n_iter += 1
            if self._progress is not None:
                self._progress(problem)
            if problem.recorder:
                problem.recorder.add_online(
                    problem.n_iter, X, y, np.array([i]), np.array([activation]),
                    np.array([problem.n_iter]), np.array([step]), self.fit_intercept,
                )

    _advice = "increase max_updates, or use PocketPerceptron to keep the weights with the " \
        "fewest training mistakes"

    def _limit_description(self):
        return f"max_updates={self.max_updates} updates"
