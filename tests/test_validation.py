"""Bad input gets a ValueError that says what is wrong and what to do."""

import numpy as np
import pytest
import scipy.sparse as sp

from rosenblatt import Perceptron

from ._estimators import ALL

X_OK = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0]])
Y_OK = np.array([0, 0, 1, 1])


@pytest.fixture(params=ALL, ids=lambda cls: cls.__name__)
def estimator(request):
    return request.param(random_state=0)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_X(estimator, bad):
    X = X_OK.copy()
    X[1, 1] = bad
    with pytest.raises(ValueError, match="(NaN|infinity)"):
        estimator.fit(X, Y_OK)


def test_empty_X(estimator):
    with pytest.raises(ValueError, match="0 sample.*non-empty X"):
        estimator.fit(np.empty((0, 2)), np.empty(0))


def test_one_class_only(estimator):
    with pytest.raises(ValueError, match="only one class.*at least two"):
        estimator.fit(X_OK, [1, 1, 1, 1])


def test_length_mismatch(estimator):
    with pytest.raises(ValueError, match="inconsistent numbers of samples.*one label per row"):
        estimator.fit(X_OK, Y_OK[:3])


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # not the point
def test_wrong_feature_count_at_predict(estimator):
    estimator.fit(X_OK, Y_OK)
    with pytest.raises(ValueError, match="X has 3 features, but .* is expecting 2"):
        estimator.predict(np.ones((2, 3)))


def test_non_numeric_X(estimator):
    X = np.array([["a", "b"], ["c", "d"], ["e", "f"], ["g", "h"]], dtype=object)
    with pytest.raises(ValueError, match="X must be numeric.*OneHotEncoder"):
        estimator.fit(X, Y_OK)


def test_continuous_labels(estimator):
    with pytest.raises(ValueError, match="Unknown label type"):
        estimator.fit(X_OK, [0.1, 0.2, 0.3, 0.4])


def needs(estimator, parameter):
    if parameter not in estimator.get_params():
        pytest.skip(f"{type(estimator).__name__} has no {parameter!r}")


@pytest.mark.parametrize("eta", [0, -1.0])
def test_non_positive_eta(estimator, eta):
    needs(estimator, "eta")
    estimator.set_params(eta=eta)
    # a learning rate (0, inf); the confidence of CW and SCW, (0.5, 1)
    with pytest.raises(ValueError, match="'eta' parameter .* range \\((0.0, inf|0.5, 1.0)\\)"):
        estimator.fit(X_OK, Y_OK)


def test_unknown_init(estimator):
    needs(estimator, "init")
    estimator.set_params(init="ones")
    with pytest.raises(ValueError, match="'init' parameter"):
        estimator.fit(X_OK, Y_OK)


def test_init_of_the_wrong_shape(estimator):
    needs(estimator, "init")
    estimator.set_params(init=[1.0, 2.0])
    with pytest.raises(ValueError,
                       match=r"init must be finite with shape \((3,|2, 3)\).*got shape \(2,\)"):
        estimator.fit(X_OK, Y_OK)


def test_unknown_shuffle(estimator):
    needs(estimator, "shuffle")
    with pytest.raises(ValueError, match="'shuffle' parameter .*'every_epoch'.*Got 'sometimes'"):
        estimator.set_params(shuffle="sometimes").fit(X_OK, Y_OK)


def test_unknown_kernel_and_solver():
    from rosenblatt import KernelPerceptron, LinearUnit

    with pytest.raises(ValueError, match="'kernel' parameter"):
        KernelPerceptron(kernel="sigmoid").fit(X_OK, Y_OK)
    with pytest.raises(ValueError, match="'solver' parameter"):
        LinearUnit(solver="lbfgs").fit(X_OK, Y_OK)


def test_negative_sample_weight(estimator):
    with pytest.raises(ValueError, match="Negative values in data passed to `sample_weight`"):
        estimator.fit(X_OK, Y_OK, sample_weight=[1, -1, 1, 1])


def test_bad_random_state(estimator):
    estimator.set_params(random_state="seed")
    with pytest.raises(ValueError, match="'random_state' parameter"):
        estimator.fit(X_OK, Y_OK)


def test_predict_before_fit(estimator):
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError, match="not fitted yet"):
        estimator.predict(X_OK)


def test_warm_start_with_other_classes():
    model = Perceptron(warm_start=True, shuffle="none").fit(X_OK, Y_OK)
    with pytest.raises(ValueError, match="warm_start=True needs the classes"):
        model.fit(X_OK, [0, 1, 2, 2])


def test_partial_fit_balanced_class_weight_is_refused():
    with pytest.raises(ValueError, match="'balanced'.*partial_fit"):
        Perceptron(class_weight="balanced").partial_fit(X_OK, Y_OK, classes=[0, 1])


def test_early_stopping_without_enough_rows():
    with pytest.raises(ValueError, match="early_stopping could not hold out"):
        Perceptron(early_stopping=True, validation_fraction=0.1).fit(X_OK, Y_OK)


def test_inputs_are_not_copied_or_modified():
    X32 = np.ascontiguousarray(X_OK, dtype=np.float32)
    before = X32.copy()
    Perceptron(random_state=0).fit(X32, Y_OK)
    assert np.array_equal(X32, before)
    from rosenblatt._validation import validate_X_y

    X_checked, _ = validate_X_y(Perceptron(), X32, Y_OK, reset=True)
    assert X_checked is X32  # float32, C-contiguous: used as it is
    csr = sp.csr_matrix(X_OK)
    X_checked, _ = validate_X_y(Perceptron(), csr, Y_OK, reset=True)
    assert X_checked.data is csr.data


# one or two epochs on noisy rows, to measure memory: not converged
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_fit_on_dense_data_makes_no_copy_of_X():
    """Validation reads X where it is (no ``abs(X)``, no conversion of a C-contiguous
    float64 array): the fit's extra memory is a small fraction of X."""
    import tracemalloc

    rng = np.random.RandomState(0)
    X = rng.randn(40_000, 64)
    y = np.where(X[:, 0] + 0.3 * rng.randn(40_000) > 0, 1, -1)
    Perceptron(max_iter=1).fit(X[:50], y[:50])  # compile first
    tracemalloc.start()
    try:
        Perceptron(shuffle="every_epoch", max_iter=2, random_state=0).fit(X, y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < X.nbytes / 4, f"fit allocated {peak / 2**20:.1f} MiB for a " \
        f"{X.nbytes / 2**20:.1f} MiB X"
