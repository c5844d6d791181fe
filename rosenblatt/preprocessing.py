"""Feature maps that make XOR-like problems linear (Daumé §4.7).

Both are configurations of scikit-learn's ``PolynomialFeatures``, so they are
transformers that fit in a ``Pipeline``.
"""

from sklearn.preprocessing import PolynomialFeatures


def pairwise_conjunctions():
    """The original features plus every product ``x_i x_j`` (i < j): on 0/1
    features, the conjunctions "x_i AND x_j" of Daumé §4.7.

    >>> import numpy as np
    >>> from sklearn.pipeline import make_pipeline
    >>> from rosenblatt import Perceptron
    >>> X, y = np.array([[0, 0], [0, 1], [1, 0], [1, 1]]), [0, 1, 1, 0]
    >>> pairwise_conjunctions().fit_transform(X).tolist()
    [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 1.0]]
    >>> make_pipeline(pairwise_conjunctions(), Perceptron(shuffle="none")).fit(X, y).score(X, y)
    1.0
    """
    return PolynomialFeatures(degree=2, interaction_only=True, include_bias=False)


def degree2_products():
    """The original features plus every product ``x_i x_j`` with i <= j (squares too).

    >>> degree2_products().fit_transform([[2, 3]]).tolist()
    [[2.0, 3.0, 4.0, 6.0, 9.0]]
    """
    return PolynomialFeatures(degree=2, include_bias=False)
