"""``run_epoch`` (one epoch over a block, no estimator) and ``make_estimator``."""

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal

from rosenblatt import AveragedPerceptron, LinearUnit, MulticlassPerceptron, Perceptron
from rosenblatt.engine import make_estimator, on_epoch, run_epoch

from .conftest import integer_blobs


def blobs(layout):
    X, y = integer_blobs(n=70, d=4, seed=2, separable=False)
    return (sp.csr_matrix(X) if layout == "csr" else X), y.astype(float)


def one_partial_fit_epoch(model, X, y, **kwargs):
    return model.partial_fit(X, y, classes=np.unique(y), **kwargs)


@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_perceptron_epoch_equals_one_partial_fit_epoch(layout):
    X, y = blobs(layout)
    weights = np.random.RandomState(0).rand(len(y)).round(2)
    model = one_partial_fit_epoch(Perceptron(shuffle="none", eta=0.5), X, y,
                                  sample_weight=weights)
    result = run_epoch(X, y, np.zeros(4), np.zeros(1), sample_weight=weights, eta=0.5)
    assert_array_equal(result.coef, model.coef_[0])
    assert_array_equal(result.intercept, model.intercept_)
    assert result.n_updates == model.n_updates_ and result.n_examples == len(y)


def test_order_visits_the_rows_in_that_order():
    X, y = blobs("dense")
    order = np.random.RandomState(1).permutation(len(y))
    result = run_epoch(X, y, np.zeros(4), 0.0, order=order)
    again = run_epoch(X[order], y[order], np.zeros(4), 0.0)
    assert_array_equal(result.coef, again.coef)
    assert_array_equal(result.intercept, again.intercept)


@pytest.mark.parametrize("layout", ["dense", "csr"])
def test_averaged_sum_over_examples_gives_the_averaged_perceptron(layout):
    X, y = blobs(layout)
    model = one_partial_fit_epoch(AveragedPerceptron(shuffle="none"), X, y)
    result = run_epoch(X, y, np.zeros(4), np.zeros(1), average=True)
    assert_allclose(result.coef_sum / result.n_examples, model.coef_[0], rtol=1e-12,
                    atol=1e-12)
    assert_allclose(result.intercept_sum / result.n_examples, model.intercept_, rtol=1e-12)


def test_averaged_sum_is_the_plain_sum_of_the_weights_after_each_row():
    X, y = blobs("dense")
    w, b, total, total_b = np.full(4, 0.5), 0.25, np.zeros(4), 0.0
    start = (w.copy(), b)
    for i in range(len(y)):  # the sum, written out
        if y[i] * (X[i] @ w + b) <= 0:
            w, b = w + y[i] * X[i], b + y[i]
        total, total_b = total + w, total_b + b
    result = run_epoch(X, y, *start, average=True)
    assert_allclose(result.coef_sum, total, rtol=1e-12)
    assert_allclose(result.intercept_sum, [total_b], rtol=1e-12)


def test_linear_unit_epoch_equals_its_sgd_solver():
    X, y = blobs("dense")
    model = LinearUnit(solver="sgd", shuffle="none", eta=0.001, init="zeros")
    model.partial_fit(X, y, classes=[-1.0, 1.0])
    result = run_epoch(X, y, np.zeros(4), 0.0, rule="linear_unit", eta=0.001)
    assert_array_equal(result.coef, model.coef_[0])
    assert_array_equal(result.intercept, model.intercept_)


@pytest.mark.parametrize("average", [False, True])
def test_multiclass_epoch_equals_the_multiclass_perceptron(average):
    rng = np.random.RandomState(3)
    X = rng.randint(-4, 5, size=(90, 3)).astype(float)
    y = rng.randint(0, 3, size=90)
    model = MulticlassPerceptron(shuffle="none", average=average)
    model.partial_fit(X, y, classes=[0, 1, 2])
    result = run_epoch(X, y, np.zeros((3, 3)), np.zeros(3), rule="multiclass",
                       average=average)
    coef = result.coef_sum / result.n_examples if average else result.coef
    assert_allclose(coef, model.coef_, rtol=1e-12, atol=1e-12)


def test_inputs_are_never_modified():
    X, y = blobs("dense")
    coef, intercept = np.ones(4), np.ones(1)
    X_before, y_before = X.copy(), y.copy()
    result = run_epoch(X, y, coef, intercept, average=True)
    assert_array_equal(coef, np.ones(4))
    assert_array_equal(intercept, np.ones(1))
    assert_array_equal(X, X_before)
    assert_array_equal(y, y_before)
    assert result.coef is not coef and not np.array_equal(result.coef, coef)


def test_unknown_rule_is_refused():
    X, y = blobs("dense")
    with pytest.raises(ValueError, match="rule must be one of"):
        run_epoch(X, y, np.zeros(4), 0.0, rule="pocket")


def test_make_estimator_by_short_or_class_name():
    assert type(make_estimator("averaged")) is AveragedPerceptron
    assert make_estimator("Perceptron", eta=0.5).eta == 0.5
    with pytest.raises(ValueError, match="unknown model 'adaline'; choose one of"):
        make_estimator("adaline")
    with pytest.raises(ValueError, match="eta"):
        make_estimator("perceptron", eta=-1)
    with pytest.raises(ValueError, match="PLA does not take"):
        make_estimator("pla", max_iter=3)


def test_on_epoch_sees_every_epoch_then_lets_go():
    X, y = blobs("dense")
    model = Perceptron(shuffle="none", max_iter=4)
    seen = []
    with pytest.warns(Warning), on_epoch(model, lambda problem: seen.append(problem.n_iter)):
        model.fit(X, y)
    assert seen == [1, 2, 3, 4]
    with pytest.warns(Warning):
        model.fit(X, y)
    assert seen == [1, 2, 3, 4]


@pytest.mark.parametrize("case, match", [
    ("short y", "y has shape"),
    ("short sample_weight", "sample_weight has shape"),
    ("order past the end", r"order holds row 70, outside \[0, 70\)"),
    ("negative order", "order holds row -1, outside"),
    ("coef of another width", "coef and intercept of shapes"),
    ("two intercepts", "coef and intercept of shapes"),
    ("class index past coef", r"class indices in \[0, 3\)"),
    ("bad CSR index", "CSR matrix X has a column index"),
])
def test_sizes_that_would_make_the_kernel_read_out_of_bounds_are_refused(case, match):
    """The kernels test no bounds: run_epoch (public, called per shard) checks
    every array it hands them against X, rather than read past their ends."""
    X, y = blobs("dense")
    n, d = X.shape
    kwargs = dict(X=X, y=y, coef=np.zeros(d), intercept=np.zeros(1))
    if case == "short y":
        kwargs["y"] = y[:-1]
    elif case == "short sample_weight":
        kwargs["sample_weight"] = np.ones(n - 1)
    elif case == "order past the end":
        kwargs["order"] = np.arange(n + 1)
    elif case == "negative order":
        kwargs["order"] = np.array([0, -1])
    elif case == "coef of another width":
        kwargs["coef"] = np.zeros(d + 1)
    elif case == "two intercepts":
        kwargs["intercept"] = np.zeros(2)
    elif case == "class index past coef":
        kwargs.update(y=np.arange(n) % 4, coef=np.zeros((3, d)), intercept=np.zeros(3),
                      rule="multiclass")
    else:
        X = sp.csr_matrix(X)
        X.indices[0] = d + 5
        kwargs["X"] = X
    assert n == 70
    with pytest.raises(ValueError, match=match):
        run_epoch(**kwargs)


def test_unit_sample_weights_give_the_unweighted_epoch_bit_for_bit():
    """Weights all 1 are dropped (the kernel compiles the weight away); weights
    of 1 and 0 skip rows exactly as an order without those rows does."""
    X, y = blobs("csr")
    plain = run_epoch(X, y, np.zeros(4), 0.0, average=True)
    ones = run_epoch(X, y, np.zeros(4), 0.0, average=True, sample_weight=np.ones(len(y)))
    assert_array_equal(plain.coef, ones.coef)
    assert_array_equal(plain.coef_sum, ones.coef_sum)
    keep = np.arange(len(y)) % 3 != 0
    masked = run_epoch(X, y, np.zeros(4), 0.0, average=True, sample_weight=keep * 1.0)
    subset = run_epoch(X, y, np.zeros(4), 0.0, average=True, order=np.flatnonzero(keep))
    assert_array_equal(masked.coef, subset.coef)
    assert_array_equal(masked.coef_sum, subset.coef_sum)
    assert masked.n_examples == subset.n_examples == keep.sum()
