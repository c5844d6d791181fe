"""``rosenblatt experiment NAME``: run one of the texts' experiments."""

from ..experiments import EXPERIMENTS
from ._common import check_output, parse_settings, show_progress

#: Settings below which an experiment never ends: target_line and permutation draw
#: target lines until both classes occur, which one point never does.
_AT_LEAST = {"target_line": {"n_samples": 2}, "permutation": {"n_samples": 2}}


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
    for key, least in _AT_LEAST.get(name, {}).items():
        value = settings.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and 0 < value < least:
            raise ValueError(f"{key} must be at least {least} for {name} (a point on each "
                             f"side of the target line); got {value}")
    if "show_progress" in function.__code__.co_varnames:
        settings.setdefault("show_progress", show_progress)
    try:
        return function(**settings)
    except TypeError as error:
        raise ValueError(f"bad --set for {name}: {error}") from error


def run(args):
    if args.figure:
        check_output(args.figure, "--figure")
    result = run_experiment(args.name, parse_settings(args.set), show_progress=show_progress(args))
    print(result.table())
    if args.figure:
        import matplotlib

        matplotlib.use("Agg")
        result.plot().savefig(args.figure, dpi=100, bbox_inches="tight")
        print(f"wrote {args.figure}")
    return 0
