"""The multiclass perceptron: one weight vector per class, predict the best score."""

import numpy as np

from .. import _kernels
from .._validation import kernel_view
from ..base import EpochPerceptron, OnlinePerceptronMixin
from ..trace import MulticlassTraceRecorder
from ._averaged import averaged_weights
from ._params import ATTRIBUTES, parameters

_NO_RECORD = (np.empty(0, dtype=np.intp), np.empty(0), np.empty(0, dtype=np.int64),
              np.empty(0, dtype=np.intp))
_NO_CACHE = (np.empty((0, 0)), np.empty(0))


class MulticlassPerceptron(OnlinePerceptronMixin, EpochPerceptron):
    __doc__ = f"""Native multiclass perceptron: a weight vector per class, predict the argmax.

    For a row of class ``y``, with scores ``s_k = w_k·x + b_k``, let ``ŷ`` be
    the best-scoring other class. A mistake is ``s_y <= s_ŷ`` (a tie counts, as
    ``y a <= 0`` does for two classes); it updates ``w_y += η x`` and
    ``w_ŷ −= η x`` (and the biases by ``± η``). Prediction is the class of
    highest score, the first in ``classes_`` on ties.

    ``average=True`` publishes the mean of the weights after every example, by
    the cached-weights trick of :class:`AveragedPerceptron`.

    Parameters
    ----------
    {parameters("eta", "fit_intercept", "max_iter", "shuffle")}
    init : {{"zeros", "uniform", "normal"}} or array-like, default="zeros"
        Starting weights: zeros, or one draw of shape (n_classes, n_features + 1)
        (bias first in each row); or an array of that shape.
    average : bool, default=False
        Publish the averaged weights instead of the last ones.
    {parameters("random_state", "record", "class_weight", "warm_start",
                "early_stopping", "validation_fraction", "n_iter_no_change")}

    Attributes
    ----------
    {ATTRIBUTES}

    Here ``coef_`` is (n_classes, n_features) even for two classes, and
    ``trace_`` a :class:`~rosenblatt.trace.MulticlassTrace`. With two classes,
    ``decision_function`` is ``s_1 − s_0``.

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

    _parameter_constraints = {
        **{key: value for key, value in EpochPerceptron._parameter_constraints.items()
           if key != "n_jobs"},
        "average": ["boolean"],
    }

    def __init__(
        self,
        *,
        eta=1.0,
        fit_intercept=True,
        max_iter=1000,
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
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
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

    # one problem holding every class
    def _n_problems(self):
        return 1

    def _problem_targets(self, codes):
        return [np.ascontiguousarray(codes, dtype=np.intp)]

    def _problem_classes(self):
        return [tuple(self.classes_)]

    def _starting_weights(self, n_features, rngs):
        n_classes, width = len(self.classes_), n_features + int(self.fit_intercept)
        if isinstance(self.init, str):
            rng = rngs[0]
            matrix = {
                "zeros": lambda: np.zeros((n_classes, width)),
                "uniform": lambda: rng.random((n_classes, width)),
                "normal": lambda: rng.standard_normal((n_classes, width)),
            }[self.init]()
        else:
            matrix = np.array(self.init, dtype=np.float64)
            if matrix.shape != (n_classes, width) or not np.all(np.isfinite(matrix)):
                raise ValueError(
                    f"init must be finite with shape ({n_classes}, {width}): one row per "
                    f"class{', bias first' if self.fit_intercept else ''}; got shape "
                    f"{matrix.shape}."
                )
        if self.fit_intercept:
            return [(matrix[:, 1:].copy(), matrix[:, 0].copy())]
        return [(matrix.copy(), np.zeros(n_classes))]

    def _warm_weights(self):
        return [(self.coef_.copy(), self.intercept_.copy())]

    def _new_recorder(self, coef, intercept, classes):
        return MulticlassTraceRecorder(coef, intercept, classes)

    def _prepare_problem(self, problem):
        if self.average:
            problem.extra.update(
                u=np.zeros_like(problem.coef), beta=np.zeros_like(problem.intercept),
                coef_start=problem.coef.copy(), intercept_start=problem.intercept.copy(),
            )

    # training
    def _record_buffers(self, problem, n):
        return problem.recorder.buffers(n) if problem.recorder else _NO_RECORD

    def _run_epoch(self, problem, Xk, y, sw, order, record):
        cache = (problem.extra["u"], problem.extra["beta"]) if self.average else _NO_CACHE
        return _kernels.multiclass_epoch(
            Xk, y, sw, order, self.eta, self.fit_intercept,
            (problem.coef, problem.intercept, problem.seen), record, cache,
        )

    def _after_epoch(self, problem, X, Xk, y, sw, record, mistakes):
        if problem.recorder:
            rows, margins, positions, predicted = (buffer[:mistakes] for buffer in record)
            problem.recorder.add(problem.n_iter, X, y, rows, margins, positions, predicted,
                                 self.eta * sw[rows], self.fit_intercept)

    def _published_weights(self, problem):
        if self.average:
            return averaged_weights(problem)
        return problem.coef, problem.intercept

    def _problem_errors(self, problem, X, y, sw):
        coef, intercept = self._published_weights(problem)
        scores = _kernels.decision_function(kernel_view(X), coef, intercept)
        return float(sw[np.argmax(scores, axis=1) != y].sum())

    def decision_function(self, X):
        """Scores ``w_k·x + b_k`` of every class (n_samples, n_classes); with two
        classes the difference ``s_1 − s_0`` (n_samples,)."""
        scores = super().decision_function(X)
        return scores[:, 1] - scores[:, 0] if len(self.classes_) == 2 else scores
