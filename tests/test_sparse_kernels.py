"""The CSR kernels read ``indices``/``indptr`` through unsigned views and sum the
sparse dot without reassociation: the results are those of the plain loop, bit
for bit, for int32 and int64 indices and wide weight vectors."""

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_array_equal

from rosenblatt import (
    AveragedPerceptron,
    LinearUnit,
    MulticlassPerceptron,
    PassiveAggressiveClassifier,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
    _validation,
)

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


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_int32_and_int64_indices_give_the_same_weights(estimator, recwarn):
    fits = []
    for index_dtype in (np.int32, np.int64):
        X, y = wide(index_dtype)
        fits.append(type(estimator)(**estimator.get_params()).fit(X, y))
    assert_array_equal(fits[0].coef_, fits[1].coef_)
    assert_array_equal(fits[0].intercept_, fits[1].intercept_)
    assert_array_equal(fits[0].decision_function(X), fits[1].decision_function(X))


def test_multiclass_on_wide_csr_equals_dense(recwarn):
    X, _ = wide(np.int32, n=120, d=3000)
    y = np.random.RandomState(1).randint(0, 3, size=X.shape[0])
    sparse = MulticlassPerceptron(max_iter=3, average=True, random_state=0).fit(X, y)
    dense = MulticlassPerceptron(max_iter=3, average=True, random_state=0).fit(X.toarray(), y)
    assert_array_equal(sparse.coef_, dense.coef_)


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


def _malformed(kind):
    X = sp.csr_matrix(np.eye(4))
    if kind == "negative index":
        X.indices[0] = -1
    elif kind == "index past the last column":
        X.indices[2] = 4
    elif kind == "decreasing indptr":
        X.indptr[1] = 3
    elif kind == "indptr past the data":
        X.indptr[4] = 9
    return X


MALFORMED = ["negative index", "index past the last column", "decreasing indptr",
             "indptr past the data"]


@pytest.mark.parametrize("kind", MALFORMED)
def test_malformed_csr_is_refused_before_any_kernel_reads_it(kind):
    """scipy checks only the lengths; a kernel trusting these indices would read
    out of bounds (a crash, or a silent read of another column)."""
    X = _malformed(kind)
    with pytest.raises(ValueError, match="CSR matrix X has .* Rebuild it"):
        Perceptron().fit(X, [0, 1, 1, 0])
    model = Perceptron(shuffle="none").fit(np.eye(4), [0, 1, 1, 0])
    with pytest.raises(ValueError, match="CSR matrix X has .* Rebuild it"):
        model.predict(X)


@pytest.mark.parametrize("estimator", ESTIMATORS[:4], ids=repr)
def test_binary_values_path_changes_no_result(estimator, monkeypatch, recwarn):
    """All-ones CSR values take the twins that do not read them: the weights and
    scores are those of the general CSR loop, bit for bit."""
    X, y = wide(np.int32)
    X.data[:] = 1.0
    assert _validation.kernel_view(X)[0] is None
    binary = type(estimator)(**estimator.get_params()).fit(X, y)
    binary_scores = binary.decision_function(X)
    monkeypatch.setattr(_validation, "all_ones", lambda values: False)
    assert _validation.kernel_view(X)[0] is X.data
    general = type(estimator)(**estimator.get_params()).fit(X, y)
    assert_array_equal(binary.coef_, general.coef_)
    assert_array_equal(binary.intercept_, general.intercept_)
    assert_array_equal(binary_scores, general.decision_function(X))


def test_prediction_checks_finiteness_after_the_product_with_the_same_results():
    """decision_function on float arrays and CSR input skips scikit-learn's scan of
    the values and checks the scores instead: the same scores and the same errors as
    the full validation path."""
    import warnings

    from rosenblatt import Perceptron
    from rosenblatt._validation import validate_X
    from rosenblatt.base._linear import _linear_scores

    rng = np.random.RandomState(0)
    dense = rng.randn(80, 12) * (rng.rand(80, 12) < 0.3)
    y = np.where(dense @ rng.randn(12) > 0, 1, -1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = Perceptron(max_iter=5, random_state=0).fit(dense, y)
    for container in (sp.csr_matrix, sp.csr_array, np.ascontiguousarray, np.asfortranarray):
        for dtype in (np.float64, np.float32):
            X = container(dense.astype(dtype))
            full = _linear_scores(validate_X(model, X, reset=False), model.coef_,
                                  model.intercept_).ravel()
            assert np.array_equal(model.decision_function(X), full)
    for bad, word in ((np.nan, "NaN"), (np.inf, "infinity")):
        X = sp.csr_matrix(dense)
        X.data[3] = bad
        with pytest.raises(ValueError, match=word):
            model.decision_function(X)
        X = dense.copy()
        X[5, 7] = bad
        with pytest.raises(ValueError, match=word):
            model.decision_function(X)
    model.coef_ = model.coef_ * 1e10
    for huge in (sp.csr_matrix(dense * 1e300), dense * 1e300):  # scores overflow: refused
        with np.errstate(over="ignore", invalid="ignore"):
            full = _linear_scores(validate_X(model, huge, reset=False), model.coef_,
                                  model.intercept_).ravel()
            assert not np.isfinite(full).all()
            with pytest.raises(ValueError, match="overflowed to inf or NaN"):
                model.decision_function(huge)
    with pytest.raises(ValueError, match="12 features"):
        model.decision_function(sp.csr_matrix(dense[:, :5]))
    with pytest.raises(ValueError, match="12 features"):
        model.decision_function(dense[:, :5])
    broken = sp.csr_matrix(dense)
    broken.indices[0] = 99
    with pytest.raises(ValueError, match="index"):
        model.decision_function(broken)


PREFETCHED = ESTIMATORS + [
    AveragedPerceptron(max_iter=3, shuffle="none"),
    MulticlassPerceptron(max_iter=3, random_state=0),
    PassiveAggressiveClassifier(max_iter=3, average=True, random_state=0),
    Perceptron(max_iter=3, penalty="elasticnet", alpha=1e-4, random_state=0),
]


@pytest.mark.parametrize("binary", [False, True], ids=["values", "binary"])
@pytest.mark.parametrize("estimator", PREFETCHED, ids=repr)
def test_prefetching_changes_no_result(estimator, binary, monkeypatch, recwarn):
    """Wide CSR data carry a look-ahead and the kernels prefetch the rows ahead
    (in natural and in shuffled order): weights and scores are those of the
    kernels without it, bit for bit."""
    X, y = wide(np.int32, n=300)
    if isinstance(estimator, MulticlassPerceptron):
        y = np.random.RandomState(2).randint(0, 3, size=X.shape[0])
    if binary:
        X.data[:] = 1.0
    kernel_X = _validation.kernel_view(X)
    assert len(kernel_X) == 4 and kernel_X[3] == _validation.PREFETCH_ROWS_AHEAD
    fits = [type(estimator)(**estimator.get_params()).fit(X, y)]
    monkeypatch.setattr(_validation, "PREFETCH_FEATURES", 2**40)
    assert len(_validation.kernel_view(X)) == 3
    fits.append(type(estimator)(**estimator.get_params()).fit(X, y))
    assert_array_equal(fits[0].coef_, fits[1].coef_)
    assert_array_equal(fits[0].intercept_, fits[1].intercept_)
    monkeypatch.undo()
    prefetched_scores = fits[0].decision_function(X)
    monkeypatch.setattr(_validation, "PREFETCH_FEATURES", 2**40)
    assert_array_equal(prefetched_scores, fits[0].decision_function(X))


def test_parallel_scoring_with_prefetch_equals_the_serial_kernel():
    from rosenblatt import _kernels

    X, _ = wide(np.int64, n=500)
    coef = np.random.RandomState(3).randn(2, X.shape[1])
    intercept = np.array([0.5, -1.0])
    prefetching, plain = _validation.kernel_view(X), _validation.kernel_view(X)[:3]
    expected, not_finite = _kernels.decision_function(plain, coef, intercept)
    assert not_finite == 0
    assert_array_equal(_kernels.decision_function(prefetching, coef, intercept)[0], expected)
    assert_array_equal(_kernels.decision_function_parallel(prefetching, coef, intercept)[0],
                       expected)
    np.testing.assert_allclose(expected, X @ coef.T + intercept, rtol=1e-12)


@pytest.mark.parametrize("estimator", [
    *ESTIMATORS[:3], ESTIMATORS[5],
    MulticlassPerceptron(max_iter=3, average=True, random_state=0),
], ids=repr)
def test_unit_row_weights_are_compiled_away_with_the_same_results(estimator, monkeypatch,
                                                                    recwarn):
    """Without sample weights the online kernels get ``sw=None`` and skip the
    weight of each row: the weights are those of passing the ones, bit for bit
    (shuffled order and the prefetching wide loop included)."""
    from rosenblatt.base._problem import TrainingData

    X, y = wide(np.int32)
    if isinstance(estimator, MulticlassPerceptron):
        y = np.arange(X.shape[0]) % 3
    assert TrainingData(X, None, y, np.ones(X.shape[0])).kernel_sw is None
    unweighted = type(estimator)(**estimator.get_params()).fit(X, y)
    monkeypatch.setattr(TrainingData, "kernel_sw", property(lambda data: data.sw))
    weighted = type(estimator)(**estimator.get_params()).fit(X, y)
    assert_array_equal(unweighted.coef_, weighted.coef_)
    assert_array_equal(unweighted.intercept_, weighted.intercept_)
    assert np.all(unweighted.n_iter_ == weighted.n_iter_)


@pytest.mark.parametrize("n", [0, 1, 4095, 4096, 4097, 9000])
def test_all_ones_finds_one_other_value_anywhere(n):
    """The binary path's test scans in blocks and stops at the first block with
    another value: a single other value (or a NaN) at any position, first or
    last block, must still be seen."""
    from rosenblatt._kernels import all_ones

    values = np.ones(n)
    assert all_ones(values)
    for position in {0, n // 2, 4095, 4096, n - 1} & set(range(n)):
        for other in (0.0, -1.0, 1.0 + 1e-16 * 2, np.nan):
            values[position] = other
            assert not all_ones(values), (position, other)
            values[position] = 1.0
