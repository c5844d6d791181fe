"""OnlineGradientDescent's options (issue 32): scikit-learn's learning-rate schedules,
its penalties and averaging, each against a plain-Python loop written from the
definitions, against scikit-learn's SGDClassifier itself, across partial_fit calls,
file blocks, model files and parameter mixing; and the parameters refused."""

import math
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import SGDClassifier

from rosenblatt.datasets import ChunkedFile
from rosenblatt.distributed import ParameterMixing
from rosenblatt.io import load, save
from rosenblatt.linear_model import OnlineGradientDescent
from rosenblatt.streaming import fit_chunks

RTOL = 1e-12


def make_data(seed=0, n=70, d=6):
    rng = np.random.RandomState(seed)
    X = rng.standard_normal((n, d))
    X[rng.rand(n, d) < 0.4] = 0.0
    X[[5, 30]] = 0.0  # rows with nothing stored
    y = np.where(X @ rng.standard_normal(d) + 0.6 * rng.standard_normal(n) > 0, 1, -1)
    return X, y


def gradient(loss, y, f):
    """``−∂loss/∂f``, from the losses' definitions."""
    z = y * f
    if loss == "hinge":
        return y if z < 1 else 0.0
    if loss == "logistic":
        return y / (1 + math.exp(z))
    if loss == "squared":
        return y - f
    return y if z <= 0 else 0.0  # perceptron


def rate(schedule, t, eta=1.0, power_t=0.5, alpha=1e-4, loss="hinge"):
    """η_t as scikit-learn's SGDClassifier documents it."""
    if schedule == "constant":
        return eta
    if schedule == "invscaling":
        return eta / t ** power_t
    typw = math.sqrt(1 / math.sqrt(alpha))  # optimal: Bottou's t0
    first = typw / max(1.0, -gradient(loss, 1.0, -typw))
    return 1 / (alpha * (1 / (first * alpha) + t - 1))


def plain_ogd(X, y, epochs, *, loss="hinge", schedule="invscaling", eta=1.0, power_t=0.5,
              penalty=None, alpha=1e-4, l1_ratio=0.15, sparse=False, sample_weight=None,
              fit_intercept=True, rates=None, l1_per_epoch=False):
    """Online gradient descent as a plain loop, rows in order, from w = 0: the
    shrink ``w *= max(0, 1 − (1 − ρ) α η_t)``, the step, the cumulative L1
    truncation of Tsuruoka et al. (every feature of a dense row, the stored ones
    of a CSR row); returns the last weights and the mean of the weights after
    every example. ``rates`` (one per epoch) overrides the schedule; ``l1_per_epoch``
    starts the L1 memory afresh each epoch (each ``partial_fit`` call does)."""
    rho = {"l2": 0.0, "l1": 1.0, "elasticnet": l1_ratio, None: 0.0}[penalty]
    n, d = X.shape
    sw = np.ones(n) if sample_weight is None else sample_weight
    w, b, t = np.zeros(d), 0.0, 0
    u, q = 0.0, np.zeros(d)
    total_w, total_b = np.zeros(d), 0.0
    for epoch in range(epochs):
        if l1_per_epoch:
            u, q = 0.0, np.zeros(d)
        for i in range(n):
            if sw[i] == 0:
                continue
            x = X[i]
            t += 1
            eta_t = rates[epoch] if rates is not None else \
                rate(schedule, t, eta, power_t, alpha, loss)
            f = w @ x + b
            if penalty is not None:
                w = w * max(0.0, 1 - (1 - rho) * alpha * eta_t)
            g = gradient(loss, y[i], f)
            if g != 0:
                w = w + eta_t * sw[i] * g * x
                if fit_intercept:
                    b += eta_t * sw[i] * g
            if penalty is not None and rho > 0:
                u += rho * alpha * eta_t
                for j in (np.flatnonzero(x) if sparse else range(d)):
                    z = w[j]
                    if z > 0:
                        w[j] = max(0.0, z - (u + q[j]))
                    elif z < 0:
                        w[j] = min(0.0, z + (u - q[j]))
                    q[j] += w[j] - z
            total_w += w
            total_b += b
    return (w, b), (total_w / t, total_b / t)


def ours(X, y, epochs, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return OnlineGradientDescent(shuffle="none", tol=None, max_iter=epochs,
                                     **params).fit(X, y)


def close(model, weights):
    coef, intercept = weights
    scale = max(1.0, np.max(np.abs(coef)))
    assert_allclose(model.coef_[0], coef, rtol=RTOL, atol=RTOL * scale)
    assert_allclose(model.intercept_[0], intercept, rtol=RTOL, atol=RTOL * scale)


SCHEDULES = [("constant", {"eta": 0.05}), ("invscaling", {"eta": 0.5, "power_t": 0.3}),
             ("invscaling", {}), ("optimal", {"alpha": 0.01})]


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("loss", ["hinge", "logistic", "squared", "perceptron"])
@pytest.mark.parametrize("schedule, options", SCHEDULES, ids=lambda v: str(v))
def test_each_schedule_is_the_plain_loop(schedule, options, loss, sparse):
    X, y = make_data(1)
    if loss == "squared":
        options = {**options, "eta": options.get("eta", 1.0) * 0.1}
        if schedule == "optimal":
            options["alpha"] = 1.0  # a first step of 1: squared steps stay bounded
    model = ours(sp.csr_matrix(X) if sparse else X, y, 3, loss=loss, learning_rate=schedule,
                 **options)
    last, _ = plain_ogd(X, y, model.n_iter_, loss=loss, schedule=schedule, **options)
    assert model.n_iter_ == 3
    close(model, last)


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("penalty", ["l2", "l1", "elasticnet"])
@pytest.mark.parametrize("schedule, options", SCHEDULES[:2] + SCHEDULES[3:],
                         ids=lambda v: str(v))
def test_each_penalty_is_the_plain_loop(schedule, options, penalty, sparse):
    X, y = make_data(2)
    options = {**options, "alpha": options.get("alpha", 0.02)}
    model = ours(sp.csr_matrix(X) if sparse else X, y, 4, learning_rate=schedule,
                 penalty=penalty, l1_ratio=0.4, **options)
    last, _ = plain_ogd(X, y, 4, schedule=schedule, penalty=penalty, l1_ratio=0.4,
                        sparse=sparse, **options)
    close(model, last)
    if penalty == "l1":  # the truncation makes exact zeros
        assert (model.coef_ == 0).any() == (last[0] == 0).any()


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("penalty", [None, "l2", "elasticnet"])
@pytest.mark.parametrize("schedule, options", SCHEDULES[:2] + SCHEDULES[3:],
                         ids=lambda v: str(v))
def test_the_averaged_weights_are_the_mean_of_the_iterates(schedule, options, penalty,
                                                          sparse):
    X, y = make_data(3)
    sw = np.random.RandomState(0).choice([0.0, 0.5, 1.0, 2.0], size=len(y))
    options = {**options, "alpha": options.get("alpha", 0.02)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = OnlineGradientDescent(shuffle="none", tol=None, max_iter=3, average=True,
                                      learning_rate=schedule, penalty=penalty,
                                      **options).fit(sp.csr_matrix(X) if sparse else X, y,
                                                     sample_weight=sw)
    last, mean = plain_ogd(X, y, 3, schedule=schedule, penalty=penalty, sparse=sparse,
                           sample_weight=sw, **options)
    close(model, mean)
    assert model.n_examples_ == 3 * np.count_nonzero(sw)
    running = model._problems[0].coef  # the running weights go on as without averaging
    assert_allclose(running, last[0], rtol=RTOL, atol=RTOL * max(1, np.abs(last[0]).max()))


L_SKLEARN = {"hinge": "hinge", "logistic": "log_loss", "squared": "squared_error",
             "perceptron": "perceptron"}


@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("penalty", [None, "l2", "l1", "elasticnet"])
@pytest.mark.parametrize("schedule", ["constant", "invscaling", "optimal"])
@pytest.mark.parametrize("loss", ["hinge", "logistic"])
def test_scikit_learns_sgd_takes_the_same_steps(loss, schedule, penalty, average):
    """The documented mapping: eta is SGDClassifier's eta0, the rest by name. With L1
    and averaging scikit-learn averages before each truncation, we after it."""
    if penalty in ("l1", "elasticnet") and average:
        pytest.skip("scikit-learn's mean is taken before the L1 truncation (documented)")
    X, y = make_data(4)
    model = ours(X, y, 3, loss=loss, learning_rate=schedule, eta=0.1, power_t=0.4,
                 penalty=penalty, alpha=0.01, average=average)
    theirs = SGDClassifier(loss=L_SKLEARN[loss], learning_rate=schedule, eta0=0.1,
                           power_t=0.4, penalty=penalty, alpha=0.01, average=average,
                           shuffle=False, tol=None, max_iter=3).fit(X, y)
    assert_allclose(model.coef_, theirs.coef_, rtol=1e-12, atol=1e-13)
    assert_allclose(model.intercept_, theirs.intercept_, rtol=1e-12, atol=1e-13)


def test_the_defaults_are_zinkevichs_step_bit_for_bit():
    X, y = make_data(5)
    default = ours(X, y, 3)
    explicit = ours(X, y, 3, learning_rate="invscaling", power_t=0.5, eta=1.0, penalty=None,
                    average=False)
    assert_array_equal(default.coef_, explicit.coef_)
    w = np.zeros(X.shape[1] + 1)
    Xb = np.column_stack([X, np.ones(len(y))])
    t = 0
    for _ in range(3):  # the textbook loop, the step η/√t computed as it always was
        for x, label in zip(Xb, y):
            t += 1
            if label * (w @ x) < 1:
                w = w + 1.0 / math.sqrt(t) * label * x
    assert_allclose(default.coef_[0], w[:-1], rtol=1e-13)


# ------------------------------------------------------------------------- adaptive

def stall_rates(mistakes, n_rows, eta, tol, n_iter_no_change):
    """The rate of each epoch under the adaptive schedule, from the epochs' mistakes:
    the stopping rule's stall (no fall by tol × n below the fewest so far for
    n_iter_no_change epochs) divides it by 5 while it is above 1e-6."""
    rates, current, fewest, stale = [], eta, math.inf, 0
    for m in mistakes:
        rates.append(current)
        stale = 0 if m < fewest - tol * n_rows else stale + 1
        fewest = min(fewest, m)
        if stale >= n_iter_no_change and current > 1e-6:
            current /= 5
            stale = 0
    return rates


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
def test_the_adaptive_rate_is_divided_by_5_at_each_stall(sparse):
    X, y = make_data(6, n=80)
    y[::7] *= -1  # noise: the mistakes stall
    model = OnlineGradientDescent(learning_rate="adaptive", eta=0.5, shuffle="none",
                                  n_iter_no_change=2, tol=0.01, max_iter=60).fit(
        sp.csr_matrix(X) if sparse else X, y)
    rates = stall_rates(model.n_mistakes_, len(y), 0.5, 0.01, 2)
    assert rates[-1] < 0.5 / 5 ** 3  # the rule divided it several times
    assert model.stop_reason_ == "tol" and rates[-1] <= 1e-6 * 5  # then the stall stopped it
    last, _ = plain_ogd(X, y, model.n_iter_, rates=rates)
    close(model, last)
    assert model._problems[0].state.rate == pytest.approx(rates[-1] / 5 if rates[-1] > 1e-6
                                                          else rates[-1])


def test_adaptive_without_tol_keeps_its_rate():
    X, y = make_data(7)
    model = ours(X, y, 4, learning_rate="adaptive", eta=0.2)
    close(model, plain_ogd(X, y, 4, schedule="constant", eta=0.2)[0])
    assert model._problems[0].state.rate == 0.2


# ------------------------------------------------ partial_fit, files, model files, shards

OPTIONS = [
    {"average": True},
    {"average": True, "learning_rate": "optimal", "penalty": "l2", "alpha": 0.01},
    {"learning_rate": "adaptive", "eta": 0.3, "tol": 0.01, "n_iter_no_change": 1,
     "average": True},
    {"penalty": "elasticnet", "alpha": 0.01, "learning_rate": "constant", "eta": 0.1},
]


@pytest.mark.parametrize("options", OPTIONS, ids=repr)
def test_partial_fit_epochs_are_the_fits_epochs(options):
    X, y = make_data(8)
    params = {"shuffle": "none", "tol": None, "max_iter": 4, **options}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        whole = OnlineGradientDescent(**params).fit(X, y)
    calls = OnlineGradientDescent(**params)
    for _ in range(whole.n_iter_):
        calls.partial_fit(X, y, classes=[-1, 1])
    if options.get("penalty") in ("l1", "elasticnet"):
        # the L1 memory starts afresh with each call, as scikit-learn's does
        options = {k: v for k, v in options.items() if k != "learning_rate"}
        assert_allclose(calls.coef_, whole.coef_, rtol=0.6)  # near, not equal
        close(calls, plain_ogd(X, y, whole.n_iter_, schedule="constant", l1_ratio=0.15,
                               l1_per_epoch=True, **options)[0])
        close(whole, plain_ogd(X, y, whole.n_iter_, schedule="constant", l1_ratio=0.15,
                               **options)[0])
    else:
        assert_array_equal(calls.coef_, whole.coef_)
        assert_array_equal(calls.intercept_, whole.intercept_)


@pytest.mark.parametrize("options", OPTIONS, ids=repr)
def test_a_file_in_blocks_trains_as_in_memory(options, tmp_path):
    X, y = make_data(9, n=90)
    path = tmp_path / "d.npy"
    np.save(path, np.column_stack([X, y]))
    params = {"shuffle": "none", "random_state": 0, "max_iter": 6, **options}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        memory = OnlineGradientDescent(**params).fit(X, y)
        blocks = fit_chunks(OnlineGradientDescent(**params), ChunkedFile(path, 17))
    assert blocks.n_iter_ == memory.n_iter_
    assert_array_equal(blocks.n_mistakes_, memory.n_mistakes_)
    if options.get("penalty") is None:
        assert_array_equal(blocks.coef_, memory.coef_)
        assert_array_equal(blocks.intercept_, memory.intercept_)
    else:  # the penalty's scale is folded into the weights at the end of every block
        assert_allclose(blocks.coef_, memory.coef_, rtol=1e-12)


@pytest.mark.parametrize("options", OPTIONS, ids=repr)
@pytest.mark.parametrize("n_classes", [2, 3])
def test_a_saved_run_resumes_bit_for_bit(options, n_classes, tmp_path):
    X, y = make_data(10, n=90)
    if n_classes == 3:
        y = np.digitize(X[:, 0], [-0.3, 0.3])
    params = {"random_state": 0, **options}
    classes = np.unique(y)
    straight = OnlineGradientDescent(**params)
    halted = OnlineGradientDescent(**params)
    for _ in range(3):
        straight.partial_fit(X, y, classes=classes)
        halted.partial_fit(X, y, classes=classes)
    save(halted, tmp_path / "m.npz")
    resumed = load(tmp_path / "m.npz")
    assert_array_equal(resumed.coef_, halted.coef_)
    for _ in range(3):
        straight.partial_fit(X, y, classes=classes)
        resumed.partial_fit(X, y, classes=classes)
    assert_array_equal(resumed.coef_, straight.coef_)
    assert_array_equal(resumed.intercept_, straight.intercept_)
    for a, b in zip(resumed._problems, straight._problems):
        assert getattr(a.state, "rate", None) == getattr(b.state, "rate", None)


@pytest.mark.parametrize("options", OPTIONS, ids=repr)
def test_one_shard_of_parameter_mixing_is_the_serial_fit(options):
    X, y = make_data(11)
    params = {"random_state": 0, "max_iter": 5, **options}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        serial = OnlineGradientDescent(**params).fit(X, y)
        mixed = ParameterMixing(OnlineGradientDescent(**params), n_shards=1,
                                client="threads").fit(X, y)
        two = ParameterMixing(OnlineGradientDescent(**params), n_shards=2,
                              client="threads").fit(X, y)
    assert_array_equal(mixed.coef_, serial.coef_)
    assert np.all(np.isfinite(two.coef_)) and two.score(X, y) > 0.6


def test_the_averaged_mean_after_mixing_is_the_last_epochs_mean():
    X, y = make_data(12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        mixed = ParameterMixing(OnlineGradientDescent(average=True, max_iter=3, tol=None,
                                                      shuffle="none"),
                                n_shards=2, client="threads").fit(X, y)
    state = mixed.estimator_._problems[0].state
    coef_sum, intercept_sum, examples = state.window
    assert examples == len(y)  # one mixed epoch: every row once
    assert_allclose(mixed.coef_[0], coef_sum / examples)


# ---------------------------------------------------------------------- refusals

@pytest.mark.parametrize("params, message", [
    ({"learning_rate": "optimal", "alpha": 0.0}, "alpha=0 makes infinite; set alpha > 0"),
    ({"learning_rate": "bold"}, "'learning_rate' parameter"),
    ({"power_t": True}, "'power_t' parameter"),
    ({"penalty": "l3"}, "'penalty' parameter"),
    ({"alpha": -1.0}, "'alpha' parameter"),
    ({"l1_ratio": 1.5}, "'l1_ratio' parameter"),
    ({"average": 1}, "'average' parameter"),
    ({"eta": 0.0}, "'eta' parameter"),
])
def test_bad_options_are_refused_by_name(params, message):
    X, y = make_data(13)
    with pytest.raises(ValueError, match=message):
        OnlineGradientDescent(**params).fit(X, y)


@pytest.mark.parametrize("change, message", [
    ({"average": True}, "average was changed to True between partial_fit calls"),
    ({"learning_rate": "adaptive"}, "learning_rate was changed to or from 'adaptive'"),
])
def test_options_a_run_keeps_state_for_cannot_change_between_calls(change, message):
    X, y = make_data(14)
    model = OnlineGradientDescent().partial_fit(X, y, classes=[-1, 1])
    with pytest.raises(ValueError, match=message):
        model.set_params(**change).partial_fit(X, y)
    model.set_params(learning_rate="constant", average=False).partial_fit(X, y)  # these may


def test_a_trace_is_refused_with_a_penalty():
    X, y = make_data(15)
    with pytest.raises(ValueError, match="use penalty=None to record a trace"):
        OnlineGradientDescent(penalty="l2", record=True).fit(X, y)


def test_an_averaged_trace_holds_the_published_mean():
    X, y = make_data(16)
    model = ours(X, y, 2, average=True, record=True)
    assert_array_equal(model.trace_.coef[-1], model.coef_[0])


def test_warm_start_averages_from_the_warm_weights():
    X, y = make_data(17)
    model = ours(X, y, 2, learning_rate="constant", eta=0.1, average=True, warm_start=True)
    w, b = model._problems[0].coef.copy(), model._problems[0].intercept[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)
    # the plain loop from the warm (running) weights, averaging the new run's iterates
    total_w, total_b, t = np.zeros_like(w), 0.0, 0
    for _ in range(2):
        for x, label in zip(X, y):
            t += 1
            if label * (w @ x + b) < 1:
                w, b = w + 0.1 * label * x, b + 0.1 * label
            total_w, total_b = total_w + w, total_b + b
    close(model, (total_w / t, total_b / t))
    assert model.n_examples_ == t


@pytest.mark.parametrize("loss", ["logistic", "hinge", "squared", "perceptron"])
def test_the_epoch_loss_is_the_progressive_loss_of_a_plain_loop(loss):
    # each row's loss before its update, weighted: what the pass line of the command
    # line prints (the log-loss for loss="logistic"), as Vowpal Wabbit does
    from rosenblatt import OnlineGradientDescent
    rng = np.random.RandomState(7)
    X = rng.randn(30, 3)
    y = np.where(X @ [1.0, -2.0, 0.5] + 0.5 * rng.randn(30) > 0, 1, -1)
    sw = rng.uniform(0.5, 2.0, size=30)
    w, b, total, weight = np.zeros(3), 0.0, 0.0, 0.0
    for t, (x, label, s) in enumerate(zip(X, y, sw), start=1):
        f = x @ w + b
        z = label * f
        total += s * {"logistic": np.logaddexp(0.0, -z), "hinge": max(0.0, 1.0 - z),
                      "squared": 0.5 * (f - label) ** 2, "perceptron": max(0.0, -z)}[loss]
        weight += s
        g = {"logistic": label / (1.0 + np.exp(z)), "hinge": label * (z < 1.0),
             "squared": label - f, "perceptron": label * (z <= 0.0)}[loss]
        w += 0.1 / np.sqrt(t) * s * g * x
        b += 0.1 / np.sqrt(t) * s * g
    model = OnlineGradientDescent(loss=loss, eta=0.1, shuffle="none")
    model.partial_fit(X, y, classes=[-1, 1], sample_weight=sw)
    np.testing.assert_allclose(model.coef_[0], w, rtol=1e-12)
    assert abs(model._problems[0].epoch_loss - total / weight) < 1e-12
