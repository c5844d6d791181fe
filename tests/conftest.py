import pathlib

import numpy as np
import pytest
from sklearn.datasets import load_svmlight_file

DATA = pathlib.Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data():
    """Path of ../shared/data; tests that need it skip when it is absent."""
    if not DATA.is_dir():
        pytest.skip("../shared/data is absent (a user's checkout has no shared/)")
    return DATA


@pytest.fixture(scope="session")
def a9a(shared_data):
    X, y = load_svmlight_file(str(shared_data / "a9a"), n_features=123)
    return X, y.astype(int)


def integer_blobs(n=60, d=3, seed=0, separable=True):
    """Small integer-valued data, so every kernel and oracle computes exactly."""
    rng = np.random.RandomState(seed)
    X = rng.randint(-5, 6, size=(n, d)).astype(float)
    w = rng.randint(-3, 4, size=d)
    score = X @ w + 1
    if separable:
        keep = score != 0
        X, score = X[keep], score[keep]
    y = np.where(score > 0, 1, -1)
    if not separable:
        flip = rng.rand(len(y)) < 0.15
        y[flip] = -y[flip]
    return X, y
