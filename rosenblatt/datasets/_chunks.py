"""Files read a block of rows at a time, for training on data larger than memory."""

import numbers
import threading

import numpy as np

from ._loaders import (
    WholeLines,
    _existing,
    _is_number,
    csv_rows,
    data_format,
    label_index,
    libsvm_labels,
    libsvm_matrix,
    libsvm_too_wide,
    numeric_labels,
    read_libsvm,
    text_labels,
)


class ChunkedFile:
    """A data file seen as blocks of at most ``chunk_size`` rows.

    Opening it makes one streaming pass to learn what ``partial_fit`` needs up
    front: the classes, the number of features and (for LIBSVM) where each block
    starts. Iterating yields ``(X, y)`` blocks in file order, each read from disk
    when it is needed: ``.npy`` through a memory map, LIBSVM by byte ranges with
    the compiled parser of :func:`~rosenblatt.datasets.load_libsvm` (which makes
    the pass on opening too), CSV line by line. Memory stays at one block.

    LIBSVM feature indices count from 0 when the file uses index 0, from 1
    otherwise; ``zero_based`` decides it instead, for files read as one set.

    ``one_pass=True`` (a LIBSVM file whose width ``n_features`` is given, or a
    VW file: its width is the hash space's) skips
    the pass on opening: opening parses only the first block, and the first
    epoch of :func:`~rosenblatt.streaming.fit_chunks` in file order
    (``shuffle="none"``) makes the pass while it trains, so one epoch reads the
    file once. What the pass finds must agree with what the first block
    promised (its labels are every class; LIBSVM: no index 0 where the first block
    counts from 1, every row within ``n_features``; VW: importance weights or none;
    a well-formed file); if not, the fit
    starts again after the whole pass, so the model, the errors and their
    messages are those of the two passes. Anything else that needs the whole
    file first (``n_rows``, ``classes``, the blocks in another order) makes the
    pass then.

    >>> import tempfile, pathlib, numpy as np
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "d.npy"
    >>> np.save(path, np.array([[0., 0., 0], [1., 1., 1], [2., 2., 1]]))
    >>> chunks = ChunkedFile(path, chunk_size=2)
    >>> chunks.classes.tolist(), [len(y) for _, y in chunks]
    ([0, 1], [2, 1])

    In one pass, the first epoch's reading (here by hand, as ``fit_chunks`` does) makes
    the pass:

    >>> svm = path.with_suffix(".svm")
    >>> _ = svm.write_text("-1 1:0.5\\n1 2:1\\n1 1:2 3:1\\n")
    >>> once = ChunkedFile(svm, chunk_size=2, n_features=3, one_pass=True)
    >>> once.scanned, once.first_pass_classes().tolist()
    (False, [-1, 1])
    >>> [(index, y.tolist()) for index, (X, y, _) in once.first_pass()]
    [(0, [-1, 1]), (1, [1])]
    >>> once.scanned, once.n_rows, once.blocks_where(1).endswith("d.svm, lines 3-3")
    (True, 3, True)
    """

    def __init__(self, path, chunk_size, *, label=None, n_features=None, zero_based=None,
                 file_format="auto", one_pass=False):
        self.path = _existing(path)
        if isinstance(chunk_size, bool) or not isinstance(chunk_size, numbers.Integral) \
                or chunk_size < 1:
            raise ValueError(f"{self.path}: chunk_size must be a positive number of rows (a "
                             f"whole number, 1 or more); got {chunk_size!r}.")
        self.chunk_size = int(chunk_size)
        self.label = -1 if label is None else label
        suffix = self.path.suffix.lower()
        if suffix == ".npz" and file_format in ("auto", "npz"):
            raise ValueError(
                f"{self.path}: .npz members cannot be memory-mapped, so they cannot be read "
                "in chunks; save X and y as one .npy matrix (label in the last column)."
            )
        self.kind = data_format(self.path, file_format)
        if self.kind == "npz":
            raise ValueError(f"{self.path}: an .npz file cannot be read in chunks; save X and "
                             "y as one .npy matrix (label in the last column).")
        self.zero_based = zero_based
        #: whether rows weigh unequally (a VW file's importance weights)
        self.weighted = False
        if one_pass and (self.kind == "vw" or self.kind == "libsvm" and n_features is not None) \
                and self._open_first_block(n_features):
            return
        getattr(self, f"_scan_{self.kind}")(n_features)
        if self.n_rows == 0:
            raise ValueError(f"{self.path}: no data rows.")

    #: what a file opened with one_pass learns only from its whole pass: asking for
    #: one before the first epoch has made it makes the pass (see __getattr__)
    _AFTER_THE_PASS = frozenset({"n_rows", "classes", "_where", "_starts", "_end",
                                 "_n_values", "uses_index_zero", "largest_index"})

    def __getattr__(self, name):
        # only called for attributes not set: those of a pass not made yet (or being
        # made by another thread's first epoch, which _finish_scan waits for)
        if name in self._AFTER_THE_PASS and "_scan_lock" in self.__dict__:
            self._finish_scan()
            if name in self.__dict__:
                return self.__dict__[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def scanned(self):
        """Whether the pass over the whole file is made (always, unless the file
        was opened with ``one_pass`` and its first epoch has not been read)."""
        return "_pending" not in self.__dict__

    def __iter__(self):
        return getattr(self, f"_blocks_{self.kind}")()

    @property
    def n_blocks(self):
        return len(self._where)

    @property
    def n_values(self):
        """Stored values of the whole file: nonzeros for LIBSVM, rows × features
        otherwise (what the stopping rule's separability check would read)."""
        if self.kind == "vw" and not hasattr(self, "_n_values"):
            # the first pass reads no features: count them when asked (a stall of the
            # stopping rule, once), so that the rule decides as on the rows in memory
            self._n_values = sum(self._block_vw(index)[0].nnz for index in range(self.n_blocks))
        return getattr(self, "_n_values", self.n_rows * self.n_features)

    def block(self, index):
        """Block ``index`` (from 0) as ``(X, y)``, read on its own: a byte range of a
        LIBSVM or VW file, a slice of a ``.npy`` map; a CSV file (which has no index
        of its lines) is read on from the last block asked, or again from its start
        for an earlier one."""
        return self.weighted_block(index)[:2]

    def weighted_block(self, index):
        """Block ``index`` as ``(X, y, sample_weight)``: the weights are a VW file's
        importance weights, ``None`` for the other formats (every row weighs 1)."""
        if not 0 <= index < self.n_blocks:
            raise IndexError(f"{self.path} has {self.n_blocks} blocks; block {index} asked")
        if self.kind == "vw":
            return self._block_vw(index)
        return (*getattr(self, f"_block_{self.kind}")(index), None)

    def blocks_where(self, index):
        """Where block ``index`` (from 0) is in the file, for error messages:
        ``"{path}, lines a-b"`` (CSV and LIBSVM) or ``"{path}, rows a-b"`` (.npy)."""
        pending = self.__dict__.get("_pending")
        first, last = pending["where"][index] if pending is not None and \
            index < len(pending["where"]) else self._where[index]
        unit = "rows" if self.kind == "npy" else "lines"
        return f"{self.path}, {unit} {first}-{last}"

    # .npy: a memory map, sliced
    def _open_npy(self):
        try:
            return np.load(self.path, mmap_mode="r", allow_pickle=False)
        except Exception as error:  # noqa: BLE001 - numpy raises many kinds on damage
            raise ValueError(f"{self.path}: not a readable NumPy file without pickles "
                             f"({error}).") from error

    def _scan_npy(self, n_features):
        matrix = self._open_npy()
        if not isinstance(matrix, np.ndarray) or matrix.ndim != 2 or matrix.shape[1] < 2:
            raise ValueError(f"{self.path}: expected a matrix with a label column; got shape "
                             f"{getattr(matrix, 'shape', None)}.")
        width = matrix.shape[1]
        self._column = label_index(self.path, self.label, width, names_allowed=False)
        labels = set()
        for start in range(0, matrix.shape[0], self.chunk_size):
            block = np.asarray(matrix[start:start + self.chunk_size, self._column],
                               dtype=np.float64)
            labels.update(np.unique(block).tolist())
        self.classes = _classes(labels, self.path)
        self.n_features = matrix.shape[1] - 1
        self.n_rows = matrix.shape[0]
        self._where = [(start + 1, min(start + self.chunk_size, self.n_rows))
                       for start in range(0, self.n_rows, self.chunk_size)]

    def _blocks_npy(self):
        for index in range(self.n_blocks):
            yield self._block_npy(index)

    def _block_npy(self, index):
        matrix = self._open_npy()
        keep = [j for j in range(matrix.shape[1]) if j != self._column]
        start = index * self.chunk_size
        block = np.asarray(matrix[start:start + self.chunk_size])
        return np.ascontiguousarray(block[:, keep]), self._as_classes(block[:, self._column])

    # CSV: streamed twice, checked line by line; the labels typed over the whole file
    def _scan_csv(self, n_features):
        texts, self.n_rows, self.n_features, self._where = {}, 0, None, []
        for X, labels, lines in csv_rows(self.path, self.chunk_size, label=self.label):
            for text, line in zip(labels, lines):
                texts.setdefault(text, line)  # each label's first line
            self.n_rows += len(lines)
            self.n_features = X.shape[1]
            self._where.append((lines[0], lines[-1]))
        if not self.n_rows:
            raise ValueError(f"{self.path}: no data lines.")
        # numbers only when every label of the file is one, as when it is read whole
        # (labels used to be typed block by block: 1, 2 in one block and "a" in another)
        self._numeric = all(map(_is_number, texts))
        if self._numeric:
            ordered = sorted(texts, key=texts.get)
            text_labels(ordered, [texts[text] for text in ordered], self.path, numeric=True)
            self.classes = numeric_labels(sorted({float(text) for text in texts}), self.path)
        else:
            self.classes = np.array(sorted(texts))

    def _blocks_csv(self):
        for X, labels, lines in csv_rows(self.path, self.chunk_size, label=self.label):
            yield X, self._as_classes(text_labels(labels, lines, self.path, self._numeric))

    def __getstate__(self):
        self._finish_scan()  # a copy cannot share this one's pass in progress
        state = dict(vars(self))
        state.pop("_csv_reader", None)  # a generator: a copy starts its reading anew
        state.pop("_scan_lock", None)  # a lock does not pickle; a made pass needs none
        return state

    def _block_csv(self, index):
        reader = getattr(self, "_csv_reader", None)
        if reader is None or reader[0] > index:  # no going back in a CSV reader
            reader = [0, self._blocks_csv()]
        while reader[0] < index:
            next(reader[1])
            reader[0] += 1
        block = next(reader[1])
        reader[0] += 1
        self._csv_reader = reader
        return block

    # LIBSVM: one compiled pass (the parser of load_libsvm, over pieces of whole
    # lines) for the classes, the width and where each block starts; then the blocks
    # by byte ranges, parsed by the same loop. It refuses what load_libsvm refuses,
    # with the same message. (Pieces of _SCAN_BYTES, as VW's pass below.) With
    # one_pass the same pass is the first epoch's reading (see _first_pass_blocks).
    def _scan_libsvm(self, n_features):
        scan = _LibsvmScan(self, None if self.zero_based is None else bool(self.zero_based))
        for _ in scan.pieces():
            pass
        scan.finish(n_features)

    # One pass (LIBSVM, VW): opening reads the first block; the first epoch reads on
    def _open_first_block(self, n_features):
        """Parse pieces up to the first block's rows and keep them for the first
        epoch; ``False`` when the whole pass is needed now (a bad or odd start:
        it then refuses the file as the two passes do)."""
        scan = _LibsvmScan(self, None if self.zero_based is None else bool(self.zero_based)) \
            if self.kind == "libsvm" else _VwScan(self, n_features)
        pieces, rows = scan.pieces(aligned=True), _ParsedRows()
        try:
            while rows.n_rows < self.chunk_size:
                piece = next(pieces, None)
                if piece is None:
                    break
                rows.add(piece)
        except ValueError:
            return False  # the whole pass refuses it, with the same message
        promise = scan.promise(n_features) if rows.n_rows and len(scan.labels) >= 2 else None
        if promise is None:
            return False
        self._pending = {"scan": scan, "pieces": pieces, "rows": rows, "n_features": n_features,
                         "promise": promise, "classes": promise["classes"], "where": [],
                         "taken": False, "done": threading.Event(), "promised": False,
                         "lock": threading.Lock()}
        self._scan_lock = threading.RLock()
        self.n_features = scan.width
        self.weighted = promise.get("weighted", False)
        rows.shift(promise.get("shift", 0))
        scan.shift_written = promise.get("shift", 0)  # the next pieces come shifted
        return True

    def first_pass_classes(self):
        """The classes the first block promises (a file opened with ``one_pass``
        whose first epoch is not read yet), to train on while the first epoch
        makes the pass; its end checks the promise (see :class:`FirstPassEnded`).
        ``None`` once the pass is made: :attr:`classes` holds them then."""
        pending = self.__dict__.get("_pending")
        if pending is None:
            return None
        pending["promised"] = True
        return pending["classes"]

    def first_pass(self):
        """The first epoch's blocks ``(index, (X, y, weights))`` in file order, read
        while the pass is made; ``None`` when the pass is made or being made by
        another reader (read the blocks by index then)."""
        pending = self.__dict__.get("_pending")
        if pending is None:
            return None
        with pending["lock"]:  # one reader: problems may read the file on threads
            if pending["taken"] or "pieces" not in pending:
                return None
            pending["taken"] = True
        return self._first_pass_blocks(pending)

    def _first_pass_blocks(self, pending):
        scan, pieces, rows, promise = (pending["scan"], pending["pieces"], pending["rows"],
                                       pending["promise"])
        known = np.array(sorted(scan.labels), dtype=np.float64)
        dtype = pending["classes"].dtype
        exhausted = False
        try:
            for index in range(np.iinfo(np.int64).max):
                while rows.n_rows < self.chunk_size and not exhausted:
                    try:
                        piece = next(pieces, None)
                    except ValueError:  # the whole pass says it, as the two passes do
                        raise FirstPassEnded(f"{self.path}: a bad line after the first "
                                             "block") from None
                    if piece is None:
                        exhausted = True
                        break
                    # what the first block promised (its labels, ...: see the scans'
                    # kept); else the fit starts again after the pass
                    if not np.all(np.isin(piece[3], known)) or not scan.kept(promise, piece):
                        raise FirstPassEnded(f"{self.path}: the file differs from what its "
                                             "first block promised")
                    rows.add(piece)
                if rows.n_rows == 0:
                    break
                data, indices, indptr, y, lines, weights = rows.take(self.chunk_size)
                pending["where"].append((int(lines[0]), int(lines[-1])))
                yield index, (scan.matrix(data, indices, indptr),
                              y.astype(dtype) if dtype.kind in "iuU" else y, weights)
            scan.finish(pending["n_features"])  # the attributes, then the pass is made
            self.__dict__.pop("_pending", None)
            self._check_promise(pending)
        finally:
            pending["done"].set()

    def _finish_scan(self, keep_promise=True):
        """Make the whole pass now (the first epoch has not made it): the
        attributes of a file opened without ``one_pass``. ``keep_promise=False``:
        the fit that trusted the first block has been given up (nothing to check)."""
        lock = self.__dict__.get("_scan_lock")
        if lock is None:
            return
        with lock:  # one pass at a time; the others find it made
            pending = self.__dict__.get("_pending")
            if pending is None:
                return
            if not keep_promise:
                pending["promised"] = False
            with pending["lock"]:
                reading = pending["taken"]
                pending["taken"] = True  # no first epoch reads it from now on
            if reading and not pending["done"].is_set():
                pending["done"].wait()  # another thread's first epoch is making it
                if "_pending" not in self.__dict__:
                    return
            self.__dict__.pop("_pending", None)
            pending.pop("pieces", None)
            getattr(self, f"_scan_{self.kind}")(pending["n_features"])
            self._check_promise(pending)

    def _check_promise(self, pending):
        promise = pending["promise"]
        if pending["promised"] and not (
                np.array_equal(self.classes, promise["classes"]) and
                self.classes.dtype == promise["classes"].dtype and
                all(getattr(self, name) == promise[name] for name in promise["facts"])):
            raise FirstPassEnded(f"{self.path}: the whole file differs from its first block")

    def _too_wide(self, n_features, needed):
        """The load_libsvm error for a file wider than ``n_features``: a second pass
        finds the first row that is."""
        row = 0
        for X, _ in self._parsed_blocks(None):
            beyond = np.flatnonzero(np.diff(X.indptr) > 0)
            for local in beyond:
                if X.indices[X.indptr[local]:X.indptr[local + 1]].max() >= n_features:
                    return libsvm_too_wide(self.path, n_features, row + int(local), needed)
            row += X.shape[0]
        return ValueError(f"{self.path}: its rows name features beyond the {n_features} "
                          "expected.")

    def _parsed_blocks(self, n_features, first=0):
        bounds = self._starts[1:] + [self._end]
        with self.path.open("rb") as handle:
            for index, (start, stop) in enumerate(zip(self._starts, bounds)):
                if index < first:
                    continue
                # the block's own bytes, whole lines from its first data line to the
                # next block's
                handle.seek(start)
                payload = handle.read(stop - start)
                shift = 0 if self.zero_based else 1  # the parser counts from 0 as it writes
                indices, data, indptr, y, _, _, (_, high) = read_libsvm(
                    payload, self.zero_based, str(self.path), self._where[index][0],
                    shift=shift, with_extent=True)
                width = high - shift + 1 if high >= 0 else 1
                if len(y) != self._where_rows(index):
                    raise ValueError(f"{self.blocks_where(index)}: {len(y)} rows, where the "
                                     f"file had {self._where_rows(index)} when it was opened "
                                     "(was the file changed after it was opened?)")
                if n_features is not None and width > n_features:
                    raise ValueError(f"{self.blocks_where(index)}: its rows name features "
                                     f"beyond the {n_features} expected (was the file changed "
                                     "after it was opened?)")
                yield libsvm_matrix(data, indices, indptr,
                                    width if n_features is None else n_features), y

    def _blocks_libsvm(self):
        for X, y in self._parsed_blocks(self.n_features):
            yield X, self._as_classes(y)

    def _block_libsvm(self, index):
        X, y = next(self._parsed_blocks(self.n_features, first=index))
        return X, self._as_classes(y)

    # VW: a compiled first pass for where each block starts, the labels and the
    # weights (the features are parsed and hashed when a block is read)
    _SCAN_BYTES = 1 << 24

    def _scan_vw(self, n_features):
        from .._kernels import _text
        from ._vw import FORM, check_width, parse_header, vw_labels

        self.n_features = check_width(n_features, None, self.path)
        starts, where, labels = [], [], set()
        rows = lines = 0
        offset, rest = 0, b""
        last_line = None
        with self.path.open("rb") as handle:
            while True:
                piece = handle.read(self._SCAN_BYTES)
                payload = rest + piece
                cut = len(payload) if not piece else payload.rfind(b"\n") + 1
                payload, rest = payload[:cut], payload[cut:]
                if payload:
                    buf = np.frombuffer(payload, dtype=np.uint8)
                    newlines = np.flatnonzero(buf == 10)
                    if not payload.endswith(b"\n"):
                        newlines = np.append(newlines, len(payload))
                    n = len(newlines)
                    at, numbers = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
                    y, w, slow = np.empty(n), np.empty(n), np.empty(n, dtype=np.bool_)
                    count = _text.vw_scan(buf, newlines, _text.POWERS, at, numbers, y, w, slow)
                    at, numbers, y, w = at[:count], numbers[:count], y[:count], w[:count]
                    for k in np.flatnonzero(slow[:count]):
                        start = int(at[k])
                        text = payload[start:int(newlines[numbers[k]])]
                        bar = text.find(b"|")
                        try:
                            if bar < 0:
                                raise ValueError(f"no '|' (a VW line is {FORM})")
                            label, w[k] = parse_header(text[:bar])
                        except ValueError as error:
                            raise ValueError(f"{self.path}, line {lines + int(numbers[k]) + 1}: "
                                             f"{error}.") from None
                        y[k] = np.nan if label is None else label
                    labels.update(np.unique(vw_labels(y, payload, self.path, lines + 1)).tolist())
                    self.weighted |= bool(np.any(w != 1.0))
                    line_of = numbers + lines + 1
                    heads = np.flatnonzero((np.arange(rows, rows + count) % self.chunk_size) == 0)
                    for k in heads.tolist():
                        if starts:
                            where.append((first_line, int(line_of[k - 1]) if k else last_line))
                        starts.append(offset + int(at[k]))
                        first_line = int(line_of[k])
                    if count:
                        last_line = int(line_of[-1])
                    rows += count
                    lines += n
                    offset += len(payload)
                if not piece:
                    break
        if starts:
            where.append((first_line, last_line))
        if not rows:
            raise ValueError(f"{self.path}: no data lines.")
        self._starts, self._end, self._where = starts, offset, where
        self.classes = _classes(labels, self.path)
        self.n_rows = rows

    def _block_vw(self, index):
        from ._vw import parse_vw

        stop = self._starts[index + 1] if index + 1 < len(self._starts) else self._end
        with self.path.open("rb") as handle:
            handle.seek(self._starts[index])
            payload = handle.read(stop - self._starts[index])
        X, y, weights = parse_vw(payload, self.n_features, str(self.path),
                                 first_line=self._where[index][0])
        if X.shape[0] != self._where_rows(index):
            raise ValueError(f"{self.blocks_where(index)}: {X.shape[0]} rows, where the file "
                             f"had {self._where_rows(index)} when it was opened (was the file "
                             "changed after it was opened?)")
        return X, self._as_classes(y), weights

    def _where_rows(self, index):
        return min(self.chunk_size, self.n_rows - index * self.chunk_size)

    def _blocks_vw(self):
        for index in range(self.n_blocks):
            yield self._block_vw(index)[:2]

    def _as_classes(self, y):
        """Labels in the dtype of :attr:`classes` (whole numbers as int64 in every
        block, as when the whole file is read)."""
        return y.astype(self.classes.dtype) if self.classes.dtype.kind in "iuU" else y


def _classes(labels, path):
    """The sorted labels, numbers as :func:`numeric_labels` makes them."""
    labels = sorted(labels)
    if all(isinstance(label, (int, float)) for label in labels):
        return numeric_labels(labels, path)
    return np.array(labels)




class FirstPassEnded(Exception):
    """A file opened with ``one_pass`` broke its first block's promise during the
    first epoch (a label, index 0, a width, a bad line further on): the fit that
    trusted it starts again after the whole pass (:func:`rosenblatt.streaming.fit_chunks`
    does). Not a ``ValueError``: it never reaches a caller of ``fit_chunks``."""


class _LibsvmScan:
    """The pass over a LIBSVM file in pieces of whole lines: each piece parsed by
    the compiled loop, and what the file's blocks need noted as it goes (where
    each block starts, its lines, the labels, the smallest and largest index, the
    stored values). The pass on opening and the one of a first epoch share it,
    so that both find the same."""

    def __init__(self, chunks, zero_based):
        self.chunks = chunks
        self.parse_as = True if zero_based is None else bool(zero_based)
        self.starts, self.firsts, self.lasts, self.labels = [], [], [], set()
        self.largest, self.smallest, self.rows, self.n_values = -1, None, 0, 0
        # taken off the indices as the parser writes them, once a first block has
        # promised how the file counts (see _open_first_block)
        self.shift_written = 0
        self.offset, self.line, self.last_line = 0, 1, 0

    def pieces(self, aligned=False):
        """``(indices as written, data, indptr, labels, lines, None)`` of each piece of
        whole lines: ``_SCAN_BYTES`` at a time, or with ``aligned`` (a first epoch's
        blocks) sized from the bytes per row so far to hold the rest of the current
        block and cut where it ends, the few rows parsed beyond it read again with
        the next piece: a block is then one piece's arrays, not a copy of several."""
        chunks = self.chunks
        size = chunks.chunk_size
        with chunks.path.open("rb") as handle:
            lines = WholeLines(handle)
            while not lines.done:
                need = size - self.rows % size  # rows to the end of the current block
                payload = lines.next(self.ask(need, aligned, lines.held))
                cut = len(payload)
                if cut:
                    indices, data, indptr, y, at, numbers, newlines, (low, high) = \
                        read_libsvm(payload, self.parse_as, str(chunks.path), self.line,
                                    with_newlines=True, shift=self.shift_written,
                                    with_extent=True)
                    del payload  # a view of the buffer, which keep moves bytes in
                    if aligned and len(y) > need:  # keep the block's rows; the rest again
                        kept = int(indptr[need])
                        indices, data, indptr = indices[:kept], data[:kept], indptr[:need + 1]
                        next_line, cut = int(numbers[need]), int(at[need])
                        y, at, numbers = y[:need], at[:need], numbers[:need]
                        newlines = next_line - self.line
                    libsvm_labels(y, chunks.path, first_row=self.rows)
                    self.labels.update(np.unique(y).tolist())
                    self.n_values += len(indices)
                    # the parser's extent, of the rows parsed again with the next piece
                    # too: the same over the whole pass
                    if high >= 0:
                        self.largest = max(self.largest, high)
                        self.smallest = low if self.smallest is None else min(self.smallest,
                                                                              low)
                    self._advance(len(y), at, numbers, newlines, cut, size)
                    lines.keep(cut)
                    yield indices, data, indptr, y, numbers, None
                else:
                    lines.keep()

    def _advance(self, n_rows, at, numbers, newlines, cut, size):
        """Count a piece's ``n_rows`` rows (starting at byte offsets ``at``, on
        lines ``numbers``) and move past its ``cut`` bytes and ``newlines`` lines,
        noting where each block of ``size`` rows opens and which lines open and
        close it."""
        place = self.rows + np.arange(n_rows)
        opening = place % size == 0
        self.starts.extend((self.offset + at[opening]).tolist())
        self.firsts.extend(numbers[opening].tolist())
        self.lasts.extend(numbers[(place + 1) % size == 0].tolist())
        if n_rows:
            self.last_line = int(numbers[-1])
        self.rows += n_rows
        self.line += newlines
        self.offset += cut

    def ask(self, need, aligned, held):
        """The bytes to read for the next piece: ``_SCAN_BYTES``, or with ``aligned``
        3 % and a line more than ``need`` rows take on average (less the ``held``
        bytes), so that the piece ends past the block; bounded, for very large
        blocks."""
        ask = self.chunks._SCAN_BYTES
        if aligned and self.rows:
            per_row = self.offset / self.rows
            ask = int(min(max(need * per_row * 1.03 + 2 * per_row - held, min(1 << 16, ask)),
                          16 * ask))
        return ask

    def promise(self, n_features):
        """What the first rows let a fit trust, or ``None``: whether the file counts
        from 0 (index 0 anywhere decides it: seen now, it is decided; not seen,
        counting from 1 is a promise that the pass checks), the width."""
        chunks = self.chunks
        zero_based = chunks.zero_based if chunks.zero_based is not None else \
            self.smallest == 0
        self.shift = 0 if zero_based else 1
        if self.largest - self.shift >= n_features:
            return None
        self.width = int(n_features)
        return {"classes": _classes(self.labels, chunks.path), "shift": self.shift,
                "zero_based": bool(zero_based), "facts": ("zero_based",)}

    def kept(self, promise, piece):
        """Whether the rows so far keep ``promise`` (no index 0 in a file read from
        1, every index within the width)."""
        return not (self.shift and self.smallest == 0) and \
            self.largest - self.shift < self.width

    def matrix(self, data, indices, indptr):
        return libsvm_matrix(data, indices, indptr, self.width)

    def finish(self, n_features):
        """Set the file's attributes from the whole pass (refusing an empty file,
        or one wider than ``n_features``)."""
        chunks = self.chunks
        if not self.rows:
            raise ValueError(f"{chunks.path}: no data lines.")
        lasts = list(self.lasts)
        if len(lasts) < len(self.firsts):
            lasts.append(self.last_line)
        # feature indices count from 0 unless every index is 1 or more (scikit-learn's
        # "auto"; a file without features counts from 0), unless the caller decided for
        # several files at once (as load_svmlight_files)
        chunks.uses_index_zero = self.smallest == 0
        chunks.largest_index = self.largest
        if chunks.zero_based is None:
            chunks.zero_based = self.smallest is None or self.smallest == 0
        needed = max(self.largest - (0 if chunks.zero_based else 1), 0) + 1
        chunks._starts, chunks._end = self.starts, self.offset
        chunks._where = list(zip(self.firsts, lasts))
        chunks._n_values = self.n_values
        chunks.n_rows = self.rows
        if n_features is not None and n_features < needed:
            raise chunks._too_wide(n_features, needed)
        chunks.n_features = needed if n_features is None else int(n_features)
        chunks.classes = _classes(self.labels, chunks.path)


class _VwScan(_LibsvmScan):
    """The pass over a VW file in pieces of whole lines for a first epoch: each
    piece parsed and hashed (:func:`~._vw.vw_arrays`) and the blocks noted as
    :class:`_LibsvmScan` notes them; ``finish`` sets what ``_scan_vw`` sets (and
    the stored values). A bad line anywhere ends the first pass: the two passes
    refuse a bad label on opening but a bad feature only when its block is read."""

    def __init__(self, chunks, n_features):
        from ._vw import check_width

        super().__init__(chunks, None)
        self.width = check_width(n_features, None, chunks.path)
        self.weighted = False

    def pieces(self, aligned=False):
        """As :meth:`_LibsvmScan.pieces`, with each row's importance weight last."""
        from ._vw import vw_arrays, vw_labels

        chunks = self.chunks
        size = chunks.chunk_size
        with chunks.path.open("rb") as handle:
            lines = WholeLines(handle)
            while not lines.done:
                need = size - self.rows % size
                payload = lines.next(self.ask(need, aligned, lines.held))
                cut = len(payload)
                if cut:
                    indptr, indices, data, y, weights, at, numbers = vw_arrays(
                        payload, self.width, str(chunks.path), self.line)
                    newlines = None
                    if aligned and len(y) > need:  # keep the block's rows; the rest again
                        kept = int(indptr[need])
                        indices, data, indptr = indices[:kept], data[:kept], indptr[:need + 1]
                        next_line, cut = int(numbers[need]), int(at[need])
                        y, weights = y[:need], weights[:need]
                        at, numbers = at[:need], numbers[:need]
                        newlines = next_line - self.line
                    # the text only names a line without a label (an error)
                    text = bytes(payload[:cut]) if np.isnan(y).any() else b""
                    if newlines is None:
                        newlines = lines.buffer.count(b"\n", 0, cut)
                    del payload  # a view of the buffer, which keep moves bytes in
                    self.labels.update(np.unique(vw_labels(y, text, chunks.path,
                                                           self.line)).tolist())
                    self.weighted |= bool(np.any(weights != 1.0))
                    self.n_values += len(indices)
                    self._advance(len(y), at, numbers, newlines, cut, size)
                    lines.keep(cut)
                    yield indices, data, indptr, y, numbers, weights
                else:
                    lines.keep()

    def promise(self, n_features):
        """Whether rows weigh unequally: any importance weight seen decides it; none
        seen is a promise that the pass checks."""
        return {"classes": _classes(self.labels, self.chunks.path), "weighted": self.weighted,
                "facts": ("weighted",)}

    def kept(self, promise, piece):
        return self.weighted == promise["weighted"]

    def matrix(self, data, indices, indptr):
        from ._vw import vw_matrix

        return vw_matrix(data, indices, indptr, self.width)

    def finish(self, n_features):
        chunks = self.chunks
        if not self.rows:
            raise ValueError(f"{chunks.path}: no data lines.")
        lasts = list(self.lasts)
        if len(lasts) < len(self.firsts):
            lasts.append(self.last_line)
        chunks._starts, chunks._end = self.starts, self.offset
        chunks._where = list(zip(self.firsts, lasts))
        chunks._n_values = self.n_values
        chunks.n_rows = self.rows
        chunks.n_features = self.width
        chunks.weighted = self.weighted
        chunks.classes = _classes(self.labels, chunks.path)


class _ParsedRows:
    """Parsed rows waiting to be a block: pieces of CSR arrays, taken from the
    front ``chunk_size`` rows at a time (a block that spans pieces is copied
    together; one within a piece is a view of it)."""

    def __init__(self):
        self.parts, self.n_rows = [], 0

    def add(self, piece):
        indices, data, indptr, y, lines, weights = piece
        self.parts.append([indices, data, indptr, y, lines, weights, 0])
        self.n_rows += len(y)

    def shift(self, by):
        if by:
            for part in self.parts:
                part[0] -= by

    def take(self, count):
        """``(data, indices, indptr, labels, lines, weights)`` of the next ``count``
        rows (or of the rest); ``weights`` ``None`` where the pieces have none."""
        taken = []
        while count and self.parts:
            indices, data, indptr, y, lines, weights, at = self.parts[0]
            stop = min(len(y), at + count)
            low, high = indptr[at], indptr[stop]
            taken.append((data[low:high], indices[low:high], indptr[at:stop + 1] - low,
                          y[at:stop], lines[at:stop],
                          None if weights is None else weights[at:stop]))
            count -= stop - at
            self.n_rows -= stop - at
            if stop == len(y):
                self.parts.pop(0)
            else:
                self.parts[0][6] = stop
        if len(taken) == 1:
            return taken[0]
        ends = np.cumsum([0] + [part[2][-1] for part in taken[:-1]])
        indptr = np.concatenate([taken[0][2][:1]] + [part[2][1:] + end
                                                      for part, end in zip(taken, ends)])
        weights = None if taken[0][5] is None else np.concatenate([part[5] for part in taken])
        return (np.concatenate([part[0] for part in taken]),
                np.concatenate([part[1] for part in taken]), indptr,
                np.concatenate([part[3] for part in taken]),
                np.concatenate([part[4] for part in taken]), weights)
