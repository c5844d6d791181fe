"""``rosenblatt experiment NAME``: run one of the texts' experiments."""

from ..experiments import EXPERIMENTS
from ._common import parse_settings, show_progress


def add_arguments(parser):
    parser.add_argument("name", choices=sorted(EXPERIMENTS), help="the experiment")
    parser.add_argument("--set", action="append", metavar="NAME=VALUE", default=[],
                        help="an argument of the experiment, e.g. --set n_runs=1000")
    parser.add_argument("--figure", help="write the figure to this PNG")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run_experiment(name, settings=None, show_progress=False):
    """Run the experiment ``name`` of :data:`~rosenblatt.experiments.EXPERIMENTS`
    with keyword ``settings``; returns its
    :class:`~rosenblatt.experiments.ExperimentResult`.

    >>> result = run_experiment("and_epochs")
    >>> result.table().splitlines()[2].split()
    ['1', '2', '0.0000', '1.0000', '1.0000']
    """
    function = EXPERIMENTS[name]
    settings = dict(settings or {})
    if "show_progress" in function.__code__.co_varnames:
        settings.setdefault("show_progress", show_progress)
    try:
        return function(**settings)
    except TypeError as error:
        raise ValueError(f"bad --set for {name}: {error}") from error


def run(args):
    result = run_experiment(args.name, parse_settings(args.set), show_progress=show_progress(args))
    print(result.table())
    if args.figure:
        import matplotlib

        matplotlib.use("Agg")
        result.plot().savefig(args.figure, dpi=100, bbox_inches="tight")
        print(f"wrote {args.figure}")
    return 0
