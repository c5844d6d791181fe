"""Primal weights: where a linear model's weights start, and what it publishes.

:class:`LinearLearner` starts every problem from ``init`` (or the fitted
weights, with ``warm_start``), gives it the rule's typed state and publishes
``coef_`` and ``intercept_`` (the running weights, or what the rule's state
makes of them: the mean, the pocket); :class:`Traced` adds ``record=True``'s
trace. On the estimator's side, :class:`LinearModel` computes
``decision_function`` from ``coef_`` and ``intercept_``.
"""

import threading

import numpy as np
import scipy.sparse as sp
from sklearn.utils.validation import check_is_fitted

from .. import _kernels
from .._validation import (
    check_csr_structure,
    check_scores,
    kernel_view,
    validate_X,
)
from ..trace import TraceRecorder
from ._columns import renumbering
from ._file_form import Floats
from ._learner import Learner
from ._problem import Problem, RuleState
from ._separability import classes_separable, linearly_separable

#: what a learner whose one problem holds every class publishes: a row per class
#: (two for two classes), see :mod:`._file_form`
PER_CLASS_WEIGHTS = {"coef_": Floats("classes", "features").needed(),
                     "intercept_": Floats("classes").needed()}


class LinearLearner(Learner):
    """A learner with primal weights: a weight vector and a bias per problem."""

    #: a row of ``coef_`` and a bias per problem (see :mod:`._file_form`)
    published_form = {"coef_": Floats("problems", "features").needed(),
                      "intercept_": Floats("problems").needed()}

    #: whether a fit may renumber the columns (a rule without epochs gains nothing)
    _renumbers = True

    def _new_state(self, coef, intercept):
        """Hook: the rule's :class:`RuleState` for a problem starting at these weights."""
        return RuleState()

    def _new_recorder(self, coef, intercept, classes):
        """Hook: a trace recorder, or ``None`` (see :class:`Traced`)."""
        return None

    def column_renumbering(self, problems, X, partial):
        """Columns renumbered by frequency on wide, scattered CSR data (the model is
        the same bit for bit; see :mod:`._columns`), unless something watches the
        weights during training: a trace, an ``on_epoch`` callback, a rule state
        that keeps rows of ``X``."""
        if self.on_epoch is not None or not self._renumbers or any(
                p.recorder is not None or not p.state.renumberable for p in problems):
            return None
        return renumbering(X, partial)

    def _start_problems(self, X, rngs, previous):
        starts = self._warm_weights(previous) if previous is not None else \
            self._starting_weights(X.shape[1], rngs)
        # float32 running weights are an option of the rules that offer it
        dtype = getattr(self, "weights_dtype", "float64")
        problems = []
        for (coef, intercept), rng, classes in zip(starts, rngs, self._problem_classes()):
            coef = np.array(coef, dtype=dtype, order="C")
            intercept = np.atleast_1d(np.array(intercept, dtype=np.float64))
            problems.append(Problem(
                coef=coef, intercept=intercept, rng=rng, classes=classes,
                state=self._new_state(coef, intercept),
                recorder=self._new_recorder(coef, intercept, classes),
            ))
        return problems

    def _starting_weights(self, n_features, rngs):
        """Initial ``(coef, intercept)`` of each problem, bias first when drawn.

        ``"uniform"`` is one call ``rng.random(n_features + 1)`` (NumPy's ``rand``)
        and ``"normal"`` one call ``rng.standard_normal(...)``, the bias first, as in
        Kowalczyk's listing; without an intercept, only ``n_features`` numbers.
        """
        width = n_features + int(self.fit_intercept)
        if isinstance(self.init, str):
            draw = {
                "zeros": lambda r: np.zeros(width),
                "uniform": lambda r: r.random(width),
                "normal": lambda r: r.standard_normal(width),
            }[self.init]
            vectors = np.array([draw(r) for r in rngs], dtype=np.float64)
        else:
            vectors = self._init_array(width, len(rngs))
        if self.fit_intercept:
            return [(v[1:].copy(), v[0]) for v in vectors]
        return [(v.copy(), 0.0) for v in vectors]

    def _init_array(self, width, n_problems):
        """``init`` given as weights: real numbers, one row per problem (or one row
        for all), refused with the shape and type expected otherwise."""
        what = "bias first, then one weight per feature" if self.fit_intercept else \
            "one weight per feature"
        expected = f"shape ({width},) or ({n_problems}, {width}) ({what})"
        try:
            given = np.asarray(self.init)
        except ValueError as error:  # ragged nested lists
            raise ValueError(
                f"init must be an array of real numbers with {expected}; got rows of "
                f"different lengths ({error})."
            ) from error
        if given.dtype.kind not in "iuf":
            vectors = None
            if given.dtype == object and not any(
                    v is None or isinstance(v, (bool, np.bool_, complex, np.complexfloating))
                    for v in given.ravel().tolist()):
                try:
                    vectors = given.astype(np.float64)
                except (TypeError, ValueError):
                    vectors = None
            if vectors is None:
                raise ValueError(
                    f"init must hold real numbers (int or float) with {expected}; got an "
                    f"array of dtype {given.dtype}. Pass the starting weights as floats, or "
                    "init='zeros', 'uniform' or 'normal'."
                )
        else:
            vectors = given.astype(np.float64)
        if vectors.ndim == 1:
            vectors = np.tile(vectors, (n_problems, 1))
        if vectors.shape != (n_problems, width) or not np.all(np.isfinite(vectors)):
            raise ValueError(
                f"init must be finite with {expected}; got shape {given.shape}"
                + ("." if vectors.shape != (n_problems, width) else ", with NaN or infinity.")
            )
        return vectors

    def _warm_weights(self, previous):
        """The published weights of the last fit, as starting points for ``warm_start``."""
        return [tuple(np.array(w, dtype=np.float64) for w in p.published()) for p in previous]

    def publish(self, problems):
        """``coef_``, ``intercept_`` (the running weights, or what the rule's state
        makes of them), the counters, and the trace."""
        weights = [p.published() for p in problems]
        fitted = super().publish(problems)
        fitted["coef_"] = np.vstack([np.atleast_2d(w) for w, _ in weights]).astype(np.float64)
        fitted["intercept_"] = np.concatenate(
            [np.atleast_1d(b) for _, b in weights]).astype(np.float64)
        if problems[0].recorder is not None:
            traces = tuple(p.recorder.build() for p in problems)
            fitted["trace_"] = traces[0] if len(traces) == 1 else traces
        return fitted

    def _separable(self, problem, X, y, sw):
        """Whether the rows of weight > 0 can be separated by the problem's kind of
        model: a hyperplane for a binary problem, one per class for a multiclass
        one (see :mod:`._separability`)."""
        X, y = X[sw > 0], y[sw > 0]
        if problem.coef.ndim == 1:
            return linearly_separable(X, y, fit_intercept=self.fit_intercept)
        return classes_separable(X, y, problem.coef.shape[0], fit_intercept=self.fit_intercept)

    def _problem_errors(self, problem, X, y, sw):
        """Weighted mistakes of one problem's published weights on held-out rows
        (what early stopping judges): ``y a <= 0`` for a binary problem, a wrong
        argmax for a multiclass one."""
        coef, intercept = problem.published()
        if coef.ndim == 1:
            return _kernels.weighted_errors(kernel_view(X), y, sw, coef, intercept[0], np.inf)
        scores = _linear_scores(X, coef, intercept)
        return float(sw[np.argmax(scores, axis=1) != y].sum())


class Traced:
    """Learner mixin: ``record=True`` keeps a :class:`~rosenblatt.Trace` of every update."""

    _recorder_class = TraceRecorder

    def _new_recorder(self, coef, intercept, classes):
        return self._recorder_class(coef, intercept, classes) if self.record else None


class LinearModel:
    """Estimator mixin: ``decision_function`` of primal weights ``coef_``, ``intercept_``."""

    def decision_function(self, X):
        """Signed activation ``w·x + b``.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) for two classes, else (n_samples, n_classes)
        """
        check_is_fitted(self)
        scores = _scores_checked_after(self, X)
        if scores is None:
            X = validate_X(self, X, reset=False, linear=True)  # w·x: no summing
            scores = check_scores(_linear_scores(X, self.coef_, self.intercept_), X)
        return scores.ravel() if scores.shape[1] == 1 else scores

    @property
    def _scores_refused_if_not_finite(self):
        """Whether ``decision_function`` is this class's own, which refuses scores
        that are inf or NaN (the kernel counts them), so ``predict`` need not look
        again; not for a subclass that scores otherwise (votes, a difference of
        two classes' scores, which may overflow)."""
        return type(self).decision_function is LinearModel.decision_function

    def _prediction_state(self):
        """Arrays besides the public fitted attributes that prediction needs
        (for model files); linear models need none."""
        return {}

    def _restore_prediction_state(self, state):
        """Inverse of :meth:`_prediction_state`, for a model read from a file."""


class MulticlassLinearModel(LinearModel):
    """Estimator mixin: ``decision_function`` of a native multiclass model, one
    weight vector per class (with two classes, the difference of their scores)."""

    def decision_function(self, X):
        """Scores ``w_k·x + b_k`` of every class.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes); with two classes the difference
        ``s_1 − s_0``, of shape (n_samples,).
        """
        scores = super().decision_function(X)
        return scores[:, 1] - scores[:, 0] if len(self.classes_) == 2 else scores


#: Stored values (times problems) from which scoring runs on several threads. Threads
#: win in wall time from about 50,000 values on 2 cores, but numba's OpenMP layer then
#: keeps its threads spinning for a while after each call: for calls of a fraction of a
#: millisecond (a9a, w8a) a second core burns as long as the work, and the caller's
#: next computation competes with it (measured: scikit-learn's own call timed 2-7x
#: slower right after ours). Only inputs where the spin is small beside the work go
#: parallel.
PARALLEL_SCORING_CELLS = 4_000_000


def _scores_checked_after(model, X):
    """Scores of a float array or CSR matrix of the fitted width, with the
    finiteness check moved after the product; ``None`` for anything else (the full
    validation path).

    scikit-learn's validation scans every value for NaN and infinity before the
    product, which on a9a costs as much as the product itself. A non-finite value
    always makes its row's score non-finite (``inf·0`` is NaN), so the product's
    n_samples scores are checked instead, and only when one of them is not finite
    are the values scanned (they may be finite, and the score an overflow): the
    same errors, the same scores. A CSR matrix's structure (indices in range,
    ``indptr`` consistent) is still checked before the kernel reads it; its
    duplicate entries are left as they are (each adds its ``w_j x_j``). Scores
    that overflow on a finite ``X`` are refused
    (:func:`~rosenblatt._validation.check_scores`), never returned as NaN; the
    kernel counts them as it writes them, no second pass over the scores.
    """
    if sp.issparse(X):
        if X.format != "csr":
            return None
    elif not (type(X) is np.ndarray and X.flags.c_contiguous):
        return None  # lists, DataFrames, other layouts: converted by the full path
    if not (X.dtype in (np.float32, np.float64) and X.ndim == 2 and X.shape[0] > 0
            and X.shape[1] == getattr(model, "n_features_in_", None)
            and not hasattr(model, "feature_names_in_")):  # its warning is on the full path
        return None
    if sp.issparse(X):
        # indices in range; duplicates are not summed (nor rows sorted): ``w·x`` over a
        # row that stores a column twice is the same sum, up to rounding, as over its
        # summed entry, without a copy of X
        check_csr_structure(X)
    scores, not_finite = _linear_scores(X, model.coef_, model.intercept_, count_not_finite=True)
    if not_finite:
        if not np.isfinite(X.data if sp.issparse(X) else X).all():
            return None  # the full path raises its error about NaN or infinity
        check_scores(scores, X)  # finite X, overflowing scores: refused
    return scores


def _linear_scores(X, coef, intercept, count_not_finite=False):
    """``X @ coef.T + intercept`` in float64 (float32 X read as is); with
    ``count_not_finite``, also how many scores are inf or NaN (counted by the
    kernel as it writes them).

    Large inputs are scored on numba's threads, but only from the main thread:
    numba's default threading layer aborts the process when two threads run
    parallel kernels at once, so other threads (one-vs-rest training, a user's
    thread pool) use the serial kernel.
    """
    coef = np.ascontiguousarray(coef, dtype=np.float64)
    intercept = np.ascontiguousarray(intercept, dtype=np.float64)
    cells = (X.nnz if sp.issparse(X) else X.size) * coef.shape[0]
    parallel = cells >= PARALLEL_SCORING_CELLS and \
        threading.current_thread() is threading.main_thread()
    kernel = _kernels.decision_function_parallel if parallel else _kernels.decision_function
    scores, not_finite = kernel(kernel_view(X, binary_twins=False), coef, intercept)
    return (scores, not_finite) if count_not_finite else scores
