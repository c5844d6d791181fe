"""What the subcommands share: reading data, naming estimators, progress bars."""

import ast
import contextlib

from .. import linear_model
from ..datasets import load_data

#: short names accepted by --model, besides the class names
MODEL_NAMES = {
    "perceptron": "Perceptron",
    "pla": "PLA",
    "batch": "BatchPerceptron",
    "pocket": "PocketPerceptron",
    "averaged": "AveragedPerceptron",
    "voted": "VotedPerceptron",
    "linear_unit": "LinearUnit",
    "multiclass": "MulticlassPerceptron",
    "kernel": "KernelPerceptron",
}


def estimator_class(name):
    key = MODEL_NAMES.get(name.lower(), name)
    if key not in linear_model.__all__:
        raise ValueError(f"unknown model {name!r}; choose one of "
                         f"{', '.join(sorted(MODEL_NAMES))}")
    return getattr(linear_model, key)


def parse_settings(pairs):
    """``["eta=0.5", "shuffle=none"]`` -> ``{"eta": 0.5, "shuffle": "none"}``."""
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


def read_data(path, label=None):
    options = {} if label is None else {"label": _label_option(label)}
    return load_data(path, **options)


def _label_option(label):
    try:
        return int(label)
    except ValueError:
        return label


def add_data_arguments(parser):
    parser.add_argument("data", help="CSV, LIBSVM (.svm, .txt, ...) or .npy/.npz file")
    parser.add_argument("--label", help="CSV/.npy label column, by index or name "
                                        "(default: the last)")


@contextlib.contextmanager
def progress_bar(model, total, quiet, description):
    """Show a tqdm bar advanced by the model after every epoch (or PLA update)."""
    if quiet:
        yield
        return
    from tqdm.auto import tqdm

    with tqdm(total=total, desc=description, leave=False) as bar:
        model._progress = lambda problem: bar.update(1)
        try:
            yield
        finally:
            model._progress = None
