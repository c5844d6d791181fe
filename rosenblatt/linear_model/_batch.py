"""The batch perceptron rule of CISC 271 §30.2."""

from .. import _kernels
from ..base import BasePerceptron
from ._params import ATTRIBUTES, parameters


class BatchPerceptron(BasePerceptron):
    __doc__ = f"""Perceptron rule on all rows at once: ``w ← w + η Xᵀ(y − q)`` per iteration.

    CISC 271 §30.2 with labels coded {{0, 1}}: ``q`` is the Heaviside
    quantisation of ``w·x + b`` (1 when ``> 0``) and the residual ``y − q`` is
    zero on correct rows and ±1 on mistakes, so one iteration adds ``η`` times
    the sum of ``y x`` (±1 labels) over the rows misclassified by the weights at
    the start of the iteration. The bias moves by ``η Σ (y − q)``. An iteration
    plays the part of an epoch: ``max_iter`` bounds them and ``n_iter_`` counts
    them; ``n_updates_`` counts the misclassified rows summed over iterations.
    The row order does not matter, so there is no ``shuffle``; no ``partial_fit``
    either, since the rule needs every row at once.

    In the trace each iteration lists its misclassified rows, with their
    activations under the weights at the start of the iteration and, for all of
    them, the weights after the iteration's step.

    Parameters
    ----------
    {parameters("eta", "fit_intercept", "max_iter", "init", "random_state", "record",
                "class_weight", "warm_start", "early_stopping", "validation_fraction",
                "n_iter_no_change", "n_jobs")}

    Attributes
    ----------
    {ATTRIBUTES}

    References
    ----------
    CISC 271, class 30, eq. 30.4.

    Examples
    --------
    >>> from rosenblatt import BatchPerceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]
    >>> model = BatchPerceptron().fit(X, y)
    >>> model.intercept_.tolist(), model.coef_.tolist(), model.n_iter_
    ([-3.0], [[2.0, 2.0]], 10)
    """

    _parameter_constraints = {
        key: value for key, value in BasePerceptron._parameter_constraints.items()
        if key != "shuffle"
    }

    def __init__(
        self,
        *,
        eta=1.0,
        fit_intercept=True,
        max_iter=1000,
        init="zeros",
        random_state=None,
        record=False,
        class_weight=None,
        warm_start=False,
        early_stopping=False,
        validation_fraction=0.1,
        n_iter_no_change=5,
        n_jobs=None,
    ):
        self.eta = eta
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.init = init
        self.random_state = random_state
        self.record = record
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.n_jobs = n_jobs

    def _run_epoch(self, problem, Xk, y, sw, order, record):
        return _kernels.batch_step(
            Xk, y, sw, problem.coef, problem.intercept, self.eta, self.fit_intercept,
            record[0], record[1],
        )

    def _after_epoch(self, problem, X, Xk, y, sw, record, mistakes):
        if problem.recorder:
            rows, activations = record[0][:mistakes], record[1][:mistakes]
            problem.recorder.add_batch(
                problem.n_iter, X, y, rows, activations, self.eta * sw[rows] * y[rows],
                problem.coef, problem.intercept[0],
            )
