"""The kernel perceptron: the perceptron in dual form (Freund & Schapire 1999)."""

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.metrics.pairwise import pairwise_kernels
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._validation import validate_X
from ..base import BasePerceptron, OnlinePerceptronMixin, Problem
from ._params import parameters

#: Test rows × support vectors (or mistakes) scored at once (bounds the memory).
_BLOCK_CELLS = 1 << 22


class KernelPerceptron(OnlinePerceptronMixin, BasePerceptron):
    __doc__ = f"""Perceptron in dual form: a weighted sum of kernels on the examples it got wrong.

    The decision function is ``f(x) = Σᵢ αᵢ yᵢ K(xᵢ, x) + b`` where ``αᵢ``
    counts the mistakes made on example ``i`` (scaled by its sample weight) and
    ``b`` moves by ``y`` on each mistake. A mistake is ``y f(x) <= 0``, as for
    :class:`Perceptron`; with ``kernel="linear"`` the two are the same
    classifier, ``w = Σᵢ αᵢ yᵢ xᵢ``. A learning rate would only scale ``α`` and
    ``b`` together (the start is zero), so there is none.

    ``voting`` follows Freund & Schapire (1999): every intermediate function
    ``f_k`` (after the k-th mistake) survives ``c_k`` examples, and
    ``"vote"`` predicts ``sign(Σ c_k sign f_k(x))`` while ``"average"`` uses
    ``Σ c_k f_k(x) / T``. Memory stays proportional to the mistakes: the
    support vectors, their coefficients, and the sequence of mistakes.

    Training keeps the current ``f`` of every training row and, on a mistake,
    adds one kernel column to it, so an epoch costs a kernel column per mistake
    (a cached one when the row was mistaken before).

    Parameters
    ----------
    kernel : {{"linear", "poly", "rbf"}} or callable, default="rbf"
        ``"poly"`` is ``(gamma ⟨x, x'⟩ + coef0)^degree`` and ``"rbf"``
        ``exp(−gamma ‖x − x'‖²)`` (scikit-learn's kernels). A callable takes two
        matrices ``(A, B)`` and returns their Gram matrix (len(A), len(B)), as
        in scikit-learn's ``SVC``.
    degree : int, default=3
    gamma : float or None, default=None
        ``None`` means ``1 / n_features``.
    coef0 : float, default=1.0
    voting : {{None, "vote", "average"}}, default=None
        Predict with the final function, the vote, or the average.
    cache_size : float, default=200
        Megabytes of kernel columns ``K(X, xᵢ)`` kept during a ``fit`` or
        ``partial_fit`` call, as ``SVC`` does: a row mistaken again reuses its
        column. Freed when the call ends.
    {parameters("fit_intercept")}
    max_iter : int, default=100
        Largest number of epochs.
    {parameters("shuffle", "random_state", "class_weight", "warm_start",
                "early_stopping", "validation_fraction", "n_iter_no_change", "n_jobs")}

    Attributes
    ----------
    support_vectors_ : ndarray or CSR matrix, or tuple of them per class
        The examples with at least one mistake, in order of their first.
    dual_coef_ : ndarray, or tuple per class
        ``αᵢ yᵢ`` of each support vector.
    intercept_ : ndarray of shape (1,) or (n_classes,)
    classes_, n_features_in_, n_iter_, n_updates_, converged_
        As in :class:`Perceptron`.

    References
    ----------
    Aizerman, Braverman & Rozonoer (1964); Freund & Schapire, "Large margin
    classification using the perceptron algorithm", Machine Learning 37, 1999.

    Examples
    --------
    XOR, which no line separates, with a degree-2 polynomial kernel:

    >>> from rosenblatt import KernelPerceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 1, 1, 0]
    >>> model = KernelPerceptron(kernel="poly", degree=2, shuffle="none").fit(X, y)
    >>> model.predict(X).tolist(), model.converged_
    ([0, 1, 1, 0], True)
    """

    _parameter_constraints = {
        **{key: value for key, value in BasePerceptron._parameter_constraints.items()
           if key not in {"eta", "init", "record"}},
        "kernel": [StrOptions({"linear", "poly", "rbf"}), callable],
        "degree": [Interval(Integral, 1, None, closed="left")],
        "gamma": [Interval(Real, 0, None, closed="neither"), None],
        "coef0": [Real],
        "voting": [StrOptions({"vote", "average"}), None],
        "cache_size": [Interval(Real, 0, None, closed="left")],
    }
    record = False
    init = "zeros"

    def __init__(
        self,
        *,
        kernel="rbf",
        degree=3,
        gamma=None,
        coef0=1.0,
        voting=None,
        cache_size=200,
        fit_intercept=True,
        max_iter=100,
        shuffle="every_epoch",
        random_state=None,
        class_weight=None,
        warm_start=False,
        early_stopping=False,
        validation_fraction=0.1,
        n_iter_no_change=5,
        n_jobs=None,
    ):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.voting = voting
        self.cache_size = cache_size
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.n_jobs = n_jobs

    # ------------------------------------------------------------------- kernels

    def _gram(self, A, B):
        """Gram matrix ``K(A, B)`` (len(A), len(B)) as a dense float64 array."""
        if callable(self.kernel):
            gram = np.asarray(self.kernel(A, B), dtype=np.float64)
            if gram.shape != (A.shape[0], B.shape[0]):
                raise ValueError(
                    f"kernel(A, B) must return the Gram matrix of shape {(A.shape[0], B.shape[0])}"
                    f", got shape {gram.shape}."
                )
            return gram
        return np.asarray(pairwise_kernels(
            A, B, metric=self.kernel, filter_params=True,
            gamma=self.gamma, degree=self.degree, coef0=self.coef0,
        ), dtype=np.float64)

    # ------------------------------------------------------------ problem state

    def _starting_weights(self, n_features, rngs):
        return [(np.zeros(0), 0.0) for _ in rngs]

    def _warm_weights(self):
        return [(np.zeros(0), 0.0) for _ in self._problems]

    def _new_problems(self, starts, rngs):
        if self.warm_start and hasattr(self, "support_vectors_"):
            for problem in self._problems:  # keep the dual state, start a new run
                problem.n_iter = problem.n_updates = 0
                problem.converged = problem.stopped_early = False
            return self._problems
        return super()._new_problems(starts, rngs)

    def _prepare_problem(self, problem):
        problem.extra.update(
            support=None, dual=[], sequence=[], steps=[], positions=[],
            f=None, f_source=None, slot_of={}, pending=[], columns={}, cached_bytes=0,
        )

    def _before_learning(self, X, weights):
        self._X_now = X

    # ------------------------------------------------------------------ training

    def _decision_cache(self, problem):
        """``f`` on the rows of the current ``X``, computed once per call."""
        extra, X = problem.extra, self._X_now
        if extra["f_source"] is not X:
            extra["f"] = self._dual_decision(problem, X)
            extra["f_source"] = X
            extra["slot_of"] = {}  # row of this X -> support vector slot
            extra["columns"], extra["cached_bytes"] = {}, 0
        return extra["f"]

    def _run_epoch(self, problem, Xk, y, sw, order, record):
        X, extra = self._X_now, problem.extra
        if len(order) == 0:  # natural order
            order = np.arange(X.shape[0])
        f = self._decision_cache(problem)
        active = sw[order] > 0
        position, n_mistakes = 0, 0
        while position < len(order):
            rest = order[position:]
            wrong = active[position:] & (y[rest] * f[rest] <= 0)
            if not wrong.any():
                problem.seen[0] += int(active[position:].sum())
                break
            k = position + int(np.argmax(wrong))
            problem.seen[0] += int(active[position:k + 1].sum())
            i = order[k]
            step = sw[i] * y[i]
            f += step * (self._column(extra, X, i) + float(self.fit_intercept))
            if self.fit_intercept:
                problem.intercept[0] += step
            slot = self._support_slot(problem, i)
            extra["dual"][slot] += step
            extra["sequence"].append(slot)
            extra["steps"].append(step)
            extra["positions"].append(problem.seen[0])
            n_mistakes += 1
            position = k + 1
        return n_mistakes

    def _column(self, extra, X, i):
        """``K(X, x_i)``, kept while ``cache_size`` allows: on data that are not
        separable the same rows are mistaken epoch after epoch."""
        column = extra["columns"].get(i)
        if column is None:
            column = self._gram(X, X[i:i + 1]).ravel()
            if extra["cached_bytes"] + column.nbytes <= self.cache_size * 2**20:
                extra["columns"][i] = column
                extra["cached_bytes"] += column.nbytes
        return column

    def _support_slot(self, problem, row):
        """Index of ``row`` among the support vectors, adding it on its first mistake."""
        extra = problem.extra
        if row not in extra["slot_of"]:
            stored = 0 if extra["support"] is None else extra["support"].shape[0]
            extra["slot_of"][row] = stored + len(extra["pending"])
            extra["pending"].append(row)
            extra["dual"].append(0.0)
        return extra["slot_of"][row]

    def _after_epoch(self, problem, X, Xk, y, sw, record, mistakes):
        """Copy the epoch's new support vectors out of ``X`` (so they outlive this call)."""
        extra = problem.extra
        if extra["pending"]:
            new = X[np.array(extra["pending"], dtype=np.intp)]
            if extra["support"] is None:
                extra["support"] = new.copy()
            elif sp.issparse(new):
                extra["support"] = sp.csr_matrix(sp.vstack([extra["support"], new]))
            else:
                extra["support"] = np.vstack([extra["support"], new])
            extra["pending"] = []

    # --------------------------------------------------------------- prediction

    def _dual_decision(self, problem, X):
        """``f(x) = Σ dual_i K(sv_i, x) + b`` of the final function, by row blocks."""
        extra = problem.extra
        out = np.full(X.shape[0], problem.intercept[0])
        if extra["support"] is None:
            return out
        block = max(1, _BLOCK_CELLS // extra["support"].shape[0])
        for start in range(0, X.shape[0], block):
            rows = slice(start, start + block)
            out[rows] += self._gram(X[rows], extra["support"]) @ np.asarray(extra["dual"])
        return out

    def _voted_decision(self, problem, X):
        """Vote or average over the functions ``f_k`` after each mistake."""
        extra = problem.extra
        steps = np.asarray(extra["steps"])
        sequence = np.asarray(extra["sequence"], dtype=np.intp)
        positions = np.asarray(extra["positions"], dtype=np.int64)
        starts = np.concatenate([[1], positions])
        counts = np.concatenate([positions, [problem.seen[0] + 1]]) - starts
        total = max(int(problem.seen[0]), 1)
        out = np.zeros(X.shape[0])
        block = max(1, _BLOCK_CELLS // (len(sequence) + 1))
        for start in range(0, X.shape[0], block):
            rows = slice(start, min(start + block, X.shape[0]))
            n_rows = rows.stop - rows.start
            if len(sequence):
                gram = self._gram(X[rows], extra["support"])
                increments = (gram[:, sequence] + float(self.fit_intercept)) * steps
            else:
                increments = np.zeros((n_rows, 0))
            functions = np.cumsum(np.hstack([np.zeros((n_rows, 1)), increments]), axis=1)
            if self.voting == "vote":
                out[rows] = np.where(functions > 0, 1.0, -1.0) @ counts
            else:
                out[rows] = functions @ counts / total
        return out

    def _problem_decision(self, problem, X):
        if self.voting is None:
            return self._dual_decision(problem, X)
        return self._voted_decision(problem, X)

    def _problem_errors(self, problem, X, y, sw):
        predicted = np.where(self._problem_decision(problem, X) > 0, 1.0, -1.0)
        return float(sw[predicted != y].sum())

    def decision_function(self, X):
        """``f(x)`` (or the vote / average): shape (n_samples,) for two classes,
        else (n_samples, n_classes)."""
        check_is_fitted(self)
        X = validate_X(self, X, reset=False)
        scores = np.column_stack([self._problem_decision(p, X) for p in self._problems])
        return scores.ravel() if scores.shape[1] == 1 else scores

    _STATE_FIELDS = ("support", "dual", "sequence", "steps", "positions")

    def _prediction_state(self):
        state = {}
        for k, problem in enumerate(self._problems):
            extra = problem.extra
            support = extra["support"] if extra["support"] is not None else \
                np.zeros((0, self.n_features_in_))
            state.update({
                f"problem{k}_support": support,
                f"problem{k}_dual": np.asarray(extra["dual"], dtype=np.float64),
                f"problem{k}_sequence": np.asarray(extra["sequence"], dtype=np.int64),
                f"problem{k}_steps": np.asarray(extra["steps"], dtype=np.float64),
                f"problem{k}_positions": np.asarray(extra["positions"], dtype=np.int64),
                f"problem{k}_seen": int(problem.seen[0]),
            })
        return state

    def _restore_prediction_state(self, state):
        n_problems = 1 if len(self.classes_) == 2 else len(self.classes_)
        self._problems = []
        for k in range(n_problems):
            problem = Problem(coef=np.zeros(0), intercept=np.array([self.intercept_[k]]),
                              rng=None, classes=self._problem_classes()[k])
            self._prepare_problem(problem)
            support = state[f"problem{k}_support"]
            sequence = [int(i) for i in state[f"problem{k}_sequence"]]
            problem.extra.update(
                support=support if support.shape[0] else None,
                dual=[float(v) for v in state[f"problem{k}_dual"]],
                sequence=sequence,
                steps=[float(v) for v in state[f"problem{k}_steps"]],
                positions=[int(v) for v in state[f"problem{k}_positions"]],
            )
            problem.seen[0] = state[f"problem{k}_seen"]
            if support.shape[1] != self.n_features_in_ or len(problem.extra["dual"]) != \
                    support.shape[0] or (sequence and max(sequence) >= support.shape[0]):
                raise ValueError("the support vectors do not fit their coefficients")
            self._problems.append(problem)

    def _publish(self):
        self._X_now = None
        for problem in self._problems:  # the training rows' cache is not needed any more
            problem.extra.update(f=None, f_source=None, columns={}, cached_bytes=0)

        def per_problem(values):
            values = tuple(values)
            return values[0] if len(values) == 1 else values

        empty = np.zeros((0, self.n_features_in_))
        self.support_vectors_ = per_problem(
            p.extra["support"] if p.extra["support"] is not None else empty
            for p in self._problems
        )
        self.dual_coef_ = per_problem(np.array(p.extra["dual"]) for p in self._problems)
        self.intercept_ = np.array([p.intercept[0] for p in self._problems])
        self.n_iter_ = max(p.n_iter for p in self._problems)
        self.n_updates_ = sum(p.n_updates for p in self._problems)
        self.converged_ = all(p.converged for p in self._problems)
        self._warn_if_not_converged()
