"""Loaders for data files: CSV, LIBSVM/svmlight and NumPy's .npy/.npz.

Each returns ``X, y`` and refuses a malformed file with a ``ValueError`` that
names the file, the line and the reason; nothing is skipped silently (only
blank lines, which hold no data).
"""

import csv
import itertools
import pathlib
import re
import warnings

import numpy as np
from sklearn.datasets import load_svmlight_file


def load_data(path, **options):
    """Load ``X, y`` from a file, choosing the format by its extension:
    ``.csv``, ``.npy``/``.npz``, anything else LIBSVM.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "d.csv").write_text("a,b,label\\n1,2,yes\\n3,4,no\\n")
    >>> X, y = load_data(folder / "d.csv")
    >>> X.tolist(), y.tolist()
    ([[1.0, 2.0], [3.0, 4.0]], ['yes', 'no'])
    """
    suffix = pathlib.Path(path).suffix.lower()
    if suffix == ".csv":
        return load_csv(path, **options)
    if suffix in (".npy", ".npz"):
        return load_numpy(path, **options)
    return load_libsvm(path, **options)


def _existing(path):
    path = pathlib.Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such file.")
    return path


def load_csv(path, label=-1, header="auto"):
    """A CSV file of numbers with one label column.

    ``label`` is the label column's index (negative counts from the end) or,
    with a header, its name; ``None`` for a file without labels (``y`` is then
    ``None``). Labels are kept as text unless they are all numbers. The features
    must be numbers. ``header``: ``True``, ``False``, or ``"auto"`` — the first
    line is a header unless every field of it is a number (then it is data: a
    file without a header used to lose its first row). The separator is ``,``,
    ``;`` or a tab, whichever splits the first line most.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), or None with ``label=None``

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "d.csv"
    >>> _ = path.write_text("x1;x2;label\\n1;2;yes\\n3;4;no\\n")
    >>> X, y = load_csv(path)
    >>> X.tolist(), y.tolist()
    ([[1.0, 2.0], [3.0, 4.0]], ['yes', 'no'])
    """
    fast = _numeric_csv(_existing(path), label, header)
    if fast is not None:
        return fast
    # text labels, quotes, or a broken line: the line-by-line reader, which says where
    blocks = list(csv_blocks(path, None, label=label, header=header))
    if not blocks:
        raise ValueError(f"{_existing(path)}: no data lines.")
    return blocks[0]


def _numeric_csv(path, label, header):
    """A CSV of numbers only, read by NumPy's compiled reader (several times faster
    than checking line by line), or ``None`` when it is anything else."""
    delimiter = _delimiter(path)
    first = _first_row(path, delimiter)
    if first is None:
        return None
    named = bool(header) and not (header == "auto" and all(map(_is_number, first)))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # an empty file warns: leave it to the other path
            data = np.loadtxt(path, delimiter=delimiter, skiprows=int(named), ndmin=2,
                              comments=None, encoding="utf-8", dtype=np.float64)
    except (ValueError, UnicodeDecodeError, UserWarning):
        return None
    if data.shape[0] == 0 or data.shape[1] != len(first):
        return None
    if label is None:
        return data, None
    column = _label_column(path, label, [name.strip() for name in first] if named else None,
                           data.shape[1])
    return np.delete(data, column, axis=1), numeric_labels(data[:, column], path)


def _first_row(path, delimiter):
    """The first non-blank line's fields (a header or data), or None."""
    with path.open(newline="", encoding="utf-8", errors="replace") as handle:
        return next((row for row in csv.reader(handle, delimiter=delimiter)
                     if any(cell.strip() for cell in row)), None)


def csv_feature_names(path, label=-1, header="auto"):
    """The feature columns' names of a CSV file with a header (the label column
    left out), or ``None`` when its first line is data, for axis labels.

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "d.csv"
    >>> _ = path.write_text("petal length,petal width,species\\n1.4,0.2,setosa\\n")
    >>> csv_feature_names(path)
    ['petal length', 'petal width']
    >>> _ = path.write_text("1.4,0.2,0\\n")
    >>> csv_feature_names(path) is None
    True
    """
    path = _existing(path)
    first = _first_row(path, _delimiter(path))
    if first is None or not header or (header == "auto" and all(map(_is_number, first))):
        return None
    names = [name.strip() for name in first]
    if label is not None:
        del names[_label_column(path, label, names, len(names))]
    return names


def csv_blocks(path, block_rows, label=-1, header="auto"):
    """Yield ``(X, y)`` blocks of ``block_rows`` data lines (all at once if None),
    checking every line as :func:`load_csv` does."""
    path = _existing(path)
    delimiter = _delimiter(path)
    number = 0
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            rows = csv.reader(handle, delimiter=delimiter)
            lines = ((number, row) for number, row in enumerate(rows, start=1)
                     if any(cell.strip() for cell in row))
            names = None
            if header:
                first = next(lines, None)
                if first is None:
                    raise ValueError(f"{path}: empty file, expected a header line.")
                if header == "auto" and all(_is_number(cell) for cell in first[1]):
                    lines = itertools.chain([first], lines)  # data, not names
                else:
                    names = [name.strip() for name in first[1]]
            # every data line as wide as the header (a narrower one is a broken line)
            width = None if names is None else len(names)
            column = None if names is None or label is None else \
                _label_column(path, label, names, width)
            features, labels = [], []
            for number, row in lines:
                if width is None:
                    width = len(row)
                    column = None if label is None else _label_column(path, label, names, width)
                if len(row) != width:
                    raise ValueError(f"{path}, line {number}: {len(row)} fields, expected "
                                     f"{width}.")
                features.append(_numbers(path, number, row, column))
                if column is not None:
                    labels.append(row[column].strip())
                if block_rows is not None and len(features) == block_rows:
                    yield _block(features, labels, column, path)
                    features, labels = [], []
            if features:
                yield _block(features, labels, column, path)
    except UnicodeDecodeError:
        raise ValueError(_not_utf8(path)) from None
    except csv.Error as error:
        raise ValueError(f"{path}, line {number + 1}: {error}.") from None


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _block(features, labels, column, path):
    return (np.array(features, dtype=np.float64),
            None if column is None else _labels(labels, path))


def _not_utf8(path):
    """Where a file stops being UTF-8 (the decoder reads blocks, so find the line)."""
    raw = path.read_bytes()
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[:error.start].count(b"\n") + 1
        return (f"{path}, line {line}: not UTF-8 text (byte {raw[error.start]:#x}, "
                f"{error.reason}); save the file as UTF-8.")
    return f"{path}: not UTF-8 text; save the file as UTF-8."


def _delimiter(path):
    """The CSV separator: ",", ";" or a tab, whichever splits the first line most
    (a file exported with a decimal comma uses ";")."""
    with path.open(encoding="utf-8", errors="replace") as handle:
        first = next((line for line in handle if line.strip()), "")
    counts = {mark: first.count(mark) for mark in (",", ";", "\t")}
    best = max(counts, key=counts.get)
    return best if counts[best] > 0 else ","


def _numbers(path, number, row, column):
    values = []
    for index, cell in enumerate(row):
        if index == column:
            continue
        try:
            values.append(float(cell))
        except ValueError:
            raise ValueError(
                f"{path}, line {number}: field {index + 1} is {cell!r}, not a number."
            ) from None
    return values


def _label_column(path, label, names, width):
    if isinstance(label, str):
        if names is None or label not in names:
            raise ValueError(f"{path}: no column named {label!r} (columns: {names}).")
        return names.index(label)
    index = int(label)
    if not -width <= index < width:
        raise ValueError(f"{path}: label column {label} is out of range for {width} columns.")
    return index % width


def _labels(labels, path=None):
    try:
        numbers = np.array([float(value) for value in labels])
    except ValueError:
        return np.array(labels)
    return numeric_labels(numbers, path)


#: Whole numbers up to this are exact in float64 and in int64 alike.
_EXACT_INTEGER = 2.0**53


def numeric_labels(numbers, path=None):
    """Numeric labels as int64 when they are whole numbers that int64 holds exactly,
    else as float64; NaN and infinite labels are refused. (1e30 and 1e31 cast to
    int64 used to become the same number: two classes merged into one.)"""
    numbers = np.asarray(numbers, dtype=np.float64)
    if not np.all(np.isfinite(numbers)):
        bad = numbers[~np.isfinite(numbers)][0]
        where = f"{path}: " if path is not None else ""
        raise ValueError(f"{where}labels must be finite numbers; found {bad}. Remove or fix "
                         "those rows.")
    exact = np.all(numbers == np.round(numbers)) and np.all(np.abs(numbers) <= _EXACT_INTEGER)
    return numbers.astype(np.int64) if exact else numbers


_LIBSVM_LINE = re.compile(
    r"^\s*(?P<label>[^\s:#]+)(?P<pairs>(\s+[^\s:#]+:[^\s#]+)*)\s*(#.*)?$"
)


def load_libsvm(path, n_features=None, zero_based="auto"):
    """A LIBSVM/svmlight file, parsed by scikit-learn (CSR with int64 indices kept).

    When the parser refuses the file, the lines are checked one by one to say
    which line is wrong and why. ``n_features`` reads the file that wide (a test
    file whose last features never occur); whole-number labels come back as int64.

    Returns
    -------
    X : CSR matrix of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "d.svm"
    >>> _ = path.write_text("+1 1:0.5 3:2\\n-1 2:1  # a comment\\n")
    >>> X, y = load_libsvm(path, n_features=4)
    >>> X.toarray().tolist(), y.tolist()
    ([[0.5, 0.0, 2.0, 0.0], [0.0, 1.0, 0.0, 0.0]], [1, -1])
    """
    path = _existing(path)
    try:
        X, y = load_svmlight_file(str(path), n_features=n_features, zero_based=zero_based)
    except OverflowError as error:
        raise ValueError(f"{path}: a feature index or value is too large ({error}); LIBSVM "
                         "indices must be below 2**31.") from error
    except (ValueError, RuntimeError) as error:
        if n_features is not None and "n_features was set" in str(error):
            raise ValueError(f"{path}: its rows name features beyond the {n_features} "
                             f"expected ({error}); the model was trained on narrower "
                             "data.") from error
        raise ValueError(_libsvm_diagnosis(path) or f"{path}: {error}") from error
    if X.shape[0] == 0:
        raise ValueError(f"{path}: no data lines.")
    return X, numeric_labels(y, path)


def _libsvm_diagnosis(path):
    """The first malformed line of a LIBSVM file, described, or None."""
    with path.open(errors="replace") as handle:
        for number, line in enumerate(handle, start=1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            match = _LIBSVM_LINE.match(text)
            if not match:
                return f"{path}, line {number}: expected 'label index:value ...', got {text!r}."
            try:
                float(match["label"])
            except ValueError:
                return f"{path}, line {number}: label {match['label']!r} is not a number."
            previous = -1
            for pair in match["pairs"].split():
                index, value = pair.split(":", 1)
                try:
                    index, _ = int(index), float(value)
                except ValueError:
                    return f"{path}, line {number}: {pair!r} is not 'index:value'."
                if index < 0 or index <= previous:
                    return (f"{path}, line {number}: feature indices must be increasing and "
                            f"not negative; {index} follows {previous}.")
                previous = index
    return None


def load_numpy(path, label=-1):
    """``.npz`` holding arrays ``X`` and ``y``, or ``.npy`` holding one matrix whose
    column ``label`` is the label (``None``: no label column, ``y`` is ``None``).
    Never unpickles.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), or None with ``label=None``

    Examples
    --------
    >>> import pathlib, tempfile
    >>> import numpy as np
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "d.npy"
    >>> np.save(path, np.array([[0.5, 2.0, 1.0], [1.5, 0.0, 0.0]]))
    >>> X, y = load_numpy(path)
    >>> X.tolist(), y.tolist()
    ([[0.5, 2.0], [1.5, 0.0]], [1, 0])
    """
    path = _existing(path)
    try:
        data = np.load(path, allow_pickle=False)
        if isinstance(data, np.lib.npyio.NpzFile):
            with data:
                missing = {"X", "y"} - set(data.files)
                if missing:
                    raise ValueError(f"{path}: the .npz file needs arrays 'X' and 'y'; "
                                     f"missing {sorted(missing)}.")
                return data["X"], data["y"]
    except Exception as error:  # noqa: BLE001 - numpy and zipfile raise many kinds on damage
        if isinstance(error, ValueError) and str(error).startswith(str(path)):
            raise
        raise ValueError(f"{path}: not a readable NumPy file without pickles ({error}).") \
            from error
    if label is None and data.ndim == 2 and data.shape[0] and data.shape[1]:
        return data, None
    if data.ndim != 2 or data.shape[1] < 2:
        raise ValueError(f"{path}: a .npy file must hold a matrix with a label column; "
                         f"got shape {data.shape}.")
    width = data.shape[1]
    if not -width <= int(label) < width:
        raise ValueError(f"{path}: label column {label} is out of range for {width} columns.")
    column = int(label) % width
    return np.delete(data, column, axis=1), numeric_labels(data[:, column], path)
