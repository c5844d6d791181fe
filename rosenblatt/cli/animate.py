"""``rosenblatt animate``: train on 2-D data and write a frame per update (every K-th of
a long run), or the step-through player."""

import math

import numpy as np

from ..engine import make_estimator
from ..inspection import TracePlayer, animate
from ..trace import Trace
from ._common import (
    add_data_arguments,
    check_output,
    dense,
    feature_names,
    output_file,
    parse_settings,
    positive_number,
    positive_whole_number,
    read_data,
)


#: the frames an animation gets at most when ``--every`` is not given: 316 updates drawn
#: one by one made 318 frames, 1.8 MB and 40 s of rendering
MAX_FRAMES = 100


def default_every(n_updates, max_frames=MAX_FRAMES):
    """The ``every`` that draws a run of ``n_updates`` in at most ``max_frames``
    frames (the start, every K-th update, the last one, the end): 1 for a run of
    up to ``max_frames - 3`` updates.

    >>> default_every(18), default_every(97), default_every(98), default_every(316)
    (1, 1, 2, 4)
    """
    return max(1, math.ceil(n_updates / (max_frames - 3)))


def ordinal(k):
    """``"2nd"``, ``"3rd"``, ``"4th"``, ``"11th"``, ``"21st"``.

    >>> [ordinal(k) for k in (2, 3, 4, 11, 12, 21, 102)]
    ['2nd', '3rd', '4th', '11th', '12th', '21st', '102nd']
    """
    suffix = "th" if k % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def animate_training(X, y, output, *, model="pla", params=None, fps=2.0, every=None, dpi=80,
                     html=None, feature_names=None):
    """Fit the estimator ``model`` (a short or class name) with ``params`` and a
    trace on the 2-D data ``X, y``, and write its animation to ``output`` (if not
    None) and the step-through player to ``html`` (if given), the axes labelled
    by ``feature_names``. ``every=None`` draws every update of a short run and
    every :func:`default_every`-th of a long one (at most :data:`MAX_FRAMES`
    frames).
    Returns the fitted model and the number of frames.

    >>> import pathlib, tempfile
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]
    >>> gif = pathlib.Path(tempfile.mkdtemp()) / "and.gif"
    >>> model, frames = animate_training(X, y, gif, model="perceptron",
    ...                                  params={"shuffle": "none"})
    >>> model.n_updates_, frames
    (18, 20)
    """
    import matplotlib

    matplotlib.use("Agg")
    X = dense(X)
    if X.shape[1] != 2:
        raise ValueError(f"animate draws 2-D data; these have {X.shape[1]} features")
    if "record" not in make_estimator(model).get_params():
        raise ValueError(f"animate draws the trace of updates, which {model} does not record; "
                         "use perceptron, pla, batch, pocket, averaged, voted or multiclass")
    params = dict(params or {})
    if params.pop("record", True) is not True:  # it was passed twice: a TypeError
        raise ValueError("animate records the trace itself (record=True); leave out "
                         "--set record=...")
    n_classes = len(np.unique(np.asarray(y).astype(str)))
    if n_classes != 2:  # before the fit: a multiclass one ran to its limit first
        raise ValueError(f"animate needs two classes; the data hold {n_classes}")
    fitted = make_estimator(model, **params, record=True).fit(X, y)
    if isinstance(fitted.trace_, tuple):
        raise ValueError(f"animate needs two classes; the data hold {len(fitted.classes_)}")
    if not isinstance(fitted.trace_, Trace):
        raise ValueError(f"animate draws one line moving; {model} keeps a weight vector per "
                         "class (plot its regions with 'rosenblatt plot' instead)")
    if html is not None:
        TracePlayer(fitted.trace_, X, y, feature_names=feature_names).save(html)
    frames = len(fitted.trace_) + 2
    if output is not None:
        frames = animate(fitted.trace_, X, y, output, fps=fps, dpi=dpi,
                         every=every or default_every(len(fitted.trace_)),
                         feature_names=feature_names)
    return fitted, frames


def add_arguments(parser):
    add_data_arguments(parser)
    parser.add_argument("--model", default="pla", help="estimator (default: pla)")
    parser.add_argument("--set", action="append", metavar="NAME=VALUE", default=[],
                        help="an estimator parameter")
    parser.add_argument("-o", "--output",
                        help="GIF (Pillow) or MP4 (needs ffmpeg) to write (default: "
                             "training.gif, or none with --html)")
    parser.add_argument("--html", metavar="PATH",
                        help="write the step-through player: one HTML page, no network")
    parser.add_argument("--fps", type=positive_number, default=2.0, help="frames per second")
    parser.add_argument("--every", type=positive_whole_number, default=None, metavar="K",
                        help="draw every K-th update only (the first and last always). "
                             f"Default: every update of a run of up to {MAX_FRAMES - 3}, "
                             f"else the K that makes at most {MAX_FRAMES} frames (the output "
                             "line says which); --every 1 draws them all")
    parser.add_argument("--dpi", type=positive_number, default=80,
                        help="dots per inch of the 6.8 x 5-inch frames (default: 80)")


def run(args):
    X, y = read_data(args.data, args.label)
    output = None if args.output is None and args.html else \
        output_file(args.output or "training.gif", "training.gif", ".gif")
    html = None if args.html is None else output_file(args.html, "player.html", ".html")
    for option, path in (("-o", output), ("--html", html)):
        if path is not None:
            check_output(path, option)
    model, frames = animate_training(X, y, output, model=args.model,
                                     params=parse_settings(args.set), fps=args.fps,
                                     every=args.every, dpi=args.dpi, html=html,
                                     feature_names=feature_names(args.data, args.label))
    if html is not None:
        print(f"wrote {html} (the step-through player, {model.n_updates_} updates)")
    if output is not None:
        print(f"wrote {output} ({frames} frames, {_drawn(len(model.trace_), args.every)})")
    return 0


def _drawn(n_updates, every):
    """Which updates the frames show, for the output line.

    >>> _drawn(18, None), _drawn(316, None), _drawn(316, 5)
    ('18 updates', 'every 4th of 316 updates; --every 1 for all', 'every 5th of 316 updates')
    """
    step = every or default_every(n_updates)
    if step == 1:
        return f"{n_updates} updates"
    return f"every {ordinal(step)} of {n_updates} updates" + \
        ("" if every else "; --every 1 for all")
