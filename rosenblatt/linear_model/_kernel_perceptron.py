"""The kernel perceptron: the perceptron in dual form (Freund & Schapire 1999)."""

import difflib
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from sklearn.metrics.pairwise import pairwise_kernels
from sklearn.utils._param_validation import InvalidParameterError, StrOptions
from sklearn.utils.validation import check_is_fitted

from .. import _kernels
from .._validation import check_scores, validate_X
from ..base import (
    Learner,
    MistakeStop,
    OnlineMixin,
    PerceptronClassifier,
    Problem,
    RuleState,
    constraints,
)
from ..base._file_form import (
    REBUILT,
    Count,
    Floats,
    Ints,
    Matrix,
    Number,
    Numbers,
    Optional,
    ProblemFields,
    RowsOf,
    close,
    same_values,
)
from ..base._parameters import RealNumber, WholeNumber
from ..base._registry import register
from ..base._separability import kernel_separable
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


def matching_rows(X, support):
    """For each row of ``X``, the first row of ``support`` with the same values
    (dense or CSR alike), or -1.

    >>> matching_rows(np.array([[1., 2], [0, 0], [1, 2]]), np.array([[0., 0], [1, 2]])).tolist()
    [1, 0, 1]
    """
    slots = np.full(X.shape[0], -1, dtype=np.int64)
    if support is None or support.shape[0] == 0:
        return slots
    first = {}
    for slot, key in enumerate(_row_keys(support)):
        first.setdefault(key, slot)
    for row, key in enumerate(_row_keys(X)):
        slots[row] = first.get(key, -1)
    return slots


def _row_keys(X):
    """Each row's values as a hashable key, the same for a dense row and its CSR twin."""
    if sp.issparse(X):
        X = sp.csr_matrix(X)
        X.sort_indices()
        for i in range(X.shape[0]):
            start, stop = X.indptr[i], X.indptr[i + 1]
            data = np.asarray(X.data[start:stop], dtype=np.float64)
            kept = data != 0
            yield (X.indices[start:stop][kept].astype(np.int64).tobytes(), data[kept].tobytes())
        return
    X = np.asarray(X, dtype=np.float64)
    for row in X:
        nonzero = np.flatnonzero(row)
        yield (nonzero.astype(np.int64).tobytes(), row[nonzero].tobytes())


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

    #: the logs of a training state (their invariants are checked on the prediction
    #: state, which the training state must then publish bit for bit)
    file_form = {"support": Optional(Matrix()), "dual": Numbers(RowsOf("support")),
                 "sequence": Numbers(whole=True, high=RowsOf("support", -1)),
                 "steps": Numbers(RowsOf("sequence")),
                 "positions": Numbers(RowsOf("sequence"), whole=True)}

    cannot_mix = ("its dual form keeps support vectors of every shard and has no weight "
                  "vector to mix; use Perceptron or AveragedPerceptron on explicit features "
                  "(e.g. rosenblatt.preprocessing.degree2_products)")

    def begin_call(self, X, intercept, gram):
        """``f`` on the rows of ``X``, computed once per call; a row equal to a
        support vector of an earlier call is that support vector (a resumed run
        or a stream meeting a row again adds to its coefficient: the same
        function, no second copy of the row)."""
        if self._X is not X:
            self._X, self._f = X, self.decision(X, intercept, gram)
            self._slot_of_row = matching_rows(X, self.support)
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
    Cavallanti, Cesa-Bianchi & Gentile 2007) or the oldest — and the new example
    takes its slot; the bias keeps its steps. Mistakes are not logged one by one
    (that is what would grow with the stream), so the vote and the average are
    not available.

    ``f`` is not kept on every row of the call, as the unbounded rule does: a
    removal would change it everywhere, one kernel column over the whole ``X``
    per mistake. The epoch scores a block of rows against the support (at most
    ``budget`` vectors) in one kernel product and rescores the rest of the block
    after each update (:meth:`KernelLearner._epoch_on_budget`).
    """

    budget: int = 1
    policy: str = "random"
    rng: object = None
    rows: list = field(default_factory=list,          # each support vector, a 1-row matrix
                       metadata=REBUILT)              # (in a file: the rows of support)
    born: list = field(default_factory=list)          # example number that filled each slot
    _slot_of: dict = field(default_factory=dict)      # row of the current X -> slot
    _gram: object = None
    _constant: float = 0.0      # 1.0 when the bias is in the kernel (K + 1), see below
    _eta: float = 0.0           # Projectron's η, from the parameters
    _stack: object = None       # the support as one matrix (dense: with room to grow)

    #: whether the bias is the weight of a constant feature, moved with the
    #: coefficients (:class:`BudgetRuleState`), or a sum of steps of its own
    bias_in_kernel = False

    #: an example number per support vector: the oldest is removed by it
    file_form = {"born": Numbers(RowsOf("support"), whole=True)}

    def check_file(self, file, where):
        """The budget is the estimator's, and the support within it: a state of
        another budget would keep its own number of support vectors."""
        budget = getattr(file.model, "budget", None)
        if self.budget != budget:
            file.fail(f"{where}.budget", f"is {self.budget!r}, but the model's parameter "
                                         f"budget is {budget!r}")
        if len(self.dual) > self.budget:
            file.fail(f"{where}.support", f"holds {len(self.dual)} support vectors, over the "
                                          f"budget of {self.budget}")

    def loaded(self):
        self.rows = [] if self.support is None else \
            [self.support[i:i + 1].copy() for i in range(self.support.shape[0])]

    def begin_call(self, X, constant, gram, eta=0.0):
        """Start (or go on with) a call on ``X``; ``f`` is not kept per row."""
        if self._X is not X:
            self._X, self._slot_of = X, {}
            self._stack = None
        self._constant, self._gram, self._eta = constant, gram, eta

    def kernel(self, A, B):
        """``K(A, B) + 1`` with the bias in the kernel, else ``K(A, B)``."""
        gram = self._gram(A, B)
        return gram + self._constant if self._constant else gram

    def support_matrix(self):
        """The support vectors as one matrix, slot by slot (kept for the call: a
        dense one with room to grow, a sparse one stacked again after a change)."""
        n = len(self.rows)
        if sp.issparse(self.rows[0]):
            if self._stack is None:
                self._stack = sp.csr_matrix(sp.vstack(self.rows))
            return self._stack
        if self._stack is None or self._stack.shape[0] < n:
            room = np.empty((min(self.budget, max(2 * n, 16)), self.rows[0].shape[1]),
                            dtype=self.rows[0].dtype)
            room[:n] = np.vstack(self.rows)
            self._stack = room
        return self._stack[:n]

    def put(self, slot, row, dual, born):
        """Row ``row`` of the call's ``X`` into ``slot`` (a new one at the end, or one
        freed), with its coefficient and example number."""
        vector = self._X[row:row + 1].copy()
        if slot == len(self.rows):
            self.rows.append(vector)
            self.dual.append(dual)
            self.born.append(born)
        else:
            self.rows[slot], self.dual[slot], self.born[slot] = vector, dual, born
        if isinstance(self._stack, np.ndarray) and slot < self._stack.shape[0] and \
                not sp.issparse(vector):
            self._stack[slot] = vector[0]
        else:
            self._stack = None
        self._slot_of = {r: s for r, s in self._slot_of.items() if s != slot}
        self._slot_of[row] = slot

    def mistake(self, row, step, scores, position):
        """A mistake on ``row`` of the call's ``X``: a support vector's slot gains
        ``step``; a new example takes a free slot, or one :meth:`_evict` frees.
        Returns the slot whose vector changed, or ``None``."""
        slot = self._slot_of.get(row)
        if slot is not None:
            self.dual[slot] += step
            return None
        slot = len(self.dual) if len(self.dual) < self.budget else self._evict()
        self.put(slot, row, step, position)
        return slot

    def _evict(self):
        """The slot of the support vector to remove."""
        if self.policy == "oldest":
            return int(np.argmin(self.born))
        if isinstance(self.rng, np.random.Generator):
            return int(self.rng.integers(self.budget))
        return int(self.rng.randint(self.budget))

    def keep_new_support(self):
        if self.rows:
            if sp.issparse(self.rows[0]):
                self.support = sp.csr_matrix(sp.vstack(self.rows))
            else:
                self.support = np.vstack(self.rows)

    def end_call(self):
        super().end_call()
        self._slot_of, self._gram, self._stack = {}, None, None


#: Rows scored against the support in one kernel product by the budget epoch.
_SUPPORT_BLOCK = 256


@dataclass
class BudgetRuleState(BudgetState):
    """A :class:`BudgetState` whose rule may move every coefficient at an update
    (the Forgetron shrinks them all, Projectron++ adds a projection to them).

    The bias is the weight of a constant feature: the rule runs on the kernel
    ``K(x, x') + 1`` when ``fit_intercept`` is true, so ``b = Σ dualᵢ`` moves
    with the coefficients (shrunk, projected, removed with them).
    """

    bias_in_kernel = True


@dataclass
class ForgetronState(BudgetRuleState):
    """The self-tuned Forgetron (Dekel, Shalev-Shwartz & Singer 2008): every
    mistake adds its example; over the budget, every coefficient is shrunk by
    ``φ`` and the oldest example removed. ``φ`` is the largest value in (0, 1]
    that keeps the damage of the removals, ``Q``, within 15/32 of the mistakes
    ``M`` (:meth:`shrink_factor`).
    """

    mistakes: int = 0       # M, the mistakes so far
    damage: float = 0.0     # Q, Σ Ψ(σ_r, μ) over the removals so far

    #: the share of the mistakes the removals may damage (the paper's 15/32)
    SHARE = 15 / 32

    file_form = {"mistakes": Count(), "damage": Number(kinds=float)}

    def check_file(self, file, where):
        """The damage ``Q`` at most 15/32 M: the shrinking factor exists only then.
        ``Q`` may be negative: removing a term whose example has a margin ``μ`` over
        ``1 + σ/2`` costs ``Ψ(σ, μ) < 0`` (large row weights make that common)."""
        super().check_file(file, where)
        if not self.damage <= self.SHARE * self.mistakes * (1 + 1e-9):
            file.fail(f"{where}.damage", f"is {self.damage!r}, over 15/32 × "
                                         f"{self.mistakes} mistakes")

    @staticmethod
    def psi(lam, mu):
        """``Ψ(λ, μ) = λ² + 2λ − 2λμ``, the damage of removing a term of coefficient
        ``λ`` on whose example the function has margin ``μ``."""
        return lam * lam + 2 * lam - 2 * lam * mu

    @classmethod
    def shrink_factor(cls, sigma, margin, damage, mistakes):
        """The self-tuned ``φ_t = max{φ ∈ (0, 1] : Ψ(φσ, φμ') + Q ≤ 15/32 M}``, with
        ``σ`` the oldest term's coefficient, ``μ' = y_r f'(x_r)`` the margin of the
        function after the perceptron step on its example, ``Q`` the damage so far
        and ``M`` the mistakes, this one included.

        ``Ψ(φσ, φμ') + Q − 15/32 M`` is ``aφ² + bφ + c`` with ``a = σ² − 2σμ'``,
        ``b = 2σ`` and ``c = Q − 15/32 M < 0``: ``φ = 1`` if it is ≤ 0 at 1, else
        its one root in (0, 1), ``−2c / (b + √(b² − 4ac))``.
        """
        a, b, c = sigma * sigma - 2 * sigma * margin, 2 * sigma, damage - cls.SHARE * mistakes
        if a + b + c <= 0:
            return 1.0
        return -2 * c / (b + np.sqrt(max(b * b - 4 * a * c, 0.0)))

    def mistake(self, row, step, scores, position):
        """The Forgetron's update at a mistake on ``row`` of the call's ``X``: ``step``
        is ``sw y``, ``scores`` the kernel between the row and the support.
        Returns the slot the example now holds."""
        self.mistakes += 1
        if len(self.dual) < self.budget:
            slot = len(self.dual)
            self.put(slot, row, step, position)
            return slot
        oldest = int(np.argmin(self.born))
        dual = np.asarray(self.dual)
        # f'(x_r) = f(x_r) + sw y K(x, x_r): the function after the perceptron step
        on_oldest = float(self.kernel(self.support_matrix(), self.rows[oldest]).ravel() @ dual
                          + step * scores[oldest])
        sigma, label = abs(dual[oldest]), np.sign(dual[oldest])
        phi = self.shrink_factor(sigma, label * on_oldest, self.damage, self.mistakes)
        # Q_t = Q_{t−1} + Ψ(σ_{r,t+1}, μ_t): the removed term's shrunk coefficient φσ
        # and the margin μ_t = y_r f''(x_r) = φ μ' of the shrunk function on its example
        self.damage += self.psi(phi * sigma, phi * label * on_oldest)
        self.dual = (phi * dual).tolist()
        self.put(oldest, row, phi * step, position)
        return oldest


#: ``δ² ≤ _IN_SPAN K(x, x)`` is rounding: Projectron++ takes the vector as in the span
_IN_SPAN = 1e-10


@dataclass
class ProjectronState(BudgetRuleState):
    """Projectron++ (Orabona, Keshet & Caputo 2009): a mistake whose example lies
    within ``η`` of the span of the support (or any mistake, once the budget is
    full) updates the coefficients by the projection of ``K(x, ·)`` instead of
    adding the example; a margin error updates them by a step along that
    projection. Keeps ``K⁻¹``, the inverse of the support's Gram matrix, for
    the call (computed from the support at its start, then updated as vectors
    are added)."""

    _inverse: np.ndarray = None   # K⁻¹ in its top-left corner, with room to grow

    def begin_call(self, X, constant, gram, eta=0.0):
        if self._X is not X or self._constant != constant:
            self._inverse = None
        super().begin_call(X, constant, gram, eta)

    def inverse(self):
        """``K⁻¹`` of the current support (the rule's kernel)."""
        n = len(self.dual)
        if self._inverse is None:
            room = np.zeros((min(self.budget, max(2 * n, 16)),) * 2)
            if n:
                gram = self.kernel(self.support_matrix(), self.support_matrix())
                try:
                    room[:n, :n] = np.linalg.inv(gram)
                except np.linalg.LinAlgError as error:
                    raise ValueError(
                        f"Projectron++ cannot go on: the Gram matrix of its {n} support "
                        f"vectors is singular ({error}), so a vector is in the span of the "
                        "others. Fit again (with projectron_eta > 0 to keep it well "
                        "conditioned) rather than going on from this state."
                    ) from error
            self._inverse = room
        return self._inverse[:n, :n]

    def projection(self, row, scores):
        """``(d, δ, ‖Pk‖²)`` of row ``row``: the coefficients of the projection of
        ``k = K(x, ·)`` on the span of the support (``d = K⁻¹ k``), the distance
        ``δ = ‖Pk − k‖`` (``δ² = K(x, x) − kᵀd``) and ``‖Pk‖² = kᵀd``. A row of the
        call that is itself a support vector is its own projection (δ = 0)."""
        slot = self._slot_of.get(row)
        if slot is not None:
            d = np.zeros(len(self.dual))
            d[slot] = 1.0
            return d, 0.0, float(scores[slot])
        d = self.inverse() @ scores
        norm = float(scores @ d)
        x = self._X[row:row + 1]
        own = float(self.kernel(x, x)[0, 0])
        delta2 = own - norm
        if delta2 <= _IN_SPAN * own:
            # K(x, x) − kᵀd cancels: a vector in the span comes out at the rounding's
            # size, and adding it would make K⁻¹ hold 1/δ² ≈ 1e16 (with η = 0 its Gram
            # matrix turned singular, refused by the next call)
            delta2 = 0.0
        return d, np.sqrt(delta2), norm

    def mistake(self, row, step, scores, position):
        """Projectron's update at a mistake: ``f += sw y Pk`` when ``δ ≤ η`` or the
        budget is full, else the example is added (``K⁻¹`` grows by one).
        Returns the slot added, or ``None``."""
        d, delta, _ = self.projection(row, scores)
        n = len(self.dual)
        if delta <= self._eta or n == self.budget:
            self.dual = (np.asarray(self.dual) + step * d).tolist()
            return None
        inverse = self.inverse()
        if n + 1 > self._inverse.shape[0]:
            room = np.zeros((min(self.budget, 2 * (n + 1)),) * 2)
            room[:n, :n] = inverse
            self._inverse = room
        # K⁻¹ of the support with x: [[K⁻¹, 0], [0, 0]] + (d; −1)(d; −1)ᵀ / δ²
        grown = np.append(d, -1.0)
        self._inverse[:n + 1, :n + 1] += np.outer(grown, grown) / (delta * delta)
        self.put(n, row, step, position)
        return n

    def margin_error(self, row, step, margin, scores):
        """Projectron++'s update at a margin error ``0 < y f(x) < 1``: with the hinge
        loss ``ℓ = 1 − y f(x)``, if ``ℓ − δ/η > 0``, ``f += τ sw y Pk`` with
        ``τ = min(ℓ/‖Pk‖², 2(ℓ − δ/η)/‖Pk‖², 1)``. Returns whether it updated."""
        if not self.dual:
            return False
        eta, loss = self._eta, 1.0 - margin
        d, delta, norm = self.projection(row, scores)
        if not (eta * loss > delta and norm > 0):  # ℓ − δ/η > 0, without dividing by η
            return False
        tau = min(loss / norm, 2 * (loss - delta / eta) / norm, 1.0)
        self.dual = (np.asarray(self.dual) + tau * step * d).tolist()
        return True

    def end_call(self):
        super().end_call()
        self._inverse = None


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


class KernelLearner(MistakeStop, Learner):
    """The perceptron rule in dual form: mistakes kept as support vectors."""

    _reads_fitted = ("n_features_in_",)  # the width of an empty support
    published_form = {"intercept_": Floats("problems").needed()}

    # f is kept on every row and moved by a kernel column at each mistake: a file is
    # read whole (its blocks stacked), so that its epoch is the in-memory one
    _needs_every_row = True

    def _gram(self, A, B):
        """Gram matrix ``K(A, B)`` (len(A), len(B)) as a dense float64 array."""
        _check_kernel(self.kernel)  # set_params or skip_parameter_validation may pass one
        if callable(self.kernel):
            gram = self.kernel(A, B)
            gram = np.asarray(gram.toarray() if sp.issparse(gram) else gram)
            if gram.dtype.kind not in "biuf":
                raise ValueError(
                    f"kernel(A, B) must return the Gram matrix as real numbers (int or "
                    f"float); got an array of dtype {gram.dtype}. Return a float array, "
                    "e.g. np.real(K) if every imaginary part is 0."
                )
            gram = gram.astype(np.float64, copy=False)
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
            fresh = Problem(coef=np.zeros(0), intercept=np.zeros(1), rng=None, classes=None)
            for problem in previous:
                for name in ("n_iter", "n_updates", "converged", "stopped_early", "stop_reason",
                             "fewest_mistakes", "n_no_improvement", "certified", "separable"):
                    setattr(problem, name, getattr(fresh, name))
            return previous
        self._check_budget()
        return [Problem(coef=np.zeros(0), intercept=np.zeros(1), rng=rng, classes=classes,
                        state=self._new_state(rng))
                for rng, classes in zip(rngs, self._problem_classes())]

    def _new_state(self, rng):
        if self.budget is None:
            return DualState()
        state = {"forgetron": ForgetronState,
                 "projectron++": ProjectronState}.get(self.budget_policy, BudgetState)
        return state(budget=self.budget, policy=self.budget_policy, rng=rng)

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
            return self._epoch_on_budget(problem, data, order)
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

    def _epoch_on_budget(self, problem, data, order):
        """:meth:`_epoch` with a budget, whose updates may remove a support vector
        (and, for the Forgetron and Projectron++, move every coefficient): ``f`` is
        not kept on every row; each block of rows is scored against the support in
        one kernel product, and the rows after an update again. Returns the
        updates: the mistakes, and Projectron++'s margin errors that moved ``f``."""
        state, X, y, sw = problem.state, data.X, data.y, data.sw
        if len(order) == 0:  # natural order
            order = np.arange(data.n_rows)
        order = order[sw[order] > 0]  # a row of weight 0 is no example
        in_kernel = state.bias_in_kernel
        state.begin_call(X, float(self.fit_intercept and in_kernel), self._gram,
                         self.projectron_eta)
        aggressive = isinstance(state, ProjectronState)  # margin errors update too
        seen, n_updates, loss = int(problem.seen[0]), 0, 0.0
        for start in range(0, len(order), _SUPPORT_BLOCK):
            rows = order[start:start + _SUPPORT_BLOCK]
            n = len(state.dual)
            # room for a new support vector per row
            scores = np.empty((len(rows), min(state.budget, n + len(rows))))
            scores[:, :n] = state.kernel(X[rows], state.support_matrix()) if n else 0.0
            bias = 0.0 if in_kernel else problem.intercept[0]
            f = scores[:, :n] @ np.asarray(state.dual, dtype=np.float64) + bias
            k = 0
            while k < len(rows):
                margins = y[rows[k:]] * f[k:]
                hit = margins < 1 if aggressive else margins <= 0
                if not hit.any():
                    break
                k += int(np.argmax(hit))
                i, margin, n = rows[k], y[rows[k]] * f[k], len(state.dual)
                step = sw[i] * y[i]
                if margin <= 0:  # a mistake
                    loss -= margin  # the perceptron loss max(0, −y f), met at a mistake only
                    slot = state.mistake(i, step, scores[k, :n], seen + start + k + 1)
                    updated = True
                    if self.fit_intercept and not in_kernel:
                        problem.intercept[0] += step
                else:  # Projectron++'s margin error
                    slot, updated = None, state.margin_error(i, step, margin, scores[k, :n])
                n_updates += updated
                rest = rows[k + 1:]
                if slot is not None and len(rest):
                    scores[k + 1:, slot] = state.kernel(X[rest], X[i:i + 1]).ravel()
                if updated and len(rest):
                    bias = 0.0 if in_kernel else problem.intercept[0]
                    f[k + 1:] = scores[k + 1:, :len(state.dual)] @ np.asarray(state.dual) + bias
                k += 1
        problem.seen[0] = seen + len(order)
        if in_kernel:
            problem.intercept[0] = float(self.fit_intercept) * float(np.sum(state.dual))
        state.keep_new_support()
        problem.epoch_loss = loss / max(len(order), 1)
        return n_updates

    # --------------------------------------------------------------- prediction

    def _problem_decision(self, problem, X):
        if isinstance(problem.state, BudgetState):
            self._check_budget()
        if self.voting is None:
            return problem.state.decision(X, problem.intercept[0], self._gram)
        return problem.state.voted_decision(X, self._gram, int(problem.seen[0]),
                                            self.fit_intercept, self.voting)

    def _separable_data_converge(self, problem):
        # a budget forgets support vectors: no mistake bound holds
        return self.budget is None

    def _confirms_on_weights(self, problem):
        return self.voting is not None  # the vote separates some epochs after f

    def _certificate_size(self, problem, n_rows, n_values):
        return n_rows * n_rows  # the Gram matrix of the rows

    def _separable(self, problem, X, y, sw):
        """Whether the rows are separable in the kernel's feature space (with the
        intercept as a constant feature): the dual program on their Gram matrix."""
        X, y = X[sw > 0], y[sw > 0]
        return kernel_separable(self._gram(X, X) + float(self.fit_intercept), y)

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


# ------------------------------------------------------------------ model files

#: what a model file holds of each problem's dual form (``state:problem<k>_<field>``),
#: read in this order (a size may name an earlier field)
DUAL_FILE_FORM = {
    "support": Matrix(),
    "dual": Floats(RowsOf("support")),                       # one per support vector
    "sequence": Ints(None, 0, RowsOf("support", -1)),        # a support vector per mistake
    "steps": Floats(RowsOf("sequence")),                     # one per mistake
    "seen": Count(),
    "positions": Ints(RowsOf("sequence"), 1, "seen"),        # example numbers, <= seen
}


def _check_dual_file(file, k, values, where):
    """The mistakes in the order of the examples; with a log of them (the vote, the
    average), every support vector made by a mistake, numbered in the order of the
    first ones, its coefficient the sum of its mistakes' steps."""
    support, dual, sequence = values["support"], values["dual"], values["sequence"]
    steps, positions = values["steps"], values["positions"]
    s, m = support.shape[0], len(sequence)
    if m and np.any(positions[1:] < positions[:-1]):
        file.fail(where + "positions", "is not in the order of the examples (the example "
                                       "number of each mistake, non-decreasing)")
    if not m and file.model.voting is None:
        return
    if m and (sequence[0] != 0 or np.any(
            sequence[1:] > np.maximum.accumulate(sequence)[:-1] + 1)):
        file.fail(where + "sequence", "does not number the support vectors in the order of "
                                      "their first mistake")
    made = np.bincount(sequence, minlength=s) if m else np.zeros(s, dtype=np.int64)
    if np.any(made == 0):
        file.fail(where + "support", f"holds {s} support vectors, of which "
                                     f"{int(np.sum(made == 0))} had no mistake in "
                                     f"{where}sequence")
    if not close(np.bincount(sequence, weights=steps, minlength=s) if m else np.zeros(s),
                 dual):
        file.fail(where + "dual", f"is not the sum of the steps of each support vector's "
                                  f"mistakes ({where}steps)")


def _check_published_dual(file, problems):
    """``support_vectors_`` and ``dual_coef_`` are the state, as fit publishes them."""
    for name, key in (("support_vectors_", "support"), ("dual_coef_", "dual")):
        values = [problem[key] for problem in problems]
        stored = getattr(file.model, name, None)
        if stored is None:
            file.fail(name, "is missing; it is what the model's state publishes")
        if not same_values(stored, values[0] if len(values) == 1 else tuple(values)):
            file.fail(name, f"differs from the model's state (state:problem<k>_{key}), "
                            "which prediction uses")


@register("kernel", "kernel")
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
    (``benchmarks/bench_kernel.py``). With a budget, an update may remove a
    support vector (and the Forgetron and Projectron++ move every coefficient):
    blocks of rows are scored against the at most ``budget`` support vectors
    instead, ``n × budget`` kernel values an epoch.

    Probabilities: none; its scores are margins in the kernel's feature space,
    which model no probability. For probabilities, calibrate its scores with
    :class:`sklearn.calibration.CalibratedClassifierCV`.

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
        stream; ``budget_policy`` says how a full budget makes room, or does
        without. Memory is then O(budget) (Projectron++: O(budget²) during a
        call, for ``K⁻¹``); ``voting`` needs every mistake and is not available.
        ``None``: no bound.
    budget_policy : {"random", "oldest", "forgetron", "projectron++"}, default="random"
        What a full budget does (examples are weighted by ``sw y``, ``sw`` the
        row's weight, where the papers add ``y``):

        - ``"random"``: a mistake on a new example first removes a uniformly
          random support vector and its term from ``f`` (the randomized budget
          perceptron of Cavallanti, Cesa-Bianchi & Gentile 2007);
        - ``"oldest"``: the same, removing the vector stored first;
        - ``"forgetron"``: the self-tuned Forgetron (Dekel, Shalev-Shwartz &
          Singer 2008). Every mistake adds its example as a new term (a row
          mistaken again too, as each round is in the paper) and counts in
          ``M``. Over the budget, with ``r`` the oldest term, ``σ`` the size of
          its coefficient and ``μ' = y_r f'(x_r)`` the margin on its example of
          ``f' = f + sw y K(x, ·)``, every coefficient is multiplied by
          ``φ = max{φ ∈ (0, 1] : Ψ(φσ, φμ') + Q ≤ 15/32 M}``, with
          ``Ψ(λ, μ) = λ² + 2λ − 2λμ`` and ``Q`` the damage of the removals so
          far; then ``Q += Ψ(φσ, φμ')`` and term ``r`` is removed. With
          ``a = σ² − 2σμ'``, ``b = 2σ``, ``c = Q − 15/32 M``: ``φ = 1`` if
          ``a + b + c ≤ 0``, else ``φ = −2c / (b + √(b² − 4ac))``, the one root
          in (0, 1);
        - ``"projectron++"``: Projectron++ (Orabona, Keshet & Caputo 2009). At
          a mistake, the projection ``Pk`` of ``k = K(x, ·)`` on the span of the
          support ``S`` has coefficients ``d = K_S⁻¹ k_S`` (``k_S = K(S, x)``)
          and lies at ``δ = ‖k − Pk‖``, ``δ² = K(x, x) − k_Sᵀd``: if
          ``δ ≤ projectron_eta`` the coefficients move by ``sw y d`` (no new
          support vector), else ``x`` is added and ``K_S⁻¹`` grows by one
          (``[[K⁻¹, 0], [0, 0]] + (d; −1)(d; −1)ᵀ/δ²``). At a margin error
          ``0 < y f(x) < 1``, with ``ℓ = 1 − y f(x)``, ``‖Pk‖² = k_Sᵀd`` and if
          ``ℓ − δ/η > 0``, they move by ``τ sw y d``,
          ``τ = min(ℓ/‖Pk‖², 2(ℓ − δ/η)/‖Pk‖², 1)``. The paper bounds the
          support through ``η`` alone; here, once it holds ``budget`` vectors,
          every mistake is projected, whatever ``δ``. ``K_S⁻¹`` is computed from
          the support at the start of each ``fit``/``partial_fit`` call.

        With ``"forgetron"`` and ``"projectron++"`` the bias is the weight of a
        constant feature: the rule runs on ``K(x, x') + 1``, so ``intercept_``
        is the sum of ``dual_coef_`` and is shrunk, removed and projected with
        them. With ``"random"`` and ``"oldest"`` it keeps the steps of the
        removed vectors. The policy is kept by the fitted model:
        ``set_params`` changes it for the next ``fit`` without ``warm_start``.
    projectron_eta : float, default=0.1
        Projectron's ``η >= 0`` (``budget_policy="projectron++"`` only): a
        mistake within distance ``η`` of the span of the support, in the
        kernel's feature space, updates the support's coefficients instead of
        adding a vector; a margin error updates them only if its loss exceeds
        ``δ/η``. Larger: fewer support vectors. A positive ``η`` also keeps the
        support's Gram matrix well conditioned; a ``δ²`` below ``1e-10 K(x, x)``
        is taken as 0 (rounding), whatever ``η``.
    fit_intercept : bool, default=True
        Learn a bias ``b`` (updated as ``b += eta * y``, the same as a constant
        feature x₀ = 1 with its weight first). False: the boundary passes through 0.
    max_iter : int, default=1000
        Largest number of epochs.
    tol : float or None, default=1e-3
        The stopping rule for data that do not reach a mistake-free epoch
        (:mod:`rosenblatt.base._stopping`): stop once the epoch's mistakes have not fallen
        below the fewest so far by ``tol × n_samples`` for ``n_iter_no_change`` epochs in a row
        (the program is on the Gram matrix, in the kernel's feature space; not with a
        ``budget``, which forgets), unless a linear program finds the rows separable (checked
        once, on data of up to 50,000 values), in which case the run goes on to the
        mistake-free epoch the convergence theorem promises. Mistakes, unlike the perceptron
        loss scikit-learn's ``tol`` watches, count an activation of exactly 0 and do not change
        when ``X`` is scaled. ``None``: no such rule (the texts), only ``stop_mistake_free``
        and ``max_iter``.
    stop_mistake_free : bool, default=True
        Stop after the first epoch without a mistake, whether or not ``tol`` is
        set. ``False``: go on to ``max_iter`` (or ``tol``'s stop), as Freund &
        Schapire's voted and averaged perceptrons (``T`` epochs) do: with
        ``voting``, the last function's count keeps growing.
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
        with ``early_stopping``, else of the epoch's training mistakes when ``tol`` is set.
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
        Mistakes (summed over the problems); with
        ``budget_policy="projectron++"``, and the margin errors that moved ``f``.
    converged_ : bool
        Whether the last epoch made no mistake (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.

    References
    ----------
    Aizerman, Braverman & Rozonoer (1964); Freund & Schapire, "Large margin
    classification using the perceptron algorithm", Machine Learning 37, 1999.
    Budgets: Cavallanti, Cesa-Bianchi & Gentile, "Tracking the best hyperplane
    with a simple budget Perceptron", Machine Learning 69, 2007; Dekel,
    Shalev-Shwartz & Singer, "The Forgetron: A kernel-based perceptron on a
    budget", SIAM J. Comput. 37(5), 2008; Orabona, Keshet & Caputo, "Bounded
    kernel-based online learning", JMLR 10, 2009.

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
    over these eight seeds the training accuracy ranges from 0.48 to 0.92 (most
    runs end when their mistakes stop falling, ``tol``, before ``max_iter``).

    >>> scores = [model.score(X, y) for model in models]
    >>> round(min(scores), 2), round(max(scores), 2)
    (0.48, 0.92)
    >>> sorted({model.stop_reason_ for model in models})
    ['max_iter', 'tol']
    """

    _PARAMETERS = ("kernel", "degree", "gamma", "coef0", "voting", "cache_size", "budget",
                   "budget_policy", "projectron_eta", "fit_intercept", "max_iter", "tol",
                   "stop_mistake_free", "shuffle", "random_state", "class_weight",
                   "warm_start", "early_stopping", "validation_fraction", "n_iter_no_change",
                   "n_jobs")
    _parameter_constraints = constraints(
        _PARAMETERS,
        kernel=[StrOptions({"linear", "poly", "rbf"}), callable],
        degree=[WholeNumber(1, None, closed="left")],
        # finite bounds: an infinite gamma or coef0 makes every kernel value inf or NaN
        gamma=[RealNumber(0, _LARGEST, closed="right"), None],
        coef0=[RealNumber(-_LARGEST, _LARGEST, closed="both")],
        voting=[StrOptions({"vote", "average"}), None],
        cache_size=[RealNumber(0, None, closed="left")],
        budget=[WholeNumber(1, None, closed="left"), None],
        budget_policy=[StrOptions({"random", "oldest", "forgetron", "projectron++"})],
        projectron_eta=[RealNumber(0, _LARGEST, closed="both")],
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
        projectron_eta=0.1,
        fit_intercept=True,
        max_iter=1000,
        tol=1e-3,
        stop_mistake_free=True,
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
        self.projectron_eta = projectron_eta
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.stop_mistake_free = stop_mistake_free
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
    _state_form = ProblemFields("problem", DUAL_FILE_FORM, check=_check_dual_file,
                                finish=_check_published_dual)

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
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is refused just below
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
