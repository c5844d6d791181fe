"""``rosenblatt demo``: the blog's experiment end to end, numbers and pictures."""

import argparse
import pathlib

import numpy as np

from ..datasets import make_target_line
from ..inspection import BoundaryDisplay, animate
from ..linear_model import PLA
from ..metrics import exact_out_of_sample_error, in_sample_error, out_of_sample_error

NAME = "demo"
HELP = (
    "The Data Science Lab experiment: a random target line in [-1, 1]^2, N points, PLA "
    "from zeros; prints N, the updates, E_in and E_out, and writes boundary.png and "
    "training.gif."
)


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return value


def add_arguments(parser):
    parser.add_argument("-n", "--n-samples", type=_positive_int, default=20,
                        help="training points N (default: 20)")
    parser.add_argument("--test-points", type=_positive_int, default=100_000,
                        help="fresh points for the Monte Carlo E_out (default: 100000)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    parser.add_argument("--out", default="rosenblatt-demo",
                        help="folder for boundary.png and training.gif (default: "
                             "./rosenblatt-demo)")
    parser.add_argument("--no-pictures", action="store_true", help="numbers only")


def run(args):
    rng = np.random.RandomState(args.seed)
    while True:  # a line near a corner can leave a small sample with one class
        X, y, target = make_target_line(args.n_samples, random_state=rng)
        if len(set(y.tolist())) == 2:
            break
    model = PLA(init="zeros", record=True, random_state=rng).fit(X, y)
    hypothesis = np.r_[model.intercept_, model.coef_[0]]
    e_out = out_of_sample_error(model, target, args.test_points, random_state=rng)
    print(f"N        {args.n_samples}")
    print(f"updates  {model.n_updates_}")
    print(f"E_in     {in_sample_error(model, X, y):.4f}")
    print(f"E_out    {e_out:.4f}  (Monte Carlo, {args.test_points} points)")
    print(f"E_out    {exact_out_of_sample_error(target, hypothesis):.4f}  (exact)")
    print(f"target   w = {target.round(4).tolist()} (bias first)")
    print(f"learned  w = {hypothesis.round(4).tolist()} (bias first)")
    if not args.no_pictures:
        import matplotlib

        matplotlib.use("Agg")
        out = pathlib.Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        title = f"N = {args.n_samples}, {model.n_updates_} updates"
        display = BoundaryDisplay.from_estimator(model, X, y, target=target, title=title)
        display.plot().figure_.savefig(out / "boundary.png", dpi=100)
        frames = animate(model.trace_, X, y, out / "training.gif", target=target)
        print(f"wrote    {out / 'boundary.png'} and {out / 'training.gif'} ({frames} frames)")
    return 0
