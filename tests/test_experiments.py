import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from rosenblatt.experiments import (  # noqa: E402
    EXPERIMENTS,
    and_epochs,
    epochs_curve,
    iris_restarts,
    margin_bound,
    permutation,
    target_line,
    variants,
)


def test_and_epochs_reproduces_the_text():
    result = and_epochs()
    assert result.rows[0][2:] == [0.0, 1.0, 1.0]       # after epoch 1: [0, 1, 1]
    assert result.rows[-1] == [9, 0, -4.0, 3.0, 2.0]   # epoch 9, no mistake: [-4, 3, 2]
    assert len(result.rows) == 9


def test_target_line_exact_and_monte_carlo_agree():
    result = target_line(20, n_runs=20, n_test=20_000, random_state=1, show_progress=False)
    data = result.data
    assert np.all(data["e_in"] == 0) and np.all(data["updates"] >= 1)
    assert np.max(np.abs(data["e_out_mc"] - data["e_out_exact"])) < 0.02
    assert data["hypotheses"].shape == (20, 3)


def test_iris_restarts_find_different_separators():
    result = iris_restarts(n_restarts=3, etas=(1.0,), show_progress=False)
    vectors = [v / np.linalg.norm(v) for _, _, v in result.data["boundaries"]]
    assert all(row[4] == 1.0 for row in result.rows)
    assert not np.allclose(vectors[0], vectors[1])


def test_epochs_curve_marks_the_least_test_error():
    result = epochs_curve(n_epochs=5, show_progress=False)
    errors = result.data["errors"]
    for name, epoch in result.data["best_epoch"].items():
        assert errors[name][1][epoch - 1] == min(errors[name][1])
    assert len(result.rows) == 5


def test_permutation_has_one_row_per_mode():
    result = permutation(n_samples=40, n_runs=5, show_progress=False)
    assert [row[0] for row in result.rows] == ["none", "once", "every_epoch"]
    assert all(row[1] >= 1 for row in result.rows)


def test_variants_reports_each_variant():
    result = variants(("iris_versicolor_virginica",), n_epochs=3, show_progress=False)
    assert len(result.rows) == 1 and all(0 <= e <= 1 for e in result.rows[0][1:])


def test_margin_bound_is_never_exceeded():
    result = margin_bound((0.2, 0.05), n_samples=60, show_progress=False)
    assert all(row[2] <= row[3] for row in result.rows)
    assert result.rows[0][3] < result.rows[1][3]  # smaller margin, larger bound


@pytest.mark.parametrize("name", sorted(EXPERIMENTS))
def test_every_experiment_draws_a_figure(name, tmp_path):
    small = {"target_line": dict(n_runs=3, n_test=500), "and_epochs": {},
             "iris_restarts": dict(n_restarts=1), "epochs_curve": dict(n_epochs=2),
             "permutation": dict(n_samples=20, n_runs=2), "margin_bound": dict(margins=(0.2,)),
             "variants": dict(datasets=("iris_versicolor_virginica",), n_epochs=2),
             "gradient_descent": dict(n_samples=40, repeats=1)}[name]
    if name != "and_epochs":
        small["show_progress"] = False
    result = EXPERIMENTS[name](**small)
    figure = result.plot()
    path = tmp_path / f"{name}.png"
    figure.savefig(path)
    assert path.stat().st_size > 1000 and len(figure.axes) >= 1
    assert result.table().splitlines()[0] == result.title
