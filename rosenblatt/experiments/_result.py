"""The result every experiment returns: its numbers as a table, and a figure."""

from dataclasses import dataclass, field

import numpy as np


@dataclass
class ExperimentResult:
    """Numbers of an experiment (``columns`` × ``rows``), the raw arrays in
    ``data``, and a function drawing them on a matplotlib figure.

    >>> result = ExperimentResult("demo", "A demo", ["run", "updates"], [[1, 3], [2, 5]])
    >>> print(result.table())
    A demo
    run  updates
      1        3
      2        5
    """

    name: str
    title: str
    columns: list
    rows: list
    data: dict = field(default_factory=dict)
    draw: object = None

    def table(self):
        """The rows as aligned text, floats with 4 decimals."""
        cells = [[_format(value) for value in row] for row in self.rows]
        widths = [max(len(str(c)) for c in column)
                  for column in zip(self.columns, *cells)]
        lines = [self.title, "  ".join(str(c).rjust(w) for c, w in zip(self.columns, widths))]
        lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in cells]
        return "\n".join(lines)

    def plot(self):
        """Draw the experiment's figure; returns the matplotlib ``Figure``."""
        import matplotlib.pyplot as plt

        figure = self.draw(plt)
        figure.suptitle(self.title)
        figure.tight_layout()
        return figure

    def __repr__(self):
        return self.table()


def _format(value):
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def progress(iterable, enabled, description):
    """A tqdm progress bar over ``iterable`` when ``enabled``."""
    if not enabled:
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, desc=description, leave=False)


#: draws of a target line before giving up on a sample with both classes
MAX_DRAWS = 1000


def two_class_target_line(n_samples, rng):
    """The blog's data, drawn again until both classes are present (a line
    near a corner can leave every point of a small sample on one side); at most
    ``MAX_DRAWS`` times, and never for fewer than two points.

    >>> two_class_target_line(1, np.random.RandomState(0))
    Traceback (most recent call last):
    ...
    ValueError: n_samples must be at least 2 for a sample with both classes; got 1.
    """
    from ..datasets import make_target_line

    if n_samples < 2:
        raise ValueError(f"n_samples must be at least 2 for a sample with both classes; "
                         f"got {n_samples}.")
    for _ in range(MAX_DRAWS):
        X, y, target = make_target_line(n_samples, random_state=rng)
        if len(set(y.tolist())) == 2:
            return X, y, target
    raise ValueError(f"{MAX_DRAWS} random target lines left all {n_samples} points on one "
                     "side; use more points.")


def check_counts(**counts):
    """Refuse a count an experiment cannot run with (``n_runs=0`` gave a NumPy warning
    and an error about an empty reduction).

    >>> check_counts(n_runs=3)
    >>> check_counts(n_runs=0)
    Traceback (most recent call last):
    ...
    ValueError: n_runs must be a whole number >= 1; got 0.
    """
    for name, value in counts.items():
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a whole number >= 1; got {value!r}.")
