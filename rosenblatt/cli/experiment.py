"""``rosenblatt experiment NAME``: run one of the texts' experiments."""

from ..experiments import EXPERIMENTS
from ._common import parse_settings

NAME = "experiment"
HELP = "Run an experiment of the texts: print its table, optionally save its figure."


def add_arguments(parser):
    parser.add_argument("name", choices=sorted(EXPERIMENTS), help="the experiment")
    parser.add_argument("--set", action="append", metavar="NAME=VALUE", default=[],
                        help="an argument of the experiment, e.g. --set n_runs=1000")
    parser.add_argument("--figure", help="write the figure to this PNG")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args):
    function = EXPERIMENTS[args.name]
    settings = parse_settings(args.set)
    if "show_progress" in function.__code__.co_varnames:
        settings.setdefault("show_progress", not args.quiet)
    try:
        result = function(**settings)
    except TypeError as error:
        raise ValueError(f"bad --set for {args.name}: {error}") from error
    print(result.table())
    if args.figure:
        import matplotlib

        matplotlib.use("Agg")
        result.plot().savefig(args.figure, dpi=100, bbox_inches="tight")
        print(f"wrote {args.figure}")
    return 0
