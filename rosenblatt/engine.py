"""The engine under the estimators, for code that drives training itself.

- :func:`train` is the one training loop: epochs of an estimator's rule over
  shards of rows, with a mixing step after each epoch when there are several
  (a serial ``fit`` is this loop on one shard; see :mod:`rosenblatt.base._loop`).
- :func:`make_estimator` builds an estimator from its short name and checks its
  parameters at once (the command line's ``--model`` and ``--set``).
- :func:`on_epoch` calls back after every epoch of a fit (progress bars).

>>> make_estimator("averaged", shuffle="none")
AveragedPerceptron(shuffle='none')
"""

from .base import MixingRecord, Shard, ThreadBackend, on_epoch, train
from .base._registry import estimator_class, short_names

#: Short names (as the command line takes them) of the estimators: each rule's
#: module registers its own (see :mod:`rosenblatt.base._registry`).
SHORT_NAMES = short_names()


def make_estimator(name, **params):
    """An estimator by short name (``"pla"``) or class name (``"PLA"``), its
    parameters checked at once (a ``ValueError`` names a bad one).

    Parameters
    ----------
    name : str
        A key or a value of :data:`SHORT_NAMES`.
    **params
        Parameters of the estimator.

    Returns
    -------
    estimator

    Examples
    --------
    >>> make_estimator("pla", max_updates=50)
    PLA(max_updates=50)
    >>> make_estimator("pla", max_iter=50)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: PLA does not take 'max_iter'; its parameters are class_weight, eta, ...
    """
    key = SHORT_NAMES.get(name.lower(), name)
    if key not in SHORT_NAMES.values():
        raise ValueError(f"unknown model {name!r}; choose one of "
                         f"{', '.join(sorted(SHORT_NAMES))}")
    estimator = estimator_class(key)
    known = estimator().get_params()
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise ValueError(f"{key} does not take {', '.join(map(repr, unknown))}; its "
                         f"parameters are {', '.join(sorted(known))}")
    model = estimator(**params)
    model._validate_params()
    return model


__all__ = ["SHORT_NAMES", "MixingRecord", "Shard", "ThreadBackend", "make_estimator",
           "on_epoch", "train"]
