"""The toy data of Kowalczyk's *SVM Succinctly*, shipped with the package."""

from importlib import resources

import numpy as np


def load_svm_succinctly(split="train"):
    """Kowalczyk's linearly separable toy set: 14 training or 32 test points in 2-D.

    The training set lists its 7 positive points, then its 7 negative points,
    as the book's ``linearly_separable`` data module does (PLA's random picks
    depend on that order).

    >>> X, y = load_svm_succinctly()
    >>> X.shape, y[:8].tolist()
    ((14, 2), [1, 1, 1, 1, 1, 1, 1, -1])
    """
    if split not in ("train", "test"):
        raise ValueError(f"split must be 'train' or 'test', got {split!r}.")
    path = resources.files("rosenblatt.datasets") / "data" / f"svm_succinctly_{split}.csv"
    with path.open() as handle:
        table = np.loadtxt(handle, delimiter=",", skiprows=1)
    return table[:, :2], table[:, 2].astype(int)
