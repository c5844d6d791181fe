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
from ._common import (DataOptions, add_data_arguments, add_format_arguments, check_arrays,
                      check_label, check_output, file_kind, load_classifier, read_data)

FORMATS = ("text", "csv", "json")


def predict(model, path, label=None, scores=False, proba=False, options=DataOptions()):
    """The labels ``model`` (an estimator, or a model file) predicts for the rows
    of the data file ``path``, and with ``scores`` the decision function too;
    with ``proba``, ``(labels, scores or None, probabilities)``.

    A CSV or ``.npy`` file exactly as wide as the model's features holds no label
    column and is read whole; one column wider, its label column (the last, or
    ``label``) is set aside. A VW file's lines may have no label. ``options``
    gives the file's format (and a width, which must be the model's).

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
    if proba:
        check_proba(model)
    kind = file_kind(path, options.file_format)
    if label is None and kind == "vw":  # unlabelled lines are welcome
        X, _ = load_data(path, file_format="vw",
                         n_features=options.width_for(path, kind, model), labels=False)
        check_arrays(path, X, None, model)
    elif label is None and _width(path) == model.n_features_in_:
        X, _ = load_data(path, file_format=kind, label=None)  # no label column
        check_arrays(path, X, None, model)
    else:
        X, _ = read_data(path, label, model, options=options)
    labels = model.predict(X)
    score = model.decision_function(X) if scores else None
    if proba:
        return labels, score, model.predict_proba(X)
    return (labels, score) if scores else labels


def check_proba(model):
    """Refuse, in one line, a model without probabilities, saying which have them."""
    if hasattr(model, "predict_proba"):
        return
    from ..base._registry import estimator_class, short_names

    having = []
    for short, name in short_names().items():
        cls = estimator_class(name)
        try:
            if hasattr(cls(), "predict_proba"):
                having.append(short)
                continue
        except TypeError:  # pragma: no cover - every registered estimator has defaults
            continue
        for constraint in getattr(cls, "_parameter_constraints", {}).get("loss", []):
            if "logistic" in getattr(constraint, "options", ()):
                having.append(f"{short} with --set loss=logistic")
    listed = ", ".join(having) if having else "none of this installation's models"
    raise ValueError(f"{type(model).__name__} gives no probabilities (it has no "
                     f"predict_proba); the models that do: {listed}. For another model, "
                     "calibrate its scores in Python (sklearn.calibration.CalibratedClassifierCV)")


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


def write(labels, scores, classes, output_format, proba=None):
    """The predictions as text (a label per line; with ``proba``, a line of the
    classes' probabilities, in the order of ``classes``, per row), CSV (``label``
    and, with scores, a ``score`` column or one per class; with ``proba``, a
    ``proba_CLASS`` column per class) or JSON.

    >>> print(write(np.array([0, 1]), np.array([-0.5, 2.0]), np.array([0, 1]), "csv"), end="")
    label,score
    0,-0.5
    1,2.0
    >>> write(np.array(["a"]), None, np.array(["a", "b"]), "json")
    '{"labels": ["a"]}\\n'
    >>> print(write(np.array([1]), None, np.array([0, 1]), "text", np.array([[0.25, 0.75]])),
    ...       end="")
    0.25 0.75
    """
    labels = labels.tolist()
    if output_format == "json":
        document = {"labels": labels}
        if scores is not None:
            document["scores"] = np.asarray(scores).tolist()
        if proba is not None:
            document["proba"] = np.asarray(proba).tolist()
        if (scores is not None and np.ndim(scores) == 2) or proba is not None:
            document["classes"] = classes.tolist()
        return json.dumps(document) + "\n"
    if output_format == "text":
        if proba is not None:  # repr: the shortest text that reads back as the same float
            return "".join(" ".join(map(repr, row)) + "\n" for row in
                           np.asarray(proba, dtype=np.float64).tolist())
        return "".join(f"{label}\n" for label in labels)
    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")
    columns = [np.asarray(labels, dtype=object).reshape(len(labels), 1)]
    names = ["label"]
    if scores is not None:
        scores = np.asarray(scores)
        names += ["score"] if scores.ndim == 1 else [f"score_{c}" for c in classes]
        columns.append(scores.reshape(len(labels), -1))
    if proba is not None:
        names += [f"proba_{c}" for c in classes]
        columns.append(np.asarray(proba, dtype=np.float64))
    out.writerow(names)
    rows = [sum((column[i].tolist() for column in columns), []) for i in range(len(labels))]
    out.writerows(rows)
    return buffer.getvalue()


def add_arguments(parser):
    parser.add_argument("model", help="model file written by 'rosenblatt train'")
    add_data_arguments(parser)
    add_format_arguments(parser, model_width=True)
    parser.epilog = ("DATA may be '-' for CSV on standard input. A CSV or .npy file as wide "
                     "as the model's features has no label column; a VW line may have no "
                     "label.")
    parser.add_argument("-o", "--output", help="write the predictions here ('-' or nothing: "
                                               "standard output)")
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text (a label per line, the default), csv or json")
    parser.add_argument("--scores", action="store_true",
                        help="also write the decision function (csv and json)")
    parser.add_argument("--proba", action="store_true",
                        help="the probability of each class (in the order of the model's "
                             "classes): with text, a line of them per row, separated by "
                             "spaces; with csv, a proba_CLASS column per class; with json, "
                             "'proba' and 'classes' (models with predict_proba only)")


def run(args):
    if args.scores and args.format == "text":
        raise ValueError("--scores needs --format csv or json")
    if args.output not in (None, "-"):
        check_output(args.output)
    options = DataOptions.of(args)
    with _stdin_as_file(args.data) as path:
        model = load_classifier(args.model, "predict")
        result = predict(model, path, check_label(path, args.label, options.file_format),
                         scores=args.scores, proba=args.proba, options=options)
    if args.proba:
        labels, scores, proba = result
    else:
        (labels, scores), proba = (result if args.scores else (result, None)), None
    text = write(labels, scores, model.classes_, args.format, proba)
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
