"""``rosenblatt demo``: the blog's experiment end to end, numbers and pictures."""

import argparse
import pathlib
from dataclasses import dataclass

import numpy as np

from ..datasets import make_target_line
from ..inspection import BoundaryDisplay, animate
from ..linear_model import PLA
from ..metrics import exact_out_of_sample_error, in_sample_error, out_of_sample_error
from .animate import default_every, ordinal

#: Target lines drawn at most before giving up on a sample with both classes.
_REDRAWS = 1000


@dataclass(frozen=True)
class DemoResult:
    """The numbers of one run of the demo, and the pictures it wrote (if any)."""

    n_samples: int
    n_updates: int
    e_in: float
    e_out: float
    e_out_exact: float
    test_points: int
    target: np.ndarray
    hypothesis: np.ndarray
    pictures: tuple = ()
    n_frames: int = 0
    every: int = 1

    def lines(self):
        """The report as the command prints it."""
        lines = [
            f"N        {self.n_samples}",
            f"updates  {self.n_updates}",
            f"E_in     {self.e_in:.4f}",
            f"E_out    {self.e_out:.4f}  (Monte Carlo, {self.test_points} points)",
            f"E_out    {self.e_out_exact:.4f}  (exact)",
            f"target   w = {self.target.round(4).tolist()} (bias first)",
            f"learned  w = {self.hypothesis.round(4).tolist()} (bias first)",
        ]
        if self.pictures:
            png, gif = self.pictures
            drawn = "" if self.every == 1 else f", every {ordinal(self.every)} update"
            lines.append(f"wrote    {png} and {gif} ({self.n_frames} frames{drawn})")
        return lines


def run_demo(n_samples=20, *, test_points=100_000, seed=0, out="rosenblatt-demo",
             pictures=True):
    """The blog's experiment: ``n_samples`` points labelled by a random target line
    in [-1, 1]², PLA from zeros, E_in and E_out (Monte Carlo and exact); with
    ``pictures``, ``boundary.png`` and ``training.gif`` written to ``out`` (every
    update drawn, or every K-th of a long run: at most 100 frames).

    >>> result = run_demo(20, test_points=1000, seed=0, pictures=False)
    >>> result.n_samples, result.e_in
    (20, 0.0)
    """
    if n_samples < 2:
        raise ValueError(f"the demo needs at least 2 points (one on each side of the "
                         f"target line); got n_samples={n_samples}")
    rng = np.random.RandomState(seed)
    for _ in range(_REDRAWS):  # a line near a corner can leave a small sample with one class
        X, y, target = make_target_line(n_samples, random_state=rng)
        if len(set(y.tolist())) == 2:
            break
    else:
        raise ValueError(f"{_REDRAWS} random target lines each left all {n_samples} points "
                         "on one side; use more points")
    model = PLA(init="zeros", record=True, random_state=rng).fit(X, y)
    hypothesis = np.r_[model.intercept_, model.coef_[0]]
    e_out = out_of_sample_error(model, target, test_points, random_state=rng)
    result = DemoResult(n_samples, model.n_updates_, in_sample_error(model, X, y), e_out,
                        exact_out_of_sample_error(target, hypothesis), test_points, target,
                        hypothesis)
    if not pictures:
        return result
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = pathlib.Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    png, gif = folder / "boundary.png", folder / "training.gif"
    title = f"N = {n_samples}, {model.n_updates_} updates"
    display = BoundaryDisplay.from_estimator(model, X, y, target=target, title=title)
    # the legend beside the axes (inside, it covered points), the figure laid out to hold
    # it and the axis labels in 640 x 500
    figure = display.plot(legend_loc="outside").figure_
    figure.savefig(png, dpi=100)
    plt.close(figure)  # written: pyplot would keep it as long as this process runs
    every = default_every(model.n_updates_)  # a long run (large N) in seconds, not minutes
    frames = animate(model.trace_, X, y, gif, target=target, every=every)
    return DemoResult(**{**result.__dict__, "pictures": (png, gif), "n_frames": frames,
                         "every": every})


def _whole_number_from(least):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
        if value < least:
            raise argparse.ArgumentTypeError(f"expected at least {least}, got {text!r}")
        return value

    return parse


def add_arguments(parser):
    parser.add_argument("-n", "--n-samples", type=_whole_number_from(2), default=20,
                        help="training points N, at least 2 (default: 20)")
    parser.add_argument("--test-points", type=_whole_number_from(1), default=100_000,
                        help="fresh points for the Monte Carlo E_out (default: 100000)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    parser.add_argument("--out", default="rosenblatt-demo",
                        help="folder for boundary.png and training.gif (default: "
                             "./rosenblatt-demo)")
    parser.add_argument("--no-pictures", action="store_true", help="numbers only")


def run(args):
    result = run_demo(args.n_samples, test_points=args.test_points, seed=args.seed,
                      out=args.out, pictures=not args.no_pictures)
    print("\n".join(result.lines()))
    return 0
