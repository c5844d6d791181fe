"""Daumé Fig. 4.4: does the order of the examples matter? Fixed, one permutation, or new."""

import numpy as np
from scipy.stats import bootstrap

from .._validation import check_random_state
from ..linear_model import Perceptron
from ._result import ExperimentResult, check_counts, progress, two_class_target_line

MODES = ("none", "once", "every_epoch")


def permutation(n_samples=100, n_runs=1000, *, confidence=0.95, random_state=0,
                show_progress=True):
    """Epochs and updates to converge for each ``shuffle`` mode, on separable data
    presented in the worst order (all negatives, then all positives), with
    bootstrap confidence intervals.

    Daumé (§4.2) says re-permuting every epoch "tends to yield about 20 %
    savings in number of iterations" over permuting once. The epochs a run
    needs have a long tail (a target line that leaves a thin margin takes
    hundreds), so a mean over 50 runs can point either way; the default 1,000
    runs give an interval that decides. Every run draws one data set and gives
    it to all three modes, so the saving is measured run by run (a paired
    bootstrap of the ratio of mean epochs).

    Parameters
    ----------
    n_samples : int, default=100
        Points per data set (the blog's random target line in [-1, 1]²).
    n_runs : int, default=1000
        Data sets drawn.
    confidence : float, default=0.95
        Level of the intervals.
    random_state : int, RandomState or Generator, default=0
        Seeds the data, the permutations and the bootstrap.
    show_progress : bool, default=True
        A progress bar over the runs.

    Returns
    -------
    ExperimentResult
        One row per mode: mean epochs and its interval, median epochs, mean
        updates, and the saving in mean epochs against ``"once"`` with its
        interval (``data["saving"]``: mode -> (saving, low, high)).

    Examples
    --------
    >>> result = permutation(n_samples=30, n_runs=20, show_progress=False)
    >>> [row[0] for row in result.rows]
    ['none', 'once', 'every_epoch']
    >>> low, high = result.data["epochs_interval"]["once"]
    >>> bool(low <= result.rows[1][1] <= high)
    True
    """
    check_counts(n_samples=n_samples, n_runs=n_runs)
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1; got {confidence!r}.")
    rng = check_random_state(random_state)
    epochs = {mode: [] for mode in MODES}
    updates = {mode: [] for mode in MODES}
    for _ in progress(range(n_runs), show_progress, "permutation"):
        X, y, _ = two_class_target_line(n_samples, rng)
        order = np.argsort(y, kind="stable")  # negatives first: the ordering Daumé warns of
        X, y = X[order], y[order]
        seed = int(rng.randint(2**31 - 1))
        for mode in MODES:
            # epochs to the first mistake-free one: no loss-stall rule (tol)
            model = Perceptron(shuffle=mode, max_iter=10_000, tol=None,
                               random_state=seed).fit(X, y)
            epochs[mode].append(model.n_iter_)
            updates[mode].append(model.n_updates_)
    epochs = {mode: np.array(values, dtype=float) for mode, values in epochs.items()}
    interval = {mode: _interval((values,), np.mean, confidence, rng)
                for mode, values in epochs.items()}
    saving = {mode: (_saving(epochs["once"], epochs[mode]),
                     *_interval((epochs["once"], epochs[mode]), _saving, confidence, rng))
              for mode in MODES if mode != "once"}
    rows = [[mode, float(epochs[mode].mean()), _bracket(interval[mode], "{:.1f}"),
             float(np.median(epochs[mode])), float(np.mean(updates[mode])),
             _percent(saving.get(mode))] for mode in MODES]

    def draw(plt):
        figure, (left, middle, right) = plt.subplots(1, 3, figsize=(13, 4))
        _bars(left, MODES, [(epochs[m].mean(), *interval[m]) for m in MODES])
        left.set(ylabel=f"mean epochs to converge ({confidence:.0%} interval)")
        others = [m for m in MODES if m != "once"]
        _bars(middle, others, [tuple(100 * v for v in saving[m]) for m in others])
        middle.axhline(0, color="black", lw=0.8)
        middle.axhline(20, color="tab:red", ls="--", lw=1, label="Daumé: about 20 %")
        middle.set(ylabel="saving in epochs against once (%), paired")
        middle.legend(loc="lower right")
        right.boxplot([epochs[m] for m in MODES], tick_labels=MODES)
        right.set(ylabel="epochs to converge (log scale)", yscale="log")
        return figure

    return ExperimentResult(
        "permutation", f"Ordering of {n_samples} sorted examples, {n_runs} runs",
        ["shuffle", "mean epochs", f"{confidence:.0%} interval", "median epochs",
         "mean updates", "saving vs once"],
        rows,
        {"epochs": epochs, "updates": updates, "epochs_interval": interval, "saving": saving},
        draw,
    )


def _saving(once, other, axis=-1):
    """1 − (mean epochs of ``other``) / (mean epochs of ``once``)."""
    return 1.0 - np.mean(other, axis=axis) / np.mean(once, axis=axis)


def _interval(samples, statistic, confidence, rng):
    """Bootstrap percentile interval of ``statistic``; several samples are resampled
    together, run by run (paired)."""
    if len(samples[0]) < 2:
        value = float(statistic(*samples))
        return value, value
    result = bootstrap(samples, statistic, paired=True, vectorized=True,
                       confidence_level=confidence, n_resamples=2000, method="percentile",
                       random_state=np.random.RandomState(rng.randint(2**31 - 1)))
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def _bars(ax, names, estimates):
    """Bars at each estimate with its (low, high) interval as error bars."""
    values = [value for value, _, _ in estimates]
    errors = [[value - low for value, low, _ in estimates],
              [high - value for value, _, high in estimates]]
    ax.bar(names, values, yerr=errors, capsize=6, color="tab:blue")


def _bracket(bounds, number):
    return "[" + ", ".join(number.format(value) for value in bounds) + "]"


def _percent(saving):
    if saving is None:
        return "-"
    value, low, high = saving
    return f"{value:+.0%} [{low:+.0%}, {high:+.0%}]"
