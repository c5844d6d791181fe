"""Every estimator, registered in one line by its own module.

A rule's module decorates its estimator with :func:`register`: its short name
(the command line's ``--model``) and its family. Everything that lists the
estimators derives from here: :func:`rosenblatt.engine.make_estimator` and
``SHORT_NAMES``, the command line's help, and :mod:`rosenblatt.io` (which
estimator a file may name).

>>> from rosenblatt.base._registry import estimator_class, families, short_names
>>> short_names()["arow"], estimator_class("AROW").__name__
('AROW', 'AROW')
>>> families()["second-order"][:3]
['sop', 'cw', 'arow']
"""

import importlib

#: the families in the order the command line's help lists them
FAMILIES = ("classic", "kernel", "passive-aggressive", "first-order", "second-order",
            "structured")

#: class name -> (class, short name or None, family), in registration order
_REGISTERED = {}

#: the packages whose modules register their estimators when imported
_PACKAGES = ("rosenblatt.linear_model", "rosenblatt.structured")


def register(short_name, family):
    """Class decorator: list the estimator under ``short_name`` (``None``: not a
    ``--model`` of the command line) in ``family`` (one of :data:`FAMILIES`)."""
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; one of {FAMILIES}")

    def add(cls):
        _REGISTERED[cls.__name__] = (cls, short_name, family)
        return cls
    return add


def _registered():
    for package in _PACKAGES:  # importing a rule's module registers it
        importlib.import_module(package)
    return _REGISTERED


def estimator_class(name):
    """The registered estimator class named ``name``, or ``None``."""
    entry = _registered().get(name) if isinstance(name, str) else None
    return None if entry is None else entry[0]


def short_names():
    """Short name -> class name, for the estimators the command line trains."""
    return {short: cls.__name__ for cls, short, _ in _registered().values()
            if short is not None}


def families():
    """Family -> the short names in it, in :data:`FAMILIES` order."""
    grouped = {family: [] for family in FAMILIES}
    for _, short, family in _registered().values():
        if short is not None:
            grouped[family].append(short)
    return {family: names for family, names in grouped.items() if names}
