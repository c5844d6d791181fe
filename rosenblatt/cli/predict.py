"""``rosenblatt predict``: label a data file with a saved model."""

import contextlib
import csv
import io
import json
import pathlib
import shutil
import sys
import tempfile

import numpy as np

from ..datasets import load_data
from ._common import (add_data_arguments, check_arrays, check_label, check_output,
                      load_classifier, read_data)

FORMATS = ("text", "csv", "json")


def predict(model, path, label=None, scores=False):
    """The labels ``model`` (an estimator, or a model file) predicts for the rows
    of the data file ``path``, and with ``scores`` the decision function too.

    A CSV or ``.npy`` file exactly as wide as the model's features holds no label
    column and is read whole; one column wider, its label column (the last, or
    ``label``) is set aside.

    >>> import pathlib, tempfile
    >>> from rosenblatt import Perceptron
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "and.csv").write_text("x1,x2,y\\n0,0,0\\n0,1,0\\n1,0,0\\n1,1,1\\n")
    >>> _ = (folder / "new.csv").write_text("x1,x2\\n1,1\\n0,1\\n")
    >>> model = Perceptron(shuffle="none").fit([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1])
    >>> predict(model, folder / "and.csv").tolist(), predict(model, folder / "new.csv").tolist()
    ([0, 0, 0, 1], [1, 0])
    """
    if not hasattr(model, "predict"):
        model = load_classifier(model, "predict")
    if label is None and _width(path) == model.n_features_in_:
        X, _ = load_data(path, label=None)  # no label column
        check_arrays(path, X, None, model)
    else:
        X, _ = read_data(path, label, model)
    labels = model.predict(X)
    return (labels, model.decision_function(X)) if scores else labels


def _width(path):
    """Columns of a CSV or ``.npy`` file (``None`` for other formats)."""
    path = pathlib.Path(path)
    suffix = path.suffix.lower()
    if suffix == ".npy":
        try:
            shape = np.load(path, mmap_mode="r", allow_pickle=False).shape
        except Exception:  # noqa: BLE001 - the loader will say what is wrong
            return None
        return shape[1] if len(shape) == 2 else None
    if suffix == ".csv" and path.is_file():
        from ..datasets._loaders import _delimiter

        with path.open(newline="", encoding="utf-8", errors="replace") as handle:
            first = next((row for row in csv.reader(handle, delimiter=_delimiter(path))
                          if any(cell.strip() for cell in row)), None)
        return None if first is None else len(first)
    return None


def write(labels, scores, classes, output_format):
    """The predictions as text (a label per line), CSV (``label`` and, with scores, a
    ``score`` column or one per class) or JSON.

    >>> print(write(np.array([0, 1]), np.array([-0.5, 2.0]), np.array([0, 1]), "csv"), end="")
    label,score
    0,-0.5
    1,2.0
    >>> write(np.array(["a"]), None, np.array(["a", "b"]), "json")
    '{"labels": ["a"]}\\n'
    """
    labels = labels.tolist()
    if output_format == "json":
        document = {"labels": labels}
        if scores is not None:
            document["scores"] = np.asarray(scores).tolist()
            if np.ndim(scores) == 2:
                document["classes"] = classes.tolist()
        return json.dumps(document) + "\n"
    if output_format == "text":
        return "".join(f"{label}\n" for label in labels)
    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")
    if scores is None:
        out.writerow(["label"])
        out.writerows([label] for label in labels)
    else:
        scores = np.asarray(scores)
        names = ["score"] if scores.ndim == 1 else [f"score_{c}" for c in classes]
        out.writerow(["label", *names])
        for label, row in zip(labels, scores.reshape(len(labels), -1).tolist()):
            out.writerow([label, *row])
    return buffer.getvalue()


def add_arguments(parser):
    parser.add_argument("model", help="model file written by 'rosenblatt train'")
    add_data_arguments(parser)
    parser.epilog = ("DATA may be '-' for CSV on standard input. A CSV or .npy file as wide "
                     "as the model's features has no label column.")
    parser.add_argument("-o", "--output", help="write the predictions here ('-' or nothing: "
                                               "standard output)")
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text (a label per line, the default), csv or json")
    parser.add_argument("--scores", action="store_true",
                        help="also write the decision function (csv and json)")


def run(args):
    if args.scores and args.format == "text":
        raise ValueError("--scores needs --format csv or json")
    if args.output not in (None, "-"):
        check_output(args.output)
    with _stdin_as_file(args.data) as path:
        model = load_classifier(args.model, "predict")
        result = predict(model, path, check_label(path, args.label), scores=args.scores)
    labels, scores = result if args.scores else (result, None)
    text = write(labels, scores, model.classes_, args.format)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        pathlib.Path(args.output).write_text(text)
    return 0


@contextlib.contextmanager
def _stdin_as_file(data):
    """``-``: standard input saved to a temporary CSV file for the loaders."""
    if data != "-":
        yield data
        return
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "stdin.csv"
        with path.open("wb") as handle:
            shutil.copyfileobj(sys.stdin.buffer, handle)
        yield path
