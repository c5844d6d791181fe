"""The perceptron learning algorithm (PLA) of Kowalczyk and the Data Science Lab blog."""

import numpy as np

from .. import _kernels
from ..base import LinearLearner, LinearModel, PerceptronClassifier, Traced, constraints
from ..base._registry import register
from ._pocket import POCKET_ERRORS, Pocket


class PLALearner(Traced, LinearLearner):
    """The PLA's rule: one misclassified point at a time, the whole run one "epoch"."""

    published_form = {"pocket_errors_": POCKET_ERRORS}  # with pocket=True

    @property
    def _advice(self):
        if self.pocket:
            return "the weights with the fewest training mistakes seen are returned " \
                "(pocket_errors_); increase max_updates to search longer"
        return "increase max_updates, or keep the weights with the fewest training " \
            "mistakes: pocket=True (or PocketPerceptron)"

    def _new_state(self, coef, intercept):
        # Kowalczyk's pocket: judged on the count of misclassified points the PLA
        # makes before each update anyway, so it costs nothing more
        return Pocket.start(coef, intercept) if self.pocket else \
            super()._new_state(coef, intercept)

    def _limit_description(self, problems=()):
        return f"max_updates={self.max_updates} updates"

    _cannot_mix = ("PLA re-classifies every point before each update, which needs all the "
                   "rows in one place; use Perceptron (the same rule, epoch by epoch)")

    _reports_epochs = False  # on_epoch is called after each update
    _renumbers = False  # one pass over the rows per update: nothing to keep in cache

    def _max_epochs(self):
        return 1  # the whole run is one "epoch" of the training loop

    def _epoch(self, problem, data, order):
        """Re-classify every point, fix one misclassified point picked at random;
        repeat until none is left or ``max_updates`` updates were made. Each update
        counts as an iteration (``n_iter_``)."""
        wrong = np.empty(data.n_rows, dtype=np.intp)
        coef, intercept, y, sw = problem.coef, problem.intercept, data.y, data.sw
        n_updates = 0
        problem.n_iter = 0
        while True:
            count = _kernels.misclassified_rows(data.Xk, y, sw, coef, intercept[0], wrong)
            if self.pocket:
                errors = count if data.kernel_sw is None else float(sw[wrong[:count]].sum())
                problem.state.keep_if_fewer(coef, intercept, errors)
            problem.converged = count == 0
            if problem.converged or n_updates >= self.max_updates:
                return n_updates
            candidates = wrong[:count].copy()
            problem.rng.shuffle(candidates)
            i = candidates[0]
            activation = _kernels.activation(data.Xk, i, coef, intercept[0])
            step = self.eta * sw[i] * y[i]
            _kernels.update_row(data.Xk, i, coef, step)
            if self.fit_intercept:
                intercept[0] += step
            problem.check_finite("PLA", f"at update {n_updates + 1}")
            n_updates += 1
            problem.n_iter = n_updates
            if self.on_epoch is not None:
                self.on_epoch(problem)
            if problem.recorder is not None:
                problem.recorder.add_online(
                    problem.n_iter, data.X, y, np.array([i]), np.array([activation]),
                    np.array([problem.n_iter]), np.array([step]), self.fit_intercept,
                )

    def _stop(self, problem, end):
        # converged, or out of updates: set by the run itself
        problem.stop_reason = "mistake_free" if problem.converged else "max_iter"
        return True

    def publish(self, problems):
        published = super().publish(problems)
        if self.pocket:
            published["pocket_errors_"] = np.array([p.state.exact_errors for p in problems])
        return published


@register("pla", "classic")
class PLA(LinearModel, PerceptronClassifier):
    """Perceptron learning algorithm: fix one misclassified point, chosen at random.

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

    ``pocket=True`` is Kowalczyk's Pocket algorithm, "this modification of the
    PLA": the PLA runs as before, and the weights with the fewest
    misclassified points (weighted) met before any update, judged on the count
    the PLA makes anyway, are kept in the pocket and returned. On data that are
    not separable the PLA then runs all ``max_updates`` updates (and warns),
    and the pocket is the best it saw. (:class:`PocketPerceptron` pockets the
    cyclic online rule instead.)

    Not online (each step looks at every point), so no ``partial_fit``.

    Probabilities: none; its scores are the margins of a mistake-driven rule,
    which models no probability. For probabilities, calibrate its scores with
    :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    eta : float, default=1.0
        Learning rate η (> 0): an update adds ``eta * y * x`` to the weights.
    fit_intercept : bool, default=True
        Learn a bias ``b`` (updated as ``b += eta * y``, the same as a constant
        feature x₀ = 1 with its weight first). False: the boundary passes through 0.
    max_updates : int, default=10000
        Largest number of updates before giving up with a ``ConvergenceWarning``.
    pocket : bool, default=False
        Return the weights with the fewest misclassified points met during the
        run (Kowalczyk's Pocket algorithm) instead of the last ones.
    init : {"zeros", "uniform", "normal"} or array-like, default="zeros"
        Starting weights: zeros, one draw of ``rng.random(n_features + 1)``
        (U[0, 1)) or ``rng.standard_normal(...)``, bias first; or an array of that
        shape (bias first), or one row per class for one-vs-rest.
    random_state : None, int, RandomState or Generator, default=None
        Source of the random initial weights and permutations. A generator you
        pass is advanced in place, as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.Trace` of every update in ``trace_``.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the weights of the previous fit instead of ``init``.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The weights (the pocketed ones with ``pocket=True``).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        PLA iterations, one update each (the largest over the one-vs-rest
        problems), so ``n_iter_ == n_updates_`` for two classes.
    n_updates_ : int
        Updates made (summed over the problems).
    converged_ : bool
        Whether no point was left misclassified (for every problem).
    stop_reason_ : str
        ``"mistake_free"`` or ``"max_iter"`` (``max_updates`` ran out).
    pocket_errors_ : ndarray of shape (1,) or (n_classes,)
        With ``pocket=True`` only: the weighted mistakes of the pocketed weights
        of each problem.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

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

    The pocket on XOR, which no line separates: one point in four stays wrong.

    >>> import warnings
    >>> from rosenblatt.datasets import make_boolean
    >>> X, y = make_boolean("xor")
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # XOR never converges: expected here
    ...     pocket = PLA(pocket=True, max_updates=50, random_state=0).fit(X, y)
    >>> pocket.pocket_errors_.tolist(), pocket.score(X, y)
    ([1.0], 0.75)
    """

    _PARAMETERS = ("eta", "fit_intercept", "max_updates", "pocket", "init", "random_state",
                   "record", "class_weight", "warm_start", "n_jobs")
    _parameter_constraints = constraints(_PARAMETERS)

    def __init__(
        self,
        *,
        eta=1.0,
        fit_intercept=True,
        max_updates=10000,
        pocket=False,
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
        self.pocket = pocket
        self.init = init
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.n_jobs = n_jobs

    _learner_class = PLALearner
