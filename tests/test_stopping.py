"""The one stopping rule (issue 31): separable data end separated with the
defaults, ``converged_`` never claims what did not happen, the rule does not
depend on the scale of ``X``, and a file read in blocks trains as in memory."""

import ast
import pathlib
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import (
    AveragedPerceptron,
    KernelPerceptron,
    MulticlassPerceptron,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
)
from rosenblatt import linear_model
from rosenblatt.base._separability import classes_separable, kernel_separable, \
    linearly_separable
from rosenblatt.datasets import ChunkedFile, load_svm_succinctly
from rosenblatt.streaming import fit_chunks

MISTAKE_DRIVEN = [Perceptron, PocketPerceptron, AveragedPerceptron, VotedPerceptron,
                  MulticlassPerceptron, KernelPerceptron]
GATES = {"AND": [0, 0, 0, 1], "OR": [0, 1, 1, 1], "NAND": [1, 1, 1, 0]}
CORNERS = np.array([[0, 0], [0, 1], [1, 0], [1, 1.]])


def random_separable(seed):
    rng = np.random.RandomState(seed)
    n = rng.randint(20, 101)
    X = rng.uniform(-1, 1, (n, 2))
    y = np.where(X @ rng.randn(2) + rng.uniform(-0.5, 0.5) > 0, 1, -1)
    return X, y


def fitted(cls, X, y, seed, **params):
    if cls is KernelPerceptron:
        params.setdefault("kernel", "linear")
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)  # no warning on separable data
        return cls(random_state=seed, **params).fit(X, y)


@pytest.mark.parametrize("cls", MISTAKE_DRIVEN, ids=lambda c: c.__name__)
def test_the_texts_separable_data_end_separated_with_the_defaults(cls):
    """Before: 47 of 50 seeds of Perceptron() left Kowalczyk's points unseparated,
    saying converged_ = True."""
    X, y = load_svm_succinctly()
    for seed in range(10):
        model = fitted(cls, X, y, seed)
        assert (model.predict(X) == y).all() and model.converged_
        assert model.stop_reason_ == "mistake_free"
    for gate, labels in GATES.items():
        for seed in range(10):
            model = fitted(cls, CORNERS, labels, seed)
            assert (model.predict(CORNERS) == labels).all(), (gate, seed)


@pytest.mark.parametrize("cls", MISTAKE_DRIVEN, ids=lambda c: c.__name__)
def test_random_separable_sets_end_separated(cls):
    for seed in range(12):
        X, y = random_separable(seed)
        if len(set(y)) < 2:
            continue
        model = fitted(cls, X, y, seed)
        assert (model.predict(X) == y).all() and model.converged_, seed


def test_with_a_margin_converged_means_every_point_beyond_it():
    X, y = load_svm_succinctly()
    for margin in (0.5, 2.0):
        model = fitted(Perceptron, X, y, 0, margin=margin)
        signed = np.where(y == model.classes_[1], 1, -1)
        assert model.converged_ and (signed * model.decision_function(X)).min() > margin


@pytest.mark.parametrize("scale", [2.0**-100, 2.0**-33, 1.0, 2.0**33, 2.0**100])
def test_the_rule_does_not_depend_on_the_scale_of_x(scale):
    """Without an intercept every activation scales by c²: the same updates, the
    same stop (the loss tolerance stopped early at c = 1e-30). Powers of two from
    7.9e-31 to 1.3e30, so that c·x is exact and the activations c² a bit for bit."""
    X, y = load_svm_succinctly()
    reference = fitted(Perceptron, X, y, 3, fit_intercept=False)
    model = fitted(Perceptron, scale * X, y, 3, fit_intercept=False)
    assert model.n_iter_ == reference.n_iter_ and model.n_updates_ == reference.n_updates_
    assert model.stop_reason_ == reference.stop_reason_
    np.testing.assert_allclose(model.coef_, scale * reference.coef_, rtol=1e-12)


@pytest.mark.parametrize("cls", MISTAKE_DRIVEN, ids=lambda c: c.__name__)
def test_converged_is_false_where_nothing_converged(cls):
    rng = np.random.RandomState(0)
    xor = (CORNERS, np.array([0, 1, 1, 0]))
    duplicates = (np.array([[1., 2], [1, 2], [0, 0], [3, 1]]), np.array([0, 1, 0, 1]))
    noise = (rng.randn(300, 4), rng.randint(2, size=300))
    for X, y in (xor, duplicates, noise):
        extra = {"kernel": "linear"} if cls is KernelPerceptron else {}
        model = cls(random_state=0, **extra).fit(X, y)
        assert not model.converged_ and model.stop_reason_ == "tol"


def test_max_iter_warns_exactly_when_it_cut_the_run():
    X, y = load_svm_succinctly()
    with pytest.warns(ConvergenceWarning, match="without a mistake-free pass"):
        model = Perceptron(random_state=0, max_iter=2).fit(X, y)
    assert model.stop_reason_ == "max_iter" and not model.converged_


def test_the_separability_programs_agree_with_the_definitions():
    X, y = load_svm_succinctly()
    signed = np.where(y == y.max(), 1.0, -1.0)
    assert linearly_separable(X, signed) is True
    assert linearly_separable(CORNERS, np.array([-1., 1, 1, -1])) is False
    assert linearly_separable(CORNERS[1:], np.array([1., -1, 1]), fit_intercept=False) is True
    assert linearly_separable(CORNERS[1:], np.array([1., 1, -1]), fit_intercept=False) is False
    assert linearly_separable(np.array([[1.], [-1]]), np.array([1., 1]),
                              fit_intercept=False) is False
    assert classes_separable(np.array([[0.], [5], [10]]), np.array([0, 1, 2]), 3) is True
    assert classes_separable(np.array([[0.], [5], [10]]), np.array([0, 1, 0]), 3) is False
    xor = np.array([-1., 1, 1, -1])
    gram = (CORNERS @ CORNERS.T + 1) ** 2 + 1  # the degree-2 kernel separates XOR
    assert kernel_separable(gram, xor) is True
    assert kernel_separable(CORNERS @ CORNERS.T + 1, xor) is False


# ------------------------------------------------------------ files on the loop

IN_BLOCKS = [name for name in linear_model.__all__
             if hasattr(getattr(linear_model, name), "partial_fit")]
FITTED = ("coef_", "intercept_", "n_iter_", "n_updates_", "converged_", "stop_reason_",
          "n_mistakes_", "loss_curve_", "eta_", "dual_coef_", "n_examples_")


@pytest.mark.parametrize("name", IN_BLOCKS)
def test_a_file_in_blocks_trains_as_in_memory(name, tmp_path):
    """Before: fit_chunks ran its own epochs (1,000 passes where fit stopped at 6)."""
    rng = np.random.RandomState(0)
    X = rng.randn(120, 3)
    y = (X @ [1.0, -2.0, 0.5] + 0.3 * rng.randn(120) > 0).astype(int)
    path = tmp_path / "d.npy"
    np.save(path, np.column_stack([X, y]))
    cls = getattr(linear_model, name)
    params = {"shuffle": "none", "random_state": 0}
    if "covariance" in cls().get_params():
        params["covariance"] = "diagonal"
    with warnings.catch_warnings(record=True) as in_memory_warnings:
        warnings.simplefilter("always")
        expected = cls(**params).fit(X, y)
    with warnings.catch_warnings(record=True) as block_warnings:
        warnings.simplefilter("always")
        model = fit_chunks(cls(**params), ChunkedFile(path, 17))
    for name in FITTED:
        if hasattr(expected, name):
            np.testing.assert_array_equal(getattr(model, name), getattr(expected, name),
                                          err_msg=name)
    assert [str(w.message) for w in block_warnings] == \
        [str(w.message) for w in in_memory_warnings]


def test_a_shuffled_file_resumes_exactly(tmp_path):
    rng = np.random.RandomState(1)
    X = rng.randn(90, 3)
    y = (X[:, 0] + 0.5 * rng.randn(90) > 0).astype(int)
    path = tmp_path / "d.npy"
    np.save(path, np.column_stack([X, y]))
    with pytest.warns(ConvergenceWarning, match="max_iter=6"):  # noisy labels: no separation
        whole = fit_chunks(Perceptron(random_state=0, max_iter=6, tol=None),
                           ChunkedFile(path, 10))
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        first = fit_chunks(Perceptron(random_state=0, max_iter=2, tol=None),
                           ChunkedFile(path, 10))
    with pytest.warns(ConvergenceWarning, match="max_iter=6"):  # the same end as the whole run
        resumed = fit_chunks(first.set_params(max_iter=6), ChunkedFile(path, 10), n_epochs=4,
                             resume=True)
    np.testing.assert_array_equal(resumed.coef_, whole.coef_)
    assert resumed.n_iter_ == whole.n_iter_ and resumed.stop_reason_ == whole.stop_reason_


# ------------------------------------------------- one loop, one stopping decision

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "rosenblatt"
LOOP_MODULES = {"base/_loop.py"}


def test_no_epoch_loop_or_stopping_decision_outside_the_loop_module():
    """Nothing outside base/_loop.py sets what a run's end means (n_iter_,
    converged_, stop_reason_ as attributes of a model) or calls partial_fit in a
    loop over epochs (the old fit_chunks and --resume did both)."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative in LOOP_MODULES:
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Attribute) and target.attr in (
                            "n_iter_", "converged_", "stop_reason_"):
                        offenders.append(f"{relative}:{node.lineno} sets {target.attr}")
            if isinstance(node, (ast.For, ast.While)):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Call) and getattr(inner.func, "attr", "") == \
                            "partial_fit":
                        offenders.append(f"{relative}:{inner.lineno} loops over partial_fit")
    assert offenders == []


@pytest.mark.parametrize("model", ["perceptron", "averaged", "arow", "linear_unit", "kernel"])
def test_the_command_line_in_blocks_trains_as_in_memory(model, tmp_path, capsys):
    """Before: --chunk-size ran max_iter passes of partial_fit with its own stop
    and wrote other weights than the same command without it."""
    from rosenblatt.cli import main
    from rosenblatt.io import load

    rng = np.random.RandomState(2)
    X = rng.randn(150, 4)
    y = (X @ [1.0, -1.0, 0.5, 0.0] + 0.4 * rng.randn(150) > 0).astype(int)
    data = tmp_path / "d.csv"
    np.savetxt(data, np.column_stack([X, y]), delimiter=",", header="a,b,c,d,y", comments="")
    common = ["train", str(data), "--model", model, "--set", "shuffle='none'", "--set",
              "random_state=0", "--quiet"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        assert main(common + ["-o", str(tmp_path / "whole.npz")]) == 0
        assert main(common + ["--chunk-size", "40", "-o", str(tmp_path / "blocks.npz")]) == 0
    capsys.readouterr()
    whole, blocks = load(tmp_path / "whole.npz"), load(tmp_path / "blocks.npz")
    for name in FITTED:
        if hasattr(whole, name):
            np.testing.assert_array_equal(getattr(blocks, name), getattr(whole, name),
                                          err_msg=name)


@pytest.mark.parametrize("one_shot", [False, True])
def test_mixing_shards_that_contradict_each_other_does_not_converge(one_shot):
    """Each shard alone is separable (one says +1 where the other says -1): the
    mixed model separates neither, and says so."""
    from rosenblatt.distributed import ParameterMixing

    X = np.array([[1.0, 2], [2, 1], [1.0, 2], [2, 1]])
    y = np.array([1, 0, 0, 1])
    mixed = ParameterMixing(Perceptron(shuffle="none", random_state=0), n_shards=2,
                            shard_rows="contiguous",
                            strategy="one_shot" if one_shot else "iterative",
                            client="threads").fit(X, y)
    assert not mixed.converged_
