"""What the subcommands share: reading data, estimator settings, output files."""

import argparse
import ast
import pathlib
import sys
import tempfile
from dataclasses import dataclass

import numpy as np

from ..datasets import load_data
from ..datasets._loaders import TooWide, csv_feature_names, data_format


def parse_settings(pairs):
    """``["eta=0.5", "shuffle=none"]`` -> ``{"eta": 0.5, "shuffle": "none"}``.

    Python literals are read as such; ``true``/``false`` in any case are booleans
    (as a shell user writes them), other bare words strings (``none`` stays the
    string a ``shuffle`` option takes; ``None`` is Python's).

    >>> parse_settings(["eta=0.5", "shuffle=none", "init='uniform'", "fit_intercept=false"])
    {'eta': 0.5, 'shuffle': 'none', 'init': 'uniform', 'fit_intercept': False}
    """
    settings = {}
    for pair in pairs or []:
        key, separator, text = pair.partition("=")
        if not separator or not key.isidentifier():
            raise ValueError(f"expected NAME=VALUE, got {pair!r}")
        if text.lower() in ("true", "false"):
            settings[key] = text.lower() == "true"
            continue
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


def file_kind(path, file_format="auto"):
    """``"csv"``, ``"npy"``, ``"npz"``, ``"libsvm"`` or ``"vw"``: as the loaders
    choose (by the suffix, for LIBSVM and VW by the content), or ``file_format``.

    >>> file_kind("a.CSV"), file_kind("b.npz"), file_kind("a9a.t"), file_kind("c.vw")
    ('csv', 'npz', 'libsvm', 'vw')
    """
    return data_format(path, file_format)


def check_label(path, label, file_format="auto"):
    """Refuse, in one line, a ``--label`` the file cannot have: a LIBSVM or VW
    line's label is its first field (the loaders took the option as a keyword
    LIBSVM's has not: a TypeError's traceback), an ``.npz`` file holds ``y``
    apart, and an ``.npy`` matrix has no column names. Returns the label as the
    loaders take it.

    >>> check_label("d.csv", "2"), check_label("d.csv", "species"), check_label("d.svm", None)
    (2, 'species', None)
    >>> check_label("d.svm", "0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: d.svm: --label applies to CSV and .npy files; a LIBSVM line's label is ...
    """
    if label is None:
        return None
    kind = file_kind(path, file_format)
    if kind == "libsvm":
        raise ValueError(f"{path}: --label applies to CSV and .npy files; a LIBSVM line's "
                         "label is its first field")
    if kind == "vw":
        raise ValueError(f"{path}: --label applies to CSV and .npy files; a VW line's label "
                         "is its first word, before the first '|'")
    if kind == "npz":
        raise ValueError(f"{path}: --label applies to CSV and .npy files; an .npz file holds "
                         "the labels apart, as its array 'y'")
    label = label_option(label)
    if kind == "npy" and not isinstance(label, int):
        raise ValueError(f"{path}: a .npy matrix has no column names; --label must be a "
                         f"column index (a whole number), got {label!r}")
    return label


def load_model_of(model, kind, description, maker):
    """``model`` itself when it is a ``kind`` already, else the model saved in the
    file ``model``, refused by name when it is of another kind (a classifier given
    to ``tag``, a tagger to ``parse``).

    >>> import pathlib, tempfile
    >>> from rosenblatt import Perceptron
    >>> from rosenblatt.io import save
    >>> from rosenblatt.structured import SequenceTagger
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "perceptron.npz"
    >>> save(Perceptron().fit([[0], [1]], [0, 1]), path)
    >>> load_model_of(path, SequenceTagger, "a tagger", "rosenblatt tag train")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: ...perceptron.npz: a Perceptron model, not a tagger; 'rosenblatt tag train' makes one
    """
    from ..io import load

    if isinstance(model, kind):
        return model
    loaded = load(model)
    if not isinstance(loaded, kind):
        raise ValueError(f"{model}: a {type(loaded).__name__} model, not {description}; "
                         f"'{maker}' makes one")
    return loaded


def load_classifier(path, command):
    """The classifier saved in ``path``, for ``rosenblatt COMMAND`` (predict,
    evaluate, plot, train --resume), which reads a matrix with a label per row; a
    tagger or a sequence model, which read sentences, is refused by name with a
    ``ValueError`` that points at ``rosenblatt tag``.

    >>> import pathlib, tempfile
    >>> from rosenblatt.io import save
    >>> from rosenblatt.structured import SequenceTagger
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tagger.npz"
    >>> save(SequenceTagger().fit([["a", "b"]], [["X", "Y"]]), path)
    >>> load_classifier(path, "predict")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: ...tagger.npz: a SequenceTagger model, which labels sentences: use 'rosenblatt tag predict' ...
    """
    from ..io import load
    from ..structured import DependencyParser, SequencePerceptron, SequenceTagger

    model = load(path)
    if isinstance(model, DependencyParser):
        action = {"train --resume": "train"}.get(command, command)
        raise ValueError(f"{path}: a DependencyParser model, which parses sentences: use "
                         f"'rosenblatt parse {action}' (rosenblatt {command} reads a model of "
                         "'rosenblatt train')")
    if isinstance(model, (SequenceTagger, SequencePerceptron)):
        action = {"predict": "predict", "train --resume": "train"}.get(command, "evaluate")
        remedy = (f"use 'rosenblatt tag {action}'" if isinstance(model, SequenceTagger) else
                  "call its methods in Python with the lengths of the sentences")
        raise ValueError(f"{path}: a {type(model).__name__} model, which labels sentences: "
                         f"{remedy} (rosenblatt {command} reads a model of 'rosenblatt "
                         "train')")
    return model


@dataclass(frozen=True)
class DataOptions:
    """How the command line reads a data file: ``--data-format``, and the width of
    the feature space, ``--n-features`` or ``--hash-bits`` (``None``: the file's
    own, or the model's)."""

    file_format: str = "auto"
    n_features: int = None
    hash_bits: int = None

    @classmethod
    def of(cls, args):
        return cls(getattr(args, "data_format", "auto"), getattr(args, "n_features", None),
                   getattr(args, "hash_bits", None))

    @property
    def width(self):
        """The width asked for (``2**hash_bits`` for ``--hash-bits``), or ``None``."""
        return self.n_features if self.hash_bits is None else 2 ** self.hash_bits

    def option(self):
        return "--n-features" if self.hash_bits is None else "--hash-bits"

    def width_for(self, path, kind, model=None, source="the model"):
        """The width to read ``path`` (of format ``kind``) at: the one asked for, else
        the model's, else ``None`` (the file's own; VW: 2**18); refuses a width
        for CSV and NumPy files (their width is their columns) and one that
        differs from the model's."""
        width = self.width
        if width is not None and kind not in ("libsvm", "vw"):
            raise ValueError(f"{path}: {self.option()} applies to LIBSVM and VW files; a "
                             f"{kind.upper()} file's width is its columns")
        if model is None:
            return width
        if width is not None and width != model.n_features_in_:
            raise ValueError(f"{self.option()} gives {width:,} features, but {source} has "
                             f"{model.n_features_in_:,}; leave the option out (the model's "
                             "width is the default)")
        return model.n_features_in_ if kind in ("libsvm", "vw") else None


def read_data(path, label=None, model=None, source="the model", options=DataOptions(),
              weights=False):
    """``(X, y)`` from a CSV, LIBSVM, VW or ``.npy``/``.npz`` file, checked as the
    command line needs: a matrix of finite numbers with a label per row (and as
    wide as ``model``, which ``source`` names), else a ``ValueError`` in one line
    that names the file. With ``weights``, ``(X, y, sample_weight)``: a VW file's
    importance weights, ``None`` for the other formats.

    With a fitted ``model``, a LIBSVM or VW file is read as wide as the model's
    ``n_features_in_``: a LIBSVM row names only the features it holds, so a test
    file in which the last features never occur (a9a.t: none of its rows has
    feature 123) would otherwise be read narrower than the training file, and a
    VW file's features are hashed into the model's space. ``options``
    (:class:`DataOptions`) gives the format and the width.
    """
    kind = file_kind(path, options.file_format)
    label = check_label(path, label, kind)
    loader = {} if label is None else {"label": label}
    width = options.width_for(path, kind, model, source)
    if width is not None:
        loader["n_features"] = width
    if kind == "vw":
        loader["with_weights"] = True
    try:
        loaded = load_data(path, file_format=kind, **loader)
    except TooWide as error:
        raise ValueError(too_wide_message(error, model, source, options)) from None
    X, y, sample_weight = loaded if kind == "vw" else (*loaded, None)
    # the VW parser refuses a value that is not finite, with its line: no second pass
    check_arrays(path, X, y, model, source, finite=kind == "vw")
    return (X, y, sample_weight) if weights else (X, y)


def too_wide_message(error, model, source, options):
    """What to do when a LIBSVM file names features beyond the width: the
    command line's options, not the loader's keyword."""
    where = f"{error.path}, line {error.line}: its rows name features beyond the " \
        f"{error.n_features} expected (the file is {error.width} wide)"
    if model is not None:
        return (f"{where}; {source} was trained on {error.n_features}: train it with "
                f"--n-features {error.width} (or more, e.g. --hash-bits "
                f"{max(error.width - 1, 1).bit_length()}) so that it has them, or leave those "
                "features out")
    return f"{where}; give --n-features {error.width} or more"


def check_arrays(path, X, y=None, model=None, source="the model", finite=False):
    """Refuse, in one line that names the file, what scikit-learn would refuse in
    several (its NaN message runs over three lines, its 1-D one over three) or not
    by name: features that are not a matrix of finite numbers, labels that are not
    one per row, a width other than ``model``'s. ``finite``: the reader has
    refused every value that is not a finite number already.

    >>> check_arrays("d.npz", np.array([[0.0, np.nan]]), np.array([1]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: d.npz: the features hold NaN or infinite values (the first in data row 1, ...
    """
    if hasattr(X, "toarray"):  # sparse: its stored values
        values, shape = X.data, X.shape
    else:
        X = np.asarray(X)
        values, shape = X, X.shape
        if X.ndim != 2:
            raise ValueError(f"{path}: the features must be a matrix (rows x columns); got "
                             f"shape {X.shape}")
        if X.dtype.kind not in "biuf":
            raise ValueError(f"{path}: the features must be numbers; got {X.dtype} values")
    if shape[0] == 0:
        raise ValueError(f"{path}: no data rows")
    if not finite and values.dtype.kind == "f" and not np.all(np.isfinite(values)):
        if hasattr(X, "toarray"):
            where = ""
        else:
            row, column = np.argwhere(~np.isfinite(X))[0] + 1
            where = f" (the first in data row {row}, column {column})"
        raise ValueError(f"{path}: the features hold NaN or infinite values{where}; fill in "
                         "or remove those rows")
    if y is not None:
        y = np.asarray(y)
        if y.ndim != 1 or len(y) != shape[0]:
            raise ValueError(f"{path}: the labels must be one per row; there are {shape[0]} "
                             f"rows and labels of shape {y.shape}")
    if model is not None and shape[1] != model.n_features_in_:
        raise ValueError(f"{path} has {shape[1]} features; {source} was trained on "
                         f"{model.n_features_in_}")


def feature_names(path, label=None):
    """Axis labels for a data file: its CSV header's feature names, else None."""
    if file_kind(path) != "csv":
        return None
    return csv_feature_names(path, -1 if label is None else label_option(label))


def add_data_arguments(parser):
    parser.add_argument("data", help="CSV, LIBSVM (.svm, .txt, ...), Vowpal Wabbit (.vw) or "
                                     ".npy/.npz file")
    parser.add_argument("--label", help="CSV/.npy label column, by index or name "
                                        "(default: the last)")


def add_format_arguments(parser, model_width=False):
    """``--data-format``, ``--n-features`` and ``--hash-bits`` (train, predict, evaluate)."""
    parser.add_argument("--data-format", choices=("auto", "csv", "libsvm", "vw"),
                        default="auto",
                        help="the data file's format (default: auto, by the suffix — .csv, "
                             ".vw, .svm, .npy, .npz — else by the content: a '|' on the first "
                             "line is VW, otherwise LIBSVM)")
    width = parser.add_mutually_exclusive_group()
    default = ("the model's" if model_width else
               "a LIBSVM file's largest index, 2**18 for VW")
    width.add_argument("--n-features", type=positive_whole_number, metavar="N",
                       help=f"the width of the feature space (LIBSVM and VW; VW hashes into "
                            f"it); default: {default}")
    width.add_argument("--hash-bits", type=_hash_bits, metavar="B",
                       help="2**B features: the hash space of a VW file (as VW's -b B), or a "
                            "LIBSVM file's width")


def _hash_bits(text):
    """An argparse type: a whole number from 1 to 31."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 31:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 to 31, got {text!r}")
    return value


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


def check_output(path, option="-o"):
    """Refuse, before any work, a file that cannot be written: a folder, or one in
    a folder that does not exist or where no file can be made (``train`` wrote its
    model through a temporary file, and the error named that file, after the whole
    fit).

    >>> check_output("model.npz")
    >>> check_output("no/such/folder/model.npz")
    Traceback (most recent call last):
    ...
    ValueError: -o no/such/folder/model.npz: the folder no/such/folder does not exist
    """
    path = pathlib.Path(path)
    if path.is_dir():
        raise ValueError(f"{option} {path}: a folder; give the name of a file to write")
    if not path.parent.is_dir():
        raise ValueError(f"{option} {path}: the folder {path.parent} does not exist")
    try:  # the way the file will be written: a new file in that folder (permissions alone
        # do not say it: root may write anywhere but in /proc, a read-only mount, ...)
        tempfile.TemporaryFile(dir=path.parent).close()
    except OSError as error:
        raise ValueError(f"{option} {path}: cannot write in the folder {path.parent} "
                         f"({error.strerror or error})") from None
