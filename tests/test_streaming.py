import warnings

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import PLA, AveragedPerceptron, Perceptron
from rosenblatt.cli import main
from rosenblatt.datasets import ChunkedFile
from rosenblatt.io import load
from rosenblatt.streaming import fit_chunks

from .conftest import integer_blobs


@pytest.fixture
def data():
    X, y = integer_blobs(n=103, d=4, seed=11, separable=False)
    return X, y


def write(tmp_path, kind, X, y):
    path = tmp_path / f"d.{kind}"
    if kind == "npy":
        np.save(path, np.c_[X, y])
    elif kind == "csv":
        lines = ["a,b,c,d,label"] + [",".join(map(str, [*row, label])) for row, label in zip(X, y)]
        path.write_text("\n".join(lines) + "\n")
    else:
        dump_svmlight_file(X, y, str(path), zero_based=False)
    return path


@pytest.mark.parametrize("kind", ["npy", "csv", "svm"])
@pytest.mark.parametrize("chunk_size", [1, 10, 50, 500])
def test_chunks_concatenate_to_the_file(tmp_path, data, kind, chunk_size):
    X, y = data
    chunks = ChunkedFile(write(tmp_path, kind, X, y), chunk_size)
    blocks = list(chunks)
    assert chunks.n_rows == 103 and chunks.n_features == 4
    assert all(len(block_y) <= chunk_size for _, block_y in blocks)
    stacked = np.vstack([b.toarray() if hasattr(b, "toarray") else b for b, _ in blocks])
    np.testing.assert_array_equal(stacked, X)
    np.testing.assert_array_equal(np.concatenate([block_y for _, block_y in blocks]), y)
    assert chunks.classes.tolist() == [-1, 1]


@pytest.mark.parametrize("kind", ["npy", "csv", "svm"])
@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron])
def test_chunked_training_equals_fitting_the_whole_file(tmp_path, data, kind, cls):
    X, y = data
    whole = cls(shuffle="none", max_iter=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        whole.fit(X, y)
        chunked = fit_chunks(cls(shuffle="none"), ChunkedFile(write(tmp_path, kind, X, y), 17),
                             n_epochs=4)
    np.testing.assert_allclose(chunked.coef_, whole.coef_, rtol=0, atol=1e-12)
    np.testing.assert_allclose(chunked.intercept_, whole.intercept_, rtol=0, atol=1e-12)
    assert chunked.n_updates_ == whole.n_updates_


def test_the_warning_counts_the_epochs_asked_for(tmp_path, data, capsys):
    """n_epochs (--epochs on the command line) ends the run, not max_iter: the
    warning says how many epochs ran out (it said max_iter=1000)."""
    X, y = data
    path = write(tmp_path, "svm", X, y)
    with pytest.warns(ConvergenceWarning, match=r"^Perceptron ran the 2 epochs asked for "
                                                r"without a mistake-free pass"):
        fit_chunks(Perceptron(shuffle="none"), ChunkedFile(path, 17), n_epochs=2)
    with pytest.warns(ConvergenceWarning, match=r"^Perceptron ran the 1 epoch asked for "):
        fit_chunks(Perceptron(shuffle="none"), ChunkedFile(path, 17), n_epochs=1)
    with pytest.warns(ConvergenceWarning, match=r"^Perceptron ran max_iter=3 epochs"):
        fit_chunks(Perceptron(shuffle="none", max_iter=3), ChunkedFile(path, 17))
    assert main(["train", str(path), "--chunk-size", "20", "--epochs", "1", "-o",
                 str(tmp_path / "m.npz"), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "Perceptron ran the 1 epoch asked for without" in err
    assert err.rstrip().endswith("to train longer ask for more epochs (fit_chunks' n_epochs, "
                                 "rosenblatt train --epochs).") and "max_iter" not in err


def test_separable_file_stops_after_a_clean_pass(tmp_path):
    X, y = integer_blobs(n=60, d=3, seed=2)
    model = fit_chunks(Perceptron(shuffle="none"), ChunkedFile(write(tmp_path, "npy", X, y), 7),
                       n_epochs=100)
    assert model.converged_ and model.n_iter_ < 100 and model.score(X, y) == 1.0


def test_cli_trains_in_chunks(tmp_path, data, capsys):
    X, y = data
    path = write(tmp_path, "svm", X, y)
    out = tmp_path / "m.npz"
    assert main(["train", str(path), "--chunk-size", "20", "--epochs", "3", "--set",
                 "shuffle='none'", "-o", str(out), "--quiet"]) == 0
    assert "in blocks of 20" in capsys.readouterr().out
    whole = Perceptron(shuffle="none", max_iter=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        whole.fit(X, y)
    np.testing.assert_array_equal(load(out).coef_, whole.coef_)


def test_what_cannot_be_chunked_is_refused(tmp_path, data):
    X, y = data
    np.savez(tmp_path / "d.npz", X=X, y=y)
    with pytest.raises(ValueError, match="cannot be read in chunks.*one .npy matrix"):
        ChunkedFile(tmp_path / "d.npz", 10)
    with pytest.raises(ValueError, match="PLA has no partial_fit"):
        fit_chunks(PLA(), ChunkedFile(write(tmp_path, "npy", X, y), 10))
    with pytest.raises(ValueError, match="chunk_size must be a positive"):
        ChunkedFile(write(tmp_path, "npy", X, y), 0)
