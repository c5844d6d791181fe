"""Real binary data sets bundled with scikit-learn, split and scaled the same way
for every experiment."""

import numpy as np
from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from ..datasets import load_iris_binary


def _breast_cancer():
    data = load_breast_cancer()
    return data.data, data.target


def _digits_odd_even():
    data = load_digits()
    return data.data, data.target % 2


def _iris_hard():
    return load_iris_binary("versicolor-vs-virginica")


DATASETS = {
    "breast_cancer": _breast_cancer,
    "digits_odd_even": _digits_odd_even,
    "iris_versicolor_virginica": _iris_hard,
}


def split(name, random_state=0):
    """Stratified 70/30 split of a named data set, standardised on the training part."""
    if name not in DATASETS:
        raise ValueError(f"Unknown data set {name!r}; choose one of {sorted(DATASETS)}.")
    X, y = DATASETS[name]()
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.3, stratify=y, random_state=random_state
    )
    scaler = StandardScaler().fit(X_train)
    return scaler.transform(X_train), scaler.transform(X_test), np.asarray(y_train), \
        np.asarray(y_test)
