"""Issue 33: linear scores need no duplicate summing; duplicates are found by one
compiled read of the rows, and summed only where a rule is not linear in ``x``."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from rosenblatt import KernelPerceptron, PassiveAggressiveClassifier, Perceptron
from rosenblatt._kernels import csr_has_duplicates
from rosenblatt._validation import _unsigned, sum_duplicates, validate_X


def has_duplicates_oracle(X):
    return any(len(set(X.indices[X.indptr[i]:X.indptr[i + 1]].tolist()))
               < X.indptr[i + 1] - X.indptr[i] for i in range(X.shape[0]))


def shuffled_rows(X, rng, repeat=0.0):
    """``X`` (CSR) with every row's entries in a random order and, with
    ``repeat`` > 0, that share of its entries split in two entries of one column."""
    data, indices, indptr = [], [], [0]
    for i in range(X.shape[0]):
        start, stop = X.indptr[i], X.indptr[i + 1]
        cols, vals = list(X.indices[start:stop]), list(X.data[start:stop])
        for k in range(len(cols)):
            if rng.rand() < repeat:
                vals[k] /= 2
                cols.append(cols[k])
                vals.append(vals[k])
        order = rng.permutation(len(cols))
        data.extend(np.asarray(vals)[order])
        indices.extend(np.asarray(cols, dtype=np.int64)[order])
        indptr.append(len(indices))
    return sp.csr_matrix((np.array(data), np.array(indices, dtype=np.int32),
                          np.array(indptr, dtype=np.int32)), shape=X.shape)


def stored_order_scores(X, coef, intercept):
    """The oracle: ``Σ_k data[k] w[indices[k]] + b`` in the stored order."""
    out = np.empty((X.shape[0], coef.shape[0]))
    for c in range(coef.shape[0]):
        for i in range(X.shape[0]):
            total = 0.0
            for k in range(X.indptr[i], X.indptr[i + 1]):
                total += X.data[k] * coef[c, X.indices[k]]
            out[i, c] = total + intercept[c]
    return out


def data(seed=0, n=60, d=30, density=0.3):
    rng = np.random.RandomState(seed)
    X = sp.random(n, d, density=density, format="csr", random_state=rng)
    X.data = np.round(rng.randn(X.nnz), 3)
    y = (X @ rng.randn(d) > 0).astype(int)
    y[:2] = [0, 1]
    return X, y, rng


@pytest.mark.parametrize("seed", range(20))
def test_duplicate_detection_agrees_with_the_oracle(seed):
    X, _, rng = data(seed, density=0.2 + 0.03 * seed)
    for repeat in (0.0, 0.01, 0.3):
        Y = shuffled_rows(X, rng, repeat)
        for M in (X, Y):
            got = csr_has_duplicates(_unsigned(M.indptr), _unsigned(M.indices), M.shape[1])
            assert got == has_duplicates_oracle(M)


def test_duplicate_detection_marks_do_not_leak_between_rows():
    # row 0 unsorted, holds column 3; row 1 unsorted, holds column 3 once
    M = sp.csr_matrix((np.ones(5), np.array([3, 1, 2, 3, 0]), np.array([0, 2, 5])),
                      shape=(2, 4))
    assert not csr_has_duplicates(_unsigned(M.indptr), _unsigned(M.indices), 4)
    M.indices[4] = 2  # now row 1 holds column 2 twice
    assert csr_has_duplicates(_unsigned(M.indptr), _unsigned(M.indices), 4)


def test_an_out_of_range_index_answers_duplicates():
    M = sp.csr_matrix((np.ones(2), np.array([1, 0]), np.array([0, 2])), shape=(1, 2))
    M.indices[0] = -1
    assert csr_has_duplicates(_unsigned(M.indptr), _unsigned(M.indices), 2)


def test_unsorted_rows_without_duplicates_are_not_copied():
    X, _, rng = data(1)
    Y = shuffled_rows(X, rng)
    assert not Y.has_sorted_indices or Y.nnz < 2
    assert sum_duplicates(Y) is Y


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("multiclass", [False, True])
def test_linear_scores_on_unsorted_and_repeated_columns(dtype, multiclass):
    """Bit for bit the stored-order sum of the matrix as given (no copy, no
    summing); to 1e-12 the scores of its canonical form (another order)."""
    X, y, rng = data(2)
    if multiclass:
        y = y + (X[:, 0].toarray().ravel() > 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = Perceptron(random_state=0, max_iter=5).fit(X, y)
    coef = np.atleast_2d(model.coef_)
    for repeat in (0.0, 0.3):
        Y = shuffled_rows(X, rng, repeat).astype(dtype)
        canonical = sp.csr_matrix(Y.toarray())
        assert validate_X(model, Y, reset=False, linear=True) is Y
        oracle = stored_order_scores(Y, coef, model.intercept_)
        # integer values go through the full validation path (converted, same structure)
        whole = Y.copy()
        whole.data = np.round(whole.data * 1000).astype(np.int64)
        whole_oracle = stored_order_scores(whole.astype(np.float64), coef, model.intercept_)
        for scores, expected in ((model.decision_function(Y), oracle),
                                 (model.decision_function(whole), whole_oracle)):
            assert np.array_equal(scores.reshape(len(y), -1), expected)
        for scores in (model.decision_function(Y),):
            scores = scores.reshape(len(y), -1)
            np.testing.assert_allclose(
                scores, model.decision_function(canonical).reshape(len(y), -1),
                rtol=1e-12 if dtype == np.float64 else 1e-6, atol=1e-12)
        assert np.array_equal(model.predict(Y),
                              model.classes_[np.argmax(oracle, axis=1)] if multiclass
                              else model.classes_[(oracle[:, 0] > 0).astype(int)])


def fitted_perceptron():
    X, y, rng = data(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Perceptron(random_state=0, max_iter=5).fit(X, y), X, rng


def test_out_of_range_indices_are_still_refused():
    model, X, rng = fitted_perceptron()
    for bad in (X.shape[1], -1):
        Y = shuffled_rows(X, rng, 0.2)
        Y.indices[3] = bad
        with pytest.raises(ValueError, match=r"has a column index -?\d+ outside \[0, 30\); "
                                             "it was built from inconsistent arrays"):
            model.decision_function(Y)
        with pytest.raises(ValueError, match="outside"):
            model.predict(Y)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_values_are_still_refused(bad):
    model, X, rng = fitted_perceptron()
    Y = shuffled_rows(X, rng, 0.2)
    Y.data[5] = bad
    with pytest.raises(ValueError, match="Input X contains (NaN|infinity)"):
        model.decision_function(Y)
    with pytest.raises(ValueError, match="Input X contains (NaN|infinity)"):
        model.predict(Y)


def test_overflowing_scores_are_still_refused():
    model, X, rng = fitted_perceptron()
    Y = shuffled_rows(X, rng, 0.2)
    Y.data[:] = 1e308 * np.sign(Y.data)
    with pytest.raises(ValueError, match=r"The decision scores of \d+ row\(s\) of X "
                                         "overflowed to inf or NaN"):
        model.decision_function(Y)


def test_a_matrix_modified_after_a_first_call_is_checked_again():
    model, X, rng = fitted_perceptron()
    Y = shuffled_rows(X, rng, 0.2)
    model.decision_function(Y)
    Y.indices[0] = X.shape[1] + 5
    with pytest.raises(ValueError, match="outside"):
        model.decision_function(Y)
    Y.indices[0] = 0
    Y.data[0] = np.nan
    with pytest.raises(ValueError, match="Input X contains NaN"):
        model.decision_function(Y)


@pytest.mark.parametrize("make", [
    lambda: PassiveAggressiveClassifier(random_state=0, max_iter=5, tol=None),
    lambda: KernelPerceptron(kernel="poly", degree=2, max_iter=3, random_state=0),
], ids=["PassiveAggressive", "KernelPerceptron"])
def test_rules_not_linear_in_x_still_see_summed_rows(make):
    """‖x‖² and kernels differ on a repeated column: those fits and a kernel
    model's scores are computed on the summed rows, as on the dense equal."""
    X, y, rng = data(4)
    Y = shuffled_rows(X, rng, 0.5)
    assert has_duplicates_oracle(Y)
    canonical = sp.csr_matrix(Y.toarray())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model, expected = make().fit(Y, y), make().fit(canonical, y)
    np.testing.assert_array_equal(model.decision_function(canonical),
                                  expected.decision_function(canonical))
    if isinstance(model, KernelPerceptron):
        np.testing.assert_array_equal(expected.decision_function(Y),
                                      expected.decision_function(canonical))


@pytest.mark.parametrize("parallel", [False, True])
def test_the_scoring_kernel_counts_the_scores_that_are_not_finite(parallel):
    from rosenblatt import _kernels
    from rosenblatt._validation import kernel_view

    X, _, rng = data(5)
    coef = rng.randn(2, X.shape[1])
    intercept = np.array([0.5, -1.0])
    kernel = _kernels.decision_function_parallel if parallel else _kernels.decision_function
    scores, not_finite = kernel(kernel_view(X), coef, intercept)
    assert not_finite == 0
    np.testing.assert_allclose(scores, X @ coef.T + intercept, rtol=1e-12)
    for bad in (np.inf, np.nan, 1e308):
        huge = X.copy()
        huge.data[:7] = bad
        scores, not_finite = kernel(kernel_view(huge), coef * 10, intercept)
        assert not_finite == np.count_nonzero(~np.isfinite(scores)) > 0


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the votes overflowing
def test_predict_skips_its_second_look_only_behind_the_linear_scores():
    from rosenblatt import MulticlassPerceptron, VotedPerceptron

    X, y, _ = data(6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        models = [cls(random_state=0, max_iter=3).fit(X, y)
                  for cls in (Perceptron, MulticlassPerceptron, VotedPerceptron)]
    assert [m._scores_refused_if_not_finite for m in models] == [True, False, False]
    huge = X.copy()
    huge.data[:] = 1e308 * np.sign(huge.data)
    for model in models:
        with pytest.raises(ValueError, match="overflowed to inf or NaN"):
            model.predict(huge)
