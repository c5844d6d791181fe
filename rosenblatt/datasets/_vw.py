"""Vowpal Wabbit's text format: ``label [importance] [tag]|namespace feature[:value] ...``.

A line is one example (blank lines are skipped). Before the first ``|`` come
the label (a number: −1/1, 0/1 or any class labels written as numbers), an
optional importance weight (a number ≥ 0, 1 when absent; it becomes the row's
``sample_weight``) and an optional tag (the word touching the ``|``, or a word
that begins with ``'``; read and set aside). Each ``|`` opens a namespace: a
name touching the bar (``|user``, optionally ``|user:0.5``, which scales the
values of its features), or none (``| a b``: the default namespace). Features
are ``name`` (value 1) or ``name:value``; a value of 0 is an absent feature; a
feature met twice in a row is the sum of its values.

Features are hashed as Vowpal Wabbit hashes them (``--hash strings``, its
default): a name of ASCII digits is its number plus the namespace's hash, any
other name the 32-bit MurmurHash3 (x86) of its UTF-8 bytes seeded with the
namespace's hash; a namespace's hash is that of its name, seeded with 0, and
the default namespace's is 0. The column is the hash modulo ``n_features``,
which for ``2**b`` features is VW's own index under ``-b b`` (a test checks it
against the ``vowpalwabbit`` package when it is installed). So numeric features
in the default namespace (``1 | 17 4051``) keep their numbers as columns,
the same matrix as the LIBSVM file ``1 17:1 4051:1`` read with indices from 0.
Two things VW does are left out: its constant feature (rosenblatt's models
learn their intercept themselves, ``fit_intercept=True``) and its third number
before the bar (an initial prediction), which is refused.

The lines are parsed by compiled loops (:mod:`rosenblatt._kernels._text`); a
line they do not take on their fast path is read by :func:`parse_vw_line`, the
plain parser written from the format above, which refuses a malformed line
with the file and line.
"""

import re

import numpy as np
from sklearn.utils import murmurhash3_32

from .._kernels import _text

#: the hash space when none is given: 2**18, Vowpal Wabbit's default ``-b 18``
DEFAULT_HASH_BITS = 18

_MASK = 0xFFFFFFFF
_NUMBER = re.compile(rb"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?(inf|infinity|nan)",
                     re.IGNORECASE)
_SPACE = b" \t\r\v\f"
FORM = "'label [importance] [tag]|namespace feature[:value] ...'"


def vw_hash(name, seed=0):
    """Vowpal Wabbit's hash of a feature or namespace name (bytes or str): its
    number plus ``seed`` for a name of ASCII digits, else MurmurHash3 x86 32-bit
    with ``seed``; both modulo 2**32.

    >>> vw_hash("price", vw_hash("user")) & (2**20 - 1), vw_hash("123", 7)
    (265625, 130)
    """
    name = name.encode("utf-8") if isinstance(name, str) else bytes(name)
    if name and all(48 <= c <= 57 for c in name):
        return (int(name) + seed) & _MASK
    return murmurhash3_32(name, seed=int(seed) & _MASK, positive=True)


def _number(text, what):
    if not _NUMBER.fullmatch(text):
        raise ValueError(f"{what} {text.decode('utf-8', 'replace')!r} is not a number")
    return float(text)


def _not_finite(text):
    """Why a number read as NaN or infinity is refused."""
    word = text.strip().lower().lstrip(b"+-")
    if word in (b"inf", b"infinity", b"nan"):
        return "not a finite number"
    return "too large for a 64-bit float"


def parse_header(section):
    """``(label or None, importance weight)`` of a line's label section (the bytes
    before its first ``|``); a ``ValueError`` says what is wrong."""
    words = section.split()
    touching = bool(section) and section[-1:] not in _SPACE
    tags = [word for k, word in enumerate(words)
            if word.startswith(b"'") or (touching and k == len(words) - 1)]
    if len(tags) > 1:
        raise ValueError(f"two tags before '|' ({', '.join(t.decode('utf-8', 'replace') for t in tags)}); "
                         f"a VW line is {FORM}")
    numbers = [word for word in words if word not in tags]
    if len(numbers) > 2:
        raise ValueError(f"{len(numbers)} numbers before '|'; a VW line is {FORM} (VW's "
                         "third number, an initial prediction, is not read)")
    label = weight = None
    if numbers:
        label = _number(numbers[0], "the label")
        if not np.isfinite(label):
            raise ValueError(f"the label {numbers[0].decode()} is not a finite number")
    if len(numbers) == 2:
        weight = _number(numbers[1], "the importance weight")
        if not (0 <= weight < np.inf):
            raise ValueError(f"the importance weight {numbers[1].decode()} is not a finite "
                             "number >= 0")
    return label, 1.0 if weight is None else weight


def parse_vw_line(line, n_features):
    """One line (bytes) of VW text: ``(label or None, weight, [(column, value), ...])``,
    the columns increasing. The plain reference of the compiled parser; a
    ``ValueError`` gives the reason a line is refused.

    >>> parse_vw_line(b"1 2.5 'id7 |a x:2 17 |b:0.5 x:4", 2**20)
    (1.0, 2.5, [(143313, 2.0), (354755, 1.0), (579720, 2.0)])
    """
    line = bytes(line)
    bar = line.find(b"|")
    if bar < 0:
        raise ValueError(f"no '|' (a VW line is {FORM}); got "
                         f"{line.strip().decode('utf-8', 'replace')[:60]!r}")
    label, weight = parse_header(line[:bar])
    sums = {}
    for section in line[bar + 1:].split(b"|"):
        seed, scale = 0, 1.0
        words = section.split()
        if section[:1] and section[:1] not in _SPACE:  # a namespace touching the bar
            name, colon, text = words[0].partition(b":")
            if not name:
                raise ValueError(f"the namespace {words[0].decode('utf-8', 'replace')!r} has "
                                 "no name")
            seed = vw_hash(name)
            if colon:
                scale = _number(text, f"the scale of namespace {name.decode('utf-8', 'replace')!r},")
                if not np.isfinite(scale):
                    raise ValueError(f"the scale of namespace "
                                     f"{name.decode('utf-8', 'replace')!r} is {text.decode()}, "
                                     "not a finite number")
            words = words[1:]
        for word in words:
            name, colon, text = word.partition(b":")
            shown = word.decode("utf-8", "replace")
            if not name:
                raise ValueError(f"the feature {shown!r} has no name")
            value = 1.0
            if colon:
                value = _number(text, f"the value of feature {shown!r},")
                if not np.isfinite(value):
                    raise ValueError(f"the feature {shown!r} has the value {text.decode()}, "
                                     f"{_not_finite(text)}")
            with np.errstate(over="ignore"):
                value = float(np.float64(value) * scale)
            if not np.isfinite(value):
                raise ValueError(f"the feature {shown!r} times its namespace's scale "
                                 f"{scale:g} overflows a 64-bit float")
            if value == 0.0:
                continue
            column = vw_hash(name, seed) % n_features
            sums[column] = value if column not in sums else sums[column] + value
            if not np.isfinite(sums[column]):
                raise ValueError(f"the features hashed to column {column} add up to "
                                 "infinity")
    return label, weight, sorted((c, v) for c, v in sums.items() if v != 0.0)


def parse_vw(payload, n_features, where, first_line=1):
    """``(X, labels, weights)`` of the whole lines ``payload`` (bytes): ``X`` CSR of
    ``n_features`` columns, ``labels`` float64 (NaN on a line without one),
    ``weights`` the importance weights. ``where`` names the file in errors,
    ``first_line`` is the line number of the payload's first line."""
    indptr, indices, data, labels, weights, _, _ = vw_arrays(payload, n_features, where,
                                                             first_line)
    return vw_matrix(data, indices, indptr, n_features), labels, weights


def vw_arrays(payload, n_features, where, first_line=1):
    """The arrays of :func:`parse_vw`: ``(indptr, indices, data, labels, weights,
    starts, lines)``, each row's start byte in ``payload`` and its line number too."""
    buf = np.frombuffer(payload, dtype=np.uint8)
    n_lines, n_words = _text.vw_capacity(buf)
    from ._loaders import small_pages

    index_type = np.int32 if n_features < 2**31 else np.int64
    indptr = np.zeros(n_lines + 1, dtype=np.int64)
    with small_pages():  # see there: the first touch of huge pages can cost more
        indices = np.empty(n_words, dtype=index_type)
        data = np.empty(n_words)
    labels = np.empty(n_lines)
    weights = np.empty(n_lines)
    slow = np.empty((n_lines, 4), dtype=np.int64)
    starts = np.empty(n_lines, dtype=np.int64)
    lines = np.empty(n_lines, dtype=np.int64)
    rows, stored, n_slow, _ = _text.vw_parse(buf, int(n_features), _text.POWERS, indptr, indices,
                                          data, labels, weights, slow, starts, lines)
    indptr, indices, data = indptr[:rows + 1], indices[:stored], data[:stored]
    labels, weights = labels[:rows], weights[:rows]
    if n_slow:
        indptr, indices, data = _read_slow_lines(payload, slow[:n_slow], n_features, where,
                                                 first_line, indptr, indices, data, labels,
                                                 weights)
    return indptr, indices, data, labels, weights, starts[:rows], lines[:rows] + first_line


def vw_matrix(data, indices, indptr, n_features):
    """The CSR matrix :func:`parse_vw` makes of its arrays (rows in canonical form;
    int32 offsets when they fit, as the indices)."""
    from ._loaders import canonical_csr

    return canonical_csr(data, indices, indptr, n_features)


def _read_slow_lines(payload, slow, n_features, where, first_line, indptr, indices, data,
                     labels, weights):
    """Read the lines the compiled parser left (their rows are empty) with
    :func:`parse_vw_line`, and put their features in."""
    parts_i, parts_d, counts = [], [], np.diff(indptr)
    previous = 0
    for row, start, end, line in slow.tolist():
        try:
            label, weight, pairs = parse_vw_line(payload[start:end], n_features)
        except ValueError as error:
            raise ValueError(f"{where}, line {first_line + line}: {error}.") from None
        labels[row] = np.nan if label is None else label
        weights[row] = weight
        cut = indptr[row]
        parts_i.append(indices[previous:cut])
        parts_d.append(data[previous:cut])
        parts_i.append(np.array([c for c, _ in pairs], dtype=indices.dtype))
        parts_d.append(np.array([v for _, v in pairs], dtype=np.float64))
        counts[row] = len(pairs)
        previous = cut
    parts_i.append(indices[previous:])
    parts_d.append(data[previous:])
    new_indptr = np.zeros_like(indptr)
    np.cumsum(counts, out=new_indptr[1:])
    return new_indptr, np.concatenate(parts_i), np.concatenate(parts_d)


def data_line(payload, row, first_line=1):
    """``(line number, text)`` of data row ``row`` (from 0) of ``payload``."""
    seen = -1
    for number, line in enumerate(payload.split(b"\n"), start=first_line):
        if line.strip():
            seen += 1
            if seen == row:
                return number, line
    raise ValueError(f"fewer than {row + 1} data lines")


def vw_labels(labels, payload, where, first_line=1):
    """The labels, as numbers (int64 when whole); a line without one is refused."""
    from ._loaders import numeric_labels

    missing = np.flatnonzero(np.isnan(labels))
    if missing.size:
        line, text = data_line(payload, int(missing[0]), first_line)
        raise ValueError(f"{where}, line {line}: no label before '|' (got "
                         f"{text.strip().decode('utf-8', 'replace')[:60]!r}); training and "
                         "evaluating need a label on every line: "
                         f"{FORM}")
    return numeric_labels(labels, where)


def hash_width(n_features=None, hash_bits=None):
    """The number of columns the hash space has: ``n_features``, ``2**hash_bits``,
    or 2**18 (VW's default)."""
    if n_features is not None:
        return int(n_features)
    return 2 ** (DEFAULT_HASH_BITS if hash_bits is None else int(hash_bits))


def load_vw(path, n_features=None, *, hash_bits=None, labels=True, with_weights=False):
    """A Vowpal Wabbit text file as ``X, y`` (CSR with ``n_features`` columns, or
    ``2**hash_bits``, default 2**18), and with ``with_weights`` its importance
    weights as a third array (1 where a line gives none). With ``labels=False``
    lines without a label are read (``y`` holds NaN there): for prediction.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "d.vw"
    >>> _ = path.write_text("1 | 0 2:0.5\\n-1 2 | 1 3\\n")
    >>> X, y, w = load_vw(path, n_features=4, with_weights=True)
    >>> X.toarray().tolist(), y.tolist(), w.tolist()
    ([[1.0, 0.0, 0.5, 0.0], [0.0, 1.0, 0.0, 1.0]], [1, -1], [1.0, 2.0])
    """
    from ._loaders import _existing

    path = _existing(path)
    width = check_width(n_features, hash_bits, path)
    indptr, indices, data, y, weights = read_vw_file(path, width)
    X = vw_matrix(data, indices, indptr, width)
    if X.shape[0] == 0:
        raise ValueError(f"{path}: no data lines.")
    if labels:  # the text only names a line without a label (an error)
        y = vw_labels(y, path.read_bytes() if np.isnan(y).any() else b"", str(path))
    return (X, y, weights) if with_weights else (X, y)


def read_vw_file(path, n_features):
    """:func:`vw_arrays` of the whole file ``path``, read in pieces of whole lines
    as :func:`~rosenblatt.datasets._loaders.read_libsvm_file` reads LIBSVM:
    ``(indptr, indices, data, labels, weights)``, each piece's rows written by the
    compiled loop straight into arrays that grow; a piece with a line it leaves to
    :func:`parse_vw_line` goes through :func:`vw_arrays`, which refuses a bad line
    with its file and line."""
    from ._loaders import GrowingRows

    where, line = str(path), 1
    rows = GrowingRows(np.int32 if n_features < 2**31 else np.int64, weighted=True)
    for payload, rest in rows.pieces(path):
        buf = np.frombuffer(payload, dtype=np.uint8)
        indptr, indices, data, labels, weights = rows.room(len(buf), rest)
        flat, most = rows.scratch(6, len(buf))
        n_rows, nnz, n_slow, seen = _text.vw_parse(
            buf, int(n_features), _text.POWERS, indptr, indices, data, labels, weights,
            flat[:4 * most].reshape(most, 4), flat[4 * most:5 * most], flat[5 * most:])
        del buf, indptr, indices, data, labels, weights  # views: none outlives a piece
        if n_slow:  # a slow line: the piece again, by the full reader
            rows.add(*vw_arrays(payload, n_features, where, line)[:5])
        else:
            rows.commit(n_rows, nnz)
        line += seen
    return rows.arrays()


def check_width(n_features, hash_bits, path):
    """The hash space's width, checked: a whole number from 1 to 2**31 - 1."""
    if n_features is not None and hash_bits is not None:
        raise ValueError(f"{path}: give n_features or hash_bits, not both")
    width = hash_width(n_features, hash_bits)
    if not 1 <= width < 2**31:
        raise ValueError(f"{path}: the hash space must have from 1 to 2**31 - 1 columns; got "
                         f"{width}")
    return width
