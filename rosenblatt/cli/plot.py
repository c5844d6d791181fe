"""``rosenblatt plot``: a saved binary model's boundary over 2-D data."""

from ..inspection import BoundaryDisplay
from ._common import (
    add_data_arguments,
    check_output,
    dense,
    feature_names,
    load_classifier,
    output_file,
    read_data,
)


def plot_boundary(model, X, y, output, feature_names=None):
    """Draw ``model``'s boundary over ``X, y`` and save it to the PNG ``output``, the
    axes labelled by ``feature_names`` (or the model's own); returns the
    :class:`~rosenblatt.inspection.BoundaryDisplay`.

    >>> import pathlib, tempfile
    >>> from rosenblatt import Perceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]
    >>> model = Perceptron(shuffle="none").fit(X, y)
    >>> png = pathlib.Path(tempfile.mkdtemp()) / "and.png"
    >>> len(plot_boundary(model, X, y, png).misclassified), png.stat().st_size > 1000
    (0, True)
    """
    import matplotlib

    matplotlib.use("Agg")
    if not hasattr(model, "coef_"):  # from_estimator reads coef_: an AttributeError
        raise ValueError(f"plot draws a linear boundary; {type(model).__name__} has no weight "
                         "vector (coef_) to draw")
    display = BoundaryDisplay.from_estimator(model, dense(X), y)
    if feature_names is not None:
        display.feature_names = list(feature_names)
    display.plot(legend_loc="outside")  # inside the axes it covered points
    display.figure_.savefig(output, dpi=100, bbox_inches="tight")
    return display


def add_arguments(parser):
    parser.add_argument("model", help="model file written by 'rosenblatt train'")
    add_data_arguments(parser)
    parser.add_argument("-o", "--output", default="boundary.png", help="PNG to write")


def run(args):
    model = load_classifier(args.model, "plot")
    output = output_file(args.output, "boundary.png", ".png")
    check_output(output)
    X, y = read_data(args.data, args.label, model)
    display = plot_boundary(model, X, y, output, feature_names(args.data, args.label))
    import matplotlib.pyplot as plt

    plt.close(display.figure_)  # written: pyplot would keep it as long as this process runs
    print(f"wrote {output} ({len(display.misclassified)} misclassified)")
    return 0
