"""Multiclass passive-aggressive learning (Crammer et al. 2006, §7): one weight
vector per class, the true class and its best rival moved by the smallest step
that gives the true class a lead of 1."""

import numpy as np
from sklearn.utils._param_validation import StrOptions

from .._kernels import _first_order
from ..base import LinearLearner, MulticlassLinearModel, OnlineMixin, PerceptronClassifier, Traced
from ..base import constraints as _constraints
from ..base._linear import PER_CLASS_WEIGHTS
from ..base._parameters import RealNumber
from ..base._registry import register
from ..trace import MulticlassTraceRecorder
from ._first_order import _ADVICE, ErrorFreeStop, FirstOrderState, run_traced
from ._multiclass import MulticlassLearner


class MulticlassPassiveAggressiveLearner(Traced, ErrorFreeStop, LinearLearner):
    """The multiclass rule: one problem holding every class (as
    :class:`~._multiclass.MulticlassLearner`), the kernel's epoch on its weight
    matrix, the mistakes of every epoch counted, and the stop once an epoch and
    the weights after it make none."""

    def _separable_data_converge(self, problem):
        return True  # a perceptron-like mistake bound on separable data

    _recorder_class = MulticlassTraceRecorder
    published_form = PER_CLASS_WEIGHTS
    _advice = _ADVICE

    # one problem holding every class, its targets the class codes
    _problem_classes = MulticlassLearner._problem_classes
    _problem_targets = MulticlassLearner._problem_targets

    def _starting_weights(self, n_features, rngs):
        n_classes = len(self.classes_)
        return [(np.zeros((n_classes, n_features)), np.zeros(n_classes))]

    def _new_state(self, coef, intercept):
        return FirstOrderState()

    def _start_problems(self, X, rngs, previous):
        """Fresh weights, or with ``warm_start`` the previous fit's."""
        problems = super()._start_problems(X, rngs, None)
        if previous is not None:
            for problem, old in zip(problems, previous):
                problem.coef[...] = old.coef
                problem.intercept[...] = old.intercept
                if problem.recorder is not None:
                    problem.recorder = self._new_recorder(problem.coef, problem.intercept,
                                                          problem.classes)
        return problems

    def _epoch(self, problem, data, order):
        variant = _first_order.PA_VARIANTS[self.variant]
        kernel = _first_order.multiclass_pa_epoch

        def call(order, log):
            return kernel(data.Xk, data.y, data.kernel_sw, order, float(self.C), variant,
                          self.fit_intercept, (problem.coef, problem.intercept, problem.seen),
                          log)

        if problem.recorder is None:
            n_mistakes, n_updates = call(order, None)
        else:
            n_mistakes, n_updates = run_traced(problem, data, order, call, multiclass=True)
        problem.state.count_mistakes(problem.n_iter, n_mistakes)
        return n_updates


@register("multiclass_pa", "passive-aggressive")
class MulticlassPassiveAggressive(OnlineMixin, MulticlassLinearModel, PerceptronClassifier):
    """Native multiclass passive-aggressive classifier (Crammer et al. 2006, §7).

    One weight vector per class. For a row of class ``y`` with scores
    ``F_k = w_k·x + b_k``, let ``s`` be the best-scoring other class (the first
    in ``classes_`` on ties) and ``m = F_y − F_s`` the true class's lead (a
    mistake when ``m <= 0``). When the hinge loss ``ℓ = max(0, 1 − m)`` is
    positive, ``w_y += τ x`` and ``w_s −= τ x`` (the biases by ``± τ``), with

    - ``"pa"``: ``τ = ℓ/(2‖x‖²)``, just enough for a lead of 1;
    - ``"pa1"``: ``τ = min(C, ℓ/(2‖x‖²))``;
    - ``"pa2"``: ``τ = ℓ/(2‖x‖² + 1/(2C))``.

    (``2‖x‖²`` is the squared distance between the row's feature vectors of
    the two classes in the multiclass feature map.) The bias is a constant
    feature 1 of every row, counted in ``‖x‖²``. A row ``x = 0`` gives PA and
    PA-I no direction and is skipped; sample and class weights multiply ``τ``.
    Prediction is the class of highest score.

    Probabilities: none; its class scores are the margins of a hinge-loss rule,
    which models no probability. For probabilities, calibrate its scores with
    :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    C : float, default=1.0
        Aggressiveness (> 0) of ``"pa1"`` (the largest step) and ``"pa2"``
        (smaller ``C``, smaller steps: for noisy data). Not used by ``"pa"``.
    variant : {"pa", "pa1", "pa2"}, default="pa"
        The step rule (PA, PA-I, PA-II).
    fit_intercept : bool, default=True
        Learn a bias per class, the weight of a constant feature 1. False: the
        class boundaries pass through 0.
    max_iter : int, default=1000
        Largest number of epochs (the papers' algorithms are one pass:
        ``max_iter=1``). Training stops by the stopping rule of the mistake-driven rules
        (:mod:`rosenblatt.base._stopping`): after an epoch without a mistake (``y f <= 0``,
        counted as each row is met, before its update) when the weights after it make none on
        the training rows either; or when the epoch's mistakes have not fallen by ``tol ×
        n_samples`` for ``n_iter_no_change`` epochs, unless a linear program finds the rows
        separable (on data of up to 50,000 values), where the rule's mistake bound promises a
        mistake-free epoch. ``stop_reason_`` says which; a run that reaches ``max_iter`` first
        warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only
        at a mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.trace.MulticlassTrace` of every update in
        ``trace_``.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the weights of the previous fit; the counters start
        afresh.

    Attributes
    ----------
    coef_ : ndarray of shape (n_classes, n_features)
        The weights of each class, even for two classes.
    intercept_ : ndarray of shape (n_classes,)
        The bias of each class.
    classes_ : ndarray
        The labels, sorted.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run.
    n_updates_ : int
        Updates made (rows with a positive loss).
    n_mistakes_ : ndarray of shape (n_epochs,)
        Mistakes (``m <= 0`` before the update) of each epoch; each
        ``partial_fit`` call is an epoch.
    converged_ : bool
        Whether the last epoch made no mistake, confirmed on the training rows (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : MulticlassTrace
        With ``record=True`` only: a :class:`~rosenblatt.trace.MulticlassTrace`
        (the weights after each update; ``update`` is NaN).

    With two classes, ``decision_function`` is ``F_1 − F_0``.

    Notes
    -----
    ``ParameterMixing`` averages the shards' weight matrices, as for
    :class:`MulticlassPerceptron`.

    References
    ----------
    K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer, "Online
    passive-aggressive algorithms", *Journal of Machine Learning Research* 7,
    551-585, 2006 (§7); LIBOL's ``M_PA``, ``M_PA1``, ``M_PA2``.

    Examples
    --------
    >>> from rosenblatt.linear_model import MulticlassPassiveAggressive
    >>> X = [[0, 0], [4, 0], [0, 4], [1, 0], [4, 1], [1, 4]]
    >>> y = ["a", "b", "c", "a", "b", "c"]
    >>> model = MulticlassPassiveAggressive(shuffle="none").fit(X, y)
    >>> model.predict([[0, 0], [5, 0], [0, 5]]).tolist(), model.n_mistakes_.tolist()
    (['a', 'b', 'c'], [3, 0])
    """

    _PARAMETERS = (
        "C", "variant", "fit_intercept", "max_iter", "tol", "n_iter_no_change",
        "shuffle", "random_state", "record", "class_weight", "warm_start",
    )
    _parameter_constraints = _constraints(
        _PARAMETERS,
        C=[RealNumber(0, None, closed="neither")],
        variant=[StrOptions(set(_first_order.PA_VARIANTS))],
    )

    def __init__(
        self,
        *,
        C=1.0,
        variant="pa",
        fit_intercept=True,
        max_iter=1000,
        tol=1e-3,
        n_iter_no_change=5,
        shuffle="every_epoch",
        random_state=None,
        record=False,
        class_weight=None,
        warm_start=False,
    ):
        self.C = C
        self.variant = variant
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start

    _learner_class = MulticlassPassiveAggressiveLearner
