"""Files read a block of rows at a time, for training on data larger than memory."""

import io

import numpy as np
from sklearn.datasets import load_svmlight_file

from ._loaders import _existing, _libsvm_diagnosis, csv_blocks, numeric_labels


class ChunkedFile:
    """A data file seen as blocks of at most ``chunk_size`` rows.

    Opening it makes one streaming pass to learn what ``partial_fit`` needs up
    front: the classes, the number of features and (for LIBSVM) where each block
    starts. Iterating yields ``(X, y)`` blocks in file order, each read from disk
    when it is needed: ``.npy`` through a memory map, LIBSVM by byte ranges with
    scikit-learn's parser, CSV line by line. Memory stays at one block.

    LIBSVM feature indices count from 0 when the file uses index 0, from 1
    otherwise; ``zero_based`` decides it instead, for files read as one set.

    >>> import tempfile, pathlib, numpy as np
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "d.npy"
    >>> np.save(path, np.array([[0., 0., 0], [1., 1., 1], [2., 2., 1]]))
    >>> chunks = ChunkedFile(path, chunk_size=2)
    >>> chunks.classes.tolist(), [len(y) for _, y in chunks]
    ([0, 1], [2, 1])
    """

    def __init__(self, path, chunk_size, *, label=None, n_features=None, zero_based=None):
        self.path = _existing(path)
        if int(chunk_size) < 1:
            raise ValueError(f"chunk_size must be a positive number of rows; got {chunk_size}.")
        self.chunk_size = int(chunk_size)
        self.label = -1 if label is None else label
        suffix = self.path.suffix.lower()
        if suffix == ".npz":
            raise ValueError(
                f"{self.path}: .npz members cannot be memory-mapped, so they cannot be read "
                "in chunks; save X and y as one .npy matrix (label in the last column)."
            )
        self.kind = {".npy": "npy", ".csv": "csv"}.get(suffix, "libsvm")
        self.zero_based = zero_based
        getattr(self, f"_scan_{self.kind}")(n_features)
        if self.n_rows == 0:
            raise ValueError(f"{self.path}: no data rows.")

    def __iter__(self):
        return getattr(self, f"_blocks_{self.kind}")()

    # .npy: a memory map, sliced
    def _scan_npy(self, n_features):
        matrix = np.load(self.path, mmap_mode="r", allow_pickle=False)
        if matrix.ndim != 2 or matrix.shape[1] < 2:
            raise ValueError(f"{self.path}: expected a matrix with a label column; got shape "
                             f"{matrix.shape}.")
        width = matrix.shape[1]
        if not -width <= int(self.label) < width:
            raise ValueError(f"{self.path}: label column {self.label} is out of range for "
                             f"{width} columns.")
        self._column = int(self.label) % width
        labels = set()
        for start in range(0, matrix.shape[0], self.chunk_size):
            labels.update(np.unique(matrix[start:start + self.chunk_size, self._column]).tolist())
        self.classes = _classes(labels, self.path)
        self.n_features = matrix.shape[1] - 1
        self.n_rows = matrix.shape[0]

    def _blocks_npy(self):
        matrix = np.load(self.path, mmap_mode="r", allow_pickle=False)
        keep = [j for j in range(matrix.shape[1]) if j != self._column]
        for start in range(0, matrix.shape[0], self.chunk_size):
            block = np.asarray(matrix[start:start + self.chunk_size])
            yield np.ascontiguousarray(block[:, keep]), self._as_classes(block[:, self._column])

    # CSV: streamed twice, checked line by line
    def _scan_csv(self, n_features):
        labels, self.n_rows, self.n_features = set(), 0, None
        for X, y in csv_blocks(self.path, self.chunk_size, label=self.label):
            labels.update(y.tolist())
            self.n_rows += len(y)
            self.n_features = X.shape[1]
        if not self.n_rows:
            raise ValueError(f"{self.path}: no data lines.")
        self.classes = _classes(labels, self.path)

    def _blocks_csv(self):
        for X, y in csv_blocks(self.path, self.chunk_size, label=self.label):
            yield X, self._as_classes(y)

    # LIBSVM: one pass for offsets, classes and the feature count; then byte ranges
    def _scan_libsvm(self, n_features):
        starts, labels, largest, smallest, rows = [], set(), -1, None, 0
        position = 0
        with self.path.open("rb") as handle:
            for line in handle:
                text = line.split(b"#", 1)[0].strip()
                if text:
                    if rows % self.chunk_size == 0:
                        starts.append(position)
                    fields = text.split()
                    try:
                        labels.add(float(fields[0]))
                        indices = [int(field.split(b":", 1)[0]) for field in fields[1:]]
                    except ValueError:
                        raise ValueError(_libsvm_diagnosis(self.path) or
                                         f"{self.path}: malformed line {rows + 1}") from None
                    if indices:
                        largest = max(largest, max(indices))
                        smallest = min(indices) if smallest is None else min(smallest,
                                                                              min(indices))
                    rows += 1
                position += len(line)
        if not rows:
            raise ValueError(f"{self.path}: no data lines.")
        # feature indices count from 0 if the file uses 0 (scikit-learn's "auto"),
        # unless the caller decided for several files at once (as load_svmlight_files)
        self.uses_index_zero = smallest == 0
        self.largest_index = largest
        if self.zero_based is None:
            self.zero_based = self.uses_index_zero
        needed = largest + 1 if self.zero_based else largest
        if n_features is not None and n_features < needed:
            raise ValueError(f"{self.path}: n_features={n_features}, but the file uses feature "
                             f"index {largest}.")
        self.n_features = needed if n_features is None else int(n_features)
        self._starts, self._end = starts, position
        self.classes = _classes(labels, self.path)
        self.n_rows = rows

    def _blocks_libsvm(self):
        bounds = self._starts[1:] + [self._end]
        with self.path.open("rb") as handle:
            for start, stop in zip(self._starts, bounds):
                # the block's own bytes, whole lines from its first data line to the
                # next block's: no guessing where scikit-learn's offset/length cut a
                # line (blank lines and comments at a boundary duplicated rows)
                handle.seek(start)
                payload = io.BytesIO(handle.read(stop - start))
                X, y = load_svmlight_file(payload, n_features=self.n_features,
                                          zero_based=self.zero_based)
                yield X, self._as_classes(y)

    def _as_classes(self, y):
        """Labels in the dtype of :attr:`classes` (whole numbers as int64 in every
        block, as when the whole file is read)."""
        return y.astype(self.classes.dtype) if self.classes.dtype.kind in "iu" else y


def _classes(labels, path):
    """The sorted labels, numbers as :func:`numeric_labels` makes them."""
    labels = sorted(labels)
    if all(isinstance(label, (int, float)) for label in labels):
        return numeric_labels(labels, path)
    return np.array(labels)


