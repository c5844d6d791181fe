"""A model file keeps the training state: load + partial_fit continues the saved run
bit for bit, a warm-start fit continues too, and forged states are refused."""

import json
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

from rosenblatt import AveragedPerceptron, Perceptron
from rosenblatt.cli import main
from rosenblatt.io import TRAINING_STATE_VERSION, ModelFileError, load, save

from ._estimators import ALL, limits, make

ONLINE = [cls for cls in ALL if hasattr(cls, "partial_fit")]
NOT_ONLINE = [cls for cls in ALL if not hasattr(cls, "partial_fit")]


def data(n_classes, sparse, n=90):
    rng = np.random.RandomState(1)
    X = rng.randn(n, 4)
    y = np.array(["ant", "bee", "cat"])[(X[:, 0] > 0).astype(int) + (n_classes == 3) * (X[:, 1] > 0.5)]
    X[rng.rand(*X.shape) < 0.3] = 0.0  # zeros, so that CSR rows differ in length
    return (sp.csr_matrix(X) if sparse else X), y


def estimator(cls, **params):
    params = {"random_state": 0, **limits(cls), **params}
    if "shuffle" in cls().get_params():
        params["shuffle"] = "every_epoch"
    return make(cls, **params)


def published(model):
    """Every fitted attribute a continued run must reproduce, bit for bit."""
    names = ("coef_", "intercept_", "n_iter_", "n_updates_", "n_examples_", "converged_",
             "dual_coef_", "support_vectors_", "counts_", "loss_curve_", "pocket_errors_")
    values = {name: getattr(model, name) for name in names if hasattr(model, name)}
    values["problems"] = [(p.n_iter, p.n_updates, int(p.seen[0])) for p in model._problems]
    return values


def assert_same(a, b):
    assert a.keys() == b.keys()
    for key in a:
        x, y = a[key], b[key]
        if isinstance(x, tuple):
            assert len(x) == len(y)
            for u, v in zip(x, y):
                assert_same({key: u}, {key: v})
        elif sp.issparse(x):
            assert sp.issparse(y) and x.shape == y.shape and (x != y).nnz == 0, key
        elif isinstance(x, np.ndarray):
            assert x.dtype == y.dtype, key
            np.testing.assert_array_equal(x, y, err_msg=key)
        else:
            assert x == y, key


def chunks(X, y, k=3):
    return [(X[i::k], y[i::k]) for i in range(k)]


@pytest.mark.parametrize("cls", ONLINE, ids=lambda cls: cls.__name__)
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("start", ["fit", "partial_fit"])
def test_load_then_partial_fit_continues_the_run_bit_for_bit(cls, n_classes, sparse, start,
                                                            tmp_path):
    X, y = data(n_classes, sparse)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if start == "fit":
            model = estimator(cls).fit(X, y)
        else:
            model = estimator(cls)
            for Xc, yc in chunks(X, y)[:2]:
                model.partial_fit(Xc, yc, classes=np.unique(y))
    save(model, tmp_path / "m.npz")
    loaded = load(tmp_path / "m.npz")
    assert_same(published(loaded), published(model))
    for Xc, yc in chunks(X, y) * 2:
        model.partial_fit(Xc, yc)
        loaded.partial_fit(Xc, yc)
    assert_same(published(loaded), published(model))
    np.testing.assert_array_equal(loaded.decision_function(X), model.decision_function(X))


@pytest.mark.parametrize("cls", ALL, ids=lambda cls: cls.__name__)
@pytest.mark.parametrize("n_classes", [2, 3])
def test_a_warm_start_fit_of_a_loaded_model_continues_as_in_memory(cls, n_classes, tmp_path):
    X, y = data(n_classes, sparse=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = estimator(cls, max_iter=3) if "max_iter" in cls().get_params() else \
            estimator(cls)
        model.fit(X, y)
        save(model, tmp_path / "m.npz")
        loaded = load(tmp_path / "m.npz")
        model.set_params(warm_start=True).fit(X, y)
        loaded.set_params(warm_start=True).fit(X, y)
    assert_same(published(loaded), published(model))


def test_a_budget_and_its_random_evictions_continue_too(tmp_path):
    from rosenblatt import KernelPerceptron

    X, y = data(3, sparse=True)
    model = KernelPerceptron(budget=5, max_iter=2, random_state=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X, y)
    save(model, tmp_path / "m.npz")
    loaded = load(tmp_path / "m.npz")
    # the budget draws its evictions from the problem's own generator: still one object
    assert all(p.state.rng is p.rng for p in loaded._problems)
    for Xc, yc in chunks(X, y) * 2:
        model.partial_fit(Xc, yc)
        loaded.partial_fit(Xc, yc)
    assert_same(published(loaded), published(model))


def test_a_generator_as_random_state_continues_too(tmp_path):
    from rosenblatt import AveragedPerceptron

    X, y = data(2, sparse=False)
    model = AveragedPerceptron(random_state=np.random.default_rng(5), max_iter=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X, y)
    save(model, tmp_path / "m.npz")
    loaded = load(tmp_path / "m.npz")
    for Xc, yc in chunks(X, y):
        model.partial_fit(Xc, yc)
        loaded.partial_fit(Xc, yc)
    assert_same(published(loaded), published(model))


def test_files_without_training_state_load_predict_and_refuse_to_go_on(tmp_path):
    from rosenblatt import AveragedPerceptron

    X, y = data(2, sparse=False)
    model = AveragedPerceptron(random_state=0, max_iter=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(X, y)
    save(model, tmp_path / "old.npz", training_state=False)
    save(model, tmp_path / "new.npz")
    assert meta_of(tmp_path / "old.npz")["format_version"] == 1
    assert "training" not in meta_of(tmp_path / "old.npz")
    # a file with the training state and no array stored by its nonzeros: format 2
    assert meta_of(tmp_path / "new.npz")["format_version"] == TRAINING_STATE_VERSION == 2
    old = load(tmp_path / "old.npz")
    np.testing.assert_array_equal(old.decision_function(X), model.decision_function(X))
    with pytest.raises(ValueError, match="not the training state"):
        old.partial_fit(X, y)
    with pytest.raises(ValueError, match="not the training state"):
        old.set_params(warm_start=True).fit(X, y)
    # saving it again writes no training state it does not have
    save(old, tmp_path / "again.npz")
    assert "training" not in meta_of(tmp_path / "again.npz")


# ------------------------------------------------------------------- forged files

def meta_of(path):
    with np.load(path, allow_pickle=False) as stored:
        return json.loads(str(stored["__meta__"]))


def rewrite(path, change):
    with np.load(path, allow_pickle=False) as stored:
        arrays = {key: stored[key] for key in stored.files}
    meta = json.loads(str(arrays["__meta__"]))
    change(meta, arrays)
    arrays["__meta__"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)


@pytest.fixture
def averaged_file(tmp_path):
    from rosenblatt import AveragedPerceptron

    X, y = data(3, sparse=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = AveragedPerceptron(random_state=0, max_iter=3, shuffle="every_epoch").fit(X, y)
    path = tmp_path / "m.npz"
    save(model, path)
    return path


def _set_array(name, value):
    def change(meta, arrays):
        arrays[name] = value(arrays[name])
    return change


def _set_field(problem, field, value, state=False):
    def change(meta, arrays):
        fields = meta["training"][problem]["state" if state else "fields"]
        (fields["fields"] if state else fields)[field] = value
    return change


@pytest.mark.parametrize("change, field", [
    (_set_array("training0.coef", lambda a: a[:-1]), "problem0.coef"),
    (_set_array("training1.coef", lambda a: a.astype(np.float32)), "problem1.coef"),
    (_set_array("training0.coef", lambda a: np.where(np.arange(a.size) == 0, np.nan, a)),
     "problem0.coef"),
    (_set_array("training2.intercept", lambda a: np.array([np.inf])), "problem2.intercept"),
    (_set_array("training0.seen", lambda a: -a), "problem0.seen"),
    (_set_array("training0.seen", lambda a: a.astype(np.float64)), "problem0.seen"),
    (_set_array("training1.state.u", lambda a: a[None, :]), "problem1.state.u"),
    (_set_array("training1.state.beta", lambda a: a * np.nan), "problem1.state.beta"),
    (_set_array("training0.rng", lambda a: a[:-1]), "problem0.rng"),
    (_set_field(0, "n_iter", -3), "problem0.n_iter"),
    (_set_field(1, "n_updates", 2.5), "problem1.n_updates"),
    (_set_field(1, "converged", 1), "problem1.converged"),
    (_set_field(2, "epoch_loss", float("nan")), "problem2.epoch_loss"),
    (_set_field(0, "rng", {"random_state": "training0.rng", "pos": 700, "has_gauss": 0,
                           "cached_gaussian": 0.0}), "problem0.rng"),
    (_set_field(0, "rng", {"generator": {"bit_generator": "PCG64", "state": {
        "state": 2**200, "inc": 1}, "has_uint32": 0, "uinteger": 0}}), "problem0.rng"),
    (_set_field(0, "rng", {"generator": {"bit_generator": "os.system"}}), "problem0.rng"),
    (_set_field(0, "seen", {"array": "__meta__"}), "problem0.seen"),
    (_set_field(0, "surprise", 1), "problem0.surprise"),
    (_set_field(2, "decayed", "yes", state=True), "problem2.state.decayed"),
    (_set_field(2, "u", {"pickle": "x"}, state=True), "problem2.state.u"),
])
def test_a_forged_training_state_is_refused_naming_the_field(averaged_file, change, field):
    rewrite(averaged_file, change)
    with pytest.raises(ModelFileError, match=f"{averaged_file}: training state {field}\\b"):
        load(averaged_file)


@pytest.mark.parametrize("change, message", [
    (lambda meta, arrays: meta["training"].pop(), "2 problems, where 3 classes make 3"),
    (lambda meta, arrays: meta["training"][0]["state"].update(type="Pocket"),
     "training state problem0.state is a 'Pocket'"),
    (lambda meta, arrays: arrays.update({"training0.coef": arrays["training0.coef"] + 1}),
     "training state does not give the stored coef_"),
    (lambda meta, arrays: arrays.update(stray=np.zeros(2)), "arrays ['stray'] belong to no"),
])
def test_a_state_that_does_not_fit_the_model_is_refused(averaged_file, change, message):
    rewrite(averaged_file, change)
    with pytest.raises(ModelFileError, match=message.replace("[", "\\[").replace("]", "\\]")):
        load(averaged_file)


@pytest.mark.parametrize("cls", ONLINE, ids=lambda cls: cls.__name__)
def test_every_array_of_a_training_state_is_checked(cls, tmp_path):
    """NaN in any float array of the state, or a negative count in any integer one,
    is refused with the array's field named (never trained on). A log of losses may
    hold NaN: a diverged linear unit records the loss that blew up."""
    X, y = data(3, sparse=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = estimator(cls, max_iter=3).fit(X, y)
    path = tmp_path / "m.npz"
    save(model, path)
    with np.load(path, allow_pickle=False) as stored:
        names = [key for key in stored.files if key.startswith("training")
                 and stored[key].dtype.kind in "fi" and stored[key].size
                 and not key.endswith(".losses")]
    assert names
    for name in names:
        save(model, path)

        def spoil(a):
            a = a.copy().ravel()
            a[0] = np.nan if a.dtype.kind == "f" else -1
            return a
        rewrite(path, _set_array(name, spoil))
        # a log of floats allows NaN itself; the published state it feeds then differs
        with pytest.raises(ModelFileError, match="training state (problem|does not give)"):
            load(path)


# ------------------------------------------------------------------ command line

def write_csv(path, X, y):
    rows = [",".join(repr(float(v)) for v in row) + f",{label}" for row, label in zip(X, y)]
    path.write_text("a,b,c,d,y\n" + "\n".join(rows) + "\n")


@pytest.mark.parametrize("model_name, cls_name", [("averaged", "AveragedPerceptron"),
                                                  ("kernel", "KernelPerceptron"),
                                                  ("pocket", "PocketPerceptron")])
def test_train_resume_continues_like_the_python_calls(model_name, cls_name, tmp_path, capsys):
    X, y = data(3, sparse=False)
    csv = tmp_path / "d.csv"
    write_csv(csv, X, y)
    first, second = tmp_path / "first.npz", tmp_path / "second.npz"
    settings = ["--set", "max_iter=2", "--set", "random_state=4"] + (
        ["--set", "kernel='linear'"] if model_name == "kernel" else []) + (
        [] if model_name == "pocket" else ["--set", "shuffle='every_epoch'"])
    epochs = [] if model_name == "pocket" else ["--epochs", "3"]  # pocket: a warm-start fit
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["train", str(csv), "--model", model_name, *settings, "-o", str(first),
                     "--quiet"]) == 0
        assert main(["train", str(csv), "--resume", str(first), *epochs,
                     "--output", str(second), "--quiet"]) == 0
        out = capsys.readouterr().out
        assert f"resumed    {first}" in out and cls_name in out
        expected = load(first)
        if hasattr(expected, "partial_fit"):  # the uninterrupted run of 2 + 3 epochs
            expected = clone(expected).set_params(max_iter=5).fit(X, y)
        else:
            expected.set_params(warm_start=True).fit(X, y)
    resumed = load(second)
    assert_same(published(resumed), published(expected))
    assert resumed.stop_reason_ == expected.stop_reason_
    assert resumed.n_iter_ == expected.n_iter_


def test_train_resume_refuses_data_the_model_cannot_learn_from(tmp_path, capsys):
    X, y = data(2, sparse=False)
    csv, wide, other = tmp_path / "d.csv", tmp_path / "wide.csv", tmp_path / "other.csv"
    write_csv(csv, X, y)
    wide.write_text("a,b,c,d,e,y\n" + "\n".join("1,2,3,4,5,ant" for _ in range(3)) + "\n")
    write_csv(other, X, np.where(y == "ant", "ant", "cat"))
    model = tmp_path / "m.npz"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["train", str(csv), "-o", str(model), "--quiet"]) == 0
    capsys.readouterr()
    for argv, message in [
        (["train", str(wide), "--resume", str(model), "-o", str(tmp_path / "x.npz")],
         f"{wide} has 5 features; {model} was trained on 4"),
        (["train", str(other), "--resume", str(model), "-o", str(tmp_path / "x.npz")],
         f"{other} holds labels cat that {model} does not know (its classes: ant, bee)"),
        (["train", str(csv), "--resume", str(model), "--model", "pla", "-o", "x.npz"],
         "--model does not go with --resume"),
        (["train", str(csv), "--resume", str(tmp_path / "none.npz"), "-o", "x.npz"],
         "no such model file"),
    ]:
        assert main(argv + ["--quiet"]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x.npz").exists()


@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron], ids=lambda c: c.__name__)
def test_warm_start_on_data_of_another_width_is_refused_not_read_past(cls):
    """The kernels index the weights by the columns of X: a wider X with the last
    fit's weights would read and write past them (memory corruption, found by a
    helper); narrower would silently drop weights."""
    X = np.eye(3)
    model = cls(warm_start=True, random_state=0, max_iter=5).fit(X, [0, 1, 1])
    coef = model.coef_.copy()
    for width in (2, 4):
        with pytest.raises(ValueError, match=f"on 3 features; X has {width}"):
            model.fit(np.eye(3, width), [0, 1, 1])
    np.testing.assert_array_equal(model.coef_, coef)
    assert model.n_features_in_ == 3
