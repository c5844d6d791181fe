"""What the subcommands share: reading data, estimator settings, progress bars."""

import argparse
import ast
import contextlib
import pathlib
import sys

import numpy as np

from ..datasets import load_data
from ..datasets._loaders import csv_feature_names
from ..engine import on_epoch


def parse_settings(pairs):
    """``["eta=0.5", "shuffle=none"]`` -> ``{"eta": 0.5, "shuffle": "none"}``.

    >>> parse_settings(["eta=0.5", "shuffle=none", "init='uniform'"])
    {'eta': 0.5, 'shuffle': 'none', 'init': 'uniform'}
    """
    settings = {}
    for pair in pairs or []:
        key, separator, text = pair.partition("=")
        if not separator or not key.isidentifier():
            raise ValueError(f"expected NAME=VALUE, got {pair!r}")
        try:
            settings[key] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            settings[key] = text  # a bare word: a string
    return settings


def positive_number(text):
    """An argparse type: a finite number > 0.

    >>> positive_number("2.5")
    2.5
    """
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (0 < value < float("inf")):
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text!r}")
    return value


def positive_whole_number(text):
    """An argparse type: a whole number >= 1.

    >>> positive_whole_number("3")
    3
    """
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return value


def label_option(label):
    """A ``--label`` value: a column index when it is a whole number, else a name."""
    try:
        return int(label)
    except (TypeError, ValueError):
        return label


def read_data(path, label=None, model=None):
    """``(X, y)`` from a CSV, LIBSVM or ``.npy``/``.npz`` file.

    With a fitted ``model``, a LIBSVM file is read as wide as the model's
    ``n_features_in_``: a LIBSVM row names only the features it holds, so a test
    file in which the last features never occur (a9a.t: none of its rows has
    feature 123) would otherwise be read narrower than the training file.
    """
    options = {} if label is None else {"label": label_option(label)}
    if model is not None and pathlib.Path(path).suffix.lower() not in (".csv", ".npy", ".npz"):
        options["n_features"] = model.n_features_in_
    return load_data(path, **options)


def feature_names(path, label=None):
    """Axis labels for a data file: its CSV header's feature names, else None."""
    if pathlib.Path(path).suffix.lower() != ".csv":
        return None
    return csv_feature_names(path, -1 if label is None else label_option(label))


def add_data_arguments(parser):
    parser.add_argument("data", help="CSV, LIBSVM (.svm, .txt, ...) or .npy/.npz file")
    parser.add_argument("--label", help="CSV/.npy label column, by index or name "
                                        "(default: the last)")


def dense(X):
    """``X`` as a dense array (pictures draw points)."""
    return X.toarray() if hasattr(X, "toarray") else np.asarray(X)


def show_progress(args):
    """Progress bars only on a terminal: in a log they are a flood of lines."""
    return not args.quiet and sys.stderr.isatty()


def output_file(path, default_name, suffix):
    """The file a picture goes to: ``path`` itself, ``default_name`` inside it when it
    is a folder, and ``suffix`` added when it has none (as matplotlib would silently).

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> output_file(folder, "boundary.png", ".png").name, output_file("run", "x", ".gif").name
    ('boundary.png', 'run.gif')
    """
    path = pathlib.Path(path)
    if path.is_dir():
        return path / default_name
    return path if path.suffix else path.with_suffix(suffix)


@contextlib.contextmanager
def progress_bar(model, total, show, description):
    """Show a tqdm bar advanced by the model after every epoch (or PLA update)."""
    if not show:
        yield
        return
    from tqdm.auto import tqdm

    with tqdm(total=total, desc=description, leave=False) as bar, \
            on_epoch(model, lambda problem: bar.update(1)):
        yield
