"""Library-wide settings that change how fast a model trains, never what it learns.

Options that change results are estimator parameters (they are part of the
model: cloned, saved, printed); the settings here only trade memory for speed,
so they live outside the models, as scikit-learn's ``assume_finite`` does.

>>> import rosenblatt
>>> rosenblatt.get_config()
{'renumber_columns': False}
>>> with rosenblatt.config_context(renumber_columns=True):
...     rosenblatt.get_config()["renumber_columns"]
True
"""

import contextlib

_DEFAULTS = {"renumber_columns": False}
_CHOICES = {"renumber_columns": (True, False)}
_settings = dict(_DEFAULTS)


def get_config():
    """The current settings, as a new dict (see :func:`set_config`)."""
    return dict(_settings)


def set_config(*, renumber_columns=None):
    """Change settings for the rest of the process; ``None`` leaves one as it is.

    Parameters
    ----------
    renumber_columns : bool, default=False
        Whether ``fit`` on a CSR matrix trains with the columns renumbered by
        decreasing frequency (see :mod:`rosenblatt.base._columns`): the same model
        bit for bit, each epoch faster on wide data whose frequent columns are
        scattered (hashed features), for a one-off cost of about 1-8 epochs and
        a copy of ``X.indices`` during the fit. Worth it for long fits only.
    """
    changes = {"renumber_columns": renumber_columns}
    for name, value in changes.items():
        if value is None:
            continue
        if not any(value is choice for choice in _CHOICES[name]):
            raise ValueError(f"{name} must be one of {_CHOICES[name]!r}; got {value!r}.")
    _settings.update({name: value for name, value in changes.items() if value is not None})


@contextlib.contextmanager
def config_context(**settings):
    """:func:`set_config` for the duration of a ``with`` block, restored after it."""
    saved = get_config()
    set_config(**settings)
    try:
        yield
    finally:
        _settings.clear()
        _settings.update(saved)
