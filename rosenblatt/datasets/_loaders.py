"""Loaders for data files: CSV, LIBSVM/svmlight and NumPy's .npy/.npz.

Each returns ``X, y`` and refuses a malformed file with a ``ValueError`` that
names the file, the line and the reason; nothing is skipped silently (only
blank lines, which hold no data).
"""

import contextlib
import csv
import io
import itertools
import math
import numbers
import pathlib
import re
import threading
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.datasets import load_svmlight_file

try:
    from sklearn.utils._sparse import _align_api_if_sparse
except ImportError:  # scikit-learn before its sparse-interface setting: CSR matrices
    def _align_api_if_sparse(X):
        return sp.csr_matrix(X)


#: the formats :func:`load_data` reads, as ``file_format`` names them
FORMATS = ("csv", "libsvm", "vw", "npy", "npz")


def data_format(path, file_format="auto"):
    """The format of the data file ``path``: ``file_format`` itself unless it is
    ``"auto"``; else by the suffix (``.csv``, ``.npy``, ``.npz``, ``.vw``; ``.svm``,
    ``.libsvm`` and ``.svmlight`` are LIBSVM), and for any other suffix by the
    content: ``"vw"`` when the first data line holds a ``|`` (which a LIBSVM line
    never does, outside a comment), else ``"libsvm"``.

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.txt").write_text("1 |user a b\\n")
    >>> _ = (folder / "b.txt").write_text("1 3:1 # a | in a comment\\n")
    >>> data_format(folder / "a.txt"), data_format(folder / "b.txt"), data_format("c.VW")
    ('vw', 'libsvm', 'vw')
    """
    if file_format != "auto":
        if file_format not in FORMATS:
            raise ValueError(f"{path}: unknown format {file_format!r}; one of auto, "
                             f"{', '.join(FORMATS)}")
        return file_format
    suffix = pathlib.Path(path).suffix.lower()
    if suffix in (".csv", ".npy", ".npz", ".vw"):
        return suffix[1:]
    if suffix in (".svm", ".libsvm", ".svmlight"):
        return "libsvm"
    try:
        with open(path, "rb") as handle:
            for line in itertools.islice(handle, 1000):
                if libsvm_data(line).strip():
                    return "vw" if b"|" in libsvm_data(line) else "libsvm"
    except OSError:
        pass  # the loader says what is wrong with the file
    return "libsvm"


def load_data(path, file_format="auto", **options):
    """Load ``X, y`` from a file, choosing the format by its extension:
    ``.csv``, ``.npy``/``.npz``, ``.vw`` (Vowpal Wabbit's text format), anything
    else LIBSVM or VW by its content (see :func:`data_format`), or as
    ``file_format`` says.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "d.csv").write_text("a,b,label\\n1,2,yes\\n3,4,no\\n")
    >>> X, y = load_data(folder / "d.csv")
    >>> X.tolist(), y.tolist()
    ([[1.0, 2.0], [3.0, 4.0]], ['yes', 'no'])

    Options of another format are refused (a LIBSVM line's label is its first field):

    >>> _ = (folder / "d.svm").write_text("1 1:2\\n-1 2:3\\n")
    >>> load_data(folder / "d.svm", label=0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ...d.svm: a LIBSVM file takes no label option (its labels are the first field of each line); got label.
    """
    kind = data_format(path, file_format)
    if kind == "csv":
        return load_csv(path, **options)
    if kind in ("npy", "npz"):
        return load_numpy(path, **options)
    if kind == "vw":
        from ._vw import load_vw

        extra = sorted(set(options) - {"n_features", "hash_bits", "labels", "with_weights"})
        if extra:
            raise ValueError(f"{path}: a VW file takes no {', '.join(extra)} option (its "
                             f"labels come before the first '|' of each line); got "
                             f"{', '.join(extra)}.")
        return load_vw(path, **options)
    extra = sorted(set(options) - {"n_features", "zero_based"})
    if extra:
        raise ValueError(f"{path}: a LIBSVM file takes no {', '.join(extra)} option (its "
                         f"labels are the first field of each line); got {', '.join(extra)}.")
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
                              comments=None, encoding="utf-8-sig", dtype=np.float64)
    except (ValueError, UnicodeDecodeError, UserWarning):
        return None
    if data.shape[0] == 0 or data.shape[1] != len(first):
        return None
    if not np.isfinite(data).all():
        return None  # an overflow (1e400) or a NaN label: the line-by-line reader says where
    if label is None:
        return data, None
    column = _label_column(path, label, [name.strip() for name in first] if named else None,
                           data.shape[1])
    return np.delete(data, column, axis=1), numeric_labels(data[:, column], path)


def _first_row(path, delimiter):
    """The first non-blank line's fields (a header or data), or None."""
    with path.open(newline="", encoding="utf-8-sig", errors="replace") as handle:
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
    checking every line as :func:`load_csv` does. (Labels are typed block by
    block: :class:`ChunkedFile` types them over the whole file.)"""
    path = _existing(path)
    for features, labels, lines in csv_rows(path, block_rows, label, header):
        yield _block(features, labels, lines, path)


def csv_rows(path, block_rows, label=-1, header="auto"):
    """Yield ``(features, label_texts, line_numbers)`` per block of ``block_rows``
    data lines: the features as float64, the labels as the file's text (``None``
    without a label column), every line checked; errors name the file and line.
    A UTF-8 byte-order mark is not part of the first field."""
    path = _existing(path)
    delimiter = _delimiter(path)
    number = 0
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
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
            features, labels, numbers = [], [], []
            for number, row in lines:
                if width is None:
                    width = len(row)
                    column = None if label is None else _label_column(path, label, names, width)
                if len(row) != width:
                    raise ValueError(f"{path}, line {number}: {len(row)} fields, expected "
                                     f"{width}.")
                features.append(_numbers(path, number, row, column))
                numbers.append(number)
                if column is not None:
                    labels.append(row[column].strip())
                if block_rows is not None and len(features) == block_rows:
                    yield _features(features), None if column is None else labels, numbers
                    features, labels, numbers = [], [], []
            if features:
                yield _features(features), None if column is None else labels, numbers
    except UnicodeDecodeError:
        raise ValueError(_not_utf8(path)) from None
    except csv.Error as error:
        raise ValueError(f"{path}, line {number + 1}: {error}.") from None


def _features(rows):
    return np.array(rows, dtype=np.float64)


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _block(features, labels, lines, path):
    return features, None if labels is None else text_labels(labels, lines, path)


def text_labels(texts, lines, path, numeric=None):
    """Labels read as text: numbers (int64 when whole, see :func:`numeric_labels`)
    when every one is a number, else the texts. ``numeric`` decides it instead (for
    a block of a file whose other blocks were seen). A NaN, infinite or overflowing
    (1e400) number is refused with its line."""
    if numeric is None:
        numeric = all(map(_is_number, texts))
    if not numeric:
        return np.array(texts)
    numbers = np.array([float(text) for text in texts], dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(numbers))
    if bad.size:
        raise ValueError(_bad_label_message(path, texts[bad[0]], lines[bad[0]]))
    return numeric_labels(numbers, path)


def _bad_label_message(path, text, line):
    return (f"{path}: labels must be finite numbers; found {text} on line {line}"
            f"{' (too large for a 64-bit float)' if _overflows(text) else ''}. Remove or fix "
            "that row.")


def _overflows(text):
    """Whether ``text`` is a finite number written too large for float64 (1e400), which
    ``float`` turns into inf; "inf" and "nan" written out are not overflows."""
    try:
        value = float(text)
    except (ValueError, TypeError):
        return False
    if math.isfinite(value):
        return False
    word = text.strip().lower().lstrip("+-")
    if isinstance(word, bytes):
        word = word.decode("ascii", "replace")
    return word not in ("inf", "infinity", "nan")


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
    with path.open(encoding="utf-8-sig", errors="replace") as handle:
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
        if _overflows(cell):
            raise ValueError(
                f"{path}, line {number}: field {index + 1} is {cell!r}, too large for a "
                "64-bit float (it would be read as inf); rescale that column, or write inf "
                "if infinity is meant."
            )
    return values


def _label_column(path, label, names, width):
    if isinstance(label, str):
        if names is None or label not in names:
            raise ValueError(f"{path}: no column named {label!r} (columns: {names}).")
        return names.index(label)
    return label_index(path, label, width)


def label_index(path, label, width, names_allowed=True):
    """The label column's position for a whole-number ``label`` (negative counts
    from the end); 1.7, True or "2" are refused, not rounded or read as 1."""
    if isinstance(label, bool) or not isinstance(label, numbers.Integral):
        named = " or, with a header line, a column name" if names_allowed else ""
        raise ValueError(f"{path}: the label column must be given as a whole number "
                         f"(its index, negative from the end){named}; got {label!r}.")
    index = int(label)
    if not -width <= index < width:
        raise ValueError(f"{path}: label column {label} is out of range for {width} columns.")
    return index % width


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

#: Lines parsed together while looking for the one scikit-learn's parser refuses.
_SEARCH_LINES = 4096


def load_libsvm(path, n_features=None, zero_based="auto"):
    """A LIBSVM/svmlight file, read by a compiled parser into the matrix
    scikit-learn's ``load_svmlight_file`` makes of it (CSR, the same values bit
    for bit, indices, labels and width; a property test holds it to that). The
    indices, and the row offsets where the stored values are fewer than 2**31,
    are int32 (every LIBSVM index is below 2**31), as scipy would choose them:
    scikit-learn's loader gives int64, the same numbers. The rows are canonical
    (columns increasing, none twice) and marked so.

    The lines the compiled loop does not take on its fast path (anything
    unusual) are read one by one by scikit-learn's parser, and a malformed line
    is refused with the file, the line and why. ``n_features`` reads the file
    that wide (a test file whose last features never occur); whole-number labels
    come back as int64.

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
    if not _plain_options(n_features, zero_based):
        return _load_libsvm_sklearn(path, n_features, zero_based)
    # as load_svmlight_file: from 1 when asked, or ("auto") when no index is 0; the
    # parser counts from 1 as it writes (most files do), and "auto" undoes it below
    # for a file that holds an index 0
    shift = 0 if zero_based is True else 1
    indices, data, indptr, y, (low, high) = read_libsvm_file(path, zero_based is not False,
                                                             shift)
    if shift and low == 0:
        indices += 1
        shift = 0
    width = high - shift + 1 if high >= 0 else 1
    if n_features is not None and n_features < width:
        row = _first_row_beyond(libsvm_matrix(data, indices, indptr, width), n_features)
        raise libsvm_too_wide(path, n_features, row, width)
    X = libsvm_matrix(data, indices, indptr, width if n_features is None else int(n_features))
    if X.shape[0] == 0:
        raise ValueError(f"{path}: no data lines.")
    return X, libsvm_labels(y, path)


#: bytes of a LIBSVM file that load_libsvm parses at a time, read again and again into
#: one buffer that stays in the cache: the whole file in fresh memory cost more in
#: page faults (and, after other work has fragmented memory, in the kernel's search
#: for huge pages) than parsing it
_PIECE_BYTES = 1 << 22


def read_libsvm_file(path, zero_based, shift):
    """:func:`read_libsvm` of the whole file ``path``, read in pieces of whole lines:
    ``(indices, data, indptr, labels, (smallest, largest))``. The compiled loop
    writes each piece's rows straight into arrays that grow to hold the next
    (see :class:`GrowingRows`); a piece with a line it leaves to scikit-learn's
    parser goes through :func:`read_libsvm` instead, which refuses a bad line with
    its file and line."""
    from .._kernels import _libsvm

    where = str(path)
    rows, line = GrowingRows(np.int32), 1
    low, high = -1, -1
    for payload, rest in rows.pieces(path):
        piece = np.frombuffer(payload, dtype=np.uint8)
        indptr, indices, data, labels, _ = rows.room(len(piece), rest)
        flat, most = rows.scratch(3, len(piece))
        starts, lines, slow = flat.reshape(3, most)
        n_rows, nnz, n_slow, *found, seen = _libsvm.libsvm_parse(
            piece, zero_based, shift, _libsvm.POWERS, indptr, indices, data, labels, starts,
            lines, slow)
        del piece, indptr, indices, data, labels  # views: no view outlives a piece
        if n_slow:  # a slow line: the piece again, by the full reader
            indices, data, indptr, labels, _, _, found = read_libsvm(
                payload, zero_based, where, line, shift=shift, with_extent=True)
            rows.add(indptr, indices, data, labels)
        else:
            rows.commit(n_rows, nnz)
        if found[1] >= 0:
            low = found[0] if high < 0 else min(low, found[0])
            high = max(high, found[1])
        line += seen
    indptr, indices, data, labels, _ = rows.arrays()
    return indices, data, indptr, labels, (low, high)


class WholeLines:
    """A file read in pieces of whole lines into one buffer, used again and again
    (no fresh memory for each piece, no copy of the rest onto the next): ``next``
    gives the bytes left from the last piece and up to ``ask`` more, cut after
    their last newline (all of them at the file's end); ``keep`` holds the bytes
    from ``cut`` on (by default those after that newline) for the next piece.
    ``done`` once the file's end has been read and nothing is held."""

    def __init__(self, handle):
        self.handle, self.buffer = handle, bytearray()
        self.held = self.end = self.cut = 0
        self.done = False

    def next(self, ask):
        """A memoryview of the next piece's whole lines, valid until ``keep``."""
        if self.held + ask > len(self.buffer):  # a new buffer: the old one may be viewed
            grown = bytearray(self.held + ask)
            grown[:self.held] = self.buffer[:self.held]
            self.buffer = grown
        got = self.handle.readinto(memoryview(self.buffer)[self.held:self.held + ask])
        self.end = self.held + got
        self.cut = self.buffer.rfind(b"\n", 0, self.end) + 1 if got else self.end
        self.done = not got
        return memoryview(self.buffer)[:self.cut]

    def keep(self, cut=None):
        """Hold ``buffer[cut:]`` of the last piece for the next one."""
        cut = self.cut if cut is None else cut
        self.buffer[:self.end - cut] = self.buffer[cut:self.end]
        self.held = self.end - cut
        self.done = self.done and not self.held


#: the threads inside :func:`small_pages`, and NumPy's setting when the first came in
_PAGES = {"lock": threading.Lock(), "inside": 0, "before": None}


@contextlib.contextmanager
def small_pages():
    """Arrays allocated inside are not advised to take huge pages (NumPy advises it
    for every large array): once other work has fragmented memory, the kernel's
    search for free 2 MiB pages made the first touch of a file's arrays cost from
    0.1 to 0.7 s of system time; in 4 KiB pages it is a steady 0.15-0.2 s. The
    advice is a hint NumPy reads as it allocates (a thread allocating meanwhile
    gets the same hint); NumPy's setting comes back when the last thread inside
    leaves. Without NumPy's switch this does nothing."""
    core = getattr(np, "_core", None) or np.core  # NumPy 2 / 1
    switch = getattr(core.multiarray, "_set_madvise_hugepage", None)
    if switch is None:
        yield
        return
    with _PAGES["lock"]:
        if not _PAGES["inside"]:
            _PAGES["before"] = switch(False)
        _PAGES["inside"] += 1
    try:
        yield
    finally:
        with _PAGES["lock"]:
            _PAGES["inside"] -= 1
            if not _PAGES["inside"]:
                switch(_PAGES["before"])


class GrowingRows:
    """The CSR arrays of a text file parsed piece by piece (``indptr``, ``indices``
    of ``index_type``, ``data``, ``labels`` and, ``weighted``, ``weights``), the
    compiled loop writing each piece in place at their ends. Before a piece they
    hold room for the most it can hold (a row and a value per two bytes: no count
    of its words first); when short, for the rest of the file as well, as dense as
    what came before. A large growth is a fresh array (untouched until written),
    a small one ``ndarray.resize`` (``realloc``: a large block is remapped, not
    copied); the end gives back what was not used."""

    def __init__(self, index_type, weighted=False):
        self.columns = {"indptr": np.zeros(1, dtype=np.int64),
                        "indices": np.empty(0, dtype=index_type), "data": np.empty(0),
                        "labels": np.empty(0)}
        if weighted:
            self.columns["weights"] = np.empty(0)
        self.rows = self.stored = 0
        self._scratch = np.empty(0, dtype=np.int64)

    def pieces(self, path):
        """``(payload, rest)`` for each piece of whole lines of the file ``path``:
        a memoryview of the bytes (valid until the next piece), and the bytes left
        in the file over the bytes read so far (for :meth:`room`)."""
        size, offset = path.stat().st_size, 0
        with open(path, "rb") as handle:
            lines = WholeLines(handle)
            while not lines.done:
                payload = lines.next(_PIECE_BYTES)
                if len(payload):
                    # the rest of the file as dense as what came before it, plus 2 %
                    yield payload, (size - offset) * 1.02 / offset if offset else 0.0
                    offset += len(payload)
                del payload  # a view of the buffer, which keep moves bytes in
                lines.keep()

    def _used(self, name):
        return self.rows + (name == "indptr") if name in ("indptr", "labels", "weights") \
            else self.stored

    def room(self, n_bytes, rest):
        """Views of the arrays' ends, ``(indptr, indices, data, labels, weights or
        None)``, with room for a piece of ``n_bytes`` (``rest``: see :meth:`pieces`).
        The views must be gone before the next call."""
        most = n_bytes // 2 + 1  # rows, and values: a word and a blank each at least
        for name, array in self.columns.items():
            used = self._used(name)
            so_far = self.stored if name in ("indices", "data") else self.rows
            if len(array) < used + most:
                grown = used + most + int(so_far * rest)
                if used < grown // 2:  # fresh: only what is written is ever touched
                    with small_pages():
                        fresh = np.empty(grown, dtype=array.dtype)
                    fresh[:used] = array[:used]
                    self.columns[name] = fresh
                else:  # realloc: remapped, not copied (NumPy zeroes only the new end)
                    array.resize(grown, refcheck=False)  # ours: no view outlives a call
        ends = {name: array[self._used(name) - (name == "indptr"):]
                for name, array in self.columns.items()}
        return ends["indptr"], ends["indices"], ends["data"], ends["labels"], \
            ends.get("weights")

    def scratch(self, k, n_bytes):
        """``(flat, most)``: room for ``k`` int64 values a row of a piece of
        ``n_bytes`` (rows' starts, lines, ...; ``most`` rows at the most), used
        again piece after piece."""
        most = n_bytes // 2 + 1
        if len(self._scratch) < k * most:
            self._scratch = np.empty(k * most, dtype=np.int64)
        return self._scratch[:k * most], most

    def commit(self, n_rows, nnz):
        """The compiled loop wrote ``n_rows`` rows, ``nnz`` values, into :meth:`room`."""
        indptr = self.columns["indptr"]
        indptr[self.rows + 1:self.rows + n_rows + 1] += self.stored
        self.rows, self.stored = self.rows + n_rows, self.stored + nnz

    def add(self, indptr, indices, data, labels, weights=None):
        """Append the arrays of a piece parsed apart."""
        n_rows, nnz = len(labels), len(indices)
        parts = {"indptr": indptr[1:] + self.stored, "indices": indices, "data": data,
                 "labels": labels, "weights": weights}
        self.room(2 * max(n_rows, nnz), 0.0)
        for name, array in self.columns.items():
            used = self._used(name)
            array[used:used + len(parts[name])] = parts[name]
        self.rows, self.stored = self.rows + n_rows, self.stored + nnz

    def arrays(self):
        """``(indptr, indices, data, labels, weights or None)``, cut to what was
        written."""
        for name, array in self.columns.items():
            array.resize(self._used(name), refcheck=False)
        c = self.columns
        return c["indptr"], c["indices"], c["data"], c["labels"], c.get("weights")


def _plain_options(n_features, zero_based):
    """Whether the options are ones the compiled reader takes (anything else goes
    to scikit-learn, which says what is wrong with them)."""
    width = n_features is None or (isinstance(n_features, numbers.Integral)
                                   and not isinstance(n_features, bool) and n_features >= 1)
    return width and (zero_based is True or zero_based is False
                      or (isinstance(zero_based, str) and zero_based == "auto"))


def libsvm_matrix(data, indices, indptr, width):
    """The CSR matrix load_svmlight_file builds of these arrays (its sparse
    interface; int32 indices and offsets where they fit, see :func:`canonical_csr`)."""
    return _align_api_if_sparse(canonical_csr(data, indices, indptr, width))


def canonical_csr(data, indices, indptr, width):
    """A ``csr_matrix`` of arrays whose rows are canonical (columns increasing, none
    twice: the parsers make them so), taken without a copy: int32 offsets when the
    indices are int32 and the stored values fit, as scipy would choose, and the
    flags set, so that scipy does not sort or check them again."""
    if indptr.dtype != indices.dtype and indices.dtype == np.int32 and indptr[-1] < 2**31:
        indptr = indptr.astype(np.int32)
    X = sp.csr_matrix((data, indices, indptr), shape=(len(indptr) - 1, int(width)),
                      copy=False)
    X.has_canonical_format = True
    return X


def _load_libsvm_sklearn(path, n_features, zero_based):
    """:func:`load_libsvm` by scikit-learn's parser (options the compiled reader does
    not take)."""
    try:
        X, y = load_svmlight_file(str(path), n_features=n_features, zero_based=zero_based)
    except (ValueError, RuntimeError, OverflowError) as error:
        if n_features is not None and "n_features was set" in str(error):
            wide, _ = load_svmlight_file(str(path), zero_based=zero_based)
            row = _first_row_beyond(wide, n_features)
            raise libsvm_too_wide(path, n_features, row, wide.shape[1]) from error
        raise ValueError(libsvm_refusal(path, bool(zero_based), error)) from error
    if X.shape[0] == 0:
        raise ValueError(f"{path}: no data lines.")
    return X, libsvm_labels(y, path)


def read_libsvm(payload, zero_based, where, first_line=1, *, with_newlines=False, shift=0,
                with_extent=False):
    """The whole lines ``payload`` (bytes, or a memoryview of them) of a LIBSVM file
    as load_svmlight_file's loop reads them (``zero_based`` its flag: False refuses
    index 0): ``(indices, data, indptr, labels, starts, lines)`` with int32
    ``indices`` (as written less ``shift``: every index fits, they are below 2**31),
    int64 ``indptr``, float64 ``data``/``labels`` (NaN or inf where the file says
    so), and each row's start byte and line number. ``where`` names the file in
    errors, ``first_line`` is the number of the payload's first line. With
    ``with_newlines`` the number of ``\\n`` bytes comes next (counted anyway for
    the arrays' bounds: a pass over pieces needs it for the next piece's line), with
    ``with_extent`` last ``(smallest, largest)`` index as written (-1, -1 without
    any), found by the parser's own pass."""
    from .._kernels import _libsvm

    buf = np.frombuffer(payload, dtype=np.uint8)
    n_lines, n_words = _libsvm.libsvm_capacity(buf)
    indptr = np.zeros(n_lines + 1, dtype=np.int64)
    with small_pages():
        indices = np.empty(n_words, dtype=np.int32)
        data = np.empty(n_words)
    labels = np.empty(n_lines)
    starts = np.empty(n_lines, dtype=np.int64)
    lines = np.empty(n_lines, dtype=np.int64)
    slow = np.empty(n_lines, dtype=np.int64)
    rows, stored, n_slow, low, high, _ = _libsvm.libsvm_parse(
        buf, bool(zero_based), int(shift), _libsvm.POWERS, indptr, indices, data, labels,
        starts, lines, slow)
    indptr, labels = indptr[:rows + 1], labels[:rows]
    starts, lines = starts[:rows], lines[:rows] + first_line
    # a block much smaller than its bound is copied, not kept as a view of it
    keep = (lambda a: a[:stored]) if 4 * stored >= 3 * n_words else (lambda a: a[:stored].copy())
    indices, data = keep(indices), keep(data)
    extent = (int(low), int(high))
    if n_slow:
        indptr, indices, data, extent = _read_slow_libsvm(
            bytes(payload), slow[:n_slow], bool(zero_based), where, indptr, indices, data,
            labels, starts, lines, shift, extent)
    out = (indices, data, indptr, labels, starts, lines)
    if with_newlines:  # libsvm_capacity's lines: one more than the newlines
        out += (n_lines - 1,)
    return out + (extent,) if with_extent else out


def _read_slow_libsvm(payload, slow, zero_based, where, indptr, indices, data, labels,
                      starts, lines, shift, extent):
    """Read the lines the compiled loop left (their rows are empty) with
    scikit-learn's parser, one by one, and put their features in (less ``shift``);
    the first it refuses is refused with its line. Returns the new ``indptr``,
    ``indices``, ``data`` and ``extent`` (the smallest and largest index as
    written, these lines' too)."""
    parts_i, parts_d, counts = [], [], np.diff(indptr)
    previous = 0
    for row in slow.tolist():
        start = int(starts[row])
        end = payload.find(b"\n", start)
        text = payload[start:] if end < 0 else payload[start:end + 1]
        try:
            X, y = parse_libsvm(text, zero_based)
        except (ValueError, RuntimeError, OverflowError) as refused:
            raise ValueError(f"{where}, line {int(lines[row])}: "
                             f"{_libsvm_reason(text, zero_based) or refused}.") from None
        if X.shape[0] != 1:  # pragma: no cover - the loop and scikit-learn agree on blanks
            raise ValueError(f"{where}, line {int(lines[row])}: not one LIBSVM row.")
        labels[row] = y[0]
        cut = indptr[row]
        parts_i.append(indices[previous:cut])
        parts_d.append(data[previous:cut])
        written = X.indices.astype(np.int64) + (0 if zero_based else 1)
        if len(written):  # increasing, as scikit-learn's parser requires
            low, high = extent
            extent = (int(written[0]) if high < 0 else min(low, int(written[0])),
                      max(high, int(written[-1])))
        parts_i.append((written - shift).astype(indices.dtype))
        parts_d.append(X.data.astype(np.float64))
        counts[row] = X.indices.shape[0]
        previous = cut
    parts_i.append(indices[previous:])
    parts_d.append(data[previous:])
    new_indptr = np.zeros_like(indptr)
    np.cumsum(counts, out=new_indptr[1:])
    return new_indptr, np.concatenate(parts_i), np.concatenate(parts_d), extent


def libsvm_labels(y, path, first_row=0):
    """The labels of rows ``first_row`` on, as :func:`numeric_labels` makes them;
    a NaN or infinite one refused with its line."""
    bad = np.flatnonzero(~np.isfinite(y))
    if bad.size:
        line, text = libsvm_line(path, first_row + int(bad[0]))
        raise ValueError(_bad_label_message(path, text.split()[0].decode("utf-8", "replace"),
                                            line))
    return numeric_labels(y, path)


def _first_row_beyond(X, n_features):
    """The first row of CSR ``X`` with a feature at or beyond ``n_features``."""
    rows = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))
    return int(rows[np.flatnonzero(X.indices >= n_features)[0]])


class TooWide(ValueError):
    """A LIBSVM file whose rows name features beyond the ``n_features`` asked for:
    ``path``, ``line`` (of the first such row), ``n_features`` and ``width`` (what
    the file needs), for a caller to say what to do in its own terms."""

    def __init__(self, message, path, line, n_features, width):
        super().__init__(message)
        self.path, self.line, self.n_features, self.width = path, line, n_features, width


def libsvm_too_wide(path, n_features, row, width):
    """The :class:`TooWide` error of data row ``row`` (from 0)."""
    line, _ = libsvm_line(path, row)
    return TooWide(f"{path}, line {line}: its rows name features beyond the {n_features} "
                   f"expected (the file is {width} wide); the model was trained on narrower "
                   "data, or pass a larger n_features.", path, line, n_features, width)


def libsvm_data(line):
    """``line`` (bytes) without its comment, as scikit-learn's parser cuts it: at the
    first '#' before any NUL byte."""
    hash_at = line.find(b"#")
    nul_at = line.find(b"\0")
    if hash_at >= 0 and (nul_at < 0 or hash_at < nul_at):
        return line[:hash_at]
    return line


def libsvm_line(path, row):
    """``(line number, text)`` of data row ``row`` (from 0) of a LIBSVM file."""
    seen = -1
    with path.open("rb") as handle:
        for number, line in enumerate(handle, start=1):
            if libsvm_data(line).split():
                seen += 1
                if seen == row:
                    return number, libsvm_data(line)
    raise ValueError(f"{path}: has fewer than {row + 1} data lines (was it changed?).")


def parse_libsvm(payload, zero_based, n_features=None):
    """scikit-learn's parser on bytes (``zero_based`` True keeps the indices as
    written)."""
    return load_svmlight_file(io.BytesIO(payload), zero_based=zero_based,
                              n_features=n_features)


def libsvm_refusal(path, zero_based, error):
    """Why scikit-learn's parser refuses a LIBSVM file: ``"{path}, line N: ..."`` for the
    first line it refuses (found by parsing groups of lines, then that group's lines
    one by one), the same whether the file is read whole or in chunks."""
    with path.open("rb") as handle:
        numbered = enumerate(handle, start=1)
        while True:
            group = list(itertools.islice(numbered, _SEARCH_LINES))
            if not group:
                break
            try:
                parse_libsvm(b"".join(line for _, line in group), zero_based)
                continue
            except (ValueError, RuntimeError, OverflowError):
                pass
            for number, line in group:
                try:
                    parse_libsvm(line, zero_based)
                except (ValueError, RuntimeError, OverflowError) as refused:
                    return (f"{path}, line {number}: "
                            f"{_libsvm_reason(line, zero_based) or refused}.")
    return f"{path}: {error}"


def _libsvm_reason(line, zero_based):
    """What is wrong with one line scikit-learn's parser refuses, in words (or None)."""
    text = libsvm_data(line).decode("utf-8", "replace").strip()
    match = _LIBSVM_LINE.match(text)
    if not match:
        return f"expected 'label index:value ...', got {text!r}"
    try:
        float(match["label"])
    except ValueError:
        return f"label {match['label']!r} is not a number"
    previous = -1
    pairs = match["pairs"].split()
    if pairs and pairs[0].startswith("qid"):
        pairs = pairs[1:]
    for pair in pairs:
        index, value = pair.split(":", 1)
        try:
            index, _ = int(index), float(value)
        except ValueError:
            return f"{pair!r} is not 'index:value'"
        if index >= 2**31:
            return f"feature index {index} is too large; LIBSVM indices must be below 2**31"
        if index == 0 and not zero_based:
            return "feature index 0, but the file is read with indices from 1 (zero_based=False)"
        if index < 0 or index <= previous:
            return (f"feature indices must be increasing and not negative; {index} follows "
                    f"{previous}")
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
    column = label_index(path, label, data.shape[1], names_allowed=False)
    return np.delete(data, column, axis=1), numeric_labels(data[:, column], path)
