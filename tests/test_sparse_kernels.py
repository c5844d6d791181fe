"""The CSR kernels' options change speed, never results: unsigned index views and
the prefetching dot (on when the weights exceed the L2 cache) give the weights of
the plain loop bit for bit, for int32 and int64 indices."""

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_array_equal

from rosenblatt import (
    AveragedPerceptron,
    LinearUnit,
    MulticlassPerceptron,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
)
from rosenblatt import _validation

from . import _reference as ref


def wide(index_dtype, n=400, d=2**18, per_row=12, seed=0):
    """Sparse rows over more features than the prefetch threshold."""
    rng = np.random.RandomState(seed)
    indices = rng.randint(0, d, size=n * per_row)
    X = sp.csr_matrix((rng.randint(1, 4, size=n * per_row).astype(float), indices,
                       np.arange(0, n * per_row + 1, per_row)), shape=(n, d))
    X.sum_duplicates()
    X.indices, X.indptr = X.indices.astype(index_dtype), X.indptr.astype(index_dtype)
    w = rng.randn(d)
    y = np.where(X @ w > 0, 1, -1)
    return X, y


ESTIMATORS = [
    Perceptron(max_iter=4, random_state=0),
    Perceptron(max_iter=4, shuffle="none"),
    AveragedPerceptron(max_iter=4, random_state=0),
    VotedPerceptron(max_iter=3, random_state=0),
    PocketPerceptron(max_iter=2, random_state=0),
    LinearUnit(solver="sgd", max_iter=3, random_state=0),
    LinearUnit(max_iter=3, random_state=0),
]


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_prefetching_changes_no_result(estimator, index_dtype, monkeypatch, recwarn):
    X, y = wide(index_dtype)
    assert X.shape[1] * 8 > _validation.PREFETCH_BYTES
    assert len(_validation.kernel_view(X)) == 4
    on = type(estimator)(**estimator.get_params()).fit(X, y)
    monkeypatch.setattr(_validation, "PREFETCH_BYTES", 1 << 40)
    assert len(_validation.kernel_view(X)) == 3
    off = type(estimator)(**estimator.get_params()).fit(X, y)
    assert_array_equal(on.coef_, off.coef_)
    assert_array_equal(on.intercept_, off.intercept_)
    assert_array_equal(on.decision_function(X), off.decision_function(X))


def test_prefetching_multiclass_changes_no_result(monkeypatch, recwarn):
    X, _ = wide(np.int32)
    y = np.random.RandomState(1).randint(0, 3, size=X.shape[0])
    on = MulticlassPerceptron(max_iter=3, average=True, random_state=0).fit(X, y)
    monkeypatch.setattr(_validation, "PREFETCH_BYTES", 1 << 40)
    off = MulticlassPerceptron(max_iter=3, average=True, random_state=0).fit(X, y)
    assert_array_equal(on.coef_, off.coef_)


def test_wide_sparse_perceptron_equals_the_oracle(recwarn):
    X, y = wide(np.int64, n=150, d=2**18, per_row=5)
    model = Perceptron(max_iter=5, shuffle="none").fit(X, y)
    w, b, epochs, _ = ref.perceptron(X.toarray(), y, max_iter=5)
    assert_array_equal(model.coef_[0], w)
    assert model.intercept_[0] == b and model.n_iter_ == epochs


def test_kernel_view_is_unsigned_and_copies_nothing():
    X, _ = wide(np.int32, n=10, d=50)
    data, indices, indptr = _validation.kernel_view(X)
    assert indices.dtype == np.uint32 and indptr.dtype == np.uint32
    assert np.shares_memory(indices, X.indices) and data is X.data
