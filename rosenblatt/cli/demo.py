"""``rosenblatt demo``: the blog's experiment end to end."""

import argparse

from ..datasets import make_target_line
from ..linear_model import PLA
from ..metrics import in_sample_error, out_of_sample_error

NAME = "demo"
HELP = (
    "The Data Science Lab experiment: a random target line in [-1, 1]^2, N points, "
    "PLA from zeros; prints N, the updates, E_in and a Monte Carlo E_out."
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


def run(args):
    X, y, target = make_target_line(args.n_samples, random_state=args.seed)
    model = PLA(init="zeros", random_state=args.seed).fit(X, y)
    e_out = out_of_sample_error(model, target, args.test_points, random_state=args.seed + 1)
    print(f"N        {args.n_samples}")
    print(f"updates  {model.n_updates_}")
    print(f"E_in     {in_sample_error(model, X, y):.4f}")
    print(f"E_out    {e_out:.4f}  (Monte Carlo, {args.test_points} points)")
    print(f"target   w = {target.round(4).tolist()} (bias first)")
    learned = [float(model.intercept_[0]), *model.coef_[0].tolist()]
    print(f"learned  w = {[round(v, 4) for v in learned]} (bias first)")
    return 0
