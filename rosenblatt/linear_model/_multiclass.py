"""The multiclass perceptron: one weight vector per class, predict the best score."""

import numpy as np

from .. import _kernels
from ..base import (
    LinearLearner,
    MulticlassLinearModel,
    OnlineMixin,
    PerceptronClassifier,
    MistakeStop,
    Traced,
    constraints,
)
from ..base._linear import PER_CLASS_WEIGHTS
from ..base._registry import register
from ..trace import MulticlassTraceRecorder
from ._averaged import Averaging
from ._online import update_log


class MulticlassLearner(Traced, MistakeStop, LinearLearner):
    """The multiclass rule: one problem holding every class, the best rival updated."""

    _recorder_class = MulticlassTraceRecorder
    published_form = PER_CLASS_WEIGHTS

    def _confirms_on_weights(self, problem):
        return self.average  # the mean separates some epochs after the running weights

    # one problem holding every class
    def _problem_classes(self):
        return [tuple(self.classes_)]

    def _problem_targets(self, codes):
        return [np.ascontiguousarray(codes, dtype=np.intp)]

    def _starting_weights(self, n_features, rngs):
        n_classes, width = len(self.classes_), n_features + int(self.fit_intercept)
        if isinstance(self.init, str):
            rng = rngs[0]
            matrix = {
                "zeros": lambda: np.zeros((n_classes, width)),
                "uniform": lambda: rng.random((n_classes, width)),
                "normal": lambda: rng.standard_normal((n_classes, width)),
            }[self.init]()
        else:  # the binary rules' checks (real numbers, finite), one row per class
            if np.ndim(self.init) != 2:
                raise ValueError(
                    f"init must be finite with shape ({n_classes}, {width}): one row per "
                    f"class{', bias first' if self.fit_intercept else ''}; got shape "
                    f"{np.shape(self.init)}."
                )
            matrix = self._init_array(width, n_classes)
        if self.fit_intercept:
            return [(matrix[:, 1:].copy(), matrix[:, 0].copy())]
        return [(matrix.copy(), np.zeros(n_classes))]

    def _new_state(self, coef, intercept):
        return Averaging.start(coef, intercept) if self.average else super()._new_state(
            coef, intercept)

    def _epoch(self, problem, data, order):
        recorder = problem.recorder
        log = update_log(data.n_rows, multiclass=True) if recorder is not None else None
        seen = int(problem.seen[0])
        n_mistakes, objective = _kernels.multiclass_epoch(
            data.Xk, data.y, data.kernel_sw, order, self.eta, self.margin, self.fit_intercept,
            (problem.coef, problem.intercept, problem.seen), log,
            problem.state.kernel_average(),
        )
        problem.epoch_loss = objective / max(int(problem.seen[0]) - seen, 1)
        if recorder is not None:
            rows, margins, positions, predicted = (column[:n_mistakes] for column in log)
            recorder.add(problem.n_iter, data.X, data.y, rows, margins, positions, predicted,
                         self.eta * data.sw[rows], self.fit_intercept)
        return n_mistakes


@register("multiclass", "classic")
class MulticlassPerceptron(OnlineMixin, MulticlassLinearModel, PerceptronClassifier):
    """Native multiclass perceptron: a weight vector per class, predict the argmax.

    For a row of class ``y``, with scores ``s_k = w_k·x + b_k``, let ``ŷ`` be
    the best-scoring other class. A mistake is ``s_y <= s_ŷ`` (a tie counts, as
    ``y a <= 0`` does for two classes); it updates ``w_y += η x`` and
    ``w_ŷ −= η x`` (and the biases by ``± η``). Prediction is the class of
    highest score, the first in ``classes_`` on ties.

    ``average=True`` publishes the mean of the weights after every example, by
    the cached-weights trick of :class:`AveragedPerceptron` (the same
    :class:`~rosenblatt.linear_model._averaged.Averaging` state).

    Probabilities: none; its class scores are the margins of a mistake-driven
    rule, which models no probability. For probabilities, calibrate its scores
    with :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    eta : float, default=1.0
        Learning rate η (> 0): an update adds ``eta * y * x`` to the weights.
    margin : float, default=0.0
        A mistake is a wrong prediction or, with ``margin > 0``, a right one whose
        score leads the best other class's by no more than ``margin``.
    fit_intercept : bool, default=True
        Learn a bias ``b`` (updated as ``b += eta * y``, the same as a constant
        feature x₀ = 1 with its weight first). False: the boundary passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (Daumé's MaxIter); reaching it warns with
        ``ConvergenceWarning``.
    tol : float or None, default=1e-3
        The stopping rule for data that do not reach a mistake-free epoch
        (:mod:`rosenblatt.base._stopping`): stop once the epoch's mistakes have not fallen
        below the fewest so far by ``tol × n_samples`` for ``n_iter_no_change`` epochs in a row
        (a mistake is a row whose class does not score highest by more than ``margin``), unless
        a linear program finds the rows separable (checked once, on data of up to 50,000
        values), in which case the run goes on to the mistake-free epoch the convergence
        theorem promises. Mistakes, unlike the perceptron loss scikit-learn's ``tol`` watches,
        count an activation of exactly 0 and do not change when ``X`` is scaled. ``None``: no
        such rule (the texts), only ``stop_mistake_free`` and ``max_iter``.
    stop_mistake_free : bool, default=True
        Stop after the first epoch without a mistake, whether or not ``tol`` is
        set. ``False``: go on to ``max_iter`` (or ``tol``'s stop); with
        ``average=True`` the mean then keeps moving towards the last weights.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch.
    init : {"zeros", "uniform", "normal"} or array-like, default="zeros"
        Starting weights: zeros, or one draw of shape (n_classes, n_features + 1)
        (bias first in each row); or an array of that shape.
    average : bool, default=False
        Publish the averaged weights instead of the last ones.
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

    Attributes
    ----------
    coef_ : ndarray of shape (n_classes, n_features)
        The weights of each class (averaged with ``average=True``), even for two
        classes.
    intercept_ : ndarray of shape (n_classes,)
        The bias of each class.
    classes_ : ndarray
        The labels, sorted.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run.
    n_updates_ : int
        Mistakes that changed the weights.
    converged_ : bool
        Whether the last epoch made no mistake (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    trace_ : MulticlassTrace
        With ``record=True`` only: a :class:`~rosenblatt.trace.MulticlassTrace`.

    With two classes, ``decision_function`` is ``s_1 − s_0``.

    References
    ----------
    Crammer & Singer, "Ultraconservative online algorithms for multiclass
    problems", JMLR 3, 2003 (the "max" update); Collins, "Discriminative
    training methods for hidden Markov models", EMNLP 2002 (averaging).

    Examples
    --------
    >>> from rosenblatt import MulticlassPerceptron
    >>> X = [[0, 0], [4, 0], [0, 4], [1, 0], [4, 1], [1, 4]]
    >>> y = ["a", "b", "c", "a", "b", "c"]
    >>> model = MulticlassPerceptron(shuffle="none").fit(X, y)
    >>> model.predict([[0, 0], [5, 0], [0, 5]]).tolist(), model.n_iter_
    (['a', 'b', 'c'], 4)
    """

    _PARAMETERS = ("eta", "margin", "fit_intercept", "max_iter", "tol", "stop_mistake_free",
                   "shuffle", "init", "average",
                   "random_state", "record", "class_weight", "warm_start", "early_stopping",
                   "validation_fraction", "n_iter_no_change")
    _parameter_constraints = constraints(_PARAMETERS)

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
        average=False,
        random_state=None,
        record=False,
        class_weight=None,
        warm_start=False,
        early_stopping=False,
        validation_fraction=0.1,
        n_iter_no_change=5,
    ):
        self.eta = eta
        self.margin = margin
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.stop_mistake_free = stop_mistake_free
        self.shuffle = shuffle
        self.init = init
        self.average = average
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change

    _learner_class = MulticlassLearner
