"""The voted perceptron of Freund & Schapire (Daumé eq. 4.17)."""

import warnings
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from sklearn.utils.validation import check_is_fitted

from .._validation import check_scores, validate_X
from ..base import (
    LinearLearner,
    LinearModel,
    OnlineMixin,
    PerceptronClassifier,
    RuleState,
    MistakeStop,
    Traced,
)
from ..base._file_form import (
    WEIGHT_DTYPES,
    Each,
    Floats,
    Ints,
    Matrix,
    Number,
    ProblemFields,
    RowsOf,
    close,
)
from ..base._registry import register
from ..trace import survival_counts
from ._online import OnlineRule
from ._perceptron import EpochRuleParameters

#: Test rows × weight vectors voted at once: 2 MB of activations, which stay in
#: cache through the product, the cumulative sum and the vote.
_BLOCK_CELLS = 1 << 18
_BLOCK_ROWS = 256

#: Widths up to which rows and update rows are made dense for voting: the
#: products are then one matrix product (BLAS), faster than sparse ones even at
#: 10 % density (a9a), in parts of at most _DENSE_BYTES of rows.
_DENSE_WIDTH = 4096
_DENSE_BYTES = 64 << 20

#: Memory of the stored weight vectors beyond which training warns, once.
MEMORY_WARNING_BYTES = 1 << 30


@dataclass
class VoteLog(RuleState):
    """Every weight vector met, stored as the start plus one sparse update per mistake.

    The kernel logs each update's row and example number; after an epoch they
    are kept here, and the update rows ``step · x`` are cut out of ``X`` once per
    ``fit``/``partial_fit`` call (:meth:`flush`), not once per epoch.
    """

    coef_start: np.ndarray
    intercept_start: float
    fit_intercept: bool
    updates: list = field(default_factory=list)            # CSR blocks, a row per update
    intercept_updates: list = field(default_factory=list)  # arrays, one value per update
    positions: list = field(default_factory=list)          # arrays of example numbers
    _pending: list = field(default_factory=list)           # (X, rows, steps) not yet cut
    _bytes: float = 0.0                                    # memory of what is stored
    _warned: bool = False

    cannot_mix = ("its vote keeps every weight vector met in order, which mixing has no "
                  "counterpart for; use AveragedPerceptron (the vote's usual stand-in)")
    file_form = {"updates": Each(Matrix(sparse_only=True)),
                 "intercept_updates": Each(Floats(None, dtypes=WEIGHT_DTYPES)),
                 "positions": Each(Ints())}
    logs_updates = True
    renumberable = False  # the updates are rows of X, cut out after the epochs

    def add_updates(self, data, rows, positions, steps):
        if self._pending and self._pending[-1][0] is not data.X:
            self.flush()
        self._pending.append((data.X, rows.copy(), steps))
        self.intercept_updates.append(steps if self.fit_intercept else 0.0 * steps)
        self.positions.append(positions.copy())
        self._account(data.X, len(rows))

    def _account(self, X, n_updates):
        """Every mistake is kept (that is the vote), so memory grows with training:
        say so once it passes MEMORY_WARNING_BYTES instead of filling the machine."""
        values = X.nnz / max(X.shape[0], 1) if sp.issparse(X) else X.shape[1]
        self._bytes += n_updates * (12.0 * values + 24.0)  # a CSR row, its step and position
        if self._bytes > MEMORY_WARNING_BYTES and not self._warned:
            self._warned = True
            warnings.warn(
                f"VotedPerceptron keeps every weight vector it meets: "
                f"{sum(len(p) for p in self.positions):,} so far, about "
                f"{self._bytes / 2**30:.1f} GiB, and more with every mistake. On data this "
                "large use AveragedPerceptron (the average of the same vectors, in the memory "
                "of one), or lower max_iter.", RuntimeWarning, stacklevel=2)

    def flush(self):
        """Turn the pending updates into sparse rows ``step · x``."""
        if self._pending:
            X = self._pending[0][0]
            rows = np.concatenate([rows for _, rows, _ in self._pending])
            steps = np.concatenate([steps for _, _, steps in self._pending])
            self.updates.append(sp.csr_matrix(sp.diags(steps) @ sp.csr_matrix(X[rows])))
            self._pending = []

    def committee(self, seen):
        """The :class:`Vote` of every vector met after ``seen`` examples."""
        self.flush()
        d = len(self.coef_start)
        updates = sp.vstack(self.updates, format="csr") if self.updates else \
            sp.csr_matrix((0, d))
        positions = np.concatenate(self.positions or [np.empty(0, dtype=np.int64)])
        return Vote(self.coef_start, self.intercept_start, updates,
                    np.concatenate(self.intercept_updates or [np.empty(0)]),
                    survival_counts(positions, seen))


class Vote:
    """The voting committee of one binary problem: start + one update per mistake."""

    #: what a model file holds of a vote (``state:vote<k>_<field>``), in this order
    FILE_FORM = {
        "coef_start": Floats("features"),
        "intercept_start": Number(),
        "updates": Matrix(sparse_only=True),                  # a row per update
        "intercept_updates": Floats(RowsOf("updates")),
        "counts": Ints(RowsOf("updates", plus=1), dtypes=(np.dtype(np.int64),)),
    }
    FIELDS = tuple(FILE_FORM)

    @staticmethod
    def check_file(file, k, vote, where):
        """A vote read from a file: the bias stays 0 without ``fit_intercept``, and
        its last vector is the running one, which the model publishes as row ``k``
        of ``coef_`` and ``intercept_``."""
        model = file.model
        if not model.fit_intercept and (vote["intercept_start"] != 0 or
                                        np.any(vote["intercept_updates"] != 0)):
            file.fail(where + "intercept_updates", "moves the bias, which "
                                                   "fit_intercept=False keeps at 0")
        last = vote["coef_start"] + np.asarray(vote["updates"].sum(axis=0)).ravel()
        if not close(last, model.coef_[k]):
            file.fail("coef_", f"row {k} is not the last weight vector of the vote: "
                               f"{where}coef_start plus the rows of {where}updates")
        if not close(vote["intercept_start"] + vote["intercept_updates"].sum(),
                     model.intercept_[k]):
            file.fail("intercept_", f"value {k} is not the last bias of the vote: "
                                    f"{where}intercept_start plus {where}intercept_updates")

    def __init__(self, coef_start, intercept_start, updates, intercept_updates, counts):
        self.coef_start = coef_start
        self.intercept_start = intercept_start
        self.updates = updates                      # CSR, one row per mistake
        self.intercept_updates = intercept_updates  # one per mistake
        self.counts = counts                        # one per vector (mistakes + 1)

    def vectors(self):
        steps = np.vstack([self.coef_start[None, :], self.updates.toarray()])
        return np.cumsum(steps, axis=0)

    def intercepts(self):
        return np.cumsum(np.concatenate([[self.intercept_start], self.intercept_updates]))

    def decision(self, X):
        """The vote ``Σₖ cₖ sign(wₖ·x + bₖ)``, ``sign(0) = −1``.

        Every row's activation by every vector is needed, ``n_rows × n_vectors``
        of them, but never one dot product at a time: consecutive vectors differ
        by one update row, ``wₖ = wₖ₋₁ + uₖ``. On narrow rows (up to
        ``_DENSE_WIDTH`` features) a block of vectors is built from its update
        rows once and multiplies a block of rows in one matrix product (BLAS);
        on wide sparse rows the activations grow by ``uₖ·x + βₖ``, one sparse
        product with each update row, and a cumulative sum. Blocks of 2¹⁸
        activations keep the memory bounded whatever the number of vectors.
        """
        width = X.shape[1]
        part = max(_BLOCK_ROWS, _DENSE_BYTES // (8 * width)) if width <= _DENSE_WIDTH \
            else X.shape[0]
        scores = np.empty(X.shape[0])
        for start in range(0, X.shape[0], part):  # rows made dense a part at a time
            rows = slice(start, start + part)
            with np.errstate(over="ignore", invalid="ignore"):  # overflow: refused in _vote
                scores[rows] = self._vote(X[rows])
        return scores

    def _vote(self, X):
        dense = X.shape[1] <= _DENSE_WIDTH
        if dense:
            X = X.toarray() if sp.issparse(X) else np.asarray(X)
        start = np.asarray(X @ self.coef_start, dtype=np.float64).ravel() + self.intercept_start
        check_scores(start, X)
        scores = self.counts[0] * np.where(start > 0, 1.0, -1.0)
        blocks = self._by_vectors(X) if dense else self._by_increments(X, start)
        for rows, vectors, activations in blocks:
            if not np.isfinite(activations).all():
                check_scores(activations, X)  # a NaN would vote -1 without a word
            counts = self.counts[1:][vectors].astype(np.float64)
            # Σ c sign(a) = 2 Σ c [a > 0] − Σ c, with sign(0) = −1
            scores[rows] += 2.0 * ((activations > 0) @ counts) - counts.sum()
        return scores

    def _blocks(self, n_rows):
        """``(rows, vectors)`` slices of the blocks, vectors outermost."""
        chunk = _BLOCK_CELLS // _BLOCK_ROWS
        for first in range(0, len(self.intercept_updates), chunk):
            for start in range(0, n_rows, _BLOCK_ROWS):
                yield slice(start, start + _BLOCK_ROWS), slice(first, first + chunk)

    def _by_vectors(self, X):
        """Activations of dense rows ``X`` by the vectors themselves (with the bias
        as a column of ones), each block of vectors summed from its update rows
        as :meth:`vectors` does."""
        X = np.column_stack([X, np.ones(X.shape[0])])
        last, vectors, block = np.append(self.coef_start, self.intercept_start), None, None
        for rows, chunk in self._blocks(X.shape[0]):
            if chunk != vectors:
                vectors = chunk
                steps = np.column_stack([self.updates[vectors].toarray(),
                                         self.intercept_updates[vectors]])
                steps[0] += last
                block = np.cumsum(steps, axis=0, out=steps)
                last = block[-1].copy()
            yield rows, vectors, X[rows] @ block.T

    def _by_increments(self, X, start):
        """Activations of wide sparse rows ``X``: ``aₖ = aₖ₋₁ + uₖ·x + βₖ`` from
        the activations ``start`` by the starting vector."""
        activation, vectors, updates = start.copy(), None, None
        for rows, chunk in self._blocks(X.shape[0]):
            if chunk != vectors:
                vectors, updates = chunk, self.updates[chunk].T
            steps = X[rows] @ updates
            steps = steps.toarray() if sp.issparse(steps) else np.array(steps)
            steps += self.intercept_updates[vectors]
            steps[:, 0] += activation[rows]
            activations = np.cumsum(steps, axis=1, out=steps)
            activation[rows] = activations[:, -1]
            yield rows, vectors, activations


class VotedLearner(OnlineRule, Traced, MistakeStop, LinearLearner):
    """The perceptron's rule, keeping every weight vector and its survival count."""

    def _confirms_on_weights(self, problem):
        return True  # the vote separates some epochs after the running weights

    def _new_state(self, coef, intercept):
        return VoteLog(coef.copy(), float(intercept[0]), self.fit_intercept)

    def publish(self, problems):
        return {**super().publish(problems),
                "_votes": [p.state.committee(int(p.seen[0])) for p in problems]}

    def _problem_errors(self, problem, X, y, sw):
        # early stopping scores the vote, not the running weights
        vote = problem.state.committee(int(problem.seen[0]))
        predicted = np.where(vote.decision(X) > 0, 1.0, -1.0)
        return float(sw[predicted != y].sum())


@register("voted", "classic")
class VotedPerceptron(OnlineMixin, EpochRuleParameters, LinearModel, PerceptronClassifier):
    """Perceptron whose every weight vector votes, weighted by how long it survived.

    Training is the perceptron's (see :class:`Perceptron`). Each weight vector
    met during training is kept with its survival count ``c``: the number of
    examples after which it was the current vector. An update at example ``t``
    starts a new vector whose count includes ``t`` (Freund & Schapire), so a
    vector overthrown at once gets ``c = 1`` (Daumé) and the counts sum to the
    number of examples processed. The prediction is the sign of the
    count-weighted vote of signs (Daumé eq. 4.17)::

        ŷ = sign( Σₖ cₖ sign(wₖ·x + bₖ) )      (sign(0) = −1)

    Training stops after the first epoch without a mistake whose vote makes no
    training mistake either (the last vector's count grows with every epoch
    without a mistake, until the vote follows it); the rule of Ahmed & Pavlu
    and CISC 271; Freund & Schapire run ``T`` epochs and Daumé's Algorithm 7
    MaxIter: ``stop_mistake_free=False, tol=None``. On data that never get
    there, once the epoch's mistakes stop falling (``tol``), unless the rows can
    be separated; else after ``max_iter`` epochs, with a ``ConvergenceWarning``.
    ``stop_reason_`` says which.

    Memory stays proportional to the mistakes: the vectors are stored as the
    starting weights plus one sparse update row per mistake, and
    ``vectors_`` builds the dense vectors on demand.

    The vote is what the voted perceptron costs, as Daumé warns: every row
    meets every vector, ``n_rows × n_updates`` activations. They come from the
    update rows in blocks, one matrix product each, never one dot product per
    vector (see ``Vote.decision``): on a9a, nine epochs (63,000 vectors) vote
    on its 16,281 test rows in about 6 s of one core, where
    :class:`AveragedPerceptron` (the same vectors averaged into one) predicts
    in milliseconds and does as well there. Training stops as the others do
    (see ``tol`` and ``stop_mistake_free``); on large data the averaged
    perceptron is the practical choice.

    Probabilities: none; its score is a weighted vote of signs, not a
    probability model. For probabilities, calibrate its scores with
    :class:`sklearn.calibration.CalibratedClassifierCV`.

    Parameters
    ----------
    eta : float, default=1.0
        Learning rate η (> 0): an update adds ``eta * y * x`` to the weights.
    margin : float, default=0.0
        A mistake is ``y a <= margin`` (>= 0): with a positive margin the rule
        also updates on examples it gets right by no more than ``margin``, which
        pushes the boundary away from them (scikit-learn keeps this threshold at
        0). From a zero start the mistake bound becomes ``(R² + 2 margin/eta)/γ²``
        (:func:`rosenblatt.theory.mistake_bound`).
    fit_intercept : bool, default=True
        Learn a bias ``b`` (updated as ``b += eta * y``, the same as a constant
        feature x₀ = 1 with its weight first). False: the boundary passes through 0.
    max_iter : int, default=1000
        Largest number of epochs (Daumé's MaxIter); reaching it warns with
        ``ConvergenceWarning``.
    tol : float or None, default=1e-3
        The stopping rule for data that do not reach a mistake-free epoch
        (:mod:`rosenblatt.base._stopping`): stop once the epoch's mistakes have
        not fallen below the fewest so far by ``tol × n_samples`` for
        ``n_iter_no_change`` epochs in a row (on a9a after 7 to 11 epochs), unless a linear
        program finds the rows separable (checked once, on data of up to
        50,000 values), in which case the run goes on to the mistake-free
        epoch the convergence theorem promises. Mistakes, unlike the perceptron
        loss scikit-learn's ``tol`` watches, count an activation of exactly 0
        and do not change when ``X`` is scaled. ``None``: no such rule (the
        texts), only ``stop_mistake_free`` and ``max_iter``.
    stop_mistake_free : bool, default=True
        Stop after the first epoch without a mistake (Ahmed & Pavlu, and CISC
        271's "missed" flag), whether or not ``tol`` is set. ``False``: go on to
        ``max_iter`` (or ``tol``'s stop), as Freund & Schapire's voted perceptron
        (``T`` epochs) and Daumé's Algorithm 7 do: the last vector's count keeps
        growing, so its vote weighs more.
    shuffle : {"none", "once", "every_epoch"}, default="every_epoch"
        Row order (Daumé §4.2): as given, one random permutation kept for every
        epoch, or a new permutation each epoch.
    init : {"zeros", "uniform", "normal"} or array-like, default="zeros"
        Starting weights: zeros, one draw of ``rng.random(n_features + 1)``
        (U[0, 1)) or ``rng.standard_normal(...)``, bias first; or an array of that
        shape (bias first), or one row per class for one-vs-rest.
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
    n_jobs : int or None, default=None
        Threads for one-vs-rest (one binary problem per thread); -1 for every
        core. Results do not depend on it.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        The final running weights (the vanilla perceptron's).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The final running bias.
    classes_ : ndarray
        The labels, sorted; ``classes_[0]`` is coded -1 and ``classes_[1]`` +1.
    n_features_in_ : int
        Number of features seen in ``fit``.
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    n_updates_ : int
        Mistakes that changed the weights (summed over the problems).
    converged_ : bool
        Whether the last epoch made no mistake (for every problem);
        never ``True`` otherwise: a stop by ``tol`` is not convergence.
    stop_reason_ : str
        Why training ended: ``"mistake_free"``, ``"tol"`` (the mistakes stopped
        falling), ``"early_stopping"``, ``"max_iter"`` (with a
        ``ConvergenceWarning``), or ``"partial_fit"`` after a ``partial_fit``
        call; for one-vs-rest, the reason of the problem that ran longest.
    vectors_ : ndarray of shape (n_vectors, n_features), or tuple of them per class
        The weight vectors met, the starting one first.
    vector_intercepts_ : ndarray of shape (n_vectors,), or tuple per class
        Their biases.
    counts_ : ndarray of shape (n_vectors,), or tuple per class
        Their survival counts. Vectors with a zero count (the start, when the
        first example is a mistake) are kept: they do not vote.
    trace_ : Trace, or tuple of Trace (one per class)
        With ``record=True`` only.

    ``decision_function`` is the vote ``Σₖ cₖ sign(wₖ·x + bₖ)``.

    References
    ----------
    Freund & Schapire, "Large margin classification using the perceptron
    algorithm", Machine Learning 37, 1999; Daumé III, §4.6, eq. 4.17.

    Examples
    --------
    >>> from rosenblatt import VotedPerceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]
    >>> model = VotedPerceptron(shuffle="none").fit(X, y)
    >>> model.counts_.tolist(), int(model.counts_.sum())
    ([0, 3, 1, 1, 2, 2, 1, 1, 3, 1, 2, 2, 2, 1, 1, 3, 1, 2, 7], 36)
    >>> model.decision_function([[1, 1], [0, 1]]).tolist()
    [12.0, -34.0]
    """

    _learner_class = VotedLearner
    _state_form = ProblemFields("vote", Vote.FILE_FORM, check=Vote.check_file)

    def decision_function(self, X):
        """The vote ``Σₖ cₖ sign(wₖ·x + bₖ)``.

        Parameters
        ----------
        X : array-like or CSR matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) for two classes, else (n_samples, n_classes)
        """
        check_is_fitted(self)
        X = validate_X(self, X, reset=False)
        scores = np.column_stack([vote.decision(X) for vote in self._votes])
        return scores.ravel() if scores.shape[1] == 1 else scores

    def _prediction_state(self):
        return {f"vote{k}_{name}": getattr(vote, name)
                for k, vote in enumerate(self._votes) for name in Vote.FIELDS}

    def _restore_prediction_state(self, state):
        n_votes = 1 if len(self.classes_) == 2 else len(self.classes_)
        self._votes = [
            Vote(*(state[f"vote{k}_{name}"] for name in Vote.FIELDS)) for k in range(n_votes)
        ]
        for vote in self._votes:
            vote.coef_start = np.asarray(vote.coef_start, dtype=np.float64)
            if vote.coef_start.shape != (self.n_features_in_,) or vote.updates.shape[0] + 1 \
                    != len(vote.counts) or len(vote.intercept_updates) != vote.updates.shape[0]:
                raise ValueError("the stored weight vectors do not fit their counts")

    def _per_vote(self, read):
        check_is_fitted(self)
        values = tuple(read(vote) for vote in self._votes)
        return values[0] if len(values) == 1 else values

    @property
    def vectors_(self):
        return self._per_vote(Vote.vectors)

    @property
    def vector_intercepts_(self):
        return self._per_vote(Vote.intercepts)

    @property
    def counts_(self):
        return self._per_vote(lambda vote: vote.counts.copy())
