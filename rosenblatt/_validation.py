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

from ._kernels import all_ones, csr_has_duplicates, csr_structure

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


def validate_X(estimator, X, *, reset, linear=False):
    """Check ``X`` (dense or CSR, float32/float64 kept as given, finite).

    A dense array comes back C-contiguous (a Fortran-ordered or strided one is
    copied: the kernels read rows in C order), a CSR matrix with its duplicate
    entries summed (on a copy, see :func:`sum_duplicates`) unless ``linear``: a
    caller that only computes ``w·x`` gets the same sum from a repeated column as
    from its summed entry (up to rounding), so it is spared the copy."""
    try:
        X = validate_data(
            estimator, X, accept_sparse="csr", dtype=FLOAT_DTYPES, order="C", reset=reset
        )
    except (ValueError, TypeError) as error:  # TypeError: a list holding complex numbers
        raise _explain(error, X) from error
    if sp.issparse(X):
        check_csr_structure(X)
        if not linear:
            X = sum_duplicates(X)
    return X


def validate_X_y(estimator, X, y, *, reset):
    """Check ``X`` and ``y`` together; ``y`` must hold class labels."""
    check_label_types(y, "y")
    try:
        X, y = validate_data(
            estimator, X, y, accept_sparse="csr", dtype=FLOAT_DTYPES, order="C", reset=reset
        )
    except (ValueError, TypeError) as error:  # TypeError: a list holding complex numbers
        raise _explain(error, X) from error
    if sp.issparse(X):
        check_csr_structure(X)
        X = sum_duplicates(X)
    check_magnitude(X)
    check_classification_targets(y)
    return X, y


def sum_duplicates(X):
    """``X`` itself, or, when a row stores the same column more than once, a
    canonical copy with the duplicates summed (in their stored order, as
    ``X.toarray()`` adds them) and the zeros this leaves dropped: the kernels
    add every stored value once, which for duplicates is the dense equal only
    for the rules linear in ``x`` (``‖x‖²`` of passive-aggressive, the kernels
    of KernelPerceptron would differ). The user's matrix is never modified.

    >>> import scipy.sparse as sp
    >>> X = sp.csr_matrix((np.array([1.0, 2.0, 3.0]), np.array([1, 0, 1]), np.array([0, 3])),
    ...                   shape=(1, 2))
    >>> Y = sum_duplicates(X)
    >>> Y.toarray().tolist(), Y.nnz, X.nnz
    ([[2.0, 4.0]], 2, 3)
    """
    n_rows, n_columns = X.shape
    stored = int(X.indptr[-1])
    # one compiled read of the rows, no sort: unsorted rows (common after scipy
    # arithmetic) without a repeated column need no copy (a lexsort of every
    # stored value took 0.5 s on 2.8M values)
    if stored < 2 or not csr_has_duplicates(_unsigned(X.indptr), _unsigned(X.indices),
                                            n_columns):
        return X
    indptr, indices = X.indptr, X.indices[:stored]
    rows = np.repeat(np.arange(n_rows, dtype=np.intp), np.diff(indptr))
    order = np.lexsort((indices, rows))  # stable: duplicates keep their stored order
    rows, columns = rows[order], indices[order]
    first = np.ones(stored, dtype=bool)
    first[1:] = (rows[1:] != rows[:-1]) | (columns[1:] != columns[:-1])
    if first.all():
        return X  # none twice after all (an index out of range): nothing to sum
    entry = np.cumsum(first) - 1
    sums = np.zeros(int(entry[-1]) + 1, dtype=X.data.dtype)
    np.add.at(sums, entry, X.data[:stored][order])
    keep = sums != 0
    rows, columns, sums = rows[first][keep], columns[first][keep], sums[keep]
    new_indptr = np.zeros(n_rows + 1, dtype=indptr.dtype)
    np.cumsum(np.bincount(rows, minlength=n_rows), out=new_indptr[1:])
    summed = sp.csr_matrix((sums, columns.astype(indices.dtype, copy=False), new_indptr),
                           shape=X.shape, copy=False)
    summed.has_canonical_format = True
    return summed


def _kinds(values):
    """The kinds of label among ``values`` (a list or an object array): "number"
    and "string" (anything else, e.g. ``None``, is left to scikit-learn's check)."""
    kinds = set()
    for kind in set(map(type, values)):
        if issubclass(kind, (str, bytes, np.str_, np.bytes_)):
            kinds.add("string")
        elif issubclass(kind, (numbers.Number, np.number, np.bool_)):
            kinds.add("number")
    return kinds


def check_label_types(labels, name):
    """Refuse labels that mix numbers and strings: they cannot be sorted (Python
    raises ``TypeError``), and numpy would silently turn a list of them into
    strings (``[0, "a"]`` → ``["0", "a"]``), so the model would predict ``"0"``
    where the user wrote ``0``."""
    if isinstance(labels, (list, tuple)):
        values = labels
    else:
        values = getattr(labels, "values", labels)  # a pandas Series: its array
        if not isinstance(values, np.ndarray) or values.dtype != object:
            return
        values = values.ravel()
    if len(values) > 0 and _kinds(values) == {"number", "string"}:
        number = next(v for v in values if _kinds([v]) == {"number"})
        string = next(v for v in values if _kinds([v]) == {"string"})
        raise ValueError(
            f"{name} mixes numbers and strings (e.g. {number!r} and {string!r}); class labels "
            "must be all numbers or all strings, which can be sorted and compared. Convert "
            f"them to one type first, e.g. {name} = [str(label) for label in {name}]."
        )


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

def _explain(error, X=None):
    """Add the remedy to the messages of numpy and scikit-learn that lack one."""
    message = str(error)
    if message.startswith("Complex data not supported") or (
            "complex" in message and X is not None and _is_complex(X)):
        # scikit-learn's message goes on to print the whole array: not repeated here
        which = "X" if X is not None and _is_complex(X) else "y"
        remedy = (
            "Pass the real part (np.real(X)) if every imaginary part is 0, or the real and "
            "imaginary parts as separate columns (np.hstack([X.real, X.imag]))."
            if which == "X" else "Class labels must be real numbers or strings."
        )
        # scikit-learn's estimator checks look for its first words
        return ValueError(f"Complex data not supported: {which} holds complex numbers, which "
                          f"a perceptron cannot learn from. {remedy}")
    if "could not convert" in message or "convert array of bytes/strings" in message:
        return ValueError(
            f"X must be numeric ({message}). Encode text or categorical columns first, "
            "for example with sklearn.preprocessing.OneHotEncoder."
        )
    if "inhomogeneous shape" in message or "setting an array element with a sequence" in message:
        if X is not None and not _is_ragged(X):
            return ValueError(f"y must be one class label per row of X (numpy: {message}). "
                              "Pass a 1-D list or array of labels.")
        return ValueError(
            "X must be a matrix: a list of rows that are all of the same length, each a "
            f"list of numbers (numpy: {message}). Give every row one value per feature "
            "(fill in the missing ones), or pass a 2-D numpy array."
        )
    if "0 sample(s)" in message or "0 feature(s)" in message:
        return ValueError(f"{message} Pass a non-empty X with at least one row and column.")
    if "inconsistent numbers of samples" in message:
        return ValueError(f"{message} X and y must have one label per row of X.")
    return error


def real_matrix(X):
    """``X`` as a dense float64 array, refused with :func:`_explain`'s messages when
    it is ragged, complex or not numeric (for the functions that are not estimators)."""
    try:
        array = np.asarray(X.toarray() if sp.issparse(X) else X)
        if _is_complex(array):
            raise ValueError("Complex data not supported")
        return array.astype(np.float64)
    except (ValueError, TypeError) as error:
        raise _explain(ValueError(str(error)), X) from error


def _is_ragged(X):
    try:
        np.asarray(X)
    except ValueError:
        return True
    return False


def _is_complex(X):
    dtype = getattr(X, "dtype", None)
    if dtype is not None and dtype != object:
        return dtype.kind == "c"
    try:
        values = np.asarray(X, dtype=object).ravel()  # a list or an object array
    except (TypeError, ValueError):
        return False
    return any(isinstance(value, (complex, np.complexfloating)) for value in values)


def check_classes(classes):
    """Sorted unique labels; at least two are needed to learn anything. Labels
    that mix numbers and strings, or hold NaN or infinity, are refused."""
    check_label_types(classes, "classes")
    classes = np.asarray(classes)
    if classes.dtype.kind == "c":
        raise ValueError("classes holds complex numbers; class labels must be real numbers "
                         "or strings.")
    missing = _not_finite(classes)
    if missing:
        raise ValueError(
            f"classes holds {missing!r}, which no label can equal (NaN is not even equal to "
            "itself); pass the finite labels the data will hold, e.g. classes=[0, 1]."
        )
    try:
        classes = np.unique(classes)
    except TypeError as error:  # labels of kinds that cannot be sorted together
        raise ValueError(
            f"The labels cannot be sorted ({error}); class labels must be all numbers or all "
            "strings. Convert them to one type first."
        ) from error
    if len(classes) < 2:
        raise ValueError(
            f"The labels hold only one class ({classes.tolist()!r}); a classifier needs "
            "at least two. Check y, or the split that produced it."
        )
    return classes


def _not_finite(labels):
    """The NaN and infinite values among numeric labels (a plain or object array)."""
    if labels.dtype.kind == "f":
        return sorted({float(v) for v in labels[~np.isfinite(labels)].tolist()}, key=str)
    if labels.dtype == object:
        return sorted({float(v) for v in labels.ravel().tolist()
                       if isinstance(v, (float, np.floating)) and not np.isfinite(v)}, key=str)
    return []


def encode_labels(y, classes):
    """Position of each label in ``classes``; unknown labels raise ``ValueError``."""
    try:
        codes = np.searchsorted(classes, y)
    except TypeError as error:  # e.g. object classes of one type, labels of another
        raise ValueError(
            f"y holds labels that cannot be compared with the classes {classes.tolist()!r} "
            f"this model was set up with ({error}); pass labels of the classes' type."
        ) from error
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


def kernel_view(X, binary_twins=True):
    """What the kernels take: the dense array itself or the CSR triplet (no copy),
    its ``indices`` and ``indptr`` viewed as unsigned integers of the same width
    (the kernels index faster without wrap-around; see ``_kernels/_rows.py``);
    ``data`` is ``None`` when every stored value is 1, for the binary twins. A
    CSR matrix of at least :data:`PREFETCH_FEATURES` columns gets a fourth
    element, the look-ahead in rows of the kernels' prefetching.

    ``binary_twins=False`` keeps ``data`` without looking at it, for a single pass
    such as scoring: the test reads every stored value once more, from memory
    (0.15 ms on w8a, 20 % of its scores), and in one pass the twin saves less than
    that (``1 · w_j`` is ``w_j`` exactly: the scores are the same either way)."""
    if sp.issparse(X):
        data = None if binary_twins and all_ones(X.data[:X.indptr[-1]]) else X.data
        triplet = (data, _unsigned(X.indices), _unsigned(X.indptr))
        if X.shape[1] >= PREFETCH_FEATURES:
            return (*triplet, PREFETCH_ROWS_AHEAD)
        return triplet
    return X


def check_scores(scores, X):
    """Refuse decision scores that overflowed to inf or NaN on a finite ``X``: a
    NaN score is never positive nor the largest, so ``predict`` would return an
    arbitrary class without a word. ``X`` has been checked finite; its values are
    so large that ``w·x`` (or the kernel) overflowed float64."""
    finite = np.isfinite(scores)
    if finite.all():
        return scores
    rows = int((~finite.reshape(len(finite), -1)).any(axis=1).sum())
    values = X.data if sp.issparse(X) else X
    largest = max(abs(float(values.max())), abs(float(values.min()))) if values.size else 0.0
    raise ValueError(
        f"The decision scores of {rows} row(s) of X overflowed to inf or NaN (X holds values "
        f"up to {largest:.3g}): predictions from them would be arbitrary. Scale X the way the "
        "training data was scaled, e.g. with the same fitted "
        "sklearn.preprocessing.StandardScaler (a Pipeline does this for you)."
    )


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


def check_lengths(lengths, n_tokens):
    """Sentence lengths as an intp array: whole numbers >= 1 that add up to the
    rows of ``X`` (a sequence estimator's tokens).

    >>> check_lengths([2, 1], 3).tolist()
    [2, 1]
    >>> check_lengths([2, 2], 3)
    Traceback (most recent call last):
    ...
    ValueError: lengths add up to 4 tokens, but X has 3 rows; lengths gives the number of tokens of each sentence, in order, and they must cover the rows of X exactly.
    """
    if lengths is None:
        raise ValueError("lengths is required: the number of tokens of each sentence, in the "
                         "order of the rows of X (e.g. lengths=[5, 3] for two sentences).")
    values = np.asarray(lengths)
    if values.ndim != 1 or len(values) == 0:
        raise ValueError(f"lengths must be a 1-D list of sentence lengths, one per sentence; "
                         f"got shape {values.shape}.")
    if values.dtype.kind not in "iu" and not (
            values.dtype.kind == "f" and np.all(np.isfinite(values))
            and np.all(values == np.round(values))):
        raise ValueError(f"lengths must be whole numbers (tokens per sentence); got dtype "
                         f"{values.dtype}.")
    # checked in their own dtype: a cast to int64 wraps uint64 and huge floats around
    if values.min() < 1:
        raise ValueError(f"lengths must be >= 1 (an empty sentence has no tokens to label); "
                         f"sentence {int(np.argmin(values))} has {values.min().item()}.")
    if values.max() > n_tokens or len(values) > n_tokens:  # else the int64 sum may wrap
        raise ValueError(f"lengths holds {len(values)} sentence(s) of up to "
                         f"{values.max().item()} tokens, but X has {n_tokens} rows; lengths "
                         "gives the number of tokens of each sentence, in order, and they "
                         "must cover the rows of X exactly.")
    values = values.astype(np.int64)
    if int(values.sum()) != n_tokens:
        raise ValueError(f"lengths add up to {int(values.sum())} tokens, but X has {n_tokens} "
                         "rows; lengths gives the number of tokens of each sentence, in order, "
                         "and they must cover the rows of X exactly.")
    return values.astype(np.intp)
