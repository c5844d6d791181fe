import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from rosenblatt import __version__
from rosenblatt.cli import main
from rosenblatt.io import load


def lines_of(out):
    return dict(line.split(None, 1) for line in out.splitlines() if line.strip())


def test_demo_prints_numbers_and_writes_pictures(capsys, tmp_path):
    assert main(["demo", "--test-points", "20000", "--seed", "3", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("N        20\n")
    values = lines_of(out)
    assert int(values["updates"]) >= 1 and values["E_in"] == "0.0000"
    e_out_lines = [line for line in out.splitlines() if line.startswith("E_out")]
    monte_carlo, exact = (float(line.split()[1]) for line in e_out_lines)
    assert abs(monte_carlo - exact) < 0.01
    with Image.open(tmp_path / "boundary.png") as png:
        assert png.size == (640, 500)  # the legend beside the axes
    with Image.open(tmp_path / "training.gif") as gif:
        assert gif.size == (544, 400) and gif.n_frames == int(values["updates"]) + 2


def test_train_predict_evaluate_plot_round(capsys, tmp_path):
    data = tmp_path / "train.csv"
    assert main(["datasets", "--export", "svm_succinctly_train", "-o", str(data)]) == 0
    model = tmp_path / "m.npz"
    assert main(["train", str(data), "--model", "pla", "--set", "init='uniform'",
                 "--set", "random_state=88", "-o", str(model), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "PLA" in out and "accuracy   1.0000" in out and "converged True" in out
    loaded = load(model)
    assert loaded.get_params()["init"] == "uniform"
    np.testing.assert_allclose(loaded.coef_, [[1.50714969, 5.52834138]], atol=5e-9)
    assert main(["predict", str(model), str(data)]) == 0
    assert capsys.readouterr().out.split() == ["1"] * 7 + ["-1"] * 7
    assert main(["evaluate", str(model), str(data)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("accuracy  1.0000  (14 rows)")
    assert out.splitlines()[2].split() == ["-1", "7", "0"]
    assert main(["plot", str(model), str(data), "-o", str(tmp_path / "p.png")]) == 0
    assert (tmp_path / "p.png").stat().st_size > 1000


def test_animate_and_experiment(capsys, tmp_path):
    data = tmp_path / "and.csv"
    main(["datasets", "--export", "and", "-o", str(data)])
    gif = tmp_path / "a.gif"
    assert main(["animate", str(data), "--model", "perceptron", "--set", "shuffle='none'",
                 "-o", str(gif)]) == 0
    assert "18 updates" in capsys.readouterr().out
    with Image.open(gif) as image:
        assert image.n_frames == 20
    figure = tmp_path / "e.png"
    assert main(["experiment", "and_epochs", "--figure", str(figure)]) == 0
    out = capsys.readouterr().out
    assert "    9        0    -4.0000  3.0000  2.0000" in out and figure.exists()
    assert main(["experiment", "permutation", "--set", "n_runs=2", "--set", "n_samples=20",
                 "--quiet"]) == 0
    assert "every_epoch" in capsys.readouterr().out


def test_datasets_lists_the_built_in_sets(capsys):
    assert main(["datasets"]) == 0
    names = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert {"and", "xor", "svm_succinctly_train", "iris_setosa"} <= set(names)


@pytest.mark.parametrize("argv, message", [
    (["demo", "-n", "0"], "expected a positive whole number, got '0'"),
    (["demo", "--seed", "x"], "invalid int value"),
    (["nonsense"], "invalid choice"),
    (["train", "missing.csv", "-o", "m.npz"], "missing.csv: no such file"),
    (["train", "{data}", "--model", "tree", "-o", "m.npz"], "unknown model 'tree'"),
    (["train", "{data}", "--set", "eta", "-o", "m.npz"], "expected NAME=VALUE"),
    (["train", "{data}", "--set", "eta=-1", "-o", "m.npz"], "'eta' parameter"),
    (["train", "{bad}", "-o", "m.npz"], "line 3: field 1 is 'x', not a number"),
    (["predict", "{data}", "{data}"], "not a readable model file"),
    (["experiment", "and_epochs", "--set", "colour=1"], "bad --set for and_epochs"),
    (["experiment", "nothing"], "invalid choice"),
])
def test_bad_usage_or_input_exits_2_with_one_line(argv, message, capsys, tmp_path):
    data, bad = tmp_path / "d.csv", tmp_path / "bad.csv"
    data.write_text("x1,x2,label\n0,0,0\n1,1,1\n")
    bad.write_text("x1,x2,label\n0,0,0\nx,1,1\n")
    argv = [a.format(data=data, bad=bad) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_no_command_shows_help_and_exits_2(capsys):
    assert main([]) == 2
    assert "demo" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["demo", "train", "predict", "evaluate", "plot", "animate",
                                     "experiment", "datasets"])
def test_every_command_has_help(command, capsys):
    assert main([command, "--help"]) == 0
    assert "usage: rosenblatt " + command in capsys.readouterr().out


def test_real_subprocess(tmp_path):
    version = subprocess.run([sys.executable, "-m", "rosenblatt", "--version"],
                             capture_output=True, text=True, check=True)
    assert version.stdout.strip() == f"rosenblatt {__version__}"
    demo = subprocess.run([sys.executable, "-m", "rosenblatt", "demo", "--test-points", "500",
                           "--out", str(tmp_path)], capture_output=True, text=True)
    assert demo.returncode == 0, demo.stderr
    assert demo.stdout.startswith("N        20\n") and (tmp_path / "training.gif").exists()
    bad = subprocess.run([sys.executable, "-m", "rosenblatt", "demo", "-n", "-5"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "positive whole number" in bad.stderr
    assert "Traceback" not in bad.stderr
    assert np.isfinite(1.0)


def test_a_libsvm_test_file_is_read_as_wide_as_the_model(capsys, tmp_path):
    # a9a.t's rows never hold feature 123, which a9a's do: the test file is narrower
    train = tmp_path / "train.svm"
    train.write_text("+1 1:1 3:1\n-1 2:1 5:1\n+1 1:1 4:1\n-1 2:1 5:1\n")
    narrow = tmp_path / "test.svm"
    narrow.write_text("+1 1:1 3:1\n-1 2:1\n")
    model = tmp_path / "m.npz"
    assert main(["train", str(train), "-o", str(model), "--quiet"]) == 0
    assert main(["evaluate", str(model), str(narrow)]) == 0
    assert "accuracy   1.0000" in capsys.readouterr().out.replace(":", " ")
    assert main(["predict", str(model), str(narrow)]) == 0
    assert capsys.readouterr().out.split() == ["1", "-1"]
    wide = tmp_path / "wide.svm"
    wide.write_text("+1 1:1 7:1\n")
    assert main(["evaluate", str(model), str(wide)]) == 2
    assert "its rows name features beyond the 5 expected" in capsys.readouterr().err


def test_predict_reads_unlabelled_data_and_stdin_and_writes_csv_or_json(tmp_path, capsys,
                                                                         monkeypatch):
    import io
    import json

    train = tmp_path / "and.csv"
    train.write_text("x1,x2,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
    model = tmp_path / "m.npz"
    assert main(["train", str(train), "-o", str(model), "--quiet", "--tol", "none",
                 "--set", "shuffle=none"]) == 0
    capsys.readouterr()
    fresh = tmp_path / "new.csv"
    fresh.write_text("x1,x2\n1,1\n0,0\n")  # no label column: as wide as the features
    assert main(["predict", str(model), str(fresh)]) == 0
    assert capsys.readouterr().out == "1\n0\n"
    assert main(["predict", str(model), str(fresh), "--format", "csv", "--scores"]) == 0
    assert capsys.readouterr().out == "label,score\n1,1.0\n0,-4.0\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"a,b\n1,1\n")))
    assert main(["predict", str(model), "-", "--format", "json", "--scores", "-o", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == {"labels": [1], "scores": [1.0]}
    out = tmp_path / "p.json"
    assert main(["predict", str(model), str(train), "--format", "json", "-o", str(out)]) == 0
    assert json.loads(out.read_text()) == {"labels": [0, 0, 0, 1]}
    assert main(["predict", str(model), str(fresh), "--scores"]) == 2
    assert "--scores needs --format csv or json" in capsys.readouterr().err


WARMED_FITS = """
import sys
import warnings

import numpy as np
import scipy.sparse as sp

from rosenblatt import Perceptron
from rosenblatt.structured import SequencePerceptron

warnings.simplefilter("ignore")
rng = np.random.RandomState(1)
wide = sp.random(30, 2**18, density=1e-4, format="csr", random_state=rng, dtype=np.float32)
Perceptron(max_iter=3).fit(wide, np.arange(30) % 3).predict(wide)
Perceptron(max_iter=3).fit(rng.randn(30, 5), np.arange(30) % 2)
binary = sp.csr_matrix((rng.rand(30, 5) < 0.5).astype(float))  # words present or absent
Perceptron(max_iter=3).fit(binary, np.arange(30) % 2)
X = sp.csr_matrix(rng.randn(30, 6))
SequencePerceptron(max_iter=3).fit(X, np.arange(30) % 4, [10, 20]).predict(X, [30])
corpus = sp.csr_matrix((rng.rand(6000, 8) < 0.5).astype(float))  # 30 labels: on threads
tagger = SequencePerceptron(max_iter=1).fit(corpus, np.arange(6000) % 30, [20] * 300)
tagger.predict(corpus, [20] * 300)
"""


def test_warmup_fills_the_kernel_cache_for_what_a_user_fits_next(tmp_path):
    """After ``warmup``, fits of other data of the warmed kinds (the perceptron on
    wide float32 CSR with three classes, on dense and on binary CSR rows, the
    structured perceptron) compile nothing: the cache holds every file they need.
    (The perceptron: its kernels compile in seconds where AROW's two covariance
    forms take minutes; the covariance forms are counted in the test below.)"""
    import os

    cache = tmp_path / "cache"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-m", "rosenblatt", "warmup", "--model",
                           "perceptron", "--model", "sequence"],
                          capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("compiled and cached: 24 fits in ")  # 16 + 8 tagging
    assert str(cache) in done.stdout
    warmed = {path: path.stat().st_mtime_ns for path in cache.rglob("*") if path.is_file()}
    assert [path for path in warmed if path.suffix == ".nbi"]  # numba's index files
    fits = subprocess.run([sys.executable, "-c", WARMED_FITS], capture_output=True, text=True,
                          env=env, timeout=900)
    assert fits.returncode == 0, fits.stderr
    after = {path: path.stat().st_mtime_ns for path in cache.rglob("*") if path.is_file()}
    assert after == warmed  # nothing compiled, nothing added to an index


def test_warmup_fits_each_covariance_form_of_the_second_order_rules(monkeypatch):
    """AROW is warmed with both covariance forms: the diagonal one on all 8 layouts,
    the full one on the 5 that are not wide (a full Σ over 2^17 features is
    refused), each with two and three classes."""
    from rosenblatt.cli import warmup as command

    made = []

    def make_estimator(name, **params):
        made.append(params.get("covariance"))
        return SimpleModel(name)

    class SimpleModel:
        def __init__(self, name):
            self.name = name

        def get_params(self):
            return {"covariance": "full"}

        def fit(self, X, y):
            return self

        def decision_function(self, X):
            return X

    monkeypatch.setattr(command, "make_estimator", make_estimator)
    assert command._warm_classifier("arow") == 26
    assert made[1:].count("full") == 10 and made[1:].count("diagonal") == 16


def test_plot_and_animate_label_the_axes_with_the_csv_header(tmp_path, monkeypatch):
    import json
    import re

    from rosenblatt.cli import plot as plot_command

    data = tmp_path / "iris.csv"
    data.write_text("species,petal length,petal width\n"
                    "setosa,1.4,0.2\nsetosa,1.3,0.3\nother,4.7,1.4\nother,5.1,1.9\n")
    model = tmp_path / "model.npz"
    assert main(["train", str(data), "--label", "species", "--model", "perceptron",
                 "-o", str(model)]) == 0
    drawn = {}
    original = plot_command.plot_boundary
    monkeypatch.setattr(plot_command, "plot_boundary", lambda *args: drawn.setdefault(
        "display", original(*args)))
    assert main(["plot", str(model), str(data), "--label", "species",
                 "-o", str(tmp_path / "b.png")]) == 0
    axes = drawn["display"].ax_
    assert (axes.get_xlabel(), axes.get_ylabel()) == ("petal length", "petal width")
    page = tmp_path / "run.html"
    assert main(["animate", str(data), "--label", "species", "--model", "perceptron",
                 "--html", str(page)]) == 0
    names = json.loads(re.search(r'"names": (\[[^\]]*\])', page.read_text()).group(1))
    assert names == ["petal length", "petal width"]
    # no header: the default names
    bare = tmp_path / "bare.csv"
    bare.write_text("1.4,0.2,0\n4.7,1.4,1\n")
    assert main(["animate", str(bare), "--model", "perceptron", "--html", str(page)]) == 0
    assert '"names": ["x1", "x2"]' in page.read_text()
