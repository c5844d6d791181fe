"""``rosenblatt predict``: label a data file with a saved model."""

import sys

from ..io import load
from ._common import add_data_arguments, read_data


def predict(model, path, label=None):
    """The labels ``model`` (an estimator, or a model file) predicts for the rows
    of the data file ``path``.

    >>> import pathlib, tempfile
    >>> from rosenblatt import Perceptron
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "and.csv").write_text("x1,x2,y\\n0,0,0\\n0,1,0\\n1,0,0\\n1,1,1\\n")
    >>> model = Perceptron(shuffle="none").fit([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1])
    >>> predict(model, folder / "and.csv").tolist()
    [0, 0, 0, 1]
    """
    if not hasattr(model, "predict"):
        model = load(model)
    X, _ = read_data(path, label, model)
    return model.predict(X)


def add_arguments(parser):
    parser.add_argument("model", help="model file written by 'rosenblatt train'")
    add_data_arguments(parser)
    parser.add_argument("-o", "--output", help="write the labels here, one per line "
                                               "(default: print them)")


def run(args):
    labels = "\n".join(map(str, predict(args.model, args.data, args.label))) + "\n"
    if args.output:
        with open(args.output, "w") as handle:
            handle.write(labels)
    else:
        sys.stdout.write(labels)
    return 0
