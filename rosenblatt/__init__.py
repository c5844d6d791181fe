"""rosenblatt: the perceptron family of linear classifiers.

Every variant of the classic texts, exactly as written, with traces and
pictures for learning, and fast compiled kernels for real data.

>>> from rosenblatt import Perceptron
>>> Perceptron(shuffle="none").fit([[0, 0], [1, 1]], ["no", "yes"]).predict([[2, 2]])
array(['yes'], dtype='<U3')
"""

import importlib

__version__ = "0.1.0"

#: public names besides the estimators -> the module that defines them; imported on
#: first use (PEP 562), so that ``rosenblatt --version`` and ``--help`` do not wait
#: for scikit-learn and numba
_LAZY = {
    "Trace": "rosenblatt.trace",
    **{name: "rosenblatt._settings" for name in ("config_context", "get_config", "set_config")},
}


def _estimators():
    """The estimators' names: ``rosenblatt.linear_model.__all__`` (imported to read it)."""
    return importlib.import_module("rosenblatt.linear_model").__all__


def __getattr__(name):
    if name == "__all__":  # every estimator, as rosenblatt.linear_model exports it
        return sorted([*_estimators(), *_LAZY]) + ["__version__"]
    module = _LAZY.get(name) or (
        "rosenblatt.linear_model" if name[:1].isupper() and name in _estimators() else None)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value  # once imported, an ordinary attribute
        return value
    raise AttributeError(f"module 'rosenblatt' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *_LAZY, *_estimators()})
