"""Parser and dispatch; each subcommand lives in its own module."""

import argparse
import importlib
import os
import sys
import warnings

from .. import __version__

#: Subcommands and their one-line help. Each lives in the module of its name, with
#: ``add_arguments(parser)`` and ``run(args) -> int`` (a thin call of a plain function
#: of that module); a module is imported only when its command runs, so that
#: ``rosenblatt --version`` and ``--help`` answer at once.
COMMANDS = {
    "demo": "The Data Science Lab experiment: a random target line in [-1, 1]^2, N points, "
            "PLA from zeros; prints N, the updates, E_in and E_out, and writes boundary.png "
            "and training.gif.",
    "train": "Fit a model on a data file and save it (JSON + arrays, never a pickle).",
    "predict": "Predict the labels of a data file with a saved model.",
    "evaluate": "Accuracy and confusion matrix of a saved model on a labelled data file.",
    "plot": "Draw a saved binary model's boundary over 2-D data (PNG).",
    "animate": "Train on 2-D data with a trace and write a frame per update (every K-th "
               "of a long run; GIF, or MP4), or the step-through player.",
    "experiment": "Run an experiment of the texts: print its table, optionally save its "
                  "figure.",
    "datasets": "List the built-in data sets, or export one to CSV with --export NAME.",
    "tag": "Sequence labelling on CoNLL files: 'tag train' a tagger, 'tag evaluate' it, "
           "'tag predict' the labels of a file.",
    "parse": "Dependency parsing of CoNLL-U treebanks: 'parse train' a parser, 'parse "
             "evaluate' it (UAS, LAS), 'parse predict' the trees of a file.",
    "warmup": "Compile every kernel into numba's disk cache (for container images and CI).",
}


def build_parser(only=None):
    """The ``rosenblatt`` argument parser, with one subparser per command; with
    ``only``, the arguments of that command alone (the others' modules stay unimported).

    >>> build_parser().parse_args(["demo", "-n", "5"]).n_samples
    5
    """
    parser = _Parser(
        prog="rosenblatt",
        description="The perceptron family of linear classifiers.",
    )
    parser.add_argument("--version", action="version", version=f"rosenblatt {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_ in COMMANDS.items():
        sub = subparsers.add_parser(name, help=help_, description=help_)
        if only is None or name == only:
            module = importlib.import_module(f"{__package__}.{name}")
            module.add_arguments(sub)
            sub.set_defaults(run=module.run)
    return parser


#: the exit code when the reader of standard output closed it (``| head -1``): 128 + 13,
#: what the shell reports for a Unix tool that SIGPIPE ended, so that ``set -o pipefail``
#: still sees that not every line was delivered, without a message
EXIT_PIPE_CLOSED = 141


def main(argv=None):
    """Run the command line and return its exit code.

    0 on success, 2 for bad usage or input, 130 when interrupted, 141 when the
    reader of standard output closed it before the end (quietly, as Unix tools
    do: ``rosenblatt evaluate model.npz test.csv | head -1``).

    >>> import os, tempfile
    >>> main(["datasets", "--export", "and", "-o", os.path.join(tempfile.mkdtemp(), "and.csv")])
    ... # doctest: +ELLIPSIS
    wrote ...and.csv (4 rows, labels [-1, 1])
    0
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    command = next((word for word in argv if not word.startswith("-")), None)
    parser = build_parser(only=command if command in COMMANDS else "")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed its message already
        return int(exit_.code or 0)
    if args.command is None:
        parser.print_help()
        print(f"rosenblatt: error: a command is needed, one of {', '.join(COMMANDS)}",
              file=sys.stderr)
        return 2
    held = []  # the warnings, shown when the command succeeds or is interrupted
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _one_line(args.command, held)
            code = args.run(args)
            sys.stdout.flush()  # here, where a closed pipe is caught, not at exit
    except BrokenPipeError:  # an OSError, but no error of ours: the reader has gone
        _show(held)
        _silence_stdout()
        return EXIT_PIPE_CLOSED
    except (ValueError, OSError) as error:
        # the error alone: a warning it made moot (a fit that did not converge, then a
        # file that could not be written) would make two lines of one failure
        print(f"rosenblatt {args.command}: error: {one_line(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        _show(held)
        print(f"rosenblatt {args.command}: interrupted", file=sys.stderr)
        return 130
    _show(held)
    return code


class _Parser(argparse.ArgumentParser):
    """argparse, its usage errors in one line (argparse prints the usage first: four
    lines for ``train``) with a pointer to ``--help``; subparsers are of this class."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see: {self.prog} --help)\n")


def one_line(error):
    """An error's message on one line (scikit-learn's NaN message runs over three).

    >>> one_line(ValueError("Input X contains NaN.\\nPerceptron does not accept NaN."))
    'Input X contains NaN. Perceptron does not accept NaN.'
    """
    return " ".join(part.strip() for part in str(error).splitlines() if part.strip())


def _one_line(command, held):
    """Warnings (a ConvergenceWarning, say) as one line of the command's own, not
    Python's two-line report with a source line; kept in ``held`` until the command
    has run."""
    def show(message, category, filename, lineno, file=None, line=None):
        held.append(f"rosenblatt {command}: warning: {one_line(message)}")
    return show


def _silence_stdout():
    """Point standard output at the null device: the interpreter flushes it again at
    exit, and a closed pipe would print "Exception ignored ... BrokenPipeError"."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test's capture)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)


def _show(held):
    for line in held:
        print(line, file=sys.stderr)
