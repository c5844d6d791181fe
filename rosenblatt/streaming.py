"""Training on data larger than memory: the training loop over a file read in blocks.

A file read in blocks is a shard whose epoch reads the blocks
(:class:`~rosenblatt.distributed._shards.FileShard`): :func:`fit_chunks` runs
the estimator's own training loop on it, with the learner's stopping rule, so a
fit from a file and a fit in memory differ only in where the rows come from.
With ``shuffle="none"`` they are the same fit, bit for bit: weights,
``n_iter_``, ``converged_``, ``stop_reason_`` and warnings.
"""

import numbers

import numpy as np

from ._validation import class_weights
from .datasets._chunks import FirstPassEnded
from .distributed._shards import FileShard, class_counts, with_class_weights


def fit_chunks(model, chunks, *, n_epochs=None, on_chunk=None, resume=False):
    """Train an online estimator on ``chunks`` (a
    :class:`~rosenblatt.datasets.ChunkedFile`) with its training loop: up to
    ``n_epochs`` passes (default: its ``max_iter``), stopped by its own rule.

    Memory stays at a block. With ``shuffle="none"`` the blocks and their rows
    come in file order and the fit equals ``model.fit`` on the whole file in
    memory; otherwise each epoch reads the blocks in a random order and
    permutes each block's rows, both drawn from the model's ``random_state``
    (see :class:`~rosenblatt.distributed._shards.FileShard`). With ``resume``
    the model (fitted, or read from a model file with its training state) goes
    on where its run stopped, as if it had never stopped: its counters, stopping
    rule and random streams continue. ``on_chunk`` is called after each block
    of each epoch (a progress bar). Returns the model.

    A file opened with ``one_pass=True`` is read once for the first epoch (no
    pass on opening) when the blocks come in file order; the model is the one
    of the two passes, bit for bit.

    >>> import tempfile, pathlib, numpy as np
    >>> from rosenblatt import Perceptron
    >>> from rosenblatt.datasets import ChunkedFile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "and.npy"
    >>> np.save(path, np.array([[0., 0, -1], [0, 1, -1], [1, 0, -1], [1, 1, 1]]))
    >>> model = fit_chunks(Perceptron(shuffle="none"), ChunkedFile(path, 2))
    >>> model.intercept_.tolist(), model.coef_.tolist(), model.n_iter_, model.stop_reason_
    ([-4.0], [[3.0, 2.0]], 9, 'mistake_free')
    """
    if not hasattr(model, "partial_fit"):
        raise ValueError(f"{type(model).__name__} has no partial_fit; train it in memory, or "
                         "choose an online estimator (Perceptron, AveragedPerceptron, ...).")
    if n_epochs is not None and (isinstance(n_epochs, bool) or not isinstance(
            n_epochs, numbers.Integral) or n_epochs < 1):
        raise ValueError(f"n_epochs must be a whole number of passes over the file, 1 or "
                         f"more; got {n_epochs!r}.")
    if not resume and not getattr(chunks, "scanned", True):
        # a file opened with one_pass: train on what its first block promises while
        # the first epoch reads the file; a broken promise (a label, a line further
        # on) starts the fit again after the whole pass, from the state it had
        before = dict(vars(model))
        classes = chunks.first_pass_classes() if _in_file_order(model) else None
        if classes is not None:
            try:
                return _fit(model, chunks, classes, n_epochs, on_chunk, resume)
            except FirstPassEnded:
                pass
            except BaseException:
                _restore(model, before)
                raise
            _restore(model, before)
        # the pass now: a bad file is refused here, as on opening
        chunks._finish_scan(keep_promise=False)
    classes = model.classes_ if resume else chunks.classes
    if resume:
        unknown = sorted(set(chunks.classes.tolist()) - set(classes.tolist()), key=str)
        if unknown:
            raise ValueError(f"{chunks.path} holds labels {', '.join(map(str, unknown))} that "
                             f"the model does not know (its classes: "
                             f"{', '.join(map(str, classes))})")
    return _fit(model, chunks, classes, n_epochs, on_chunk, resume)


def _in_file_order(model):
    """Whether the model's first epoch reads the blocks in file order (one pass)."""
    params = model.get_params()
    return params.get("shuffle", "none") == "none" and params.get("class_weight") != "balanced"


def _restore(model, state):
    vars(model).clear()
    vars(model).update(state)


def _fit(model, chunks, classes, n_epochs, on_chunk, resume):
    shard = FileShard.of(chunks, classes=np.asarray(classes))
    shard.on_block = on_chunk
    if model.get_params().get("class_weight") is not None:
        weights = model.class_weight
        counts = class_counts(shard, len(classes)) if weights == "balanced" else None
        weights = counts.sum() / (len(classes) * np.maximum(counts, 1)) if \
            weights == "balanced" else class_weights(weights, np.asarray(classes))
        shard = with_class_weights(shard, weights)
    weighted = shard.weighted
    return model._train_on([shard], classes, chunks.n_features, resume=resume, epochs=n_epochs,
                           weighted=weighted)


__all__ = ["fit_chunks"]
