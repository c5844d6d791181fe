"""The training trace: one record per weight update, kept when ``record=True``.

The kernels record only the row and the activation of each mistake (cheap, and
nothing at all when recording is off). The weights after each update are then
rebuilt here by replaying the updates in order with the same float64 arithmetic
as the kernel (``w += step * x``, no fused multiply-add), so the replayed
weights are the kernel's weights bit for bit.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp


@dataclass(frozen=True)
class Trace:
    """Per-update record of a binary perceptron run.

    Attributes
    ----------
    epoch : ndarray of int, shape (n_updates,)
        Epoch (or PLA iteration, or batch iteration) of each update, from 1.
    t : ndarray of int
        Example number of each update: how many examples had been processed,
        this one included, over every epoch (and ``partial_fit`` call). For PLA
        and BatchPerceptron, the iteration.
    index : ndarray of int
        Row of the training ``X`` that caused the update.
    x : ndarray of shape (n_updates, n_features)
        That row, as a dense float64 vector.
    y : ndarray of float
        Its label coded as -1.0 / +1.0 (``classes[0]`` / ``classes[1]``).
    activation : ndarray of float
        ``w·x + b`` before the update.
    update : ndarray of float
        The multiple of ``x`` added to ``w`` (``eta * sample_weight * y``); the
        bias moved by the same amount when it is fitted. NaN for rules whose
        update is not a multiple of ``x`` (the second-order rules, which move
        along ``Σx``): ``coef`` holds the weights after it.
    coef, intercept : ndarrays of shape (n_updates, n_features) and (n_updates,)
        The weights and bias after the update.
    coef_init, intercept_init : ndarray and float
        The weights and bias the run started from.
    classes : tuple
        ``(negative, positive)`` labels of this binary problem.

    Examples
    --------
    CISC 271's table: labels in {0, 1}, with the quantisation ``q`` and the
    residual ``e = y - q`` of every update.

    >>> from rosenblatt import Perceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]
    >>> trace = Perceptron(shuffle="none", record=True).fit(X, y).trace_
    >>> len(trace), trace.q[:4].tolist(), trace.e[:4].tolist()
    (18, [1, 0, 1, 1], [-1, 1, -1, -1])
    >>> trace.coef[-1].tolist(), float(trace.intercept[-1])
    ([3.0, 2.0], -4.0)
    """

    epoch: np.ndarray
    t: np.ndarray
    index: np.ndarray
    x: np.ndarray
    y: np.ndarray
    activation: np.ndarray
    update: np.ndarray
    coef: np.ndarray
    intercept: np.ndarray
    coef_init: np.ndarray
    intercept_init: float
    classes: tuple
    #: CISC 271's ``H(0)`` when the run used it (``Perceptron(h0=...)``), else None
    h0: float = None

    def __len__(self):
        return len(self.index)

    @property
    def q(self):
        """Quantisation of the activation in the 0/1 coding (CISC 271): 1 if ``a > 0``,
        0 if ``a < 0``.

        At ``a = 0`` it is ``h0`` when the run used CISC 271's step function with
        ``H(0) = h0``. Otherwise the rule's ``y a <= 0`` makes the point a mistake
        whatever its label, so ``q`` is reported as the opposite of ``y`` there:
        then ``e = y - q`` is ±1 on every record and ``e x`` is the update made.
        """
        positive = (self.y > 0).astype(int)
        at_zero = 1 - positive if self.h0 is None else self.h0
        return np.where(self.activation > 0, 1, np.where(self.activation < 0, 0, at_zero))

    @property
    def e(self):
        """Residual ``e = y - q`` with the labels coded 0/1 (CISC 271 Table 30.2)."""
        return (self.y > 0).astype(int) - self.q

    @property
    def survival(self):
        """Examples the weights replaced by each update had been in use for
        (Freund & Schapire's survival count; the starting weights come first)."""
        return survival_counts(self.t)

    @property
    def labels(self):
        """The labels of the updating rows, in the user's own coding."""
        negative, positive = self.classes
        return np.where(self.y > 0, positive, negative)


def survival_counts(positions, n_examples=None):
    """Freund & Schapire's survival counts of the weight vectors of a run.

    ``positions`` are the example numbers (1-based) of the updates. Vector ``k``
    (``k = 0`` the start) is current from the example of update ``k`` (the first
    example for the start) until the example before update ``k + 1``; an update
    at example ``t`` thus starts a vector whose count includes ``t``. With
    ``n_examples`` the last vector is counted up to that example (the counts then
    sum to it); without, only the vectors some update replaced are returned.

    >>> survival_counts([1, 4, 5], n_examples=9).tolist()
    [0, 3, 1, 5]
    >>> survival_counts([1, 4, 5]).tolist()
    [0, 3, 1]
    """
    starts = np.concatenate([[1], positions]).astype(np.int64)
    if n_examples is None:
        return np.diff(starts)
    return np.diff(np.concatenate([starts, [n_examples + 1]]))


class TraceRecorder:
    """Collects the updates of successive epochs and builds a :class:`Trace`.

    The estimators make one with ``record=True``; ``h0`` is CISC 271's ``H(0)``
    when the run uses it (see :attr:`Trace.q`).

    >>> import numpy as np
    >>> recorder = TraceRecorder(np.zeros(2), 0.0, ("no", "yes"))
    >>> recorder.add_online(1, np.array([[1.0, 2.0]]), np.array([1.0]), np.array([0]),
    ...                     np.array([0.0]), np.array([1]), np.array([0.5]), True)
    >>> trace = recorder.build()
    >>> trace.coef.tolist(), trace.intercept.tolist(), trace.labels.tolist()
    ([[0.5, 1.0]], [0.5], ['yes'])
    """

    _FIELDS = ("epoch", "t", "index", "x", "y", "activation", "update", "coef", "intercept")

    def __init__(self, coef_init, intercept_init, classes, h0=None):
        self.coef_init = np.array(coef_init, dtype=np.float64)
        self.intercept_init = float(np.reshape(intercept_init, -1)[0])
        self.classes = tuple(classes)
        self.h0 = h0
        self._parts = {field: [] for field in self._FIELDS}

    def _last_weights(self):
        if self._parts["coef"]:
            return self._parts["coef"][-1][-1], self._parts["intercept"][-1][-1]
        return self.coef_init, self.intercept_init

    def add_online(self, epoch, X, y, rows, activations, positions, steps, fit_intercept):
        """Record updates applied one after another (``w += step * x`` each)."""
        x = _dense_rows(X, rows)
        coef_start, intercept_start = self._last_weights()
        # cumsum adds in sequence, exactly as the kernel did
        coefs = np.cumsum(np.vstack([coef_start[None, :], steps[:, None] * x]), axis=0)[1:]
        bias_steps = steps if fit_intercept else np.zeros_like(steps)
        intercepts = np.cumsum(np.concatenate([[intercept_start], bias_steps]))[1:]
        self._append(epoch, x, y, rows, activations, positions, steps, coefs, intercepts)

    def add_snapshots(self, epoch, X, y, rows, activations, positions, coefs, intercepts):
        """Record updates whose weights after each are given (``coefs``, one row per
        update, and ``intercepts``), for rules whose update is not a multiple of
        ``x`` (the second-order rules move along ``Σx``): their ``update`` is NaN.

        >>> import numpy as np
        >>> recorder = TraceRecorder(np.zeros(2), 0.0, ("no", "yes"))
        >>> recorder.add_snapshots(1, np.array([[1.0, 2.0]]), np.array([1.0]), np.array([0]),
        ...                        np.array([0.0]), np.array([1]), [[0.25, 0.5]], [0.25])
        >>> trace = recorder.build()
        >>> trace.coef.tolist(), trace.intercept.tolist(), trace.update.tolist()
        ([[0.25, 0.5]], [0.25], [nan])
        """
        rows = np.asarray(rows, dtype=np.intp)
        coefs = np.array(coefs, dtype=np.float64).reshape(len(rows), len(self.coef_init))
        intercepts = np.array(intercepts, dtype=np.float64).reshape(len(rows))
        self._append(epoch, _dense_rows(X, rows), y, rows, activations, positions,
                     np.full(len(rows), np.nan), coefs, intercepts)

    def add_batch(self, epoch, X, y, rows, activations, steps, coef_after, intercept_after):
        """Record the rows of one batch step; they all share the weights after it."""
        n = len(rows)
        coefs = np.repeat(np.asarray(coef_after, dtype=np.float64)[None, :], n, axis=0)
        intercepts = np.full(n, float(intercept_after))
        self._append(epoch, _dense_rows(X, rows), y, rows, activations, np.full(n, epoch),
                     steps, coefs, intercepts)

    def _append(self, epoch, x, y, rows, activations, positions, steps, coefs, intercepts):
        if len(rows) == 0:  # an epoch without an update (tol goes on after one)
            return
        values = dict(
            epoch=np.full(len(rows), epoch, dtype=np.intp),
            t=np.asarray(positions, dtype=np.int64),
            index=np.asarray(rows, dtype=np.intp),
            x=x,
            y=np.asarray(y, dtype=np.float64)[rows],
            activation=np.asarray(activations, dtype=np.float64),
            update=np.asarray(steps, dtype=np.float64),
            coef=coefs,
            intercept=intercepts,
        )
        for field, value in values.items():
            self._parts[field].append(value)

    def build(self):
        """The :class:`Trace` of everything recorded so far."""
        d = len(self.coef_init)
        empty = dict(
            epoch=np.empty(0, dtype=np.intp), index=np.empty(0, dtype=np.intp),
            t=np.empty(0, dtype=np.int64),
            x=np.empty((0, d)), coef=np.empty((0, d)),
        )
        columns = {
            field: np.concatenate(parts) if parts else empty.get(field, np.empty(0))
            for field, parts in self._parts.items()
        }
        return Trace(
            **columns,
            coef_init=self.coef_init,
            intercept_init=self.intercept_init,
            classes=self.classes,
            h0=self.h0,
        )


def _dense_rows(X, rows):
    """Rows of a dense array or a CSR matrix as a dense float64 array."""
    if sp.issparse(X):
        return np.asarray(X[rows].toarray(), dtype=np.float64)
    return np.asarray(X[rows], dtype=np.float64)


@dataclass(frozen=True)
class MulticlassTrace:
    """Per-update record of a :class:`~rosenblatt.MulticlassPerceptron` run.

    ``epoch``, ``t``, ``index`` and ``x`` as in :class:`Trace`; ``y`` and
    ``predicted`` are the true class and the best-scoring other class (labels
    in the user's coding), ``margin`` the true class's score minus that class's
    (``<= 0`` on every update of the perceptron), ``update`` the step
    ``eta * sample_weight`` (NaN for the second-order rules, which move along
    ``Σx``), and
    ``coef`` (n_updates, n_classes, n_features) / ``intercept`` the weights after.

    Examples
    --------
    >>> from rosenblatt import MulticlassPerceptron
    >>> X, y = [[0, 0], [2, 0], [0, 2]], ["a", "b", "c"]
    >>> trace = MulticlassPerceptron(shuffle="none", record=True).fit(X, y).trace_
    >>> trace.y.tolist()[:3], trace.predicted.tolist()[:3]
    (['a', 'b', 'c'], ['b', 'a', 'a'])
    """

    epoch: np.ndarray
    t: np.ndarray
    index: np.ndarray
    x: np.ndarray
    y: np.ndarray
    predicted: np.ndarray
    margin: np.ndarray
    update: np.ndarray
    coef: np.ndarray
    intercept: np.ndarray
    coef_init: np.ndarray
    intercept_init: np.ndarray
    classes: tuple

    def __len__(self):
        return len(self.index)


class MulticlassTraceRecorder:
    """Collects the updates of a multiclass run and builds a :class:`MulticlassTrace`.

    ``MulticlassPerceptron(record=True)`` makes one:

    >>> from rosenblatt import MulticlassPerceptron
    >>> X, y = [[0, 0], [4, 0], [0, 4]], ["a", "b", "c"]
    >>> trace = MulticlassPerceptron(shuffle="none", record=True).fit(X, y).trace_
    >>> len(trace) == MulticlassPerceptron(shuffle="none").fit(X, y).n_updates_
    True
    """

    def __init__(self, coef_init, intercept_init, classes):
        self.coef_init = np.array(coef_init, dtype=np.float64)
        self.intercept_init = np.array(intercept_init, dtype=np.float64)
        self.classes = np.asarray(classes)
        self._records = []

    def add(self, epoch, X, y, rows, margins, positions, predicted, steps, fit_intercept):
        """Record one epoch's updates, replaying them to get the weights after each."""
        W = self._records[-1][-1][0] if self._records else self.coef_init
        b = self._records[-1][-1][1] if self._records else self.intercept_init
        x = _dense_rows(X, rows)
        for k, row in enumerate(rows):
            W, b = W.copy(), b.copy()
            true, rival = y[row], predicted[k]
            W[true] += steps[k] * x[k]
            W[rival] -= steps[k] * x[k]
            if fit_intercept:
                b[true] += steps[k]
                b[rival] -= steps[k]
            self._records.append((epoch, positions[k], row, x[k], true, rival, margins[k],
                                  steps[k], (W, b)))

    def add_snapshots(self, epoch, X, y, rows, margins, positions, predicted, coefs,
                      intercepts):
        """Record one epoch's updates with the weights after each given (``coefs``
        of shape (n_updates, n_classes, n_features), ``intercepts``), for rules
        whose update is not a multiple of ``x``: their ``update`` is NaN."""
        x = _dense_rows(X, rows)
        K, d = self.coef_init.shape
        coefs = np.array(coefs, dtype=np.float64).reshape(len(rows), K, d)
        intercepts = np.array(intercepts, dtype=np.float64).reshape(len(rows), K)
        for k, row in enumerate(rows):
            self._records.append((epoch, positions[k], row, x[k], y[row], predicted[k],
                                  margins[k], np.nan, (coefs[k], intercepts[k])))

    def build(self):
        """The :class:`MulticlassTrace` of everything recorded so far."""
        K, d = self.coef_init.shape
        columns = list(zip(*self._records)) if self._records else [[]] * 9
        weights = columns[8]
        return MulticlassTrace(
            epoch=np.array(columns[0], dtype=np.intp),
            t=np.array(columns[1], dtype=np.int64),
            index=np.array(columns[2], dtype=np.intp),
            x=np.array(columns[3], dtype=np.float64).reshape(-1, d),
            y=self.classes[np.array(columns[4], dtype=np.intp)],
            predicted=self.classes[np.array(columns[5], dtype=np.intp)],
            margin=np.array(columns[6], dtype=np.float64),
            update=np.array(columns[7], dtype=np.float64),
            coef=np.array([w for w, _ in weights]).reshape(-1, K, d),
            intercept=np.array([b for _, b in weights]).reshape(-1, K),
            coef_init=self.coef_init,
            intercept_init=self.intercept_init,
            classes=tuple(self.classes),
        )


__all__ = [
    "MulticlassTrace", "MulticlassTraceRecorder", "Trace", "TraceRecorder", "survival_counts",
]
