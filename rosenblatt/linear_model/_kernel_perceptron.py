"""The kernel perceptron: the perceptron in dual form (Freund & Schapire 1999)."""

import difflib
from dataclasses import dataclass, field
from numbers import Real

import numpy as np
import scipy.sparse as sp
from sklearn.metrics.pairwise import pairwise_kernels
from sklearn.utils._param_validation import Interval, InvalidParameterError, StrOptions
from sklearn.utils.validation import check_is_fitted

from .. import _kernels
from .._validation import check_scores, validate_X
from ..base import (
    Learner,
    OnlineMixin,
    PerceptronClassifier,
    Problem,
    RuleState,
    ToleranceStop,
    constraints,
)
from ..base._parameters import WholeNumber
from ..trace import survival_counts

#: The largest float: the finite bound of the kernel's parameters.
_LARGEST = float(np.finfo(np.float64).max)

#: Test rows × support vectors (or mistakes) scored at once (bounds the memory).
_BLOCK_CELLS = 1 << 22


class ColumnCache:
    """Kernel columns ``K(X, x_i)`` of one call's rows, in a fixed block of memory.

    Columns are computed several at a time (one matrix product for a batch of
    rows, where a column at a time reads all of ``X`` per column) and kept while
    ``cache_bytes`` allows; when it is full the least recently used columns make
    room. At least one batch always fits, whatever ``cache_bytes`` says.
    """

    #: Rows looked ahead at a missing column, and most columns computed together.
    AHEAD = 256

    def __init__(self, n_rows, cache_bytes):
        fits = int(cache_bytes // (8 * max(n_rows, 1)))
        self.batch = max(1, min(self.AHEAD, fits, n_rows))
        n_slots = max(self.batch, min(n_rows, fits))
        self.columns = np.empty((n_slots, n_rows))     # a column per slot, contiguous
        self.column_of = np.full(n_rows, -1, dtype=np.int64)  # row -> slot, or -1
        self.last_used = np.full(n_slots, -1, dtype=np.int64)  # example number, -1 free
        self._row_in = np.full(n_slots, -1, dtype=np.int64)   # slot -> row, or -1

    def arrays(self):
        """What :func:`~rosenblatt._kernels.dual_scan` reads and stamps."""
        return self.columns, self.column_of, self.last_used

    def add(self, rows, gram, X, now):
        """Compute and keep the columns of ``rows`` (at most :attr:`batch`) in the
        free or least recently used slots, stamped as used at example ``now``."""
        slots = np.argpartition(self.last_used, len(rows) - 1)[:len(rows)] \
            if len(rows) < len(self.columns) else np.arange(len(rows))
        evicted = self._row_in[slots]
        self.column_of[evicted[evicted >= 0]] = -1
        self.columns[slots] = gram(X, X[rows]).T
        self._row_in[slots], self.column_of[rows], self.last_used[slots] = rows, slots, now


@dataclass
class DualState(RuleState):
    """One problem in dual form: ``f(x) = Σᵢ dualᵢ K(svᵢ, x) + b``, and every mistake
    in order (for the vote and the average of Freund & Schapire).

    During a ``fit``/``partial_fit`` call it also keeps ``f`` on the rows of that
    call's ``X`` and a :class:`ColumnCache` of their kernel columns
    (:meth:`begin_call`); :meth:`end_call` drops them.
    """

    support: object = None                          # ndarray or CSR, None before any
    dual: list = field(default_factory=list)        # αᵢ yᵢ per support vector
    sequence: list = field(default_factory=list)    # support slot of each mistake
    steps: list = field(default_factory=list)       # sw y of each mistake
    positions: list = field(default_factory=list)   # example number of each mistake
    # the current call's rows
    _X: object = None
    _f: np.ndarray = None
    _slot_of_row: np.ndarray = None                 # row of X -> support slot, or -1
    _pending: list = field(default_factory=list)    # rows of X new in the support
    _cache: ColumnCache = None

    FIELDS = ("support", "dual", "sequence", "steps", "positions")

    cannot_mix = ("its dual form keeps support vectors of every shard and has no weight "
                  "vector to mix; use Perceptron or AveragedPerceptron on explicit features "
                  "(e.g. rosenblatt.preprocessing.degree2_products)")

    def begin_call(self, X, intercept, gram):
        """``f`` on the rows of ``X``, computed once per call."""
        if self._X is not X:
            self._X, self._f = X, self.decision(X, intercept, gram)
            self._slot_of_row = np.full(X.shape[0], -1, dtype=np.int64)
            self._cache = None
        return self._f

    def is_finite(self, problem):
        return bool(np.isfinite(problem.intercept).all() and np.isfinite(self.dual).all()
                    and (self._f is None or np.isfinite(self._f).all()))

    def end_call(self):
        self._X = self._f = self._slot_of_row = self._cache = None

    def column_cache(self, cache_bytes):
        """The current call's :class:`ColumnCache` (made on first use)."""
        if self._cache is None:
            self._cache = ColumnCache(self._X.shape[0], cache_bytes)
        return self._cache

    def add_mistakes(self, rows, steps, positions):
        """Record an epoch's mistakes, in order: each row of the current ``X`` gets a
        support slot on its first mistake, and its slot gains the step."""
        new = rows[self._slot_of_row[rows] < 0]
        if len(new):
            firsts, where = np.unique(new, return_index=True)
            firsts = firsts[np.argsort(where)]  # in the order of their first mistake
            stored = 0 if self.support is None else self.support.shape[0]
            self._slot_of_row[firsts] = stored + len(self._pending) + np.arange(len(firsts))
            self._pending.extend(firsts.tolist())
            self.dual.extend([0.0] * len(firsts))
        slots = self._slot_of_row[rows]
        dual = np.asarray(self.dual)
        np.add.at(dual, slots, steps)  # one step after another, as the mistakes came
        self.dual = dual.tolist()
        self.sequence.extend(slots.tolist())
        self.steps.extend(steps.tolist())
        self.positions.extend(positions.tolist())

    def keep_new_support(self):
        """Copy the epoch's new support vectors out of ``X`` (so they outlive the call)."""
        if self._pending:
            new = self._X[np.array(self._pending, dtype=np.intp)]
            if self.support is None:
                self.support = new.copy()
            elif sp.issparse(new):
                self.support = sp.csr_matrix(sp.vstack([self.support, new]))
            else:
                self.support = np.vstack([self.support, new])
            self._pending = []

    def decision(self, X, intercept, gram):
        """``f(x)`` of the final function, by row blocks."""
        out = np.full(X.shape[0], intercept)
        if self.support is None:
            return out
        block = max(1, _BLOCK_CELLS // self.support.shape[0])
        for start in range(0, X.shape[0], block):
            rows = slice(start, start + block)
            out[rows] += gram(X[rows], self.support) @ np.asarray(self.dual)
        return out

    def voted_decision(self, X, gram, seen, fit_intercept, voting):
        """Vote (``"vote"``) or average (``"average"``) over the functions ``f_k``
        after each mistake, weighted by their survival counts."""
        steps = np.asarray(self.steps)
        sequence = np.asarray(self.sequence, dtype=np.intp)
        counts = survival_counts(np.asarray(self.positions, dtype=np.int64), seen)
        out = np.zeros(X.shape[0])
        block = max(1, _BLOCK_CELLS // (len(sequence) + 1))
        for start in range(0, X.shape[0], block):
            rows = slice(start, min(start + block, X.shape[0]))
            n_rows = rows.stop - rows.start
            if len(sequence):
                increments = (gram(X[rows], self.support)[:, sequence]
                              + float(fit_intercept)) * steps
            else:
                increments = np.zeros((n_rows, 0))
            functions = np.cumsum(np.hstack([np.zeros((n_rows, 1)), increments]), axis=1)
            if voting == "vote":
                out[rows] = np.where(functions > 0, 1.0, -1.0) @ counts
            else:
                out[rows] = functions @ counts / max(seen, 1)
        return out


@dataclass
class BudgetState(DualState):
    """A :class:`DualState` that never holds more than ``budget`` support vectors.

    A mistake on a new example when the support is full first removes one
    support vector — a uniformly random one (the randomized budget perceptron of
    Cavallanti, Cesa-Bianchi & Gentile 2007) or the oldest — and its term
    ``dualⱼ K(svⱼ, ·)`` from ``f``; the bias keeps its steps. The new example
    takes the freed slot. Mistakes are not logged one by one (that is what
    would grow with the stream), so the vote and the average are not available.
    """

    budget: int = 1
    policy: str = "random"
    rng: object = None
    rows: list = field(default_factory=list)          # each support vector, a 1-row matrix
    born: list = field(default_factory=list)          # example number that filled each slot
    _slot_of: dict = field(default_factory=dict)      # row of the current X -> slot
    _row_in_slot: dict = field(default_factory=dict)  # slot -> row of the current X
    _columns: dict = field(default_factory=dict)      # row of X -> K(X, x_row)
    _cached_bytes: int = 0
    _gram: object = None

    def begin_call(self, X, intercept, gram):
        if self._X is not X:
            self._slot_of, self._row_in_slot, self._columns, self._cached_bytes = {}, {}, {}, 0
        self._gram = gram
        return super().begin_call(X, intercept, gram)

    def column(self, i, gram, cache_bytes):
        """``K(X, x_i)``, kept while ``cache_bytes`` allows: on data that are not
        separable the same rows are mistaken epoch after epoch."""
        column = self._columns.get(i)
        if column is None:
            column = gram(self._X, self._X[i:i + 1]).ravel()
            if self._cached_bytes + column.nbytes <= cache_bytes:
                self._columns[i] = column
                self._cached_bytes += column.nbytes
        return column

    def add_mistake(self, row, step, position):
        """A mistake on ``row`` of the current ``X``: its slot gains ``step``; a new
        example takes a free slot, or one freed by :meth:`_evict`."""
        if row in self._slot_of:
            self.dual[self._slot_of[row]] += step
            return
        vector = self._X[row:row + 1].copy()
        if len(self.rows) < self.budget:
            slot = len(self.rows)
            self.rows.append(vector)
            self.dual.append(step)
            self.born.append(position)
        else:
            slot = self._evict()
            self.rows[slot], self.dual[slot], self.born[slot] = vector, step, position
        self._slot_of[row] = slot
        self._row_in_slot[slot] = row

    def _evict(self):
        """Remove one support vector and its term from ``f``; returns its slot."""
        if self.policy == "oldest":
            slot = int(np.argmin(self.born))
        elif isinstance(self.rng, np.random.Generator):
            slot = int(self.rng.integers(self.budget))
        else:
            slot = int(self.rng.randint(self.budget))
        row = self._row_in_slot.pop(slot, None)
        # a support vector from this call's rows had its column computed at its mistake
        column = self._columns.get(row)
        if column is None:
            column = self._gram(self._X, self.rows[slot]).ravel()
        self._f -= self.dual[slot] * column
        self._slot_of.pop(row, None)
        return slot

    def keep_new_support(self):
        if self.rows:
            if sp.issparse(self.rows[0]):
                self.support = sp.csr_matrix(sp.vstack(self.rows))
            else:
                self.support = np.vstack(self.rows)

    def end_call(self):
        super().end_call()
        self._slot_of, self._row_in_slot, self._columns, self._cached_bytes = {}, {}, {}, 0
        self._gram = None


#: The kernels known by name.
KERNELS = ("linear", "poly", "rbf")


def _check_kernel(kernel):
    """Refuse a kernel that is neither a known name nor a callable, saying which
    names there are and the nearest one ('rbff' used to reach scikit-learn's
    ``pairwise_kernels``, whose message names its own ``metric`` and kernels
    this model does not offer)."""
    if callable(kernel) or (isinstance(kernel, str) and kernel in KERNELS):
        return
    near = difflib.get_close_matches(str(kernel).lower(), KERNELS, n=1, cutoff=0.7)
    hint = f" Did you mean kernel={near[0]!r}?" if near else ""
    raise InvalidParameterError(  # a ValueError, and what scikit-learn's checks expect
        f"The 'kernel' parameter of KernelPerceptron must be one of "
        f"{', '.join(map(repr, KERNELS))} or a callable K(A, B) that returns the Gram "
        f"matrix; got {kernel!r}.{hint}"
    )


class KernelLearner(ToleranceStop, Learner):
    """The perceptron rule in dual form: mistakes kept as support vectors."""

    _reads_fitted = ("n_features_in_",)  # the width of an empty support

    def _gram(self, A, B):
        """Gram matrix ``K(A, B)`` (len(A), len(B)) as a dense float64 array."""
        _check_kernel(self.kernel)  # set_params or skip_parameter_validation may pass one
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

    # ------------------------------------------------------------------ training

    def _start_problems(self, X, rngs, previous):
        if previous is not None:  # keep the dual functions, start a new run
            for problem in previous:
                problem.n_iter = problem.n_updates = 0
                problem.converged = problem.stopped_early = False
            return previous
        self._check_budget()
        return [Problem(coef=np.zeros(0), intercept=np.zeros(1), rng=rng, classes=classes,
                        state=self._new_state(rng))
                for rng, classes in zip(rngs, self._problem_classes())]

    def _new_state(self, rng):
        if self.budget is None:
            return DualState()
        return BudgetState(budget=self.budget, policy=self.budget_policy, rng=rng)

    def _check_budget(self):
        if self.budget is not None and self.voting is not None:
            raise ValueError(
                f"voting={self.voting!r} needs every mistake, which a budget does not keep; "
                "use voting=None with budget, or budget=None to vote."
            )

    def _epoch(self, problem, data, order):
        """One pass of the perceptron rule on ``f``: a mistake on row ``i`` adds
        ``sw_i y_i (K(X, x_i) + 1)`` to ``f`` on every row (the 1 for the bias).

        The pass is compiled (:func:`~rosenblatt._kernels.dual_scan`) and stops
        only when a mistaken row's kernel column is not cached; the columns of that
        row and of the next rows in the order that the current ``f`` gets wrong are
        then computed together, in one matrix product."""
        dual = problem.state
        if isinstance(dual, BudgetState):
            return self._epoch_with_budget(problem, data, order)
        if len(order) == 0:  # natural order
            order = np.arange(data.n_rows)
        f = dual.begin_call(data.X, problem.intercept[0], self._gram)
        cache = dual.column_cache(self.cache_size * 2**20)
        log = (np.empty(len(order), dtype=np.intp), np.empty(len(order)),
               np.empty(len(order), dtype=np.int64))
        seen = int(problem.seen[0])
        counters = np.array([0, seen], dtype=np.int64)
        mistaken = np.empty(cache.batch, dtype=np.intp)
        position, loss = 0, 0.0
        while True:
            position, part = _kernels.dual_scan(
                order, position, data.y, data.sw, f, problem.intercept, cache.arrays(),
                self.fit_intercept, log, counters)
            loss += part
            if position == len(order):
                break
            # the row at `position` needs its column: find the mistakes the rule will
            # make on the rows ahead, and compute their missing columns in one product
            ahead = order[position:position + cache.batch]
            block = self._gram(data.X[ahead], data.X[ahead])
            n_ahead = _kernels.dual_dry_run(ahead, data.y, data.sw, f, block,
                                            self.fit_intercept, mistaken)
            rows = ahead[mistaken[:n_ahead]]
            cache.add(rows[cache.column_of[rows] < 0], self._gram, data.X, counters[1])
        n_mistakes = int(counters[0])
        dual.add_mistakes(*(column[:n_mistakes] for column in log))
        dual.keep_new_support()
        problem.seen[0] = counters[1]
        problem.epoch_loss = loss / max(int(counters[1]) - seen, 1)
        return n_mistakes

    def _epoch_with_budget(self, problem, data, order):
        """:meth:`_epoch` with a budget: a removal changes ``f`` between two
        mistakes, so the rule runs here one mistake at a time."""
        dual, y, sw = problem.state, data.y, data.sw
        if len(order) == 0:  # natural order
            order = np.arange(data.n_rows)
        f = dual.begin_call(data.X, problem.intercept[0], self._gram)
        active = sw[order] > 0
        position, n_mistakes, loss = 0, 0, 0.0
        seen = int(problem.seen[0])
        while position < len(order):
            rest = order[position:]
            wrong = active[position:] & (y[rest] * f[rest] <= 0)
            if not wrong.any():
                problem.seen[0] += int(active[position:].sum())
                break
            k = position + int(np.argmax(wrong))
            problem.seen[0] += int(active[position:k + 1].sum())
            i = order[k]
            loss -= y[i] * f[i]  # the perceptron loss max(0, −y f), met at a mistake only
            step = sw[i] * y[i]
            f += step * (dual.column(i, self._gram, self.cache_size * 2**20)
                         + float(self.fit_intercept))
            if self.fit_intercept:
                problem.intercept[0] += step
            dual.add_mistake(i, step, int(problem.seen[0]))
            n_mistakes += 1
            position = k + 1
        dual.keep_new_support()
        problem.epoch_loss = loss / max(int(problem.seen[0]) - seen, 1)
        return n_mistakes

    # --------------------------------------------------------------- prediction

    def _problem_decision(self, problem, X):
        if isinstance(problem.state, BudgetState):
            self._check_budget()
        if self.voting is None:
            return problem.state.decision(X, problem.intercept[0], self._gram)
        return problem.state.voted_decision(X, self._gram, int(problem.seen[0]),
                                            self.fit_intercept, self.voting)

    def _problem_errors(self, problem, X, y, sw):
        predicted = np.where(self._problem_decision(problem, X) > 0, 1.0, -1.0)
        return float(sw[predicted != y].sum())

    def publish(self, problems):
        for problem in problems:  # the training rows' caches are not needed any more
            problem.state.end_call()

        def per_problem(values):
            values = tuple(values)
            return values[0] if len(values) == 1 else values

        empty = np.zeros((0, self.n_features_in_))
        return {
            **super().publish(problems),
            "support_vectors_": per_problem(
                p.state.support if p.state.support is not None else empty for p in problems),
            "dual_coef_": per_problem(np.array(p.state.dual) for p in problems),
            "intercept_": np.array([p.intercept[0] for p in problems]),
        }


class KernelPerceptron(OnlineMixin, PerceptronClassifier):
    """Perceptron in dual form: a weighted sum of kernels on the examples it got wrong.

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
    adds one kernel column to it, in a compiled loop. Columns come from a cache;
    a missing one is computed together with those of the next mistakes the rule
    will make (found by a dry run over the rows ahead), in one matrix product:
    on MNIST (8,000 rows, polynomial kernels) 10 averaged epochs take less CPU
    time than ``SVC`` with the same kernel, at better test accuracy
    (``benchmarks/bench_kernel.py``).

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf"} or callable, default="rbf"
        ``"poly"`` is ``(gamma ⟨x, x'⟩ + coef0)^degree`` and ``"rbf"``
        ``exp(−gamma ‖x − x'‖²)`` (scikit-learn's kernels). A callable takes two
        matrices ``(A, B)`` and returns their Gram matrix (len(A), len(B)), as
        in scikit-learn's ``SVC``.
    degree : int, default=3
        Degree of the ``"poly"`` kernel.
    gamma : float or None, default=None
        Scale of ``"poly"`` and ``"rbf"``; ``None`` means ``1 / n_features``.
    coef0 : float, default=1.0
        Constant term of ``"poly"``.
    voting : {None, "vote", "average"}, default=None
        Predict with the final function, the vote, or the average.
    cache_size : float, default=200
        Megabytes of kernel columns ``K(X, xᵢ)`` kept during a ``fit`` or
        ``partial_fit`` call, as ``SVC`` does: a row mistaken again reuses its
        column; when full, the least recently used columns make room. Freed when
        the call ends. At least one column is always kept. The model does not
        depend on it (beyond the rounding of the matrix products).
    budget : int or None, default=None
        Most support vectors kept (per problem), whatever the length of the
        stream: a mistake on a new example when ``budget`` are stored first
        removes one, chosen by ``budget_policy``, and its term from ``f``.
        Memory is then O(budget); ``voting`` needs every mistake and is not
        available. ``None``: no bound.
    budget_policy : {"random", "oldest"}, default="random"
        Which support vector a full budget removes: a uniformly random one (the
        randomized budget perceptron of Cavallanti, Cesa-Bianchi & Gentile
        2007), or the one stored first.
    fit_intercept : bool, default=True
        Learn a bias ``b`` (updated as ``b += eta * y``, the same as a constant
        feature x₀ = 1 with its weight first). False: the boundary passes through 0.
    max_iter : int, default=100
        Largest number of epochs.
    tol : float or None, default=None
        ``None``: stop after the first epoch without a mistake. A number:
        scikit-learn's rule instead — stop once the epoch's mean perceptron loss
        ``max(0, −y f(x))`` (each example's taken when it is met) has not fallen
        below the best so far minus ``tol`` for ``n_iter_no_change`` epochs in a row.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch.
    random_state : None, int, RandomState or Generator, default=None
        Source of the permutations. A generator you pass is advanced in place,
        as in scikit-learn.
    class_weight : dict, "balanced" or None, default=None
        Multiplies the weight of each row by the weight of its class.
    warm_start : bool, default=False
        Start ``fit`` from the function of the previous fit instead of zero.
    early_stopping : bool, default=False
        Hold out a stratified ``validation_fraction`` of the rows and stop when
        their accuracy has not improved for ``n_iter_no_change`` epochs.
    validation_fraction : float, default=0.1
        Share of rows held out for early stopping.
    n_iter_no_change : int, default=5
        Epochs without improvement before stopping: of the held-out accuracy
        with ``early_stopping``, else of the training loss when ``tol`` is set.
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    support_vectors_ : ndarray or CSR matrix, or tuple of them per class
        The examples with at least one mistake, in order of their first.
    dual_coef_ : ndarray, or tuple per class
        ``αᵢ yᵢ`` of each support vector.
    intercept_ : ndarray of shape (1,) or (n_classes,)
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Mistakes (summed over the problems).
    converged_ : bool
        Whether a pass without mistakes was reached (by every problem).

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

    A ring, with at most 10 support vectors kept against 74 without a budget:

    >>> import numpy as np, warnings
    >>> rng = np.random.RandomState(0)
    >>> X = rng.randn(300, 2)
    >>> y = (X ** 2).sum(axis=1) > 1.4
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # a budget this small never makes a clean pass
    ...     models = [KernelPerceptron(budget=10, max_iter=10, random_state=seed).fit(X, y)
    ...               for seed in range(8)]
    >>> {model.support_vectors_.shape[0] for model in models}
    {10}

    The last weights depend on which vectors the random removals happened to keep:
    over these eight seeds the training accuracy ranges from 0.48 to 0.91.

    >>> scores = [model.score(X, y) for model in models]
    >>> round(min(scores), 2), round(max(scores), 2)
    (0.48, 0.91)
    """

    _PARAMETERS = ("kernel", "degree", "gamma", "coef0", "voting", "cache_size", "budget",
                   "budget_policy", "fit_intercept", "max_iter", "tol", "shuffle", "random_state",
                   "class_weight",
                   "warm_start", "early_stopping", "validation_fraction", "n_iter_no_change",
                   "n_jobs")
    _parameter_constraints = constraints(
        _PARAMETERS,
        kernel=[StrOptions({"linear", "poly", "rbf"}), callable],
        degree=[WholeNumber(1, None, closed="left")],
        # finite bounds: an infinite gamma or coef0 makes every kernel value inf or NaN
        gamma=[Interval(Real, 0, _LARGEST, closed="right"), None],
        coef0=[Interval(Real, -_LARGEST, _LARGEST, closed="both")],
        voting=[StrOptions({"vote", "average"}), None],
        cache_size=[Interval(Real, 0, None, closed="left")],
        budget=[WholeNumber(1, None, closed="left"), None],
        budget_policy=[StrOptions({"random", "oldest"})],
    )

    def __init__(
        self,
        *,
        kernel="rbf",
        degree=3,
        gamma=None,
        coef0=1.0,
        voting=None,
        cache_size=200,
        budget=None,
        budget_policy="random",
        fit_intercept=True,
        max_iter=100,
        tol=None,
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
        self.budget = budget
        self.budget_policy = budget_policy
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.shuffle = shuffle
        self.random_state = random_state
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.n_jobs = n_jobs

    def _validate_params(self):
        _check_kernel(self.kernel)  # first: a misspelt name gets a suggestion
        super()._validate_params()

    _learner_class = KernelLearner

    def decision_function(self, X):
        """``f(x)``, or the vote or the average.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) for two classes, else (n_samples, n_classes)
        """
        check_is_fitted(self)
        X = validate_X(self, X, reset=False)
        learner = self._learner()
        scores = np.column_stack([learner._problem_decision(p, X) for p in self._problems])
        check_scores(scores, X)
        return scores.ravel() if scores.shape[1] == 1 else scores

    # ---------------------------------------------------------------- model files

    def _prediction_state(self):
        state = {}
        for k, problem in enumerate(self._problems):
            dual = problem.state
            support = dual.support if dual.support is not None else \
                np.zeros((0, self.n_features_in_))
            state.update({
                f"problem{k}_support": support,
                f"problem{k}_dual": np.asarray(dual.dual, dtype=np.float64),
                f"problem{k}_sequence": np.asarray(dual.sequence, dtype=np.int64),
                f"problem{k}_steps": np.asarray(dual.steps, dtype=np.float64),
                f"problem{k}_positions": np.asarray(dual.positions, dtype=np.int64),
                f"problem{k}_seen": int(problem.seen[0]),
            })
        return state

    def _restore_prediction_state(self, state):
        self._problems = []
        for k, classes in enumerate(self._learner()._problem_classes()):
            support = state[f"problem{k}_support"]
            dual = DualState(
                support=support if support.shape[0] else None,
                dual=[float(v) for v in state[f"problem{k}_dual"]],
                sequence=[int(i) for i in state[f"problem{k}_sequence"]],
                steps=[float(v) for v in state[f"problem{k}_steps"]],
                positions=[int(v) for v in state[f"problem{k}_positions"]],
            )
            if support.shape[1] != self.n_features_in_ or len(dual.dual) != \
                    support.shape[0] or (dual.sequence and max(dual.sequence) >= support.shape[0]):
                raise ValueError("the support vectors do not fit their coefficients")
            problem = Problem(coef=np.zeros(0), intercept=np.array([self.intercept_[k]]),
                              rng=None, classes=classes, state=dual)
            problem.seen[0] = state[f"problem{k}_seen"]
            self._problems.append(problem)
