"""An animation of a recorded trace: one frame per update, as the blog's GIF."""

import shutil

import numpy as np

from ._boundary import BoundaryDisplay


def animate(trace, X, y, path, *, target=None, fps=2, dpi=80):
    """Write the run recorded in ``trace`` (``record=True``) as a GIF, or an MP4
    when ``path`` ends in ``.mp4`` (needs ffmpeg on the machine).

    Frames: the starting weights, one per update (titled like the blog's
    "N = 20, iteration 7"), and the final weights again. Nothing is refitted.
    Returns the number of frames.

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
    frames = [(trace.coef_init, trace.intercept_init, "start")]
    frames += [(trace.coef[k], trace.intercept[k], f"iteration {k + 1}")
               for k in range(len(trace))]
    final = frames[-1]
    frames.append((final[0], final[1], "final"))
    figure, ax = plt.subplots(figsize=(5, 5))
    with writer.saving(figure, path, dpi=dpi):
        for coef, intercept, label in frames:
            ax.clear()
            display = BoundaryDisplay(X, y, coef, intercept, target=target,
                                      title=f"N = {len(X)}, {label}")
            display.plot(ax=ax)
            writer.grab_frame()
    plt.close(figure)
    return len(frames)
