"""rosenblatt: the perceptron family of linear classifiers.

Every variant of the classic texts, exactly as written, with traces and
pictures for learning, and fast compiled kernels for real data.

>>> from rosenblatt import Perceptron
>>> Perceptron(shuffle="none").fit([[0, 0], [1, 1]], ["no", "yes"]).predict([[2, 2]])
array(['yes'], dtype='<U3')
"""

import importlib

__version__ = "0.1.0"

#: public name -> the module that defines it; imported on first use (PEP 562), so that
#: ``rosenblatt --version`` and ``--help`` do not wait for scikit-learn and numba
_LAZY = {
    **{name: "rosenblatt.linear_model" for name in (
        "PLA", "AveragedPerceptron", "BatchPerceptron", "KernelPerceptron", "LinearUnit",
        "MulticlassPerceptron", "PassiveAggressiveClassifier", "Perceptron",
        "PocketPerceptron", "VotedPerceptron")},
    **{name: "rosenblatt.linear_model" for name in (
        "SecondOrderPerceptron", "ConfidenceWeighted", "AROW", "NAROW", "NHERD", "IELLIP",
        "SoftConfidenceWeighted", "MulticlassAROW", "MulticlassSCW")},
    **{name: "rosenblatt.linear_model" for name in (
        "ROMMA", "ALMA", "OnlineGradientDescent", "Winnow", "BalancedWinnow",
        "PNormPerceptron", "MulticlassPassiveAggressive")},
    "Trace": "rosenblatt.trace",
    **{name: "rosenblatt._settings" for name in ("config_context", "get_config", "set_config")},
}

__all__ = [*sorted(_LAZY), "__version__"]


def __getattr__(name):
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value  # once imported, an ordinary attribute
        return value
    raise AttributeError(f"module 'rosenblatt' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *_LAZY})
