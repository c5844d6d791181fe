import warnings

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import Perceptron, PocketPerceptron
from rosenblatt.datasets import make_boolean

from . import _reference as ref


def fit_quietly(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y)


def assert_pocket_is_the_minimum_seen(model, X, y):
    trace = model.trace_
    seen = [ref.training_errors(X, y, trace.coef_init, trace.intercept_init)]
    seen += [ref.training_errors(X, y, w, b) for w, b in zip(trace.coef, trace.intercept)]
    pocket = ref.training_errors(X, y, model.coef_[0], model.intercept_[0])
    assert pocket == min(seen) == model.pocket_errors_[0]
    # the first weights that reached the minimum are the ones kept
    first = int(np.argmin(seen))
    if first > 0:
        assert_array_equal(model.coef_[0], trace.coef[first - 1])


@pytest.mark.parametrize("init", ["zeros", "uniform"])
def test_xor_pocket_is_the_minimum_over_the_run(init):
    X, y = make_boolean("xor")
    model = fit_quietly(PocketPerceptron(init=init, max_iter=30, record=True,
                                         pocket_every="update", random_state=2), X, y)
    assert_pocket_is_the_minimum_seen(model, X, y)


def test_noisy_real_data_pocket_is_the_minimum(a9a):
    X, y = a9a
    X, y = X[:1500], y[:1500]
    model = fit_quietly(PocketPerceptron(max_iter=4, record=True, pocket_every="update",
                                         random_state=0), X, y)
    assert_pocket_is_the_minimum_seen(model, X.toarray(), np.where(y > 0, 1, -1))
    vanilla = fit_quietly(Perceptron(max_iter=4, random_state=0), X, y)
    assert model.score(X, y) >= vanilla.score(X, y)


def test_running_weights_follow_the_plain_perceptron():
    X, y = make_boolean("xor")
    pocket = fit_quietly(PocketPerceptron(max_iter=6, shuffle="none", record=True), X, y)
    w, b, _, updates = ref.perceptron(X, y, max_iter=6)
    assert_array_equal(pocket.trace_.coef[-1], w)
    assert pocket.trace_.intercept[-1] == b and pocket.n_updates_ == updates


def test_separable_data_converges_with_zero_pocket_errors():
    X, y = make_boolean("and")
    model = PocketPerceptron(shuffle="none").fit(X, y)
    assert model.converged_ and model.pocket_errors_.tolist() == [0.0]
    assert model.score(X, y) == 1.0


def test_inseparable_warning_mentions_the_pocket():
    X, y = make_boolean("xor")
    with pytest.warns(ConvergenceWarning, match="pocket_errors_"):
        PocketPerceptron(max_iter=5).fit(X, y)
