import json
import zipfile

import numpy as np
import pytest
import scipy.sparse as sp

from rosenblatt import KernelPerceptron, Perceptron
from rosenblatt.io import ModelFileError, load, save

from ._estimators import ALL, limits, make


def quietly_fit(model, X, y):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit(X, y)


@pytest.mark.parametrize("cls", ALL, ids=lambda cls: cls.__name__)
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("sparse", [False, True])
def test_round_trip_predicts_the_same(cls, n_classes, sparse, tmp_path):
    rng = np.random.RandomState(0)
    X = rng.randn(60, 3)
    y = np.array(["ant", "bee", "cat"])[np.arange(60) % n_classes]
    data = sp.csr_matrix(X) if sparse else X
    model = quietly_fit(make(cls, random_state=0, **limits(cls)), data, y)
    save(model, tmp_path / "m.npz")
    loaded = load(tmp_path / "m.npz")
    assert type(loaded) is cls and loaded.get_params() == model.get_params()
    np.testing.assert_array_equal(loaded.predict(data), model.predict(data))
    np.testing.assert_array_equal(loaded.decision_function(data), model.decision_function(data))


def _rewrite(path, change):
    """Load the arrays of a model file, let ``change`` edit them, write them back."""
    with np.load(path, allow_pickle=False) as stored:
        arrays = {key: stored[key] for key in stored.files}
    change(arrays)
    np.savez(path, **arrays)


def _edit_meta(path, edit):
    def change(arrays):
        meta = json.loads(str(arrays["__meta__"]))
        edit(meta)
        arrays["__meta__"] = np.array(json.dumps(meta))
    _rewrite(path, change)


@pytest.fixture
def saved(tmp_path):
    model = Perceptron(shuffle="none").fit([[0, 0], [1, 1], [2, 0]], [0, 1, 1])
    path = tmp_path / "m.npz"
    save(model, path)
    return path


def test_a_code_payload_is_refused(saved):
    def add_pickle(arrays):
        arrays["coef_"] = np.array([{"evil": print}], dtype=object)
    with np.load(saved, allow_pickle=False) as stored:
        arrays = {key: stored[key] for key in stored.files}
    add_pickle(arrays)
    np.savez(saved, **arrays)  # numpy pickles the object array
    with pytest.raises(ModelFileError, match="pickled objects, which are refused"):
        load(saved)


def test_a_newer_format_is_refused(saved):
    _edit_meta(saved, lambda meta: meta.update(format_version=99))
    with pytest.raises(ModelFileError, match="format 99 is newer.*upgrade rosenblatt"):
        load(saved)


def test_a_truncated_file_is_refused(saved):
    data = saved.read_bytes()
    saved.write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelFileError, match="truncated, damaged"):
        load(saved)


def test_a_missing_array_is_refused(saved):
    _rewrite(saved, lambda arrays: arrays.pop("coef_"))
    with pytest.raises(ModelFileError, match="array 'coef_' is missing"):
        load(saved)


def test_a_tampered_parameter_is_refused(saved):
    _edit_meta(saved, lambda meta: meta["params"].update(eta=-1.0))
    with pytest.raises(ModelFileError, match="invalid parameters.*'eta' parameter"):
        load(saved)
    _edit_meta(saved, lambda meta: meta["params"].update(eta=1.0, evil="x"))
    with pytest.raises(ModelFileError, match="invalid parameters"):
        load(saved)


def test_tampered_weights_are_refused(saved):
    _rewrite(saved, lambda arrays: arrays.update(coef_=np.ones((1, 5))))
    with pytest.raises(ModelFileError, match="coef_ has shape \\(1, 5\\)"):
        load(saved)
    _rewrite(saved, lambda arrays: arrays.update(coef_=np.array([[np.nan, 1.0]])))
    with pytest.raises(ModelFileError, match="NaN or infinity"):
        load(saved)


def test_foreign_files_are_refused(tmp_path):
    np.savez(tmp_path / "other.npz", x=np.ones(3))
    with pytest.raises(ModelFileError, match="no metadata"):
        load(tmp_path / "other.npz")
    (tmp_path / "text.npz").write_text("hello")
    with pytest.raises(ModelFileError, match="not a readable model file"):
        load(tmp_path / "text.npz")
    with pytest.raises(ModelFileError, match="no such model file"):
        load(tmp_path / "absent.npz")


def test_saving_is_atomic_and_refuses_what_it_cannot_hold(tmp_path):
    with pytest.raises(ValueError, match="not fitted yet"):
        save(Perceptron(), tmp_path / "m.npz")
    model = KernelPerceptron(kernel=lambda A, B: np.asarray(A) @ np.asarray(B).T)
    model.fit([[0, 0], [1, 1]], [0, 1])
    with pytest.raises(ValueError, match="callable.*named kernel"):
        save(model, tmp_path / "k.npz")
    assert list(tmp_path.iterdir()) == []  # nothing half-written left behind
    assert zipfile.is_zipfile(__file__) is False


def test_the_vote_is_stored_once_and_training_on_from_the_file_is_exact(tmp_path):
    """The update rows are the vote (prediction state) and the log training goes on
    from (training state): the file names them once, and a loaded model trained on
    does not write into the arrays it was read from."""
    from rosenblatt import VotedPerceptron

    rng = np.random.RandomState(0)
    X = rng.randn(400, 8)
    y = (X @ rng.randn(8) + 0.5 * rng.randn(400) > 0).astype(int)
    model = quietly_fit(VotedPerceptron(max_iter=4, random_state=0), X, y)
    save(model, tmp_path / "voted.npz")
    members = zipfile.ZipFile(tmp_path / "voted.npz").namelist()
    assert "state:vote0_updates.data.npy" in members
    assert not [name for name in members if name.startswith("training") and "updates" in name]
    loaded = load(tmp_path / "voted.npz")
    held, before = loaded.coef_, loaded.coef_.copy()
    for estimator in (model, loaded):
        estimator.partial_fit(X[:50], y[:50])
    np.testing.assert_array_equal(loaded.decision_function(X), model.decision_function(X))
    np.testing.assert_array_equal(loaded.counts_, model.counts_)
    np.testing.assert_array_equal(held, before)
