"""``rosenblatt plot`` and ``rosenblatt animate``: pictures of 2-D problems."""

from ..inspection import BoundaryDisplay, animate
from ..io import load
from ._common import add_data_arguments, estimator_class, parse_settings, read_data

NAME = "plot"
HELP = "Draw a saved binary model's boundary over 2-D data (PNG)."


def add_arguments(parser):
    parser.add_argument("model", help="model file written by 'rosenblatt train'")
    add_data_arguments(parser)
    parser.add_argument("-o", "--output", default="boundary.png", help="PNG to write")


def run(args):
    import matplotlib

    matplotlib.use("Agg")
    model = load(args.model)
    X, y = read_data(args.data, args.label)
    display = BoundaryDisplay.from_estimator(model, _dense(X), y).plot()
    display.figure_.savefig(args.output, dpi=100, bbox_inches="tight")
    print(f"wrote {args.output} ({len(display.misclassified)} misclassified)")
    return 0


class Animate:
    NAME = "animate"
    HELP = "Train on 2-D data with a trace and write one frame per update (GIF, or MP4)."

    @staticmethod
    def add_arguments(parser):
        add_data_arguments(parser)
        parser.add_argument("--model", default="pla", help="estimator (default: pla)")
        parser.add_argument("--set", action="append", metavar="NAME=VALUE", default=[],
                            help="an estimator parameter")
        parser.add_argument("-o", "--output", default="training.gif",
                            help="GIF (Pillow) or MP4 (needs ffmpeg) to write")
        parser.add_argument("--fps", type=float, default=2.0, help="frames per second")

    @staticmethod
    def run(args):
        import matplotlib

        matplotlib.use("Agg")
        X, y = read_data(args.data, args.label)
        X = _dense(X)
        if X.shape[1] != 2:
            raise ValueError(f"animate draws 2-D data; {args.data} has {X.shape[1]} features")
        model = estimator_class(args.model)(**parse_settings(args.set), record=True).fit(X, y)
        if isinstance(model.trace_, tuple):
            raise ValueError("animate needs two classes; the data hold "
                             f"{len(model.classes_)}")
        frames = animate(model.trace_, X, y, args.output, fps=args.fps)
        print(f"wrote {args.output} ({frames} frames, {model.n_updates_} updates)")
        return 0


def _dense(X):
    return X.toarray() if hasattr(X, "toarray") else X
