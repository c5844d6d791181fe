"""``rosenblatt datasets``: list the built-in data sets, or export one as CSV."""

import numpy as np

from .. import datasets
from ._common import check_output

BUILT_IN = {
    "and": ("AND truth table (Ahmed & Pavlu)", lambda: datasets.make_boolean("and")),
    "or": ("OR truth table", lambda: datasets.make_boolean("or")),
    "nand": ("NAND truth table", lambda: datasets.make_boolean("nand")),
    "xor": ("XOR truth table (not separable)", lambda: datasets.make_boolean("xor")),
    "svm_succinctly_train": ("Kowalczyk's toy training set, 14 points",
                             lambda: datasets.load_svm_succinctly("train")),
    "svm_succinctly_test": ("Kowalczyk's toy test set, 32 points",
                            lambda: datasets.load_svm_succinctly("test")),
    "iris_setosa": ("Iris, setosa vs rest, 150 x 4",
                    lambda: datasets.load_iris_binary("setosa-vs-rest")),
    "iris_versicolor_virginica": ("Iris, versicolor vs virginica, 100 x 4",
                                  lambda: datasets.load_iris_binary("versicolor-vs-virginica")),
    "target_line": ("the blog's random target line, 20 points (seed 0)",
                    lambda: datasets.make_target_line(20, random_state=0)[:2]),
}


def add_arguments(parser):
    parser.add_argument("--export", choices=sorted(BUILT_IN), help="data set to write as CSV")
    parser.add_argument("-o", "--output", help="CSV path (default: NAME.csv)")


def export_dataset(name, path):
    """Write the built-in data set ``name`` (see :data:`BUILT_IN`) to the CSV
    ``path``, a header line first; returns the labels written.

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "and.csv"
    >>> export_dataset("and", path).tolist()
    [-1, -1, -1, 1]
    >>> path.read_text().splitlines()[:2]
    ['x1,x2,label', '0.0,0.0,-1']
    """
    X, y = BUILT_IN[name][1]()
    header = ",".join([f"x{j + 1}" for j in range(X.shape[1])] + ["label"])
    rows = [",".join([*(repr(float(v)) for v in x), str(label)]) for x, label in zip(X, y)]
    with open(path, "w") as handle:
        handle.write("\n".join([header, *rows]) + "\n")
    return np.asarray(y)


def run(args):
    if args.export is None:
        width = max(map(len, BUILT_IN))
        for name, (description, _) in BUILT_IN.items():
            print(f"{name.ljust(width)}  {description}")
        return 0
    path = args.output or f"{args.export}.csv"
    check_output(path)
    y = export_dataset(args.export, path)
    print(f"wrote {path} ({len(y)} rows, labels {sorted(set(y.tolist()))})")
    return 0
