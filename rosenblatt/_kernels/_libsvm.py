"""LIBSVM/svmlight text, parsed in a compiled loop.

:func:`libsvm_parse` turns a block of whole lines (bytes) into CSR arrays as
scikit-learn's ``load_svmlight_file`` reads them (its Cython loop, with
``zero_based=True``: the indices as written): a line is cut at its first ``#``,
split on ASCII whitespace, the first word is the label, a first feature word
beginning with ``qid`` and holding a ``:`` is skipped, every other word is
``index:value`` with indices strictly increasing; an explicit ``0`` value is
kept, as scikit-learn keeps it. A line the loop does not take on its fast path
(anything unusual: a number :func:`~rosenblatt._kernels._text.parse_number`
does not read exactly, ``nan``/``inf``, a sign or ``_`` in an index, an index of
2**31 or more, indices out of order, index 0 read from 1, a NUL byte before the
comment, ...) is *not* guessed at: it is marked, and scikit-learn's own parser
reads that line alone (and refuses it with its file and line when it is wrong,
see :func:`rosenblatt.datasets._loaders.read_libsvm`). The number parser is the
one of the Vowpal Wabbit loop (:mod:`._text`); a value that is the lone digit
``1`` (a binary feature: ``3:1`` then a blank, a comment or the line's end) is
1.0 without it, exactly what the parser (and ``float``) makes of it.
"""

import numpy as np

from .._config import jit
from ._text import POWERS, parse_number, vw_capacity

__all__ = ["POWERS", "libsvm_capacity", "libsvm_parse"]

#: an index of this many digits or more may not fit in a C int (scikit-learn's)
_INDEX_DIGITS = 10
_INT_LIMIT = 2**31


#: what a byte is to the loop, one table read per byte instead of a chain of
#: comparisons: 0 anything else, 1 a digit, 2 ``:``, 3 a blank (bytes.split()'s
#: whitespace but the newline: space, \t, \r, \v, \f), 4 the end of a line's data
#: (``\n``, or ``#`` which opens its comment)
_OTHER, _DIGIT, _COLON, _BLANK, _END = 0, 1, 2, 3, 4
_CLASSES = np.zeros(256, dtype=np.uint8)
_CLASSES[ord("0"):ord("9") + 1] = _DIGIT
_CLASSES[ord(":")] = _COLON
for _byte in b" \t\r\v\f":
    _CLASSES[_byte] = _BLANK
_CLASSES[ord("\n")] = _CLASSES[ord("#")] = _END


@jit
def libsvm_capacity(buf):
    """``(lines, words)``: upper bounds on the lines and the words of ``buf``."""
    return vw_capacity(buf)


@jit
def _word_end(buf, i, n, classes):
    """Where the word at ``i`` ends: the next blank, newline, ``#`` or ``buf``'s end."""
    while i < n and classes[buf[i]] < _BLANK:
        i += 1
    return i


@jit
def _line_end(buf, i, n):
    """The position of the newline at or after ``i`` (``n`` when there is none)."""
    while i < n and buf[i] != 10:
        i += 1
    return i


@jit
def libsvm_parse(buf, zero_based, shift, powers, indptr, indices, data, labels, starts,
                 lines, slow):
    """Parse the whole lines of ``buf`` (uint8) into CSR rows: ``indptr``,
    ``indices`` (as written less ``shift``), ``data``, ``labels``; ``starts`` and
    ``lines`` the start byte and the line (from 0) of each row. A line the fast
    path does not take gets an empty row, a NaN label and its row in ``slow``.
    Returns ``(rows, stored values, slow lines, smallest index, largest index,
    lines)``, the indices as written on the fast rows (-1 when there is none), the
    lines read (blank ones too). A blank line (or one holding only a comment) is
    no row. The arrays need room for every row and value: at most one of each per
    two bytes of ``buf`` (a word and the blank after it), or what
    :func:`libsvm_capacity` counts.

    One pass over the bytes, each read once through a table of their kinds: the
    words end at a blank, a newline or the ``#`` of a comment (a NUL byte, which
    scikit-learn's parser treats apart, is no digit, blank or number, so a line
    holding one before its comment leaves the fast path)."""
    classes = _CLASSES
    n = buf.shape[0]
    pos = 0
    row = 0
    nnz = 0
    n_slow = 0
    line = 0
    low = np.int64(_INT_LIMIT)
    high = np.int64(-1)
    while pos < n:
        i = pos
        while i < n and classes[buf[i]] == _BLANK:
            i += 1
        if i == n or classes[buf[i]] == _END:  # blank, or a comment only
            line += 1
            pos = _line_end(buf, i, n) + 1
            continue
        first = nnz
        a = i
        i = _word_end(buf, i, n, classes)
        ok, label = parse_number(buf, a, i, powers)
        previous = np.int64(-1)
        word = 0
        while ok:
            while i < n and classes[buf[i]] == _BLANK:
                i += 1
            if i == n or classes[buf[i]] == _END:
                break
            a = i
            if word == 0 and n - i >= 3 and buf[i] == 113 and buf[i + 1] == 105 \
                    and buf[i + 2] == 100:  # qid...: skipped when it holds a ':'
                i = _word_end(buf, i, n, classes)
                word += 1
                colon = False
                for k in range(a, i):
                    colon = colon or buf[k] == 58
                    ok = ok and buf[k] != 0  # a NUL: scikit-learn's parser reads it
                ok = ok and colon
                continue
            word += 1
            # the index's digits (at most _INDEX_DIGITS), by subtracting and comparing,
            # not through the table: a load that waits on the byte's load, on the
            # chain of every digit (a quarter of the whole loop's time)
            index = np.int64(0)
            digits_end = min(n, a + _INDEX_DIGITS)
            while i < digits_end:
                d = np.uint8(buf[i] - np.uint8(48))
                if d > 9:
                    break
                index = index * 10 + np.int64(d)
                i += 1
            if i == a or i >= n or buf[i] != 58 or index >= _INT_LIMIT \
                    or index <= previous or (index == 0 and not zero_based):
                ok = False
                break
            i += 1
            # the value: a lone "1" (binary features, most of a click log's words) is
            # 1.0 without the number parser; its word ends at a blank, a '#' or the
            # line's end. Anything else, "10", "1.0", "1e0", takes the parser.
            if i < n and buf[i] == 49 and (i + 1 == n or classes[buf[i + 1]] >= _BLANK):
                i += 1
                value = 1.0
            else:
                b = i
                i = _word_end(buf, i, n, classes)
                good, value = parse_number(buf, b, i, powers)
                if not good:
                    ok = False
                    break
            indices[nnz] = index - shift
            data[nnz] = value
            nnz += 1
            previous = index
        starts[row] = pos
        lines[row] = line
        if ok:
            labels[row] = label
            if nnz > first:  # the row's indices increase: its first and its last
                low = min(low, indices[first] + shift)
                high = max(high, previous)
        else:
            nnz = first
            labels[row] = np.nan
            slow[n_slow] = row
            n_slow += 1
        row += 1
        indptr[row] = nnz
        line += 1
        pos = _line_end(buf, i, n) + 1
    return row, nnz, n_slow, low if high >= 0 else np.int64(-1), high, line
