"""Training on data larger than memory: ``partial_fit`` over the blocks of a file."""

import numbers
import warnings

from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import InvalidParameterError


def fit_chunks(model, chunks, *, n_epochs=1, on_chunk=None):
    """Train an online estimator on ``chunks`` (e.g. a
    :class:`~rosenblatt.datasets.ChunkedFile`), ``n_epochs`` passes in file order.

    Each block goes to ``partial_fit``, so memory stays at one block; with
    ``shuffle="none"`` the weights are those of fitting the concatenated blocks.
    Stops early after a pass without a mistake, like ``fit``; otherwise warns
    with ``ConvergenceWarning`` after the last pass. Returns the model.

    >>> import tempfile, pathlib, numpy as np
    >>> from rosenblatt import Perceptron
    >>> from rosenblatt.datasets import ChunkedFile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "and.npy"
    >>> np.save(path, np.array([[0., 0, -1], [0, 1, -1], [1, 0, -1], [1, 1, 1]]))
    >>> model = fit_chunks(Perceptron(shuffle="none"), ChunkedFile(path, 2), n_epochs=20)
    >>> model.intercept_.tolist(), model.coef_.tolist(), model.n_iter_
    ([-4.0], [[3.0, 2.0]], 9)
    """
    if not hasattr(model, "partial_fit"):
        raise ValueError(f"{type(model).__name__} has no partial_fit; train it in memory, or "
                         "choose an online estimator (Perceptron, AveragedPerceptron, ...).")
    if isinstance(n_epochs, bool) or not isinstance(n_epochs, numbers.Integral) or n_epochs < 1:
        raise ValueError(f"n_epochs must be a whole number of passes over the file, 1 or "
                         f"more; got {n_epochs!r}.")
    classes = chunks.classes
    where = getattr(chunks, "blocks_where", None)
    for epoch in range(1, n_epochs + 1):
        before = getattr(model, "n_updates_", 0)
        for index, (X, y) in enumerate(chunks):
            try:
                model.partial_fit(X, y, classes=classes)
            except InvalidParameterError:
                raise  # the model's parameters, not the block
            except ValueError as error:
                if where is None:
                    raise
                # say which rows of which file: partial_fit knows only the block
                raise ValueError(f"{where(index)} (block {index + 1}, epoch {epoch}): "
                                 f"{error}") from error
            if on_chunk is not None:
                on_chunk()
        model.n_iter_ = epoch
        model.converged_ = model.n_updates_ == before
        if model.converged_:
            return model
    warnings.warn(
        f"{type(model).__name__} made {n_epochs} passes over the file without a mistake-free "
        "one; the data may not be linearly separable — increase the number of epochs.",
        ConvergenceWarning, stacklevel=2,
    )
    return model


__all__ = ["fit_chunks"]
