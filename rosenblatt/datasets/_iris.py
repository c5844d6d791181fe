"""Iris as the binary problems the texts use, from scikit-learn's bundled copy."""

import numpy as np
from sklearn.datasets import load_iris

_PROBLEMS = {
    "setosa-vs-rest": ("setosa", None),
    "versicolor-vs-virginica": ("versicolor", "virginica"),
}


def load_iris_binary(problem="setosa-vs-rest", features=None):
    """Iris as a binary problem: ``"setosa-vs-rest"`` (separable) or
    ``"versicolor-vs-virginica"`` (not quite).

    ``features`` picks columns by index or name (e.g. ``["petal length (cm)",
    "petal width (cm)"]``) for a 2-D picture. Labels are the species names.

    >>> X, y = load_iris_binary(features=[2, 3])
    >>> X.shape, sorted(set(y.tolist()))
    ((150, 2), ['not setosa', 'setosa'])
    """
    if problem not in _PROBLEMS:
        raise ValueError(f"Unknown Iris problem {problem!r}; choose one of {sorted(_PROBLEMS)}.")
    iris = load_iris()
    names = np.array(iris.target_names)[iris.target]
    first, second = _PROBLEMS[problem]
    if second is None:
        keep = np.ones(len(names), dtype=bool)
        labels = np.where(names == first, first, f"not {first}")
    else:
        keep = np.isin(names, [first, second])
        labels = names
    X = iris.data
    if features is not None:
        columns = [f if isinstance(f, (int, np.integer)) else iris.feature_names.index(f)
                   for f in features]
        X = X[:, columns]
    return X[keep], labels[keep]
