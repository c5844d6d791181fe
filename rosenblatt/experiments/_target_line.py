"""The blog's and Kowalczyk's study: PLA on random target lines in [-1, 1]²."""

import numpy as np

from .._validation import check_random_state
from ..linear_model import PLA
from ..metrics import exact_out_of_sample_error, in_sample_error, out_of_sample_error
from ._result import ExperimentResult, check_counts, progress, two_class_target_line


def target_line(n_samples=20, n_runs=200, n_test=10_000, *, random_state=0, show_progress=True):
    """For ``n_runs`` random targets: PLA from zeros on ``n_samples`` points; the
    updates it needs, E_in, E_out by Monte Carlo (``n_test`` points) and exactly.

    >>> result = target_line(10, n_runs=5, n_test=2000, show_progress=False)
    >>> result.data["updates"].shape, float(result.data["e_in"].max())
    ((5,), 0.0)
    """
    check_counts(n_samples=n_samples, n_runs=n_runs, n_test=n_test)
    rng = check_random_state(random_state)
    updates, e_in, e_out_mc, e_out_exact, targets, learned = [], [], [], [], [], []
    for _ in progress(range(n_runs), show_progress, "target_line"):
        X, y, target = two_class_target_line(n_samples, rng)
        model = PLA(random_state=rng).fit(X, y)
        hypothesis = np.r_[model.intercept_, model.coef_[0]]
        updates.append(model.n_updates_)
        e_in.append(in_sample_error(model, X, y))
        e_out_mc.append(out_of_sample_error(model, target, n_test, random_state=rng))
        e_out_exact.append(exact_out_of_sample_error(target, hypothesis))
        targets.append(target)
        learned.append(hypothesis)
    data = {key: np.array(value) for key, value in dict(
        updates=updates, e_in=e_in, e_out_mc=e_out_mc, e_out_exact=e_out_exact,
        targets=targets, hypotheses=learned).items()}
    u, mc, exact = data["updates"], data["e_out_mc"], data["e_out_exact"]
    rows = [
        ["updates", float(u.mean()), float(np.median(u)), int(u.max())],
        ["E_in", float(data["e_in"].mean()), float(np.median(data["e_in"])),
         float(data["e_in"].max())],
        ["E_out (Monte Carlo)", float(mc.mean()), float(np.median(mc)), float(mc.max())],
        ["E_out (exact)", float(exact.mean()), float(np.median(exact)), float(exact.max())],
    ]

    def draw(plt):
        figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
        left.hist(u, bins=30, color="tab:blue")
        left.set(xlabel="updates to converge", ylabel="runs")
        right.scatter(exact, mc, s=10)
        top = max(float(exact.max()), float(mc.max()), 1e-3)
        right.plot([0, top], [0, top], "k--", lw=1)
        right.set(xlabel="E_out exact", ylabel="E_out Monte Carlo")
        return figure

    return ExperimentResult(
        "target_line", f"PLA on random target lines: N = {n_samples}, {n_runs} runs",
        ["quantity", "mean", "median", "max"], rows, data, draw,
    )
