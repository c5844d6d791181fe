"""An animation of a recorded trace: one frame per update, as the blog's GIF."""

import shutil

import numpy as np

from ._boundary import BoundaryDisplay


def animate(trace, X, y, path, *, target=None, fps=2, dpi=80, every=1, feature_names=None):
    """Write the run recorded in ``trace`` (``record=True``) as a GIF, or an MP4
    when ``path`` ends in ``.mp4`` (needs ffmpeg on the machine).

    Frames: the starting weights, one per update (titled "update k, epoch e",
    the point being updated ringed and the boundary before it faded), and the
    final weights again. Nothing is refitted. ``every=k`` draws every k-th update
    only (the first and the last always), so that a long run renders in seconds;
    ``fps`` and ``dpi`` set the speed and the size. Returns the number of frames.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> import tempfile, pathlib
    >>> from rosenblatt import PLA
    >>> from rosenblatt.datasets import make_target_line
    >>> X, y, target = make_target_line(10, random_state=2)
    >>> model = PLA(record=True, random_state=0).fit(X, y)
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "run.gif"
    >>> animate(model.trace_, X, y, path, target=target) == model.n_updates_ + 2
    True
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FFMpegWriter, PillowWriter

    X = np.asarray(X, dtype=np.float64)
    path = str(path)
    if path.lower().endswith(".mp4"):
        if shutil.which("ffmpeg") is None:
            raise ValueError("Writing MP4 needs ffmpeg, which is not on this machine; "
                             "write a .gif instead (Pillow, no external program).")
        writer = FFMpegWriter(fps=fps)
    else:
        writer = PillowWriter(fps=fps)
    if int(every) < 1:
        raise ValueError(f"every must be a whole number >= 1; got {every!r}.")
    if not (0 < fps < float("inf")) or not (0 < dpi < float("inf")):
        raise ValueError(f"fps and dpi must be numbers > 0; got fps={fps!r}, dpi={dpi!r}.")
    shown = sorted(set(range(0, len(trace), int(every))) | ({len(trace) - 1} if len(trace)
                                                              else set()))
    frames = [(trace.coef_init, trace.intercept_init, None, None, "start")]
    for k in shown:
        before = (trace.coef[k - 1], trace.intercept[k - 1]) if k else \
            (trace.coef_init, trace.intercept_init)
        frames.append((trace.coef[k], trace.intercept[k], int(trace.index[k]), before,
                       f"update {k + 1}, epoch {int(trace.epoch[k])}"))
    last = frames[-1]
    frames.append((last[0], last[1], None, None, f"final ({len(trace)} updates)"))
    figure, ax = plt.subplots(figsize=(6.8, 5))
    # fixed margins, the same in every frame: room for both axis labels, and on the
    # right for the legend, which inside the axes covered points (or jumped between
    # frames as "best")
    figure.subplots_adjust(left=0.11, right=0.72, bottom=0.1, top=0.92)
    with writer.saving(figure, path, dpi=dpi):
        for coef, intercept, row, before, label in frames:
            ax.clear()
            display = BoundaryDisplay(X, y, coef, intercept, target=target,
                                      title=f"N = {len(X)}, {label}", highlight=row,
                                      previous=before, feature_names=feature_names)
            display.plot(ax=ax, legend_loc="outside")
            writer.grab_frame()
    plt.close(figure)
    return len(frames)
