import shutil
import subprocess

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from rosenblatt import PLA, Perceptron  # noqa: E402
from rosenblatt.datasets import make_boolean, make_target_line  # noqa: E402
from rosenblatt.inspection import (  # noqa: E402
    BoundaryDisplay,
    EpochCurveDisplay,
    LossDisplay,
    animate,
    boundary_segment,
)


@pytest.fixture(autouse=True)
def close_figures():
    """pyplot keeps every figure until it is closed (past 20 it warns): close this
    test's."""
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.fixture
def unfinished():
    """A PLA stopped early, so some points are still misclassified."""
    X, y, target = make_target_line(30, random_state=5)
    model = PLA(max_updates=3, random_state=0)
    with pytest.warns(Warning):
        model.fit(X, y)
    return model, X, y, target


def test_drawn_line_is_the_models_boundary(unfinished):
    model, X, y, target = unfinished
    display = BoundaryDisplay.from_estimator(model, X, y, target=target).plot()
    xs, ys = display.line_.get_data()
    w, b = model.coef_[0], model.intercept_[0]
    np.testing.assert_allclose(w[0] * np.asarray(xs) + w[1] * np.asarray(ys) + b, 0, atol=1e-9)
    # the end points lie on the edges of the plotted box
    for x, y_ in zip(xs, ys):
        on_edge = np.isclose(x, display.xlim).any() or np.isclose(y_, display.ylim).any()
        assert on_edge


def test_arrow_is_normal_to_the_line(unfinished):
    model, X, y, _ = unfinished
    display = BoundaryDisplay.from_estimator(model, X, y).plot()
    start, end = display.arrow()
    direction = display.segment[1] - display.segment[0]
    assert abs(np.dot(end - start, direction)) < 1e-9 * np.linalg.norm(direction)
    # it points to the positive side
    w, b = model.coef_[0], model.intercept_[0]
    assert w @ end + b > 0
    np.testing.assert_allclose(display.arrow_.xy, end)


def test_misclassified_markers_are_the_misclassified_points(unfinished):
    model, X, y, _ = unfinished
    display = BoundaryDisplay.from_estimator(model, X, y).plot()
    wrong = np.flatnonzero(model.predict(X) != y)
    assert len(wrong) > 0
    np.testing.assert_array_equal(display.misclassified, wrong)
    rings = [c for c in display.ax_.collections if c.get_label() == "misclassified"]
    np.testing.assert_allclose(rings[0].get_offsets(), X[wrong])


def test_boundary_segment_edge_cases():
    assert boundary_segment([0.0, 0.0], 1.0, (-1, 1), (-1, 1)) is None
    assert boundary_segment([1.0, 0.0], -5.0, (-1, 1), (-1, 1)) is None  # x = 5 misses
    np.testing.assert_allclose(boundary_segment([1.0, 0.0], -0.5, (-1, 1), (-1, 1)),
                               [[0.5, -1], [0.5, 1]])


def test_display_refuses_data_that_are_not_2d():
    with pytest.raises(ValueError, match="2-D data"):
        BoundaryDisplay(np.ones((3, 3)), [0, 1, 1], [1, 1, 1], 0)
    X, y = make_boolean("and")
    three = Perceptron().fit(np.c_[X, X[:, 0]], y)
    with pytest.raises(ValueError, match="fitted on 2 features"):
        BoundaryDisplay.from_estimator(three, X, y)


def test_epoch_curve_and_loss_displays():
    X, y = make_boolean("and")
    curve = EpochCurveDisplay.from_estimator(Perceptron(shuffle="none"), X, y, X, y, n_epochs=9)
    assert curve.train_errors == curve.test_errors and curve.train_errors[-1] == 0.0
    curve.plot()
    assert len(curve.ax_.lines) == 2
    losses = LossDisplay(margins=[-1.0, 0.0, 0.5, 2.0])
    assert losses.losses["perceptron"].tolist() == [1.0, 0.0, 0.0, 0.0]
    assert losses.losses["hinge"].tolist() == [2.0, 1.0, 0.5, 0.0]
    assert losses.losses["zero-one"].tolist() == [1.0, 1.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="no partial_fit"):
        EpochCurveDisplay.from_estimator(PLA(), X, y)


def test_gif_has_one_frame_per_update_plus_two(tmp_path):
    X, y, target = make_target_line(15, random_state=3)
    model = PLA(record=True, random_state=1).fit(X, y)
    path = tmp_path / "run.gif"
    frames = animate(model.trace_, X, y, path, target=target)
    with Image.open(path) as gif:
        assert gif.n_frames == frames == model.n_updates_ + 2


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg is not installed here")
def test_mp4_when_ffmpeg_is_present(tmp_path):
    X, y, _ = make_target_line(10, random_state=3)
    model = PLA(record=True, random_state=1).fit(X, y)
    path = tmp_path / "run.mp4"
    frames = animate(model.trace_, X, y, path)
    assert frames == model.n_updates_ + 2
    if shutil.which("ffprobe"):  # ffmpeg's companion: count the frames the file holds
        counted = subprocess.run(
            ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
             "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0",
             str(path)], capture_output=True, text=True, check=True).stdout.strip()
        assert counted == str(frames)


def test_mp4_without_ffmpeg_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    X, y, _ = make_target_line(10, random_state=3)
    model = PLA(record=True, random_state=1).fit(X, y)
    with pytest.raises(ValueError, match="needs ffmpeg.*write a .gif"):
        animate(model.trace_, X, y, tmp_path / "run.mp4")


def test_animation_frames_skip_updates_and_show_the_update(tmp_path):
    import matplotlib
    from PIL import Image

    matplotlib.use("Agg")
    from rosenblatt import PLA
    from rosenblatt.datasets import make_target_line
    from rosenblatt.inspection import BoundaryDisplay, animate

    X, y, target = make_target_line(40, random_state=3)
    model = PLA(record=True, random_state=0).fit(X, y)
    n = model.n_updates_
    path = tmp_path / "run.gif"
    frames = animate(model.trace_, X, y, path, every=4, dpi=40)
    shown = len(set(range(0, n, 4)) | {n - 1})
    assert frames == shown + 2
    with Image.open(path) as gif:
        assert gif.n_frames == frames and gif.size == (272, 200)  # 6.8 x 5 in: room for the legend
    with pytest.raises(ValueError, match="every must be a whole number >= 1"):
        animate(model.trace_, X, y, path, every=0)
    trace = model.trace_
    display = BoundaryDisplay(X, y, trace.coef[-1], trace.intercept[-1],
                              highlight=trace.index[-1],
                              previous=(trace.coef[-2], trace.intercept[-2]),
                              feature_names=["length", "width"]).plot()
    labels = display.ax_.get_legend_handles_labels()[1]
    assert {"updated point", "before the update"} <= set(labels)
    assert (display.ax_.get_xlabel(), display.ax_.get_ylabel()) == ("length", "width")
    final = BoundaryDisplay.from_estimator(model, X, y).plot()
    assert "margin band" in final.ax_.get_legend_handles_labels()[1]  # separated: a band


def test_regions_display_takes_any_classifier_and_adds_the_line_when_linear():
    import matplotlib

    matplotlib.use("Agg")
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from rosenblatt import KernelPerceptron, MulticlassPerceptron, Perceptron
    from rosenblatt.inspection import RegionsDisplay

    rng = np.random.RandomState(0)
    X = rng.randn(60, 2)
    y3 = np.argmax(X @ rng.randn(2, 3), axis=1)
    y2 = (X[:, 0] + X[:, 1] > 0).astype(int)
    ring = ((X ** 2).sum(axis=1) > 1).astype(int)
    multiclass = RegionsDisplay.from_estimator(MulticlassPerceptron(random_state=0).fit(X, y3),
                                               X, y3)
    predicted = multiclass.regions_.response
    assert set(np.unique(predicted)) == {0, 1, 2} and multiclass.boundary_ is None
    pipeline = make_pipeline(StandardScaler(), Perceptron(random_state=0)).fit(X, y2)
    assert RegionsDisplay.from_estimator(pipeline, X, y2).boundary_ is None
    kernel = KernelPerceptron(kernel="poly", degree=2, random_state=0, max_iter=50).fit(X, ring)
    regions = RegionsDisplay.from_estimator(kernel, X, ring, grid_resolution=50).regions_
    grid = np.c_[regions.xx0.ravel(), regions.xx1.ravel()]
    np.testing.assert_array_equal(regions.response.ravel(), kernel.predict(grid))
    linear = RegionsDisplay.from_estimator(Perceptron(random_state=0).fit(X, y2), X, y2)
    assert linear.boundary_ is not None and linear.boundary_.arrow_ is not None
    with pytest.raises(ValueError, match="RegionsDisplay draws 2-D data"):
        RegionsDisplay.from_estimator(Perceptron().fit(np.c_[X, X], y2), np.c_[X, X], y2)


def test_a_learned_line_outside_the_view_is_named_in_the_legend():
    X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]
    far = BoundaryDisplay(X, y, [1.0, 0.0], 10.0).plot()  # x1 = -10
    assert far.line_ is None
    assert "learned (outside the view)" in far.ax_.get_legend_handles_labels()[1]
    zero = BoundaryDisplay(X, y, [0.0, 0.0], 0.0).plot()
    assert "learned (w = 0: no line)" in zero.ax_.get_legend_handles_labels()[1]
    near = BoundaryDisplay(X, y, [1.0, 1.0], -1.5).plot()
    assert "learned" in near.ax_.get_legend_handles_labels()[1]
