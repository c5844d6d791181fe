"""``rosenblatt evaluate``: accuracy and confusion matrix of a saved model."""

from dataclasses import dataclass

import numpy as np
from sklearn.metrics import confusion_matrix

from ._common import (DataOptions, add_data_arguments, add_format_arguments, load_classifier,
                      read_data)


@dataclass(frozen=True)
class Report:
    """Accuracy of a model on labelled rows, and its confusion matrix
    (rows: true labels, columns: predicted, both in the order of ``labels``)."""

    accuracy: float
    n_rows: int
    labels: np.ndarray
    confusion: np.ndarray

    def text(self):
        """The report as the command prints it."""
        width = max(len(str(v)) for v in [*self.labels, *self.confusion.ravel(), "true\\pred"])
        lines = [f"accuracy  {self.accuracy:.4f}  ({self.n_rows} rows)",
                 "true\\pred".rjust(width) + "".join(str(c).rjust(width + 2)
                                                    for c in self.labels)]
        for label, row in zip(self.labels, self.confusion):
            lines.append(str(label).rjust(width) + "".join(str(v).rjust(width + 2) for v in row))
        return "\n".join(lines)


def evaluate(model, X, y):
    """A :class:`Report` of ``model`` on ``X, y``.

    >>> from rosenblatt import Perceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]
    >>> report = evaluate(Perceptron(shuffle="none").fit(X, y), X, y)
    >>> report.accuracy, report.confusion.tolist()
    (1.0, [[3, 0], [0, 1]])
    """
    y = np.asarray(y)
    if y.dtype.kind != model.classes_.dtype.kind and _casts_exactly(y, model.classes_.dtype):
        y = y.astype(model.classes_.dtype)  # e.g. labels 0.0/1.0 read for classes 0/1
    unknown = np.setdiff1d(np.unique(y.astype(object)), model.classes_.astype(object))
    if len(unknown):
        raise ValueError(
            f"the labels {unknown[:5].tolist()} are not classes of the model "
            f"({model.classes_.tolist()}); evaluate on data labelled as the training data was."
        )
    predicted = model.predict(X)
    labels = model.classes_
    return Report(float(np.mean(predicted == y)), len(y), labels,
                  confusion_matrix(y, predicted, labels=labels))


def _casts_exactly(y, dtype):
    """Whether ``y`` keeps its values as ``dtype`` (labels 0.5 cast to an int class 0
    would be counted right)."""
    try:
        return bool(np.all(y.astype(dtype).astype(y.dtype) == y))
    except (ValueError, TypeError):
        return False


def add_arguments(parser):
    parser.add_argument("model", help="model file written by 'rosenblatt train'")
    add_data_arguments(parser)
    add_format_arguments(parser, model_width=True)


def run(args):
    model = load_classifier(args.model, "evaluate")
    X, y = read_data(args.data, args.label, model, options=DataOptions.of(args))
    print(evaluate(model, X, y).text())
    return 0
