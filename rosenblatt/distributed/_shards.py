"""A shard: the rows one worker trains on, and the tasks that run where it lives.

Every function here is a plain function of picklable arguments, so the same code
runs on a thread of this process and in a Dask worker. A task never modifies the
weights it is given: :func:`~rosenblatt.engine.run_epoch` copies them first.
"""

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from sklearn.model_selection import train_test_split
from sklearn.utils import check_array

from .. import _kernels
from .._validation import FLOAT_DTYPES, check_csr_structure, encode_labels, kernel_view
from ..datasets import ChunkedFile
from ..engine import run_epoch


@dataclass(frozen=True)
class Rule:
    """What a shard needs to know of the estimator being trained (picklable).

    ``kind`` is ``"online"`` (an epoch of the online rule, then mixing) or
    ``"batch"`` (the exact distributed step: each shard returns its part of the
    sum). ``residual`` names the rule of :func:`~rosenblatt.engine.run_epoch`;
    ``layout`` says how labels become problems: one ±1 problem (``"binary"``),
    one per class (``"ovr"``), or one multiclass problem (``"multiclass"``).
    """

    kind: str
    residual: str
    layout: str
    n_classes: int
    eta: float
    fit_intercept: bool
    shuffle: str
    average: bool
    track_loss: bool
    class_weights: np.ndarray = None  # weight of each class code, or None

    @property
    def n_problems(self):
        return self.n_classes if self.layout == "ovr" else 1

    def targets(self, codes):
        """The target vector of each problem from class codes."""
        if self.layout == "multiclass":
            return [np.ascontiguousarray(codes, dtype=np.intp)]
        if self.layout == "binary":
            return [np.where(codes == 1, 1.0, -1.0)]
        return [np.where(codes == k, 1.0, -1.0) for k in range(self.n_classes)]


@dataclass
class Shard:
    """Rows held in memory by one worker: ``X`` (dense or CSR), class codes,
    row weights, and the rows held out for early stopping (``held_out``)."""

    X: object
    codes: np.ndarray
    sample_weight: np.ndarray
    seed: int
    held_out: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.intp))

    @property
    def n_rows(self):
        return self.X.shape[0]

    def blocks(self, rule, epoch):
        """One block: all the rows, with their weights (class weights applied,
        held-out rows at 0) and the epoch's order."""
        weights = row_weights(self.codes, self.sample_weight, rule)
        weights[self.held_out] = 0.0
        yield self.X, self.codes, weights, epoch_order(rule, self.seed, epoch, self.n_rows)


@dataclass
class FileShard:
    """Rows read from files on the worker, a block at a time (``chunk_size``
    rows), so that a shard larger than memory streams through each epoch."""

    paths: tuple
    chunk_size: int
    label: object
    n_features: int
    classes: np.ndarray
    seed: int

    held_out = np.empty(0, dtype=np.intp)

    def files(self):
        return [ChunkedFile(path, self.chunk_size, label=self.label, n_features=self.n_features)
                for path in self.paths]

    def blocks(self, rule, epoch):
        for number, chunks in enumerate(self.files()):
            for block, (X, y) in enumerate(chunks):
                codes = encode_labels(np.asarray(y), self.classes)
                weights = row_weights(codes, None, rule)
                order = epoch_order(rule, [self.seed, number, block], epoch, X.shape[0])
                yield X, codes, weights, order


def row_weights(codes, sample_weight, rule):
    weights = np.ones(len(codes)) if sample_weight is None else sample_weight.copy()
    if rule.class_weights is not None:
        weights *= rule.class_weights[codes]
    return weights


def epoch_order(rule, seed, epoch, n):
    """The rows' order in ``epoch`` (from 1): as given, one permutation drawn from
    the shard's seed, or a new one each epoch from the seed and the epoch number;
    the same wherever the shard lives."""
    if rule.kind == "batch" or rule.shuffle == "none":
        return None
    key = np.atleast_1d(seed).tolist() + ([epoch] if rule.shuffle == "every_epoch" else [])
    return np.random.RandomState(key).permutation(n).astype(np.intp)


@dataclass
class ProblemOutcome:
    """What a shard returns for one problem after one epoch (or one batch step)."""

    coef: np.ndarray = None
    intercept: np.ndarray = None
    n_updates: int = 0
    n_examples: int = 0
    coef_sum: np.ndarray = None
    intercept_sum: np.ndarray = None
    loss: float = 0.0          # squared loss of the incoming weights (linear unit)
    held_out_errors: float = 0.0
    held_out_total: float = 0.0


def shard_epoch(shard, weights, rule, epoch, score_weights=None, train=True):
    """One epoch of ``rule`` on ``shard`` from ``weights`` (a ``(coef, intercept)``
    per problem); returns a :class:`ProblemOutcome` per problem.

    Online rules return their new weights (and, averaged, the sums of the weights
    after each row); batch rules return the parts ``Σ sw e x`` and ``Σ sw e`` of
    the step at ``weights`` in ``coef``/``intercept``. ``score_weights`` (the
    weights the model publishes) are scored on the held-out rows; with
    ``train=False`` only the loss and the score are computed.
    """
    outcomes = [ProblemOutcome() for _ in range(rule.n_problems)]
    running = [(np.array(c, dtype=np.float64), np.array(b, dtype=np.float64).reshape(-1))
               for c, b in weights]
    for X, codes, sw, order in shard.blocks(rule, epoch):
        Xk = kernel_view(X)
        for p, y in enumerate(rule.targets(codes)):
            outcome, (coef, intercept) = outcomes[p], running[p]
            if rule.track_loss:
                outcome.loss += _kernels.squared_loss(Xk, y, sw, coef, intercept[0])
            if not train:
                continue
            if rule.kind == "batch":
                _add_batch_part(outcome, Xk, y, sw, coef, intercept, rule)
            else:
                result = run_epoch(X, y, coef, intercept, rule=rule.residual, sample_weight=sw,
                                   order=order, eta=rule.eta, fit_intercept=rule.fit_intercept,
                                   average=rule.average)
                running[p] = (result.coef, result.intercept)
                outcome.n_updates += result.n_updates
                outcome.n_examples += result.n_examples
                if rule.average:
                    outcome.coef_sum = _add(outcome.coef_sum, result.coef_sum)
                    outcome.intercept_sum = _add(outcome.intercept_sum, result.intercept_sum)
    if score_weights is not None and len(shard.held_out):
        _score_held_out(shard, rule, score_weights, outcomes)
    if train and rule.kind == "online":
        for outcome, (coef, intercept) in zip(outcomes, running):
            outcome.coef, outcome.intercept = coef, intercept
    return outcomes


def _add_batch_part(outcome, Xk, y, sw, coef, intercept, rule):
    residual = _kernels.PERCEPTRON if rule.residual == "perceptron" else _kernels.LINEAR_UNIT
    gradient, bias_gradient, n_nonzero = _kernels.batch_gradient(
        Xk, y, sw, residual, coef, intercept, None)
    outcome.coef = _add(outcome.coef, gradient)
    outcome.intercept = _add(outcome.intercept, np.array([bias_gradient]))
    outcome.n_updates += n_nonzero
    outcome.n_examples += int(np.count_nonzero(sw))


def _add(total, part):
    return part.copy() if total is None else total + part


def _score_held_out(shard, rule, score_weights, outcomes):
    rows = shard.held_out
    X, codes = shard.X[rows], shard.codes[rows]
    sw = row_weights(codes, None if shard.sample_weight is None else
                     shard.sample_weight[rows], rule)
    for p, y in enumerate(rule.targets(codes)):
        coef, intercept = (np.asarray(w, dtype=np.float64) for w in score_weights[p])
        scores = np.asarray(X @ np.atleast_2d(coef).T).reshape(len(rows), -1) + intercept
        if rule.layout == "multiclass":
            wrong = np.argmax(scores, axis=1) != y
        else:
            wrong = y * scores[:, 0] <= 0
        outcomes[p].held_out_errors = float(sw[wrong].sum())
        outcomes[p].held_out_total = float(sw.sum())


def shard_train_alone(shard, weights, rule, max_iter):
    """One-shot mixing's local run: epochs of ``rule`` on this shard alone until
    an epoch without a mistake, or ``max_iter`` epochs. Returns, per problem,
    the final weights (averaged ones when averaging) and the total updates."""
    outcomes = None
    current = weights
    totals = [[0, 0, None, None] for _ in range(rule.n_problems)]
    for epoch in range(1, max_iter + 1):
        outcomes = shard_epoch(shard, current, rule, epoch)
        current = [(o.coef, o.intercept) for o in outcomes]
        for total, o in zip(totals, outcomes):
            total[0] += o.n_updates
            total[1] += o.n_examples
            if rule.average:
                total[2], total[3] = _add(total[2], o.coef_sum), _add(total[3], o.intercept_sum)
        if all(o.n_updates == 0 for o in outcomes):
            break
    for total, o in zip(totals, outcomes):
        o.n_updates, o.n_examples = total[0], total[1]
        if rule.average and total[1]:
            o.coef, o.intercept = total[2] / total[1], total[3] / total[1]
    return outcomes, epoch


def class_counts(shard, n_classes):
    """Rows of each class code in an in-memory shard (for ``class_weight="balanced"``)."""
    return np.bincount(shard.codes, minlength=n_classes)


def scan_files(paths, chunk_size, label):
    """``(n_rows, classes, n_features)`` of a file shard, read on its worker."""
    files = [ChunkedFile(path, chunk_size, label=label) for path in paths]
    classes = np.unique(np.concatenate([np.asarray(f.classes) for f in files]))
    return sum(f.n_rows for f in files), classes, max(f.n_features for f in files)


def hold_out(shard, fraction):
    """Mark a stratified ``fraction`` of the shard's rows as held out for early
    stopping (drawn from the shard's seed); returns the shard."""
    n = shard.n_rows
    rows = np.arange(n)
    try:
        _, held = train_test_split(rows, test_size=fraction, stratify=shard.codes,
                                   random_state=np.random.RandomState(shard.seed))
    except ValueError as error:
        raise ValueError(
            f"early_stopping could not hold out validation_fraction={fraction} of a shard of "
            f"{n} rows with every class ({error}); use fewer shards, a larger "
            "validation_fraction, or early_stopping=False."
        ) from error
    shard.held_out = np.sort(held).astype(np.intp)
    return shard


def make_shard(X, labels, sample_weight, seed, classes):
    """A :class:`Shard` from its parts (lists of blocks are stacked), its labels
    encoded as positions in ``classes``."""
    if isinstance(X, (list, tuple)):
        X = sp.vstack(X, format="csr") if sp.issparse(X[0]) else np.concatenate(X)
        labels = np.concatenate([np.asarray(part).reshape(-1) for part in labels])
        if sample_weight is not None:
            sample_weight = np.concatenate(sample_weight)
    X = check_array(X, accept_sparse="csr", dtype=FLOAT_DTYPES, order="C")
    if sp.issparse(X):
        check_csr_structure(X)
    labels = np.asarray(labels).reshape(-1)
    if len(labels) != X.shape[0]:
        raise ValueError(f"a shard holds {X.shape[0]} rows of X but {len(labels)} labels; "
                         "X and y must be split into the same row blocks.")
    weights = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    return Shard(X, encode_labels(labels, classes), weights, seed)


def largest_scaled_norm(shard, rule):
    """``max sw ‖x̃‖²`` over the shard's training rows (the linear unit's SGD step)."""
    largest = 0.0
    for X, _, sw, _ in shard.blocks(rule, 0):
        squared = np.asarray(X.multiply(X).sum(axis=1)).ravel() if sp.issparse(X) else \
            np.einsum("ij,ij->i", X, X, dtype=np.float64)
        largest = max(largest, float(np.max(sw * (squared + float(rule.fit_intercept)),
                                            initial=0.0)))
    return largest


def gram_part(shard, rule, vector):
    """The shard's part of ``X̃ᵀ diag(sw) X̃ v`` (the linear unit's batch step)."""
    from ..linear_model._linear_unit import gram_product

    total = 0.0
    for X, _, sw, _ in shard.blocks(rule, 0):
        total = total + gram_product(X, sw, rule.fit_intercept, vector)
    return total


def with_held_out(shard, fraction):
    """The shard with a stratified ``fraction`` of its rows held out (:func:`hold_out`)."""
    if isinstance(shard, FileShard):
        raise ValueError("early_stopping holds rows out of shards kept in memory; with "
                         "files streamed on the workers use early_stopping=False.")
    return hold_out(shard, fraction)
