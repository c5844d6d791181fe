"""The pocket algorithm: the perceptron that keeps its best weights so far."""

from dataclasses import dataclass

import numpy as np
from sklearn.utils._param_validation import StrOptions

from .. import _kernels
from .._validation import kernel_view
from ..base import (
    LinearLearner,
    LinearModel,
    PerceptronClassifier,
    RuleState,
    MistakeStop,
    Traced,
    constraints,
)
from ..base._file_form import Count, Floats, Number, Optional
from ..base._parameters import WholeNumber
from ..base._registry import register
from ._online import OnlineRule
from ._perceptron import EPOCH_RULE_PARAMETERS


#: the weighted mistakes of each problem's pocket, as ``pocket_errors_`` publishes them
POCKET_ERRORS = Floats("problems", low=0)


@dataclass
class Pocket(RuleState):
    """The weights with the fewest weighted training mistakes so far (Gallant 1990).

    The starting weights are the first pocket; their mistakes are counted on the
    first epoch (``errors`` is ``None`` until then). With ``per_update`` the
    kernel's pocket step judges the weights after every update and replaces the
    pocket in place (see :func:`rosenblatt._kernels._online._pocket_step`);
    otherwise :meth:`judge` judges the weights at the end of each epoch, one
    pass over the rows. PLA's pocket is judged by :meth:`keep_if_fewer`, on the
    count PLA makes anyway before each update.

    Counting every row after every update makes an epoch quadratic in the rows;
    beyond ``check_rows`` rows the candidates are compared on a fixed random
    sample of ``check_rows`` of them instead (drawn once per data set), and
    ``exact_errors`` is recounted on all rows at the end of each call.
    """

    cannot_mix = ("its pocket is judged by the mistakes over all the training rows; use "
                  "AveragedPerceptron, which also tames inseparable data")

    coef: np.ndarray
    intercept: np.ndarray
    check_rows: int = None
    errors: np.ndarray = None
    exact_errors: float = None
    per_update: bool = True
    _check: tuple = None
    _checked_X: object = None

    file_form = {"check_rows": Optional(Count(1)), "errors": Optional(Floats(1, low=0)),
                 "exact_errors": Optional(Number(low=0))}

    @classmethod
    def start(cls, coef, intercept, check_rows=None, per_update=True):
        return cls(coef.copy(), intercept.copy(), check_rows, per_update=per_update)

    def check_data(self, data):
        """``(X, y, sw)`` the pocket is judged on: every row, or the sample."""
        if self._checked_X is not data.X:
            self._checked_X = data.X
            if self.check_rows is None or data.n_rows <= self.check_rows:
                self._check = (data.Xk, data.y, data.sw)
            else:  # a fixed sample, the same for every epoch of this data set
                rows = np.sort(np.random.RandomState(data.n_rows).choice(
                    data.n_rows, self.check_rows, replace=False))
                self._check = (kernel_view(data.X[rows]), data.y[rows], data.sw[rows])
        return self._check

    def kernel_pocket(self, data):
        if not self.per_update:
            return None
        return self.coef, self.intercept, self._counted(data), self.check_data(data)

    def _counted(self, data):
        """``errors``, once the starting pocket's mistakes are counted."""
        if self.errors is None:
            self.errors = np.array([_kernels.weighted_errors(
                *self.check_data(data), self.coef, self.intercept[0], np.inf)])
        return self.errors

    def judge(self, data, coef, intercept):
        """Pocket ``coef``, ``intercept`` (the weights at the end of an epoch) if
        they make strictly fewer mistakes; the count stops at the pocket's."""
        errors = self._counted(data)
        count = _kernels.weighted_errors(*self.check_data(data), coef, intercept[0], errors[0])
        if count < errors[0]:
            self.keep(coef, intercept, count)

    def keep_if_fewer(self, coef, intercept, errors):
        """PLA's pocket: ``errors`` are the weights' mistakes, already counted."""
        if self.errors is None or errors < self.errors[0]:
            self.keep(coef, intercept, errors)
        self.exact_errors = float(self.errors[0])

    def keep(self, coef, intercept, errors):
        self.coef[:], self.intercept[:] = coef, intercept
        self.errors = np.array([float(errors)])

    def count_exactly(self, data):
        """The pocket's weighted mistakes on every row of ``data``."""
        exact = self._check[0] is data.Xk
        self.exact_errors = float(self.errors[0]) if exact else _kernels.weighted_errors(
            data.Xk, data.y, data.sw, self.coef, self.intercept[0], np.inf)

    def published(self, coef, intercept, seen):
        return self.coef, self.intercept

    def renumber(self, move):
        move(self.coef)


class PocketLearner(OnlineRule, Traced, MistakeStop, LinearLearner):
    """The perceptron's rule with a pocket: the weights of fewest mistakes so far."""

    _advice = "the weights with the fewest training mistakes seen are returned " \
        "(pocket_errors_); increase max_iter to search longer"
    published_form = {"pocket_errors_": POCKET_ERRORS}

    def _new_state(self, coef, intercept):
        if self.pocket_every == "epoch":  # one count per epoch, on every row
            return Pocket.start(coef, intercept, per_update=False)
        return Pocket.start(coef, intercept, self.check_rows)

    def _epoch(self, problem, data, order):
        n_updates = super()._epoch(problem, data, order)
        if not problem.state.per_update and (n_updates or problem.state.errors is None):
            problem.state.judge(data, problem.coef, problem.intercept)
        return n_updates

    _finishes_calls = True

    def _finish_call(self, problem, data):
        problem.state.count_exactly(data)

    def publish(self, problems):
        return {**super().publish(problems),
                "pocket_errors_": np.array([p.state.exact_errors for p in problems])}


@register("pocket", "classic")
class PocketPerceptron(LinearModel, PerceptronClassifier):
    """Perceptron that returns the weights with the fewest training mistakes seen.

    The running weights follow the perceptron rule exactly (see
    :class:`Perceptron`), cyclic or shuffled epochs. The (weighted) number of
    training mistakes of the running weights is counted, and they go "in the
    pocket" when they make strictly fewer mistakes than the pocketed ones; the
    starting weights are the first pocket. ``coef_``/``intercept_`` are the
    pocketed weights. This answers Ahmed & Pavlu §3's wish for the decision
    boundary with the minimum number of misclassifications when the data are
    not separable.

    When the weights are judged is ``pocket_every``: by default at the end of
    each epoch, one more pass over the rows per epoch; ``"update"``, after
    every update as Gallant's pocket does, costs up to
    ``n_updates × n_samples`` row products an epoch (the count stops as soon
    as it reaches the pocket's; beyond ``check_rows`` rows it is made on a
    fixed sample of that many rows). Kowalczyk's pocket, which judges after
    every update of the PLA (a random misclassified point at a time), is
    ``PLA(pocket=True)``. Not online: the mistakes are counted on the whole
    training set, so there is no ``partial_fit``.

    Probabilities: none; its scores are the margins of a mistake-driven rule,
    which models no probability. For probabilities, calibrate its scores with
    :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    eta : float, default=1.0
        Learning rate η (> 0): an update adds ``eta * y * x`` to the weights.
    margin : float, default=0.0
        A mistake is ``y a <= margin`` (>= 0): with a positive margin the rule
        also updates on examples it gets right by no more than ``margin``, which
        pushes the boundary away from them (scikit-learn keeps this threshold at
        0). From a zero start the mistake bound becomes ``(R² + 2 margin/eta)/γ²``
        (:func:`rosenblatt.theory.mistake_bound`).
    fit_intercept : bool, default=True
        Learn a bias ``b`` (updated as ``b += eta * y``, the same as a constant
        feature x₀ = 1 with its weight first). False: the boundary passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (Daumé's MaxIter); reaching it warns with
        ``ConvergenceWarning``.
    tol : float or None, default=1e-3
        The stopping rule for data that do not reach a mistake-free epoch
        (:mod:`rosenblatt.base._stopping`): stop once the epoch's mistakes have
        not fallen below the fewest so far by ``tol × n_samples`` for
        ``n_iter_no_change`` epochs in a row (on a9a after 7 to 11 epochs), unless a linear
        program finds the rows separable (checked once, on data of up to
        50,000 values), in which case the run goes on to the mistake-free
        epoch the convergence theorem promises. Mistakes, unlike the perceptron
        loss scikit-learn's ``tol`` watches, count an activation of exactly 0
        and do not change when ``X`` is scaled. ``None``: no such rule (the
        texts), only ``stop_mistake_free`` and ``max_iter``.
    stop_mistake_free : bool, default=True
        Stop after the first epoch without a mistake (Ahmed & Pavlu, and CISC
        271's "missed" flag), whether or not ``tol`` is set: its weights make no
        mistake, so they are in the pocket. ``False``: go on to ``max_iter`` (or
        ``tol``'s stop), the same pocket, more epochs.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch.
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
    early_stopping : bool, default=False
        Hold out a stratified ``validation_fraction`` of the rows and stop when
        their accuracy has not improved for ``n_iter_no_change`` epochs.
    validation_fraction : float, default=0.1
        Share of rows held out for early stopping.
    n_iter_no_change : int, default=5
        Epochs without improvement before stopping: of the held-out accuracy
        with ``early_stopping``, else of the epoch's training mistakes when ``tol`` is set.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.
    pocket_every : {"epoch", "update"}, default="epoch"
        When the running weights are judged for the pocket: at the end of each
        epoch, on every row; or after every update (Gallant 1990), which judges
        many more weight vectors but counts the mistakes again at each update
        (see ``check_rows``).
    check_rows : int or None, default=10000
        With ``pocket_every="update"``: rows the pocket is judged on after each
        update. Counting every row after every update makes an epoch quadratic
        in the rows (hours on a9a); with more rows than this, candidates are
        compared on a fixed random sample of ``check_rows`` rows (the same for
        every epoch), and ``pocket_errors_`` is then recounted on all rows.
        ``None``: always every row (exact, slow on large data).

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The pocketed weights.
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The pocketed bias.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Mistakes that changed the running weights (summed over the problems).
    converged_ : bool
        Whether the last epoch made no mistake (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    pocket_errors_ : ndarray of shape (1,) or (n_classes,)
        Weighted training mistakes of the pocketed weights of each problem.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only: the updates of the running weights.

    References
    ----------
    Gallant, "Perceptron-based learning algorithms", IEEE Trans. Neural
    Networks 1(2), 1990; Ahmed & Pavlu, lecture notes, §3.

    Examples
    --------
    XOR is not separable: the best a line can do is one mistake in four.

    >>> from rosenblatt import PocketPerceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 1, 1, 0]
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # XOR never converges: expected here
    ...     model = PocketPerceptron(init="uniform", max_iter=20, random_state=0).fit(X, y)
    >>> model.pocket_errors_.tolist(), model.score(X, y)
    ([1.0], 0.75)
    """

    _PARAMETERS = (*EPOCH_RULE_PARAMETERS, "pocket_every", "check_rows")
    _parameter_constraints = constraints(
        _PARAMETERS, pocket_every=[StrOptions({"epoch", "update"})],
        check_rows=[WholeNumber(1, None, closed="left"), None])

    def __init__(
        self,
        *,
        eta=1.0,
        margin=0.0,
        fit_intercept=True,
        max_iter=1000,
        tol=1e-3,
        stop_mistake_free=True,
        shuffle="every_epoch",
        init="zeros",
        random_state=None,
        record=False,
        class_weight=None,
        warm_start=False,
        early_stopping=False,
        validation_fraction=0.1,
        n_iter_no_change=5,
        n_jobs=None,
        pocket_every="epoch",
        check_rows=10_000,
    ):
        self.eta = eta
        self.margin = margin
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.stop_mistake_free = stop_mistake_free
        self.shuffle = shuffle
        self.init = init
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.n_jobs = n_jobs
        self.pocket_every = pocket_every
        self.check_rows = check_rows

    _learner_class = PocketLearner
