"""Native multiclass second-order rules: a weight vector per class, one shared covariance.

Multiclass AROW and multiclass SCW as LIBOL writes them (``M_AROW.m``,
``M_SCW1.m``, ``M_SCW2.m``): one problem holds every class (as
:class:`~rosenblatt.MulticlassPerceptron`'s learner), its weights ``W`` are the
problem's ``coef`` and ``intercept``, and its :class:`SharedCovarianceState`
holds the one ``Σ`` every class shares. The kernel is
:func:`~rosenblatt._kernels._second_order.multiclass_second_order_epoch`; the
mixing, the count of mistakes and the trace are the binary rules' (see
:mod:`._second_order`).
"""

from dataclasses import dataclass

import numpy as np
from sklearn.utils._param_validation import StrOptions

from .._kernels import _second_order as so
from ..base import MulticlassLinearModel, OnlineMixin, PerceptronClassifier, Problem, constraints
from ..base._linear import PER_CLASS_WEIGHTS
from ..base._registry import register
from ..trace import MulticlassTraceRecorder
from ._online import update_log
from ._second_order import (
    CONFIDENCE,
    POSITIVE,
    SCW_DEFAULT_ETA,
    SHARED_CONSTRAINTS,
    SHARED_PARAMETERS,
    CovarianceForm,
    CovarianceState,
    SecondOrderLearner,
    check_continues,
    check_dimension,
    copied,
    replayed_orders,
    stepped,
)


@dataclass
class SharedCovarianceState(CovarianceState):
    """The one ``Σ`` of a multiclass rule (``u`` empty and ``c`` 0: no rule here
    keeps them), with the mistakes of each epoch."""

    def kernel_state(self, problem):
        return so.MulticlassSecondOrderState(problem.coef, problem.intercept, self.cov,
                                             problem.seen)

    def mixed(self, before, parts, mu, coef, intercept, seen):
        mixed = super().mixed(before, parts, mu, coef, intercept, seen)
        return SharedCovarianceState(mixed.cov, mixed.u, mixed.c, mixed.fit_intercept,
                                     mistakes=mixed.mistakes)


class SharedCovarianceForm(CovarianceForm):
    """``covariance_form_`` of a model with one ``Σ`` shared by its classes."""

    _one_covariance = True


class MulticlassSecondOrderLearner(SecondOrderLearner):
    """One problem holding every class; one call of ``multiclass_second_order_epoch``
    per epoch, from ``W = 0`` and ``Σ = aI``."""

    _recorder_class = MulticlassTraceRecorder
    published_form = PER_CLASS_WEIGHTS

    def _problem_classes(self):
        return [tuple(self.classes_)]

    def _problem_targets(self, codes):
        return [np.ascontiguousarray(codes, dtype=np.intp)]

    def _start_problems(self, X, rngs, previous):
        n_features, n_classes = X.shape[1], len(self.classes_)
        check_dimension(self.name, self._covariance(n_features),
                        n_features + int(self.fit_intercept), 1)
        if previous is not None:
            last = previous[0]
            check_continues(self, last, n_features)
            coef, intercept = last.coef.copy(), last.intercept.copy()
            state = SharedCovarianceState(last.state.cov.copy(), last.state.u.copy(),
                                          last.state.c.copy(), last.state.fit_intercept)
        else:
            start = so.new_multiclass_state(self._rule(), n_classes, n_features, a=self.a,
                                            covariance=self._covariance(n_features),
                                            fit_intercept=self.fit_intercept)
            coef, intercept = start.W, start.b
            state = SharedCovarianceState(start.cov, np.zeros(0), np.zeros(1),
                                          bool(self.fit_intercept))
        classes = self._problem_classes()[0]
        return [Problem(coef=coef, intercept=intercept, rng=rngs[0], classes=classes,
                        state=state, recorder=self._new_recorder(coef, intercept, classes))]

    def _epoch(self, problem, data, order):
        state, recorder, rule = problem.state, problem.recorder, self._rule()
        weights = state.kernel_state(problem)
        log = update_log(data.n_rows, multiclass=True) if recorder is not None else None
        start = copied(weights) if recorder is not None else None
        n_mistakes, n_updates = stepped(
            so.multiclass_second_order_epoch, self.name, data.Xk, data.y, data.kernel_sw,
            order, rule, self.fit_intercept, weights, log)
        state.count_mistakes(problem.n_iter, n_mistakes)
        if recorder is not None:
            rows, margins, positions, rivals = (column[:n_updates] for column in log)
            coefs, intercepts, running = [], [], start
            for segment, fresh in replayed_orders(order, data.n_rows, rows, restart=False):
                running = copied(start) if fresh or running is start else running
                so.multiclass_second_order_epoch(data.Xk, data.y, data.kernel_sw, segment,
                                                 rule, self.fit_intercept, running, None)
                coefs.append(running.W.copy())
                intercepts.append(running.b.copy())
            recorder.add_snapshots(problem.n_iter, data.X, data.y, rows, margins, positions,
                                   rivals, coefs, intercepts)
        return n_updates


class MulticlassAROWLearner(MulticlassSecondOrderLearner):
    def _rule(self):
        return so.second_order_rule("multiclass_arow", r=self.r)


class MulticlassSCWLearner(MulticlassSecondOrderLearner):
    def _rule(self):
        eta = self.eta if self.eta is not None else SCW_DEFAULT_ETA[self.variant]
        return so.second_order_rule("multiclass_scw1" if self.variant == "I" else
                                    "multiclass_scw2", C=self.C, eta=eta)


@register("multiclass_arow", "second-order")
class MulticlassAROW(SharedCovarianceForm, OnlineMixin, MulticlassLinearModel,
                     PerceptronClassifier):
    """Multiclass AROW: a weight vector per class, one covariance shared by all.

    LIBOL's ``M_AROW.m`` (the multiclass form of Crammer, Kulesza & Dredze
    2009). For a row ``x`` of class ``y``, with scores ``F_k = W_k·x + b_k``, let
    ``s`` be the best-scoring other class (the first in ``classes_`` on ties),
    ``m = F_y − F_s`` and ``v = xᵀΣx``. If ``m < 1``:

    - ``β = 1 / (v + r)``,
    - ``W_y += (1 − m) β Σx`` and ``W_s −= (1 − m) β Σx`` (the biases likewise,
      by the bias entry of ``Σx``),
    - ``Σ -= β (Σx)(Σx)ᵀ``,

    from ``W = 0``, ``Σ = aI`` (rows with the constant 1 appended when
    ``fit_intercept``). A mistake is ``m <= 0``. Prediction is the class of
    highest score, the first in ``classes_`` on ties. ``covariance="diagonal"``
    keeps the diagonal ``s`` of ``Σ`` and applies the diagonal of the same update.

    A row weight ``ω`` (``sample_weight`` times ``class_weight``) counts the
    row ``ω`` times in the loss: ``r`` becomes ``r/ω``; a weight of 0 drops
    the row.

    Probabilities: none; the shared ``Σ`` gives each pair of classes a Gaussian
    margin, but the rule (LIBOL's ``M_AROW``, after Crammer, Dredze & Kulesza's
    multiclass CW, EMNLP 2009) defines no class probability: the chance that row
    ``k`` of a Gaussian ``W`` scores highest would be an orthant probability of
    ``K − 1`` correlated normals that no paper uses, and a softmax of the scores
    is not the model. For probabilities, calibrate its scores with
    :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    r : float, default=1.0
        The regularisation ``r > 0`` of the confidence: larger ``r``, smaller
        and more cautious steps (for noisier data).
    a : float, default=1.0
        The starting variance ``a > 0``: ``Σ = aI``.
    covariance : {"auto", "full", "diagonal"}, default="auto"
        ``Σ`` as a ``(d+1) × (d+1)`` matrix (LIBOL's form; refused above 5,000
        dimensions, whose matrix alone would take 200 MB) or only its diagonal
        (``O(nonzeros)`` per row, for wide sparse data). ``"auto"``: ``"full"`` up
        to 200 features, ``"diagonal"`` above, as for :class:`AROW` (see there;
        ``covariance_form_`` says which was used).
    fit_intercept : bool, default=True
        Learn a bias per class: the weights of a constant feature 1 appended to
        every row (its variance is the last entry of ``Σ``).
    max_iter : int, default=1000
        Largest number of epochs (the papers' algorithms are one pass:
        ``max_iter=1``). Training stops by the stopping rule of the
        mistake-driven rules (:mod:`rosenblatt.base._stopping`): after an epoch
        without a mistake (``y f <= 0``, counted as each row is met, before its
        update); or when the epoch's mistakes have not fallen by
        ``tol × n_samples`` for ``n_iter_no_change`` epochs.
        ``stop_reason_`` says which; a run that reaches ``max_iter`` first
        warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only
        at a mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch. ``"none"`` with ``max_iter=1``
        is LIBOL's single pass.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.trace.MulticlassTrace` of every update in
        ``trace_``, with the weights after each (replayed exactly by the kernel
        up to each update: slow, for teaching-size data); its ``update`` is NaN.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the previous fit's weights and covariance instead of
        ``W = 0``, ``Σ = aI``.

    Attributes
    ----------
    coef_ : ndarray of shape (n_classes, n_features)
        The weights of each class, even for two classes.
    intercept_ : ndarray of shape (n_classes,)
        The bias of each class.
    covariance_ : ndarray
        The shared ``Σ`` without the bias entry: shape (n_features, n_features),
        or (n_features,) for ``covariance="diagonal"``.
    intercept_covariance_ : ndarray
        The bias's entries of the shared ``Σ``: its row of the full matrix (its
        covariances with the features, then its variance), shape
        (1, n_features + 1), or its variance, shape (1,), for
        ``covariance="diagonal"``. Zeros with ``fit_intercept=False``.
    classes_ : ndarray
        The labels, sorted.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run.
    n_updates_ : int
        Updates made: rows whose margin over the best other class was below 1.
    n_mistakes_ : ndarray of int, shape (n_epochs,)
        Mistakes (``m <= 0`` before the row's update) in each epoch;
        ``n_mistakes_[0] / n_samples`` is LIBOL's online mistake rate of one pass.
    converged_ : bool
        Whether the last epoch made no mistake (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : MulticlassTrace
        With ``record=True`` only.

    With two classes, ``decision_function`` is ``F_1 − F_0``.

    References
    ----------
    K. Crammer, A. Kulesza and M. Dredze, "Adaptive regularization of weight
    vectors", NIPS 2009; S. C. H. Hoi, J. Wang and P. Zhao, "LIBOL: a library
    for online learning algorithms", JMLR 15, 2014 (``M_AROW.m``).

    Examples
    --------
    >>> from rosenblatt.linear_model import MulticlassAROW
    >>> X = [[0, 0], [4, 0], [0, 4], [1, 0], [4, 1], [1, 4]]
    >>> y = ["a", "b", "c", "a", "b", "c"]
    >>> model = MulticlassAROW(shuffle="none").fit(X, y)
    >>> model.predict([[0, 0], [5, 0], [0, 5]]).tolist(), model.n_mistakes_.tolist()
    (['a', 'b', 'c'], [4, 0])
    """

    _PARAMETERS = ("r", "a") + SHARED_PARAMETERS
    _parameter_constraints = constraints(_PARAMETERS, r=POSITIVE, **SHARED_CONSTRAINTS)

    def __init__(
        self,
        *,
        r=1.0,
        a=1.0,
        covariance="auto",
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
        self.r = r
        self.a = a
        self.covariance = covariance
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start

    _learner_class = MulticlassAROWLearner


@register("multiclass_scw", "second-order")
class MulticlassSCW(SharedCovarianceForm, OnlineMixin, MulticlassLinearModel,
                    PerceptronClassifier):
    """Multiclass soft confidence-weighted learning: a weight vector per class, one covariance.

    LIBOL's ``M_SCW1.m`` and ``M_SCW2.m``, transcribed as they are. For a row
    ``x`` of class ``y``, with scores ``F_k = W_k·x + b_k``, let ``s`` be the
    best-scoring other class (the first in ``classes_`` on ties),
    ``m = F_y − F_s``, ``v = xᵀΣx``, ``φ = Φ⁻¹(eta)`` and ``ψ = 1 + φ²/2``. If
    ``m < φ√v``:

    - I: ``α = min(C, max(0, (−mψ + √(m²ψ² − m²ψ + 2vφ²ψ)) / (2vψ)))``;
    - II: with ``n = 2v + 1/(2C)``,
      ``α = max(0, (−(2mn + φ²mv) + √(φ⁴m²v² + 8nvφ²(n + vφ²))) / (2(n² + nvφ²)))``;
    - ``u = (−αvφ + √(α²v²φ² + 8v))² / 8``, ``β = αφ / (√(2u) + αφv)``;
    - ``W_y += α Σx``, ``W_s −= α Σx`` (the biases likewise), ``Σ -= β (Σx)(Σx)ᵀ``,

    from ``W = 0``, ``Σ = aI`` (rows with the constant 1 appended when
    ``fit_intercept``). These are not the binary formulas with ``v`` replaced by
    ``2v``: LIBOL's constants, as published with it. A mistake is ``m <= 0``.
    ``covariance="diagonal"`` keeps the diagonal ``s`` of ``Σ`` and applies the
    diagonal of the same update.

    A row weight ``ω`` (``sample_weight`` times ``class_weight``) counts the
    row ``ω`` times in the loss: ``C`` becomes ``Cω``; a weight of 0 drops the
    row.

    Probabilities: none; the shared ``Σ`` gives each pair of classes a Gaussian
    margin, but the rule (LIBOL's ``M_SCW``, after Crammer, Dredze & Kulesza's
    multiclass CW, EMNLP 2009) defines no class probability: the chance that row
    ``k`` of a Gaussian ``W`` scores highest would be an orthant probability of
    ``K − 1`` correlated normals that no paper uses, and a softmax of the scores
    is not the model. For probabilities, calibrate its scores with
    :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    C : float, default=1.0
        Aggressiveness ``C > 0``: the largest step of ``"I"``, the weight of the
        loss in ``"II"``.
    eta : float or None, default=None
        The confidence ``η`` in (0.5, 1); ``None``: 0.75 for ``"I"``, 0.90 for
        ``"II"``, as :class:`SoftConfidenceWeighted`.
    variant : {"I", "II"}, default="I"
        ``M_SCW1`` or ``M_SCW2``.
    a : float, default=1.0
        The starting variance ``a > 0``: ``Σ = aI``.
    covariance : {"auto", "full", "diagonal"}, default="auto"
        ``Σ`` as a ``(d+1) × (d+1)`` matrix (LIBOL's form; refused above 5,000
        dimensions, whose matrix alone would take 200 MB) or only its diagonal
        (``O(nonzeros)`` per row, for wide sparse data). ``"auto"``: ``"full"`` up
        to 200 features, ``"diagonal"`` above, as for :class:`AROW` (see there;
        ``covariance_form_`` says which was used).
    fit_intercept : bool, default=True
        Learn a bias per class: the weights of a constant feature 1 appended to
        every row (its variance is the last entry of ``Σ``).
    max_iter : int, default=1000
        Largest number of epochs (the papers' algorithms are one pass:
        ``max_iter=1``). Training stops by the stopping rule of the
        mistake-driven rules (:mod:`rosenblatt.base._stopping`): after an epoch
        without a mistake (``y f <= 0``, counted as each row is met, before its
        update); or when the epoch's mistakes have not fallen by
        ``tol × n_samples`` for ``n_iter_no_change`` epochs.
        ``stop_reason_`` says which; a run that reaches ``max_iter`` first
        warns (``ConvergenceWarning``).
    tol : float or None, default=1e-3
        The stall threshold above, as a share of the rows. ``None``: stop only
        at a mistake-free epoch or ``max_iter``.
    n_iter_no_change : int, default=5
        Epochs without that improvement before training stops.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch. ``"none"`` with ``max_iter=1``
        is LIBOL's single pass.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    record : bool, default=False
        Keep a :class:`~rosenblatt.trace.MulticlassTrace` of every update in
        ``trace_``, with the weights after each (replayed exactly by the kernel
        up to each update: slow, for teaching-size data); its ``update`` is NaN.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the previous fit's weights and covariance instead of
        ``W = 0``, ``Σ = aI``.

    Attributes
    ----------
    coef_ : ndarray of shape (n_classes, n_features)
        The weights of each class, even for two classes.
    intercept_ : ndarray of shape (n_classes,)
        The bias of each class.
    covariance_ : ndarray
        The shared ``Σ`` without the bias entry: shape (n_features, n_features),
        or (n_features,) for ``covariance="diagonal"``.
    intercept_covariance_ : ndarray
        The bias's entries of the shared ``Σ``: its row of the full matrix (its
        covariances with the features, then its variance), shape
        (1, n_features + 1), or its variance, shape (1,), for
        ``covariance="diagonal"``. Zeros with ``fit_intercept=False``.
    classes_ : ndarray
        The labels, sorted.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run.
    n_updates_ : int
        Updates made: rows whose constraint did not hold.
    n_mistakes_ : ndarray of int, shape (n_epochs,)
        Mistakes (``m <= 0`` before the row's update) in each epoch;
        ``n_mistakes_[0] / n_samples`` is LIBOL's online mistake rate of one pass.
    converged_ : bool
        Whether the last epoch made no mistake (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : MulticlassTrace
        With ``record=True`` only.

    With two classes, ``decision_function`` is ``F_1 − F_0``.

    References
    ----------
    J. Wang, P. Zhao and S. C. H. Hoi, "Exact soft confidence-weighted
    learning", ICML 2012; S. C. H. Hoi, J. Wang and P. Zhao, "LIBOL: a library
    for online learning algorithms", JMLR 15, 2014 (``M_SCW1.m``, ``M_SCW2.m``).

    Examples
    --------
    >>> from rosenblatt.linear_model import MulticlassSCW
    >>> X = [[0, 0], [4, 0], [0, 4], [1, 0], [4, 1], [1, 4]]
    >>> y = ["a", "b", "c", "a", "b", "c"]
    >>> model = MulticlassSCW(shuffle="none").fit(X, y)
    >>> model.predict([[0, 0], [5, 0], [0, 5]]).tolist(), model.n_mistakes_.tolist()
    (['a', 'b', 'c'], [5, 0])
    """

    _PARAMETERS = ("C", "eta", "variant", "a") + SHARED_PARAMETERS
    _parameter_constraints = constraints(
        _PARAMETERS, C=POSITIVE, eta=CONFIDENCE + [None], variant=[StrOptions({"I", "II"})],
        **SHARED_CONSTRAINTS)

    def __init__(
        self,
        *,
        C=1.0,
        eta=None,
        variant="I",
        a=1.0,
        covariance="auto",
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
        self.eta = eta
        self.variant = variant
        self.a = a
        self.covariance = covariance
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.shuffle = shuffle
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start

    _learner_class = MulticlassSCWLearner
