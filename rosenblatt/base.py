"""The base every perceptron estimator stands on.

:class:`BasePerceptron` does everything that is not a learning rule: parameter
and data validation, the mapping of any two labels to -1/+1, one-vs-rest for more
classes (the binary problems run on threads, since kernels release the GIL),
initial weights, warm starts, the epoch loop with its shuffling, convergence test,
early stopping and ``ConvergenceWarning``, the trace, and ``decision_function``.

A rule subclasses it and supplies one method,
``_run_epoch(problem, Xk, y, sw, order, record)``, which runs its kernel over
the rows ``order`` of one :class:`Problem` and returns the number of updates;
other hooks (``_after_epoch``, ``_converged``, ``_published_weights``, ...)
have defaults that suit the perceptron. Rules whose loop is not made of epochs
(PLA) override ``_train``.
"""

import os
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import train_test_split
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from . import _kernels
from ._validation import (
    check_classes,
    check_random_state,
    encode_labels,
    kernel_view,
    row_weights,
    validate_X,
    validate_X_y,
)
from .trace import TraceRecorder

SHUFFLE_MODES = {"none": 0, "once": 1, "every_epoch": 2}
INIT_MODES = ("zeros", "uniform", "normal")
_NO_RECORD = (np.empty(0, dtype=np.intp), np.empty(0), np.empty(0, dtype=np.int64))
_NO_CACHE = (np.empty(0), np.empty(1))
_NO_POCKET = (np.empty(0), np.empty(1), np.empty(1))
#: An empty row order: the kernels then visit every row in turn.
NATURAL_ORDER = np.empty(0, dtype=np.intp)


@dataclass
class Problem:
    """Learning state of one problem: a binary problem (the whole model when there
    are two classes, one per class for one-vs-rest), or a native multiclass one.

    ``coef`` and ``intercept`` (shape (1,) for a binary problem) are the running
    weights the kernel updates in place; ``seen[0]`` counts the examples
    processed; ``extra`` holds what a rule keeps besides them.
    """

    coef: np.ndarray
    intercept: np.ndarray
    rng: object
    classes: tuple
    seen: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    n_iter: int = 0
    n_updates: int = 0
    converged: bool = False
    stopped_early: bool = False
    order: np.ndarray = None
    recorder: TraceRecorder = None
    extra: dict = field(default_factory=dict)


class BasePerceptron(ClassifierMixin, BaseEstimator):
    """Shared machinery of the perceptron estimators; not used directly."""

    _parameter_constraints = {
        "eta": [Interval(Real, 0, None, closed="neither")],
        "fit_intercept": ["boolean"],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "shuffle": [StrOptions(set(SHUFFLE_MODES))],
        "init": [StrOptions(set(INIT_MODES)), "array-like"],
        "random_state": [
            Interval(Integral, 0, 2**32 - 1, closed="both"),
            np.random.RandomState,
            np.random.Generator,
            None,
        ],
        "record": ["boolean"],
        "class_weight": [StrOptions({"balanced"}), dict, None],
        "warm_start": ["boolean"],
        "early_stopping": ["boolean"],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "n_iter_no_change": [Interval(Integral, 1, None, closed="left")],
        "n_jobs": [Integral, None],
    }

    #: Called with the problem after every epoch when set (the CLI's progress bar).
    _progress = None

    #: Printed in the ConvergenceWarning; rules may suggest something better.
    _advice = "increase max_iter, or use PocketPerceptron to keep the weights with the " \
        "fewest training mistakes"

    # ------------------------------------------------------------------ public API

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Learn the weights from ``X`` (n_samples, n_features) and labels ``y``.

        Returns ``self``.
        """
        X, y = validate_X_y(self, X, y, reset=True)
        classes = check_classes(y)
        warm = self.warm_start and hasattr(self, "_problems")
        if warm and not np.array_equal(classes, self.classes_):
            raise ValueError(
                f"warm_start=True needs the classes of the first fit {self.classes_.tolist()!r}"
                f", got {classes.tolist()!r}; set warm_start=False to start afresh."
            )
        self.classes_ = classes
        codes = encode_labels(y, classes)
        weights = row_weights(X, codes, classes, sample_weight, self.class_weight)
        rngs = self._problem_rngs(check_random_state(self.random_state))
        starts = self._warm_weights() if warm else self._starting_weights(X.shape[1], rngs)
        self._problems = self._new_problems(starts, rngs)
        self._learn(
            X, codes, weights, n_epochs=getattr(self, "max_iter", None), early_stopping=True
        )
        return self

    def decision_function(self, X):
        """Signed activation ``w·x + b``: shape (n_samples,) for two classes, else
        (n_samples, n_classes)."""
        check_is_fitted(self)
        X = validate_X(self, X, reset=False)
        coef = np.ascontiguousarray(self.coef_, dtype=np.float64)
        intercept = np.ascontiguousarray(self.intercept_, dtype=np.float64)
        scores = _kernels.decision_function(kernel_view(X), coef, intercept)
        return scores.ravel() if scores.shape[1] == 1 else scores

    def predict(self, X):
        """Class labels; an activation of exactly 0 predicts the negative class."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(np.intp)]
        return self.classes_[np.argmax(scores, axis=1)]

    def _prediction_state(self):
        """Arrays besides the public fitted attributes that prediction needs
        (for model files); linear models need none."""
        return {}

    def _restore_prediction_state(self, state):
        """Inverse of :meth:`_prediction_state`, for a model read from a file."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    # --------------------------------------------------------------- set-up helpers

    def _problem_targets(self, codes):
        """The ±1 label vector of each binary problem (one per class for one-vs-rest)."""
        if len(self.classes_) == 2:
            return [np.where(codes == 1, 1.0, -1.0)]
        return [np.where(codes == k, 1.0, -1.0) for k in range(len(self.classes_))]

    def _problem_classes(self):
        if len(self.classes_) == 2:
            return [tuple(self.classes_)]
        return [(f"not {label}", label) for label in self.classes_]

    def _n_problems(self):
        return 1 if len(self.classes_) == 2 else len(self.classes_)

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
        given = vectors = np.array(self.init, dtype=np.float64)
        if vectors.ndim == 1:
            vectors = np.tile(vectors, (n_problems, 1))
        if vectors.shape != (n_problems, width) or not np.all(np.isfinite(vectors)):
            what = "bias first, then one weight per feature" if self.fit_intercept else \
                "one weight per feature"
            raise ValueError(
                f"init must be finite with shape ({width},) or ({n_problems}, {width}) "
                f"({what}); got shape {given.shape}."
            )
        return vectors

    def _problem_rngs(self, rng):
        """The estimator's generator for a binary model; one seeded child per class
        for one-vs-rest, so that the result does not depend on thread scheduling."""
        n_problems = self._n_problems()
        if n_problems == 1:
            return [rng]
        seeds = rng.integers(2**31 - 1, size=n_problems) if isinstance(
            rng, np.random.Generator) else rng.randint(2**31 - 1, size=n_problems)
        return [np.random.RandomState(seed) for seed in seeds]

    def _warm_weights(self):
        """The fitted weights, as starting points for ``warm_start``."""
        return [
            (np.array(coef, dtype=np.float64), float(intercept))
            for coef, intercept in zip(self.coef_, self.intercept_)
        ]

    def _new_problems(self, starts, rngs):
        """One :class:`Problem` per binary problem, from ``(coef, intercept)`` starts."""
        problems = []
        for (coef, intercept), problem_rng, classes in zip(
            starts, rngs, self._problem_classes()
        ):
            problem = Problem(
                coef=np.array(coef, dtype=np.float64, order="C"),
                intercept=np.atleast_1d(np.array(intercept, dtype=np.float64)),
                rng=problem_rng,
                classes=classes,
            )
            if self.record:
                problem.recorder = self._new_recorder(coef, intercept, classes)
            self._prepare_problem(problem)
            problems.append(problem)
        return problems

    def _new_recorder(self, coef, intercept, classes):
        return TraceRecorder(coef, intercept, classes)

    def _prepare_problem(self, problem):
        """Hook: add a rule's own state to a new problem."""

    # ------------------------------------------------------------------- training

    def _learn(self, X, codes, weights, *, n_epochs, early_stopping):
        """Train every problem for up to ``n_epochs``, then publish the results."""
        Xk = kernel_view(X)
        labels = self._problem_targets(codes)
        self._before_learning(X, weights)

        def train(k):
            problem = self._problems[k]
            stopper = None
            sw = weights
            if early_stopping and getattr(self, "early_stopping", False):
                sw, stopper = self._validation_split(X, labels[k], weights, problem.rng)
            self._train(problem, X, Xk, labels[k], sw, n_epochs, stopper)

        n_jobs = getattr(self, "n_jobs", None)
        workers = _n_workers(n_jobs, len(self._problems))
        if workers == 1:
            for k in range(len(self._problems)):
                train(k)
        else:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                list(pool.map(train, range(len(self._problems))))
        self._publish()

    def _before_learning(self, X, weights):
        """Hook run once per ``fit``/``partial_fit`` call, before the problems train."""

    def _train(self, problem, X, Xk, y, sw, n_epochs, stopper):
        """The epoch loop: stop when the rule says it has converged (by default an
        epoch without a mistake), when early stopping says so, or after ``n_epochs``."""
        n = X.shape[0]
        for _ in range(n_epochs):
            order = self._epoch_order(problem, n)
            record = self._record_buffers(problem, n)
            mistakes = self._run_epoch(problem, Xk, y, sw, order, record)
            problem.n_iter += 1
            problem.n_updates += mistakes
            self._after_epoch(problem, X, Xk, y, sw, record, mistakes)
            if self._progress is not None:
                self._progress(problem)
            if self._stop(problem, Xk, y, sw, mistakes):
                break
            if stopper is not None and stopper(problem):
                problem.stopped_early = True
                break

    def _stop(self, problem, Xk, y, sw, mistakes):
        """Whether training ends after this epoch; sets ``problem.converged``."""
        problem.converged = mistakes == 0
        return problem.converged

    def _record_buffers(self, problem, n):
        """Where the kernel writes each mistake; empty (nothing written) when not recording."""
        return problem.recorder.buffers(n) if problem.recorder else _NO_RECORD

    def _after_epoch(self, problem, X, Xk, y, sw, record, mistakes):
        """Hook after each epoch; by default adds the epoch's updates to the trace."""
        if problem.recorder:
            rows, activations, positions = (buffer[:mistakes] for buffer in record)
            steps = self.eta * sw[rows] * y[rows]
            problem.recorder.add_online(
                problem.n_iter, X, y, rows, activations, positions, steps, self.fit_intercept
            )

    def _epoch_order(self, problem, n):
        """Row order of the next epoch (Daumé §4.2): fixed, one permutation, or new.
        The fixed order is :data:`NATURAL_ORDER`, which the kernels read as 0..n-1."""
        mode = getattr(self, "shuffle", "none")
        if mode == "every_epoch":
            return problem.rng.permutation(n).astype(np.intp)
        if mode == "once":
            if problem.order is None or len(problem.order) != n:
                problem.order = problem.rng.permutation(n).astype(np.intp)
            return problem.order
        return NATURAL_ORDER

    def _published_weights(self, problem):
        """The weights a problem exposes as ``coef_``/``intercept_``."""
        return problem.coef, problem.intercept[0]

    def _problem_errors(self, problem, X, y, sw):
        """Weighted mistakes of a problem's published weights on held-out rows."""
        coef, intercept = self._published_weights(problem)
        return _kernels.weighted_errors(kernel_view(X), y, sw, coef, intercept, np.inf)

    def _validation_split(self, X, y, weights, rng):
        """Hold out ``validation_fraction`` of the rows (stratified) for early stopping.

        The held-out rows stay in ``X`` with weight 0, so the kernels skip them
        without a copy of ``X``. Returns the training weights and a stop test.
        """
        n = X.shape[0]
        seed = rng.integers(2**31 - 1) if isinstance(rng, np.random.Generator) \
            else rng.randint(2**31 - 1)
        try:
            _, held_out = train_test_split(
                np.arange(n), test_size=self.validation_fraction, stratify=y,
                random_state=seed,
            )
        except ValueError as error:
            raise ValueError(
                f"early_stopping could not hold out validation_fraction="
                f"{self.validation_fraction} of {n} rows with both classes ({error}); "
                "use more data, a larger validation_fraction, or early_stopping=False."
            ) from error
        train_weights = weights.copy()
        train_weights[held_out] = 0.0
        X_val = X[held_out]
        y_val, w_val = y[held_out], weights[held_out]
        total = w_val.sum()
        state = {"best": -np.inf, "stale": 0}

        def stop(problem):
            errors = self._problem_errors(problem, X_val, y_val, w_val)
            score = 1.0 - errors / total if total > 0 else 0.0
            if score > state["best"]:
                state["best"], state["stale"] = score, 0
            else:
                state["stale"] += 1
            return state["stale"] >= self.n_iter_no_change

        return train_weights, stop

    def _publish(self):
        """Set the fitted attributes from the problems, and warn if any ran out."""
        weights = [self._published_weights(p) for p in self._problems]
        self.coef_ = np.vstack([np.atleast_2d(w) for w, _ in weights]).astype(np.float64)
        self.intercept_ = np.concatenate([np.atleast_1d(b) for _, b in weights]).astype(
            np.float64
        )
        self.n_iter_ = max(p.n_iter for p in self._problems)
        self.n_updates_ = sum(p.n_updates for p in self._problems)
        self.converged_ = all(p.converged for p in self._problems)
        if self.record:
            traces = tuple(p.recorder.build() for p in self._problems)
            self.trace_ = traces[0] if len(traces) == 1 else traces
        self._warn_if_not_converged()

    def _warn_if_not_converged(self):
        failed = [p for p in self._problems if not p.converged and not p.stopped_early]
        if not failed or getattr(self, "_in_partial_fit", False):
            return
        which = ""
        if len(self._problems) > 1:
            which = " for class(es) " + ", ".join(str(p.classes[1]) for p in failed)
        warn(self._not_converged_message(which))

    def _not_converged_message(self, which):
        return (
            f"{type(self).__name__} ran {self._limit_description()} without a mistake-free "
            f"pass{which}; the data may not be linearly separable — {self._advice}."
        )

    def _limit_description(self):
        return f"max_iter={self.max_iter} epochs"


class EpochPerceptron(BasePerceptron):
    """The parameters of the rules that pass over the rows one at a time, epoch
    after epoch (the perceptron and the pocket); scikit-learn reads them from
    this ``__init__``."""

    def __init__(
        self,
        *,
        eta=1.0,
        fit_intercept=True,
        max_iter=1000,
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
    ):
        self.eta = eta
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
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

    def _run_epoch(self, problem, Xk, y, sw, order, record):
        return _kernels.perceptron_epoch(
            Xk, y, sw, order, self.eta, self.fit_intercept,
            (problem.coef, problem.intercept, problem.seen), record,
            self._cache(problem), self._pocket(problem, Xk, y, sw),
        )

    def _cache(self, problem):
        """The kernel's cached weights ``(u, beta)`` (Daumé Alg. 7); empty: none."""
        return _NO_CACHE

    def _pocket(self, problem, Xk, y, sw):
        """The kernel's pocket arrays ``(w, b, errors)``; empty ones mean no pocket."""
        return _NO_POCKET


class OnlinePerceptronMixin:
    """``partial_fit``: one epoch over each chunk, the state kept between calls."""

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """One epoch over ``X, y`` continuing from the current state.

        ``classes`` (every label the stream will hold) is required on the first call.
        Early stopping does not apply to ``partial_fit``.
        """
        first = not hasattr(self, "_problems")
        if first:
            self._validate_params()
            if classes is None:
                raise ValueError(
                    "classes must be passed on the first call to partial_fit: every label "
                    "the stream will contain, e.g. classes=[0, 1]."
                )
            if self.class_weight == "balanced":
                raise ValueError(
                    "class_weight='balanced' needs all labels at once and cannot be used "
                    "with partial_fit; pass a dict of class weights instead."
                )
        X, y = validate_X_y(self, X, y, reset=first)
        if first:
            self.classes_ = check_classes(classes)
            rngs = self._problem_rngs(check_random_state(self.random_state))
            self._problems = self._new_problems(self._starting_weights(X.shape[1], rngs), rngs)
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(
                f"classes={np.unique(classes).tolist()!r} differs from the classes of the "
                f"first partial_fit call {self.classes_.tolist()!r}."
            )
        codes = encode_labels(y, self.classes_)
        weights = row_weights(X, codes, self.classes_, sample_weight, self.class_weight)
        self._in_partial_fit = True
        try:
            self._learn(X, codes, weights, n_epochs=1, early_stopping=False)
        finally:
            self._in_partial_fit = False
        return self


def warn(message):
    """A ``ConvergenceWarning`` pointing at the user's line."""
    warnings.warn(message, ConvergenceWarning, stacklevel=_caller_stacklevel())


def _caller_stacklevel():
    """``stacklevel`` that points a warning at the first frame outside rosenblatt
    and scikit-learn (whose ``_fit_context`` wraps ``fit``)."""
    package = os.path.dirname(os.path.abspath(__file__))
    frame, level = sys._getframe(1), 1
    while frame is not None and (
        frame.f_code.co_filename.startswith(package)
        or f"{os.sep}sklearn{os.sep}" in frame.f_code.co_filename
    ):
        frame, level = frame.f_back, level + 1
    return level


def _n_workers(n_jobs, n_tasks):
    if n_jobs is None or n_tasks == 1:
        return 1
    cores = os.cpu_count() or 1
    wanted = cores + 1 + n_jobs if n_jobs < 0 else n_jobs
    return max(1, min(wanted, n_tasks))
