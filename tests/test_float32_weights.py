"""``weights_dtype="float32"``: running weights stored in float32, every dot
product and update computed in float64 and rounded when stored — exactly the
plain loop doing that, close to float64 training, and float64 where it matters."""

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal

from rosenblatt import AveragedPerceptron, PassiveAggressiveClassifier, Perceptron
from rosenblatt.io import load, save


def real_valued(n=300, d=2**18, per_row=8, seed=0):
    """Wide CSR rows of random values (the kernels prefetch on this width)."""
    rng = np.random.RandomState(seed)
    X = sp.csr_matrix((rng.rand(n * per_row), rng.randint(0, d, size=n * per_row),
                       np.arange(0, n * per_row + 1, per_row)), shape=(n, d))
    X.sum_duplicates()
    score = X @ rng.randn(d)
    return X, np.where(score > np.median(score), 1, -1)


def float32_perceptron(X, y, epochs):
    """The perceptron over CSR rows in natural order, weights kept in float32."""
    w, b = np.zeros(X.shape[1], dtype=np.float32), 0.0
    for _ in range(epochs):
        for i in range(X.shape[0]):
            values = range(X.indptr[i], X.indptr[i + 1])
            activation = 0.0
            for k in values:
                activation += X.data[k] * float(w[X.indices[k]])
            if y[i] * (activation + b) <= 0:
                for k in values:
                    w[X.indices[k]] = np.float32(float(w[X.indices[k]]) + y[i] * X.data[k])
                b += y[i]
    return w, b


@pytest.mark.parametrize("d", [300, 2**18], ids=["narrow", "wide"])
def test_float32_kernel_equals_a_plain_float32_loop(d, recwarn):
    X, y = real_valued(n=120, d=d)
    model = Perceptron(max_iter=3, shuffle="none", weights_dtype="float32").fit(X, y)
    w, b = float32_perceptron(X, y, epochs=model.n_iter_)
    assert_array_equal(model.coef_[0], w.astype(np.float64))
    assert model.intercept_[0] == b


@pytest.mark.parametrize("estimator", [
    Perceptron(max_iter=5, random_state=0),
    AveragedPerceptron(max_iter=5, random_state=0),
    AveragedPerceptron(max_iter=5, penalty="elasticnet", random_state=0),
    PassiveAggressiveClassifier(max_iter=5, average=True, tol=None, random_state=0),
], ids=repr)
def test_float32_weights_stay_close_to_float64_training(estimator, recwarn):
    X, y = real_valued()
    exact = estimator.fit(X, y).coef_
    model = type(estimator)(**{**estimator.get_params(), "weights_dtype": "float32"}).fit(X, y)
    assert model._problems[0].coef.dtype == np.float32  # stored so while training
    assert model.coef_.dtype == np.float64
    averaging = getattr(model._problems[0].state, "u", None)
    assert averaging is None or averaging.dtype == np.float64
    assert_allclose(model.coef_, exact, rtol=0, atol=1e-4 * np.abs(exact).max())
    assert not np.array_equal(model.coef_, exact)  # float32 did round something


def test_float32_with_integer_steps_on_binary_data_is_exact(recwarn):
    X, y = real_valued()
    X.data[:] = 1.0
    for cls in (Perceptron, AveragedPerceptron):
        a = cls(max_iter=4, random_state=0).fit(X, y)
        b = cls(max_iter=4, random_state=0, weights_dtype="float32").fit(X, y)
        assert_array_equal(a.coef_, b.coef_)
        assert_array_equal(a.intercept_, b.intercept_)


def test_unknown_weights_dtype_is_refused():
    X, y = real_valued(n=20, d=30)
    with pytest.raises(ValueError, match="'weights_dtype' parameter of Perceptron must be"):
        Perceptron(weights_dtype="float16").fit(X, y)


def test_float32_option_survives_a_model_file(tmp_path, recwarn):
    X, y = real_valued(n=100, d=50)
    model = AveragedPerceptron(max_iter=3, random_state=0, weights_dtype="float32").fit(X, y)
    save(model, tmp_path / "model.zip")
    loaded = load(tmp_path / "model.zip")
    assert loaded.weights_dtype == "float32"
    assert_array_equal(loaded.decision_function(X), model.decision_function(X))
