"""Ahmed & Pavlu's "stochastic gradient descent is faster": the linear unit by batch
and by stochastic gradient descent, each at its own best step, to the least squared
loss."""

import time
import warnings

import numpy as np

from .._validation import check_random_state
from ..linear_model import LinearUnit
from ._result import ExperimentResult, check_counts, progress

#: the step sizes tried (2^-10 to 2 by factors of √2), as multiples of each solver's
#: ``eta="auto"`` step (``1/L`` for batch, ``1/max‖x̃‖²`` for SGD): a step too large
#: diverges or circles, one too small crawls, and the best lies in between
FACTORS = tuple(2.0 ** (k / 2) for k in range(-20, 3))


def gaussian_clouds(n_samples, n_features, rng):
    """Two overlapping clouds, ``N(+1, I)`` labelled +1 then ``N(-1, I)`` labelled -1,
    half of the rows each: data no line separates.

    >>> X, y = gaussian_clouds(4, 2, np.random.RandomState(0))
    >>> X.shape, y.tolist()
    ((4, 2), [1.0, 1.0, -1.0, -1.0])
    """
    half = n_samples // 2
    X = np.vstack([rng.randn(half, n_features) + 1, rng.randn(n_samples - half, n_features) - 1])
    return X, np.r_[np.ones(half), -np.ones(n_samples - half)]


def least_squared_loss(X, y):
    """``min E(w) = ½ Σ (y − w·x − b)²``, by a least-squares solve.

    >>> least_squared_loss(np.array([[0.0], [1.0], [2.0]]), np.array([1.0, 3.0, 5.0]))
    0.0
    """
    augmented = np.c_[np.ones(len(y)), X]
    solution = np.linalg.lstsq(augmented, y, rcond=None)[0]
    return round(float(0.5 * np.sum((y - augmented @ solution) ** 2)), 12)


def _epochs_to(curve, level):
    """The first epoch (from 1) whose loss is at most ``level``, or None."""
    reached = np.flatnonzero(np.asarray(curve) <= level)
    return int(reached[0]) + 1 if reached.size else None


def _cpu_seconds(X, y, solver, eta, epochs, random_state, repeats):
    """CPU seconds of ``fit`` running ``epochs`` epochs at ``eta`` (no loss computed:
    ``tol=None``), the least of ``repeats`` runs."""
    best = np.inf
    for _ in range(repeats):
        started = time.process_time()
        LinearUnit(solver=solver, eta=eta, tol=None, max_iter=epochs,
                   random_state=random_state).fit(X, y)
        best = min(best, time.process_time() - started)
    return best


def gradient_descent(n_samples=100, n_features=2, *, targets=(0.01, 0.001), max_iter=200,
                     repeats=5, random_state=0, show_progress=True):
    """The linear unit by batch and by stochastic gradient descent (Ahmed & Pavlu's
    Algorithms 2 and 3) on two overlapping Gaussian clouds: for each solver and each
    target (within 1 % and 0.1 % of the least squared loss, from a least-squares
    solve), the step of :data:`FACTORS` × its ``eta="auto"`` step that reaches the
    target in the fewest epochs, those epochs, the examples seen and the updates made
    on the way, and the CPU time of a fit that runs them.

    The loss is measured after each epoch, so a solver that gets there during its
    first epoch counts one epoch (all ``n_samples`` examples).

    >>> result = gradient_descent(40, targets=(0.01,), repeats=1, show_progress=False)
    >>> [(row[0], row[3]) for row in result.rows]
    [('batch', 5), ('sgd', 3)]
    """
    check_counts(n_samples=n_samples, n_features=n_features, max_iter=max_iter,
                 repeats=repeats)
    if n_samples < 2:
        raise ValueError(f"n_samples must be at least 2 (a row of each class); got {n_samples}.")
    rng = check_random_state(random_state)
    X, y = gaussian_clouds(n_samples, n_features, rng)
    least = least_squared_loss(X, y)
    seed = int(rng.randint(2 ** 31 - 1))  # the same random start for every run
    rows, curves = [], {}
    with warnings.catch_warnings():
        # a step too large diverges, one too small does not settle in max_iter: both
        # warn, and both are what the grid is for
        warnings.simplefilter("ignore")
        for solver in progress(("batch", "sgd"), show_progress, "gradient_descent"):
            auto = LinearUnit(solver=solver, max_iter=1, tol=None, random_state=seed).fit(
                X, y).eta_
            runs, fewest = {}, dict.fromkeys(targets, max_iter)
            for factor in sorted(FACTORS, reverse=True):  # large steps first: they are quick
                # a run counts only if it beats the fewest epochs found for some target
                unit = LinearUnit(solver=solver, eta=auto * factor, tol=1e-15,
                                  max_iter=max(fewest.values()), random_state=seed).fit(X, y)
                runs[auto * factor] = np.array(unit.loss_curve_)
                for target in targets:
                    epochs = _epochs_to(unit.loss_curve_, least * (1 + target))
                    if epochs is not None:
                        fewest[target] = min(fewest[target], epochs)
            for target in targets:
                reached = [(_epochs_to(curve, least * (1 + target)), eta)
                           for eta, curve in runs.items()]
                reached = [pair for pair in reached if pair[0] is not None]
                if not reached:
                    rows.append([solver, float(target), None, None, None, None, None])
                    continue
                epochs, eta = min(reached, key=lambda pair: (pair[0], -pair[1]))
                seconds = _cpu_seconds(X, y, solver, eta, epochs, seed, repeats)
                updates = epochs if solver == "batch" else epochs * n_samples
                rows.append([solver, float(target), f"{eta:.3g}", epochs, epochs * n_samples,
                             updates, 1000 * seconds])
                curves[solver, target] = runs[eta]

    def draw(plt):
        figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
        for (solver, target), curve in curves.items():
            style = "-" if solver == "batch" else "--"
            left.semilogy(np.arange(1, len(curve) + 1), curve / least - 1, style,
                          label=f"{solver}, best step for {100 * target:g} %")
        for target in targets:
            left.axhline(target, color="grey", lw=0.8, ls=":")
        left.set(xscale="log", xlabel="epoch", ylabel="E / min E − 1",
                 title="the loss above its minimum")
        left.legend(fontsize=8)
        measured = [row for row in rows if row[3] is not None]
        labels = [f"{row[0]}\n{100 * row[1]:g} %" for row in measured]
        right.bar(labels, [row[6] for row in measured],
                  color=["tab:blue" if row[0] == "batch" else "tab:orange" for row in measured])
        right.set(ylabel="CPU ms", title="CPU time of a fit to the target")
        return figure

    return ExperimentResult(
        "gradient_descent",
        f"Linear unit, batch against SGD: N = {n_samples}, {n_features} features, "
        f"min E = {least:.4f}",
        ["solver", "within", "best eta", "epochs", "examples", "updates", "CPU ms"], rows,
        {"least_loss": least, "curves": curves, "X": X, "y": y}, draw,
    )
