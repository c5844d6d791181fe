"""A practitioner's first hour (issue 26): what the command line prints and trains,
the pictures' legends, and the gallery's output, as a newcomer meets them."""

import ast
import os
import pathlib
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from rosenblatt import PLA, Perceptron  # noqa: E402
from rosenblatt.cli import main  # noqa: E402
from rosenblatt.cli.animate import MAX_FRAMES, default_every  # noqa: E402
from rosenblatt.datasets import load_data  # noqa: E402
from rosenblatt.engine import SHORT_NAMES, make_estimator  # noqa: E402
from rosenblatt.io import load  # noqa: E402

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture(autouse=True)
def close_figures():
    """pyplot keeps every figure until it is closed (past 20 it warns): close this
    test's."""
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.fixture
def noisy_csv(tmp_path):
    """Two overlapping classes: no epoch is free of mistakes, so the stopping rule
    decides where a fit ends."""
    rng = np.random.RandomState(0)
    X = rng.randn(200, 2)
    y = (X[:, 0] + 0.8 * rng.randn(200) > 0).astype(int)
    path = tmp_path / "noisy.csv"
    np.savetxt(path, np.c_[X, y], delimiter=",", header="a,b,y", comments="", fmt="%.6f")
    return (path, *load_data(path))  # as the command line reads them


# 1. the command line trains the model that Python's fit trains

def test_train_uses_the_estimators_own_tol_and_equals_pythons_fit(noisy_csv, tmp_path):
    """The command line put tol=1e-3 on the models whose default is another: the
    same data and parameters gave another model than fit() in Python."""
    import warnings

    path, X, y = noisy_csv
    out = tmp_path / "m.npz"
    assert main(["train", str(path), "--set", "random_state=0", "--set", "max_iter=50",
                 "-o", str(out), "--quiet"]) == 0
    loaded = load(out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # not converged in 50 epochs, maybe: both alike
        python = Perceptron(random_state=0, max_iter=50).fit(X, y)
    assert loaded.tol == Perceptron().tol
    assert loaded.n_iter_ == python.n_iter_
    np.testing.assert_array_equal(loaded.coef_, python.coef_)


@pytest.mark.parametrize("name", sorted(SHORT_NAMES))
def test_train_leaves_every_models_tol_as_its_default(name, tmp_path, monkeypatch):
    """Nothing on the command line sets tol unless asked: each model keeps its own."""
    from rosenblatt.cli import train as train_module

    seen = {}

    def fake_train(model, path, **options):
        seen["params"] = model.get_params()
        raise ValueError("stop here")

    monkeypatch.setattr(train_module, "train", fake_train)
    data = tmp_path / "and.csv"
    data.write_text("a,b,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
    assert main(["train", str(data), "--model", name, "-o", str(tmp_path / "m.npz")]) == 2
    assert seen["params"].get("tol", "none") == make_estimator(name).get_params().get("tol",
                                                                                      "none")


def test_tol_is_still_an_option(tmp_path, capsys):
    data = tmp_path / "and.csv"
    data.write_text("a,b,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
    out = tmp_path / "m.npz"
    assert main(["train", str(data), "--tol", "0.01", "-o", str(out), "--quiet"]) == 0
    # the summary says why the run ended (AND is separable: its mistake-free epoch)
    model = load(out)
    assert model.tol == 0.01 and model.stop_reason_ == "mistake_free"
    assert "stopped    at an epoch without a mistake" in capsys.readouterr().out
    assert main(["train", str(data), "--tol", "none", "-o", str(out), "--quiet"]) == 0
    assert load(out).tol is None
    assert main(["train", str(data), "--model", "pla", "--tol", "0.1", "-o", str(out)]) == 2
    assert "PLA stops by its own rule" in capsys.readouterr().err


# 4. a long run is drawn in at most MAX_FRAMES frames, and the output says so

def frames_drawn(n_updates, every):
    """The frames of rosenblatt.inspection.animate: the start, every k-th update and
    the last, the end."""
    return 2 + len(set(range(0, n_updates, every)) | {n_updates - 1})


def test_the_default_every_caps_the_frames_and_draws_short_runs_whole():
    for n in range(1, 3000):
        frames = frames_drawn(n, default_every(n))
        assert frames <= MAX_FRAMES
        assert frames == n + 2 if n <= MAX_FRAMES - 3 else frames > MAX_FRAMES // 2


def test_animate_picks_every_for_a_long_run_and_says_so(tmp_path, capsys, monkeypatch):
    from rosenblatt.cli import animate as animate_module

    asked = {}

    def fake_animate(trace, X, y, path, *, every=1, **options):  # no minute of rendering
        asked["every"] = every
        return frames_drawn(len(trace), every)

    monkeypatch.setattr(animate_module, "animate", fake_animate)
    data = tmp_path / "svm.csv"
    assert main(["datasets", "--export", "svm_succinctly_train", "-o", str(data)]) == 0
    capsys.readouterr()
    gif = tmp_path / "run.gif"
    argv = ["animate", str(data), "--set", "random_state=14", "-o", str(gif)]
    assert main(argv) == 0  # PLA: 312 updates on 14 points
    assert asked["every"] == 4
    assert capsys.readouterr().out == (f"wrote {gif} (81 frames, every 4th of 312 updates; "
                                       "--every 1 for all)\n")
    assert main([*argv, "--every", "1"]) == 0
    assert asked["every"] == 1
    assert capsys.readouterr().out == f"wrote {gif} (314 frames, 312 updates)\n"
    assert main([*argv, "--every", "5"]) == 0
    assert capsys.readouterr().out == f"wrote {gif} (66 frames, every 5th of 312 updates)\n"


# 5. legends beside the points, not on them

def covered_points(display):
    """The points (data rows) that the display's legend hides."""
    figure = display.figure_
    figure.canvas.draw()
    box = display.ax_.get_legend().get_window_extent()
    xy = display.ax_.transData.transform(display.X)
    return np.flatnonzero((xy[:, 0] >= box.x0) & (xy[:, 0] <= box.x1) &
                          (xy[:, 1] >= box.y0) & (xy[:, 1] <= box.y1))


def test_the_boundary_legend_avoids_the_points():
    from rosenblatt.inspection import BoundaryDisplay

    rng = np.random.RandomState(0)
    # a crowd in the upper left, where the legend used to be pinned; the rest spread
    # over the left half
    X = np.r_[rng.uniform([0, 0.75], [0.25, 1], (30, 2)), rng.uniform([0, 0], [0.5, 1],
                                                                       (30, 2)), [[1, 0]]]
    y = (X[:, 1] > 0.5).astype(int)
    display = BoundaryDisplay(X, y, [0.0, 1.0], -0.5).plot()
    assert len(covered_points(display)) == 0
    outside = BoundaryDisplay(X, y, [0.0, 1.0], -0.5).plot(legend_loc="outside")
    outside.figure_.canvas.draw()  # the layout that makes room for it is done in drawing
    legend, axes = outside.ax_.get_legend().get_window_extent(), outside.ax_.bbox
    assert legend.x0 > axes.x1 and legend.x1 <= outside.figure_.bbox.x1


def test_animation_frames_keep_the_legend_beside_the_axes(tmp_path, monkeypatch):
    from rosenblatt.datasets import make_target_line
    from rosenblatt.inspection import BoundaryDisplay, animate

    X, y, target = make_target_line(40, random_state=3)
    model = PLA(record=True, random_state=0).fit(X, y)
    boxes = []
    plot = BoundaryDisplay.plot

    def spy(self, ax=None, **options):
        plot(self, ax, **options)
        boxes.append((self.ax_.get_legend().get_window_extent(), self.ax_.bbox.x1,
                      self.figure_.bbox.x1))
        return self

    monkeypatch.setattr(BoundaryDisplay, "plot", spy)
    frames = animate(model.trace_, X, y, tmp_path / "run.gif", target=target, every=10,
                     dpi=30)
    assert len(boxes) == frames
    assert all(axes_right < legend.x0 and legend.x1 <= figure_right
               for legend, axes_right, figure_right in boxes)


# 6. what train and evaluate print, and where they fail

def test_train_fails_before_fitting_on_a_folder_it_cannot_write(tmp_path, capsys,
                                                                 monkeypatch):
    from rosenblatt.cli import train as train_module

    if not pathlib.Path("/proc/self").is_dir():
        pytest.skip("needs /proc, a folder where no file can be made")

    def no_fit(*args, **kwargs):
        raise AssertionError("trained before checking -o")

    monkeypatch.setattr(train_module, "train", no_fit)
    data = tmp_path / "and.csv"
    data.write_text("a,b,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
    assert main(["train", str(data), "-o", "/proc/model.npz"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rosenblatt train: error: -o /proc/model.npz: cannot write in the "
                          "folder /proc") and ".tmp" not in err
    assert main(["train", str(data), "-o", str(tmp_path / "no" / "such" / "m.npz")]) == 2
    assert "the folder" in capsys.readouterr().err


def test_a_failed_save_names_the_model_file_not_a_temporary_one(tmp_path, capsys,
                                                                 monkeypatch):
    from rosenblatt.cli import train as train_module

    def full_disk(model, path):
        raise OSError(28, "No space left on device", str(tmp_path / "tmpabc123.tmp"))

    monkeypatch.setattr(train_module, "save", full_disk)
    data = tmp_path / "and.csv"
    data.write_text("a,b,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
    assert main(["train", str(data), "-o", str(tmp_path / "m.npz"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert f"-o {tmp_path / 'm.npz'}: cannot write the model (No space left on device)" in err
    assert "tmpabc123" not in err


def test_pla_reports_updates_not_epochs(tmp_path, capsys):
    data = tmp_path / "and.csv"
    data.write_text("a,b,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
    assert main(["train", str(data), "--model", "pla", "--set", "random_state=0",
                 "-o", str(tmp_path / "m.npz")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert not any(line.startswith("epochs") for line in lines)
    assert any(line.startswith("updates    ") and "converged True" in line for line in lines)


def test_counts_print_as_whole_numbers_never_in_g_format():
    from rosenblatt.cli.train import Training
    from rosenblatt.distributed import ParameterMixing

    X = np.random.RandomState(0).randn(60, 2)
    y = (X[:, 0] > 0).astype(int)
    mixed = ParameterMixing(Perceptron(random_state=0, max_iter=5), n_shards=2,
                            client="threads").fit(X, y)
    mixed.mixed_mistakes_ = np.array([34650.5])  # uniform mixing: a sum of halves
    mixed.estimator_.n_updates_ = 7014670
    text = "\n".join(Training(mixed, n_rows=7014670, chunk_size=100000).lines("m.npz"))
    assert "mixed mistakes 34,650" in text and "updates 7,014,670" in text
    assert "rows       7,014,670 in blocks of 100,000" in text
    assert "e+" not in text and "34650.5" not in text


def test_a_closed_pipe_ends_the_command_quietly(tmp_path):
    """``rosenblatt predict ... | head -1``: exit 141 as a Unix tool that SIGPIPE
    ended, and nothing on stderr (it printed "error: [Errno 32] Broken pipe")."""
    rng = np.random.RandomState(0)
    X = rng.randn(40_000, 2)
    data = tmp_path / "big.csv"
    np.savetxt(data, np.c_[X, X[:, 0] > 0], delimiter=",", header="a,b,y", comments="",
               fmt="%.3f")
    model = tmp_path / "m.npz"
    assert main(["train", str(data), "--set", "max_iter=3", "-o", str(model), "--quiet"]) == 0
    # block-buffered, as in a shell (the error then came at exit, as "Exception ignored")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    with subprocess.Popen(
            [sys.executable, "-m", "rosenblatt", "predict", str(model), str(data), "--format",
             "csv", "--scores"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env) as process:
        assert process.stdout.readline() == b"label,score\n"
        process.stdout.close()  # as head does, with 40,000 lines still to come
        err = process.stderr.read().decode()
        assert process.wait(timeout=300) == 141
    assert err == ""


# 7. the gallery prints only what its pages print

#: calls a gallery cell may end with: they print, show a page on purpose (the player's
#: HTML), or return None
QUIET_ENDINGS = {"print", "TracePlayer", "tight_layout", "show"}


def test_no_gallery_cell_ends_in_an_expression_sphinx_gallery_would_print():
    """sphinx-gallery prints the value of a cell's last expression: ``result.plot()``
    (a Figure) printed ``<Figure size 1000x400 with 2 Axes>`` under four pages, and a
    display, a legend or ``ax.set(...)`` print their reprs too. Read statically:
    running the pages is tests/test_gallery.py's work."""
    from sphinx_gallery.py_source_parser import split_code_and_text_blocks

    stray = []
    for page in sorted(EXAMPLES.glob("plot_*.py")):
        for block in split_code_and_text_blocks(str(page))[1]:
            body = ast.parse(block.content).body if block.type == "code" else []
            if not body or not isinstance(body[-1], ast.Expr):
                continue
            value = body[-1].value
            function = value.func if isinstance(value, ast.Call) else None
            name = getattr(function, "id", None) or getattr(function, "attr", None)
            if name not in QUIET_ENDINGS:
                stray.append(f"{page.name}:{block.lineno + body[-1].lineno - 1}: "
                             f"{ast.get_source_segment(block.content, body[-1])}")
    assert stray == []
