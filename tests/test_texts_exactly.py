"""The texts, exactly (issue 26): Daumé's Algorithm 7 and its stopping rule,
Kowalczyk's pocket PLA, and the small facts of Daumé's chapter the gallery shows."""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import PLA, AveragedPerceptron, Perceptron, VotedPerceptron
from rosenblatt.datasets import load_svm_succinctly, make_boolean, make_target_line

AND_X, AND_Y = make_boolean("and")


def algorithm_7(X, y, max_iter):
    """Daumé's AveragedPerceptronTrain(D, MaxIter), line by line: every epoch runs,
    and it returns ``w − u/c, b − β/c``."""
    w, b, u, beta, c = np.zeros(X.shape[1]), 0.0, np.zeros(X.shape[1]), 0.0, 1
    for _ in range(max_iter):
        for x, label in zip(X, y):
            if label * (w @ x + b) <= 0:
                w, b = w + label * x, b + label
                u, beta = u + label * c * x, beta + label * c
            c += 1
    return w - u / c, b - beta / c


def test_algorithm_7_exactly_with_its_stopping_rule():
    model = AveragedPerceptron(max_iter=50, tol=None, stop_mistake_free=False,
                               shuffle="none").fit(AND_X, AND_Y)
    T = model.n_examples_
    w, b = algorithm_7(AND_X, AND_Y, 50)
    assert T == 200 and model.converged_
    assert_allclose(model.coef_[0] * T / (T + 1), w, rtol=0, atol=1e-12)
    assert_allclose(model.intercept_[0] * T / (T + 1), b, rtol=0, atol=1e-12)
    assert (np.round(b, 2), np.round(w, 2).tolist()) == (-3.72, [2.82, 1.87])


def test_the_default_stops_at_the_first_mistake_free_epoch_instead():
    default = AveragedPerceptron(max_iter=50, shuffle="none").fit(AND_X, AND_Y)
    algorithm = AveragedPerceptron(max_iter=50, tol=None, stop_mistake_free=False,
                                   shuffle="none").fit(AND_X, AND_Y)
    assert (default.n_iter_, algorithm.n_iter_) == (9, 50)
    assert (round(default.intercept_[0], 2), np.round(default.coef_[0], 2).tolist()) == \
        (-2.56, [2.08, 1.33])
    point = [[1.0, 0.4]]  # where the two averages disagree
    assert default.predict(point).tolist() == [1] and algorithm.predict(point).tolist() == [-1]


def test_the_voted_perceptron_keeps_counting_without_the_mistake_free_stop():
    default = VotedPerceptron(shuffle="none").fit(AND_X, AND_Y)
    all_epochs = VotedPerceptron(shuffle="none", max_iter=20, tol=None,
                                 stop_mistake_free=False).fit(AND_X, AND_Y)
    assert_array_equal(all_epochs.vectors_, default.vectors_)
    assert all_epochs.counts_[-1] == default.counts_[-1] + 4 * (20 - 9)
    assert all_epochs.counts_.sum() == 4 * 20 and all_epochs.converged_


@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron, VotedPerceptron],
                         ids=lambda cls: cls.__name__)
def test_each_docstring_says_whose_stopping_rule_it_follows(cls):
    doc = " ".join(cls.__doc__.split())
    assert "Ahmed & Pavlu" in doc and "stop_mistake_free" in doc
    assert "Algorithm 5" in doc or "Algorithm 7" in doc


# ------------------------------------------------------------ the pocket PLA


def pocket_pla(X, y, rng, max_updates):
    """Kowalczyk's Pocket algorithm written out: the PLA (a start drawn by
    ``rand(3)``, then the misclassified points shuffled and the first fixed), keeping
    the weights that misclassify fewest points."""
    w = rng.random(X.shape[1] + 1)  # bias first
    pocket, fewest = w.copy(), np.inf
    for update in range(max_updates + 1):
        wrong = np.array([i for i in range(len(y)) if y[i] * (w[0] + X[i] @ w[1:]) <= 0],
                         dtype=np.intp)
        if len(wrong) < fewest:
            pocket, fewest = w.copy(), len(wrong)
        if len(wrong) == 0 or update == max_updates:
            return pocket, fewest
        rng.shuffle(wrong)
        w = w + y[wrong[0]] * np.r_[1.0, X[wrong[0]]]


@pytest.mark.parametrize("seed", [0, 88])
def test_the_pocket_pla_is_kowalczyks_pocket_algorithm(seed):
    X, y = load_svm_succinctly("train")
    y = y.copy()
    y[[0, 9]] = -y[[0, 9]]  # two labels flipped: no line separates them now
    with pytest.warns(ConvergenceWarning, match="pocket_errors_"):
        model = PLA(pocket=True, init="uniform", max_updates=300,
                    random_state=np.random.RandomState(seed)).fit(X, y)
    pocket, fewest = pocket_pla(X, y, np.random.RandomState(seed), 300)
    assert model.n_updates_ == 300 and model.pocket_errors_.tolist() == [fewest]
    assert_allclose(np.r_[model.intercept_, model.coef_[0]], pocket, rtol=0, atol=1e-9)
    assert np.sum(model.predict(X) != y) == fewest
    plain = PLA(init="uniform", max_updates=300, random_state=np.random.RandomState(seed))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        assert plain.fit(X, y).score(X, y) <= model.score(X, y)


def test_the_pocket_pla_on_separable_data_is_the_pla():
    X, y = load_svm_succinctly("train")
    pocket = PLA(pocket=True, init="uniform", random_state=np.random.RandomState(88)).fit(X, y)
    plain = PLA(init="uniform", random_state=np.random.RandomState(88)).fit(X, y)
    assert_array_equal(pocket.coef_, plain.coef_)
    assert pocket.pocket_errors_.tolist() == [0] and pocket.n_updates_ == 175


# -------------------------------------------------------- Daumé's small facts


def test_500_positives_then_500_negatives_learn_from_a_handful_of_examples():
    """§4.2: one pass in this order updates a handful of times and ends predicting
    one class nearly everywhere."""
    X, y, _ = make_target_line(4000, random_state=np.random.RandomState(0))
    X = np.vstack([X[y > 0][:500], X[y < 0][:500]])
    y = np.r_[np.ones(500), -np.ones(500)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ordered = Perceptron(shuffle="none", max_iter=1).fit(X, y)
        shuffled = Perceptron(max_iter=1, random_state=0).fit(X, y)
    assert (ordered.n_updates_, ordered.score(X, y)) == (3, 0.579)
    assert shuffled.n_updates_ > 15 and shuffled.score(X, y) > 0.95


def test_the_bias_only_data_never_converge():
    """§4.5: no features, one positive and one negative example; the bias goes up
    and down forever."""
    X, y = np.zeros((2, 1)), [1, -1]
    with pytest.warns(ConvergenceWarning, match="max_iter=100 epochs"):
        model = Perceptron(shuffle="none", tol=None, max_iter=100, record=True).fit(X, y)
    assert model.n_updates_ == 200
    assert model.trace_.intercept.tolist()[:4] == [1.0, 0.0, 1.0, 0.0]


def test_scaling_w_by_2_changes_no_prediction():
    rng = np.random.RandomState(1)
    X, y = rng.randn(50, 3), np.where(rng.randn(50) > 0, 1, -1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = Perceptron(max_iter=5, tol=None, random_state=0).fit(X, y)
    before = model.predict(X)
    model.coef_, model.intercept_ = 2 * model.coef_, 2 * model.intercept_
    assert_array_equal(model.predict(X), before)


def test_an_update_raises_the_activation_by_the_squared_norm_plus_one():
    """Eqs. 4.3–4.6: after a mistake on a positive x, a' = a + Σ x_d² + 1."""
    rng = np.random.RandomState(2)
    x = rng.randn(4)
    model = Perceptron(shuffle="none", init=np.r_[-5.0, rng.randn(4)], max_iter=1,
                       tol=None)
    a = float(model.init[0] + x @ model.init[1:])
    assert a < 0
    model.partial_fit([x], [1], classes=[-1, 1])
    assert model.decision_function([x])[0] == pytest.approx(a + x @ x + 1, abs=1e-12)


def test_the_sentiment_example_and_its_conjunctions():
    """§4.7: excellent, terrible, not; the conjunctions with not make it separable,
    and Daumé's weights +1, −1, 0, −2, +2 classify every review."""
    from rosenblatt.preprocessing import pairwise_conjunctions
    from rosenblatt.theory import is_linearly_separable

    reviews = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 1], [0, 1, 1]])  # excellent, terrible, not
    labels = np.array([1, -1, -1, 1])
    assert not is_linearly_separable(reviews, labels)
    features = reviews.tolist()
    with_not = np.array([row + [row[0] * row[2], row[1] * row[2]] for row in features])
    daume = np.array([+1, -1, 0, -2, +2])
    assert_array_equal(np.sign(with_not @ daume), labels)
    lifted = pairwise_conjunctions().fit_transform(reviews)
    assert is_linearly_separable(lifted, labels)
    assert Perceptron(shuffle="none").fit(lifted, labels).score(lifted, labels) == 1.0


# ------------------------------------------------------------ issue 31


def test_kowalczyk_listing_17_one_update_changes_the_prediction():
    """Code Listing 17: x = (1, 2, 7), y = −1, w = (4, 5, 3): predicted 1 (w·x = 35);
    w ← w + y x = (3, 3, −4), then predicted −1 (w·x = −19)."""
    x = [[1.0, 2.0, 7.0]]
    model = Perceptron(init=[4.0, 5.0, 3.0], fit_intercept=False, shuffle="none",
                       record=True).partial_fit(x, [-1], classes=[-1, 1])
    assert model.trace_.activation.tolist() == [35.0]
    assert model.trace_.update.tolist() == [-1.0] and model.n_updates_ == 1
    assert model.coef_[0].tolist() == [3.0, 3.0, -4.0]
    assert model.decision_function(x).tolist() == [-19.0]
    assert model.predict(x).tolist() == [-1]


def test_the_blogs_run_converges_after_7_iterations_with_seed_581():
    """The Data Science Lab's run: 20 points under a random target line, PLA from zeros,
    "converges after 7 iterations", E_out about 6 % (the blog's 0.0598200)."""
    from rosenblatt.metrics import exact_out_of_sample_error

    rng = np.random.RandomState(581)
    X, y, target = make_target_line(20, random_state=rng)
    model = PLA(random_state=rng, record=True).fit(X, y)
    assert model.n_updates_ == 7 and len(model.trace_) == 7 and model.converged_
    assert model.score(X, y) == 1.0
    e_out = exact_out_of_sample_error(target, np.r_[model.intercept_, model.coef_[0]])
    assert round(e_out, 4) == 0.0596


@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron, VotedPerceptron],
                         ids=lambda cls: cls.__name__)
def test_running_all_maxiter_epochs_on_purpose_does_not_warn(cls):
    """Daumé's Algorithms 5 and 7 run all MaxIter epochs: asked for, and converged."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = cls(max_iter=50, tol=None, stop_mistake_free=False, shuffle="none").fit(
            AND_X, AND_Y)
    assert model.converged_ and model.n_iter_ == 50
