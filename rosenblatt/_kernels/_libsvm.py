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


@jit
def libsvm_capacity(buf):
    """``(lines, words)``: upper bounds on the lines and the words of ``buf``."""
    return vw_capacity(buf)


@jit
def _white(c):
    # bytes.split()'s whitespace: space, \t, \n, \r, \v, \f
    return c == 32 or (9 <= c <= 13)


@jit
def libsvm_parse(buf, zero_based, powers, indptr, indices, data, labels, starts, lines,
                 slow):
    """Parse the whole lines of ``buf`` (uint8) into CSR rows: ``indptr``,
    ``indices`` (as written), ``data``, ``labels``; ``starts`` and ``lines`` the
    start byte and the line (from 0) of each row. A line the fast path does not
    take gets an empty row, a NaN label and its row in ``slow``. Returns ``(rows,
    stored values, slow lines)``. A blank line (or one holding only a comment) is
    no row."""
    n = buf.shape[0]
    pos = 0
    row = 0
    nnz = 0
    n_slow = 0
    line = 0
    while pos < n:
        # the line's end and its data's end (the first '#'; a NUL before it: slow)
        end = pos
        stop = -1
        odd = False
        while end < n:
            c = buf[end]
            if c == 10:
                break
            if c == 35 and stop < 0:
                stop = end
            elif c == 0 and stop < 0:
                odd = True
            end += 1
        if stop < 0:
            stop = end
        i = pos
        while i < stop and _white(buf[i]):
            i += 1
        if i == stop and not odd:
            line += 1
            pos = end + 1
            continue
        first = nnz
        ok = not odd
        label = 0.0
        if ok:
            a = i
            while i < stop and not _white(buf[i]):
                i += 1
            ok, label = parse_number(buf, a, i, powers)
        previous = np.int64(-1)
        word = 0
        while ok:
            while i < stop and _white(buf[i]):
                i += 1
            if i >= stop:
                break
            a = i
            if word == 0 and stop - i >= 3 and buf[i] == 113 and buf[i + 1] == 105 \
                    and buf[i + 2] == 100:  # qid...: skipped when it holds a ':'
                colon = False
                while i < stop and not _white(buf[i]):
                    colon = colon or buf[i] == 58
                    i += 1
                word += 1
                if not colon:
                    ok = False
                continue
            word += 1
            index = np.int64(0)
            while i < stop and 48 <= buf[i] <= 57:
                index = index * 10 + (np.int64(buf[i]) - 48)
                i += 1
                if i - a >= _INDEX_DIGITS:
                    break
            if i == a or i >= stop or buf[i] != 58 or index >= _INT_LIMIT \
                    or index <= previous or (index == 0 and not zero_based):
                ok = False
                break
            i += 1
            # the value: a lone "1" (binary features, most of a click log's words) is
            # 1.0 without the number parser; its word ends at a blank or at the
            # data's end (a comment's '#', the line's end). Anything else, "10",
            # "1.0", "1e0", takes the parser, as before.
            if i < stop and buf[i] == 49 and (i + 1 == stop or _white(buf[i + 1])):
                i += 1
                value = 1.0
            else:
                b = i
                while i < stop and not _white(buf[i]):
                    i += 1
                good, value = parse_number(buf, b, i, powers)
                if not good:
                    ok = False
                    break
            indices[nnz] = index
            data[nnz] = value
            nnz += 1
            previous = index
        starts[row] = pos
        lines[row] = line
        if ok:
            labels[row] = label
        else:
            nnz = first
            labels[row] = np.nan
            slow[n_slow] = row
            n_slow += 1
        row += 1
        indptr[row] = nnz
        line += 1
        pos = end + 1
    return row, nnz, n_slow
