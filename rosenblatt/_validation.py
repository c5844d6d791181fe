"""Validation at the public door: data, labels, weights and random generators.

Everything a user passes is checked here once, with messages that say what was
wrong and what to do; the kernels behind never check again.
"""

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, validate_data

from ._kernels import all_ones, csr_structure

#: dtypes the kernels read as they are; anything else is converted to float64.
FLOAT_DTYPES = (np.float64, np.float32)


def check_random_state(seed):
    """A ``RandomState`` or ``Generator`` from ``None``, an int, or either object.

    Unlike scikit-learn's helper this also accepts ``numpy.random.Generator``.
    A generator passed in is used (and advanced) as it is, never copied.

    >>> check_random_state(0).randint(10)
    5
    """
    if seed is None or seed is np.random:
        return np.random.mtrand._rand
    if isinstance(seed, numbers.Integral):
        return np.random.RandomState(seed)
    if isinstance(seed, (np.random.RandomState, np.random.Generator)):
        return seed
    raise ValueError(
        f"random_state={seed!r} cannot seed a random generator; pass None, an int, "
        "a numpy.random.RandomState or a numpy.random.Generator."
    )


def validate_X(estimator, X, *, reset):
    """Check ``X`` (dense or CSR, float32/float64 kept as given, finite)."""
    try:
        X = validate_data(
            estimator, X, accept_sparse="csr", dtype=FLOAT_DTYPES, order="C", reset=reset
        )
    except ValueError as error:
        raise _explain(error) from error
    if sp.issparse(X):
        check_csr_structure(X)
    return X


def validate_X_y(estimator, X, y, *, reset):
    """Check ``X`` and ``y`` together; ``y`` must hold class labels."""
    try:
        X, y = validate_data(
            estimator, X, y, accept_sparse="csr", dtype=FLOAT_DTYPES, order="C", reset=reset
        )
    except ValueError as error:
        raise _explain(error) from error
    if sp.issparse(X):
        check_csr_structure(X)
    check_magnitude(X)
    check_classification_targets(y)
    return X, y


#: Values beyond this have squares that overflow float64 (the root of its largest number).
LARGEST_VALUE = float(np.sqrt(np.finfo(np.float64).max))


def check_magnitude(X):
    """Refuse features whose squares overflow float64: every rule computes ``w·x``
    with weights the size of ``x`` (and passive-aggressive ``‖x‖²``), which would be
    inf or NaN, and a NaN activation is never a mistake — the fit would claim to
    converge with a meaningless model."""
    values = X.data if sp.issparse(X) else X
    # the largest and the smallest value, not max(abs(X)): no temporary copy of X
    largest = max(abs(float(values.max())), abs(float(values.min()))) if values.size else 0.0
    if largest > LARGEST_VALUE:
        raise ValueError(
            f"X holds values up to {largest:.3g}, whose squares overflow float64 (beyond "
            f"{LARGEST_VALUE:.3g}): activations w·x would be inf or NaN. Scale X, e.g. with "
            "sklearn.preprocessing.MaxAbsScaler or StandardScaler."
        )

def _explain(error):
    """Add the remedy to the messages of numpy and scikit-learn that lack one."""
    message = str(error)
    if "could not convert" in message or "convert array of bytes/strings" in message:
        return ValueError(
            f"X must be numeric ({message}). Encode text or categorical columns first, "
            "for example with sklearn.preprocessing.OneHotEncoder."
        )
    if "0 sample(s)" in message or "0 feature(s)" in message:
        return ValueError(f"{message} Pass a non-empty X with at least one row and column.")
    if "inconsistent numbers of samples" in message:
        return ValueError(f"{message} X and y must have one label per row of X.")
    return error


def check_classes(classes):
    """Sorted unique labels; at least two are needed to learn anything."""
    classes = np.unique(np.asarray(classes))
    if len(classes) < 2:
        raise ValueError(
            f"The labels hold only one class ({classes.tolist()!r}); a classifier needs "
            "at least two. Check y, or the split that produced it."
        )
    return classes


def encode_labels(y, classes):
    """Position of each label in ``classes``; unknown labels raise ``ValueError``."""
    codes = np.searchsorted(classes, y)
    codes = np.clip(codes, 0, len(classes) - 1)
    unknown = classes[codes] != y
    if np.any(unknown):
        raise ValueError(
            f"y contains labels {np.unique(y[unknown]).tolist()!r} that are not among the "
            f"classes {classes.tolist()!r} this model was set up with; pass every label in "
            "`classes` on the first call to partial_fit."
        )
    return codes


def row_weights(X, codes, classes, sample_weight, class_weight):
    """Per-row weights: ``sample_weight`` times the weight of the row's class."""
    weights = _check_sample_weight(
        sample_weight, X, dtype=np.float64, ensure_non_negative=True, copy=True
    )
    if class_weight is not None:
        weights *= class_weights(class_weight, classes, codes)[codes]
    return weights


def class_weights(class_weight, classes, codes=None):
    """The weight of each class, in the order of ``classes``, from a dict (missing
    classes weigh 1) or ``"balanced"`` (from the class codes of the rows).

    >>> class_weights({"yes": 2}, np.array(["no", "yes"])).tolist()
    [1.0, 2.0]
    """
    if isinstance(class_weight, str):  # "balanced"
        return compute_class_weight(class_weight, classes=np.arange(len(classes)), y=codes)
    known = set(classes.tolist())
    unknown = [key for key in class_weight if key not in known]
    if unknown:
        raise ValueError(
            f"class_weight has keys {unknown!r} that are not classes of y "
            f"{classes.tolist()!r}; use the labels themselves as keys."
        )
    weights = np.array([_class_weight_of(class_weight, label) for label in classes.tolist()])
    bad = [label for label, weight in zip(classes.tolist(), weights)
           if not np.isfinite(weight) or weight < 0]
    if bad:
        raise ValueError(
            f"class_weight must be finite and non-negative; got "
            f"{ {label: class_weight.get(label) for label in bad}!r}."
        )
    return weights


def _class_weight_of(class_weight, label):
    try:
        return float(class_weight.get(label, 1.0))
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"class_weight[{label!r}] must be a number, got {class_weight.get(label)!r}."
        ) from error


#: From this many features (1 MiB of float64 weights, a core's L2 cache on the
#: machines measured) the CSR kernels prefetch the weights of the rows ahead; below
#: it the weights stay in cache and the prefetches would only cost (10-20 %).
PREFETCH_FEATURES = 2**17

#: How many rows ahead the weights are requested (a row's values twice as far,
#: its row pointer three times): measured best at 2 on 2**20-feature sets.
PREFETCH_ROWS_AHEAD = 2


def kernel_view(X):
    """What the kernels take: the dense array itself or the CSR triplet (no copy),
    its ``indices`` and ``indptr`` viewed as unsigned integers of the same width
    (the kernels index faster without wrap-around; see ``_kernels/_rows.py``);
    ``data`` is ``None`` when every stored value is 1, for the binary twins. A
    CSR matrix of at least :data:`PREFETCH_FEATURES` columns gets a fourth
    element, the look-ahead in rows of the kernels' prefetching."""
    if sp.issparse(X):
        data = None if all_ones(X.data[:X.indptr[-1]]) else X.data
        triplet = (data, _unsigned(X.indices), _unsigned(X.indptr))
        if X.shape[1] >= PREFETCH_FEATURES:
            return (*triplet, PREFETCH_ROWS_AHEAD)
        return triplet
    return X


def _unsigned(index):
    return index.view(np.uint32 if index.dtype.itemsize == 4 else np.uint64)


def check_csr_structure(X):
    """Refuse a CSR matrix whose structure would make the kernels read out of
    bounds: scipy checks only the lengths of ``indices`` and ``indptr``.

    >>> import scipy.sparse as sp
    >>> X = sp.csr_matrix(np.eye(2))
    >>> X.indices[1] = 5
    >>> check_csr_structure(X)
    Traceback (most recent call last):
    ...
    ValueError: The CSR matrix X has a column index 5 outside [0, 2); it was built
    from inconsistent arrays. Rebuild it with
    scipy.sparse.csr_matrix((data, indices, indptr), shape=...) from valid arrays.
    """
    remedy = ("it was built from inconsistent arrays. Rebuild it with "
              "scipy.sparse.csr_matrix((data, indices, indptr), shape=...) from valid arrays.")
    indptr, indices = X.indptr, X.indices
    problem = 1 if len(indptr) != X.shape[0] + 1 or len(X.data) < len(indices) else 0
    if not problem:  # one compiled pass, no temporary arrays
        problem, bad = csr_structure(indptr, indices, X.shape[1])
    if problem == 1:
        raise ValueError(f"The CSR matrix X has row pointers (indptr) that are not a "
                         f"non-decreasing run from 0 to at most the {len(indices)} stored "
                         f"values; {remedy}")
    if problem == 2:
        raise ValueError(f"The CSR matrix X has a column index {bad} outside "
                         f"[0, {X.shape[1]}); {remedy}")
