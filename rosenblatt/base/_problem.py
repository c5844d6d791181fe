"""What one problem learns from, and what it has learned so far."""

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..trace import TraceRecorder


@dataclass(frozen=True)
class TrainingData:
    """The rows one problem trains on during one ``fit``/``partial_fit`` call.

    ``X`` is the validated matrix (dense or CSR), ``Xk`` the view the kernels
    read (the array itself or its CSR triplet, never a copy), ``y`` the problem's
    targets (±1 for a binary problem, class indices for a multiclass one) and
    ``sw`` the row weights (0 for rows held out or absent). ``bounds`` is
    ``None`` when each row is an example; for sequences (rows are tokens) it
    holds where each sentence starts, as ``indptr`` (n_sentences + 1 offsets),
    and a sentence is the unit of an epoch's order.
    """

    X: object
    Xk: object
    y: np.ndarray
    sw: np.ndarray
    bounds: np.ndarray = None

    @property
    def n_rows(self):
        return self.X.shape[0]

    @property
    def n_units(self):
        """The examples an epoch orders: rows, or sentences."""
        return self.n_rows if self.bounds is None else len(self.bounds) - 1

    @cached_property
    def kernel_sw(self):
        """``sw`` as the online kernels take it: ``None`` when every row weighs 1,
        which compiles the per-row weight away (see ``_kernels._rows.row_weight``)."""
        return None if np.all(self.sw == 1.0) else self.sw

    def with_weights(self, sw):
        """The same rows with other weights (early stopping zeroes held-out rows)."""
        return TrainingData(self.X, self.Xk, self.y, sw, self.bounds)


class RuleState:
    """What a rule keeps besides the running weights (Alg. 7's sums, a pocket, a
    vote, ...). Subclasses live in their rule's module; every method here is the
    "keeps nothing" default, so a rule implements only what it needs."""

    #: whether the online kernel must log every update (the vote needs them all)
    logs_updates = False

    #: whether training may renumber the columns (see :mod:`._columns`); a state
    #: that keeps rows of ``X`` itself cannot follow
    renumberable = True

    #: why a problem with this state cannot be trained on several shards and
    #: mixed, with the alternative; ``None``: it can
    cannot_mix = None

    #: how a model file holds the fields a fresh problem does not show (``None`` or
    #: an empty list at the start), as declarations of :mod:`._file_form`; every
    #: other field is read as its value in a fresh problem is (type, shape, dtype)
    file_form = {}

    def check_file(self, file, where):
        """Refuse (``file.fail(field, why)``) a state read from a model file whose
        fields, each as declared, do not fit together; ``where`` names the state."""

    def loaded(self):
        """Rebuild, after loading, the fields a model file does not hold (those
        marked ``metadata=REBUILT``, see :mod:`._file_form`)."""

    def mixed(self, before, parts, mu, coef, intercept, seen):
        """The state after mixing the shards' copies ``parts`` of the problem
        ``before`` (which this state belongs to) into the weights ``coef``,
        ``intercept`` after ``seen`` examples. Keeping nothing, it has nothing to mix."""
        return self

    def renumber(self, move):
        """Apply ``move`` (in place) to every array the state keeps per column."""

    def kernel_average(self):
        """``(u, beta)`` for the kernel's averaging step, or ``None``."""
        return

    def kernel_pocket(self, data):
        """``(w, b, errors)`` for the kernel's pocket step, or ``None``."""
        return

    def add_updates(self, data, rows, positions, steps):
        """Called after an epoch with its updates (when ``logs_updates``)."""

    def published(self, coef, intercept, seen):
        """The weights the model exposes, from the running ones."""
        return coef, intercept

    def is_finite(self, problem):
        """Whether the running and the published weights are all finite numbers."""
        with np.errstate(all="ignore"):  # inf − inf in a mean: the answer is "no"
            published = problem.published()
        arrays = (problem.coef, problem.intercept)
        # most rules publish the running weights themselves: check those once
        arrays += tuple(array for array in published if not any(array is a for a in arrays))
        return all(np.all(np.isfinite(array)) for array in arrays)


@dataclass
class Problem:
    """Learning state of one problem: a binary problem (the whole model for two
    classes, one per class for one-vs-rest) or a native multiclass one.

    ``coef`` and ``intercept`` (shape (1,) for a binary problem) are the running
    weights the kernels update in place; ``seen[0]`` counts the examples
    processed; ``state`` is the rule's own :class:`RuleState`.
    """

    coef: np.ndarray
    intercept: np.ndarray
    rng: object
    classes: tuple
    state: RuleState = field(default_factory=RuleState)
    recorder: TraceRecorder = None
    seen: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    n_iter: int = 0
    n_updates: int = 0
    converged: bool = False
    stopped_early: bool = False
    #: the key of the problem's row orders and held-out rows, drawn from ``rng``
    #: at the start of a fit (see :mod:`._shard`)
    seed: int = None
    #: mean training loss of the last epoch (scikit-learn's objective, reported by
    #: the kernels; the overflow check reads it)
    epoch_loss: float = None
    #: the stopping rule (see :mod:`._stopping`): the fewest mistakes of an epoch so
    #: far, the epochs since they last fell by ``tol × rows``, whether the rows'
    #: separability was asked (``certified``) and the answer (``None``: unknown),
    #: and why the last run ended
    fewest_mistakes: float = np.inf
    n_no_improvement: int = 0
    certified: bool = False
    separable: bool = None
    stop_reason: str = None
    #: early stopping: the best held-out accuracy, and the epochs since it improved
    best_score: float = -np.inf
    n_stale: int = 0
    #: scikit-learn's regularisation state during one call, or None (see _kernels._penalty)
    penalty: tuple = None
    #: the Renumbering its weights are in during a fit (see base._columns), or None
    columns: object = None

    def renumber(self, move):
        """Apply ``move`` (a :class:`~rosenblatt.base._columns.ColumnOrder` method)
        to the weights and every array kept per column."""
        move(self.coef)
        if self.penalty is not None:
            move(self.penalty.q)
        self.state.renumber(move)

    def mix(self, parts, mu):
        """Take the shards' copies ``parts`` of this problem after an epoch, each
        trained from this problem's weights: the weights move by the shards' moves
        weighted by ``mu`` (``w + Σ μᵢ (wᵢ − w)``: with ``Σ μᵢ = 1`` the mixed
        weights ``Σ μᵢ wᵢ``, with ``μᵢ = 1`` the steps added), the examples and
        the epoch's loss add up, and the rule's state mixes itself."""
        start_coef, start_intercept = self.coef.astype(np.float64), self.intercept.copy()
        coef, intercept = start_coef.copy(), start_intercept.copy()
        for weight, part in zip(mu, parts):  # in shard order, whoever finished first
            coef += weight * (part.coef - start_coef)
            intercept += weight * (part.intercept - start_intercept)
        start = int(self.seen[0])
        examples = [int(part.seen[0]) - start for part in parts]
        seen = start + sum(examples)
        self.state = self.state.mixed(self, parts, mu, coef, intercept, seen)
        self.coef[...] = coef
        self.intercept[...] = intercept
        self.seen[0] = seen
        losses = [(part.epoch_loss, m) for part, m in zip(parts, examples)
                  if part.epoch_loss is not None]
        if losses:  # the mean over every shard's examples, as one epoch would give
            self.epoch_loss = sum(loss * m for loss, m in losses) / max(sum(examples), 1)

    def published(self):
        """``(coef, intercept)`` as the model exposes them (see :class:`RuleState`)."""
        return self.state.published(self.coef, self.intercept, int(self.seen[0]))

    def check_finite(self, model, where):
        """Refuse weights that overflowed: a NaN activation is never a mistake, so
        such a run would otherwise claim to have converged."""
        if not self.state.is_finite(self):
            raise ValueError(
                f"{model} ran into infinite or NaN weights {where}: the features, the step "
                "size (eta; FTRLProximal's alpha) or the sample weights are too large for "
                "float64 arithmetic. Scale X (e.g. sklearn.preprocessing.StandardScaler), or "
                "lower the step size or the weights."
            )
        if self.epoch_loss is not None and not np.isfinite(self.epoch_loss):
            # finite weights, but w·x overflowed: a NaN activation is never a mistake
            raise ValueError(
                f"{model}: the activations w·x + b overflowed to inf or NaN {where}; the "
                "features times the weights are too large for float64 arithmetic. Scale X "
                "(e.g. sklearn.preprocessing.StandardScaler), or lower eta."
            )
