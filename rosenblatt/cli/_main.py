"""Parser and dispatch; each subcommand lives in its own module."""

import argparse
import sys
import warnings

from .. import __version__
from . import animate, datasets, demo, evaluate, experiment, plot, predict, train

#: Subcommands: each module has ``NAME``, ``HELP``, ``add_arguments(parser)`` and
#: ``run(args) -> int``, a thin call of a plain function of the same module.
COMMANDS = (demo, train, predict, evaluate, plot, animate, experiment, datasets)


def build_parser():
    """The ``rosenblatt`` argument parser, with one subparser per command.

    >>> build_parser().parse_args(["demo", "-n", "5"]).n_samples
    5
    """
    parser = argparse.ArgumentParser(
        prog="rosenblatt",
        description="The perceptron family of linear classifiers.",
    )
    parser.add_argument("--version", action="version", version=f"rosenblatt {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        sub = subparsers.add_parser(command.NAME, help=command.HELP, description=command.HELP)
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def main(argv=None):
    """Run the command line; returns the exit code (0 success, 2 bad usage or input).

    >>> import os, tempfile
    >>> main(["datasets", "--export", "and", "-o", os.path.join(tempfile.mkdtemp(), "and.csv")])
    ... # doctest: +ELLIPSIS
    wrote ...and.csv (4 rows, labels [-1, 1])
    0
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed its message already
        return int(exit_.code or 0)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _one_line(args.command)
            return args.run(args)
    except (ValueError, OSError) as error:
        print(f"rosenblatt {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"rosenblatt {args.command}: interrupted", file=sys.stderr)
        return 130


def _one_line(command):
    """Warnings (a ConvergenceWarning, say) as one line of the command's own, not
    Python's two-line report with a source line."""
    def show(message, category, filename, lineno, file=None, line=None):
        print(f"rosenblatt {command}: warning: {message}", file=sys.stderr)
    return show
