"""``rosenblatt predict`` and ``rosenblatt evaluate``: use a saved model."""

import sys

import numpy as np
from sklearn.metrics import confusion_matrix

from ..io import load
from ._common import add_data_arguments, read_data

NAME = "predict"
HELP = "Predict the labels of a data file with a saved model."


def add_arguments(parser):
    parser.add_argument("model", help="model file written by 'rosenblatt train'")
    add_data_arguments(parser)
    parser.add_argument("-o", "--output", help="write the labels here, one per line "
                                               "(default: print them)")


def run(args):
    model = load(args.model)
    X, _ = read_data(args.data, args.label)
    labels = "\n".join(map(str, model.predict(X))) + "\n"
    if args.output:
        with open(args.output, "w") as handle:
            handle.write(labels)
    else:
        sys.stdout.write(labels)
    return 0


class Evaluate:
    NAME = "evaluate"
    HELP = "Accuracy and confusion matrix of a saved model on a labelled data file."

    @staticmethod
    def add_arguments(parser):
        parser.add_argument("model", help="model file written by 'rosenblatt train'")
        add_data_arguments(parser)

    @staticmethod
    def run(args):
        model = load(args.model)
        X, y = read_data(args.data, args.label)
        y = np.asarray(y)
        if y.dtype.kind != model.classes_.dtype.kind:
            y = y.astype(model.classes_.dtype)
        predicted = model.predict(X)
        labels = model.classes_
        matrix = confusion_matrix(y, predicted, labels=labels)
        width = max(len(str(v)) for v in [*labels, *matrix.ravel(), "true\\pred"])
        print(f"accuracy  {np.mean(predicted == y):.4f}  ({len(y)} rows)")
        print("true\\pred".rjust(width) + "".join(str(c).rjust(width + 2) for c in labels))
        for label, row in zip(labels, matrix):
            print(str(label).rjust(width) + "".join(str(v).rjust(width + 2) for v in row))
        return 0
