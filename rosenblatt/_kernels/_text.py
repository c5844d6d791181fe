"""Vowpal Wabbit's text format, parsed and hashed in compiled loops.

:func:`vw_parse` turns a block of whole lines (bytes) into CSR arrays, labels and
importance weights; :func:`vw_scan` reads only what a first pass over a file needs
(where each data line starts, its label and weight). A line whose form the loops
do not take on the fast path (anything unusual: a number with more than 19
digits or an exponent beyond ±22, ``nan``, a missing ``|``, an empty feature
name, ...) is *not* guessed at: it is marked, and the plain Python parser of
:mod:`rosenblatt.datasets._vw` reads it (and refuses it with its file and line
when it is wrong). What the loops accept they read exactly as that parser
does; a property test holds them to it.

Feature names are hashed as Vowpal Wabbit's ``--hash strings`` does: a name of
ASCII digits is its number plus the namespace's hash, any other name the 32-bit
MurmurHash3 (x86) of its bytes seeded with the namespace's hash; a namespace's
hash is its name's, seeded with 0 (the default namespace's is 0). The index is
that hash modulo the width (``& (2^b - 1)`` for ``2^b`` features: VW's index).
"""

import numpy as np

from .._config import jit

_MASK = 0xFFFFFFFF
#: powers of ten exact in float64: a decimal of at most 2**53 times one of them is
#: correctly rounded by a single multiplication or division (Clinger's fast path)
_POWERS = np.array([10.0 ** k for k in range(23)])

#: what a byte is to the feature loop: 0 a name's byte, 1 a digit, 2 ``:``, 3 a
#: separator (whitespace, ``\\n``, ``|``): one table read per byte instead of a
#: chain of comparisons
_ORDINARY, _DIGIT, _COLON, _SEPARATOR = 0, 1, 2, 3
_CLASSES = np.zeros(256, dtype=np.uint8)
_CLASSES[ord("0"):ord("9") + 1] = _DIGIT
_CLASSES[ord(":")] = _COLON
for _byte in b" \t\r\v\f\n|":
    _CLASSES[_byte] = _SEPARATOR


@jit
def _rotl(x, r):
    return ((x << r) | (x >> (32 - r))) & _MASK


@jit
def murmur3(buf, start, end, seed):
    """MurmurHash3 x86 32-bit of ``buf[start:end]`` (uint8) with ``seed``, as
    ``sklearn.utils.murmurhash3_32(bytes, seed, positive=True)``; int64
    arithmetic masked to 32 bits (its products wrap in the high bits only)."""
    c1, c2 = 0xCC9E2D51, 0x1B873593
    h = seed & _MASK
    length = end - start
    stop = start + (length // 4) * 4
    i = start
    while i < stop:
        k = (np.int64(buf[i]) | (np.int64(buf[i + 1]) << 8) | (np.int64(buf[i + 2]) << 16)
             | (np.int64(buf[i + 3]) << 24))
        k = (k * c1) & _MASK
        k = _rotl(k, 15)
        k = (k * c2) & _MASK
        h ^= k
        h = _rotl(h, 13)
        h = (h * 5 + 0xE6546B64) & _MASK
        i += 4
    tail = length & 3
    if tail:
        k = np.int64(0)
        if tail == 3:
            k ^= np.int64(buf[stop + 2]) << 16
        if tail >= 2:
            k ^= np.int64(buf[stop + 1]) << 8
        k ^= np.int64(buf[stop])
        k = (k * c1) & _MASK
        k = _rotl(k, 15)
        k = (k * c2) & _MASK
        h ^= k
    h ^= length
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _MASK
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _MASK
    h ^= h >> 16
    return h


@jit
def hash_name(buf, start, end, seed):
    """VW's ``hashstring``: digits -> their number + ``seed``, else MurmurHash3
    (both modulo 2**32)."""
    number = np.int64(0)
    for i in range(start, end):
        c = buf[i]
        if c < 48 or c > 57:
            return murmur3(buf, start, end, seed)
        number = (number * 10 + (c - 48)) & _MASK
    return (number + seed) & _MASK


@jit
def _space(c):
    return c == 32 or c == 9 or c == 13 or c == 11 or c == 12


@jit
def parse_number(buf, start, end, powers):
    """``(ok, value)``: the decimal ``buf[start:end]``
    (``[+-]digits[.digits][(e|E)[+-]digits]``, a digit on one side of the point at
    least) when the fast path reads it exactly (at most 18 significant digits, a
    mantissa up to 2**53 and a power of ten within ±22: one correctly rounded
    operation, as Python's ``float``), else ``ok`` False."""
    i = start
    negative = False
    if i < end and (buf[i] == 43 or buf[i] == 45):
        negative = buf[i] == 45
        i += 1
    mantissa = np.int64(0)
    significant = 0
    fraction = 0
    any_digit = False
    point = False
    while i < end:
        c = buf[i]
        if 48 <= c <= 57:
            any_digit = True
            if mantissa == 0 and c == 48:
                fraction += point
            else:
                if significant >= 18:
                    return False, 0.0
                mantissa = mantissa * 10 + (c - 48)
                significant += 1
                fraction += point
            i += 1
        elif c == 46 and not point:
            point = True
            i += 1
        else:
            break
    if not any_digit:
        return False, 0.0
    exponent = -fraction
    if i < end:
        if buf[i] != 101 and buf[i] != 69:
            return False, 0.0
        i += 1
        sign = 1
        if i < end and (buf[i] == 43 or buf[i] == 45):
            sign = -1 if buf[i] == 45 else 1
            i += 1
        if i == end:
            return False, 0.0
        power = 0
        while i < end:
            c = buf[i]
            if c < 48 or c > 57 or power > 100000:
                return False, 0.0
            power = power * 10 + (np.int64(c) - 48)  # int64 in plain Python too
            i += 1
        exponent += sign * power
    if mantissa == 0:
        return True, -0.0 if negative else 0.0
    if mantissa > 9007199254740992 or exponent > 22 or exponent < -22:
        return False, 0.0
    value = float(mantissa)
    if exponent > 0:
        value *= powers[exponent]
    elif exponent < 0:
        value /= powers[-exponent]
    return True, -value if negative else value


@jit
def _header(buf, start, bar, powers, out):
    """The label section ``buf[start:bar]``: ``out[0]`` the label (NaN: none),
    ``out[1]`` the importance weight (1 by default). Returns False when the fast
    path does not take it. A tag is the word touching the ``|``, or a word that
    begins with ``'``; the other words are the label and the weight."""
    out[0] = np.nan
    out[1] = 1.0
    words = 0
    tags = 0
    i = start
    while i < bar:
        while i < bar and _space(buf[i]):
            i += 1
        if i >= bar:
            break
        a = i
        while i < bar and not _space(buf[i]):
            i += 1
        if buf[a] == 39 or i == bar:  # 'tag, or the word touching the bar
            tags += 1
            if tags > 1:
                return False
            continue
        if words >= 2:
            return False
        ok, value = parse_number(buf, a, i, powers)
        if not ok or not np.isfinite(value):
            return False
        if words == 1 and value < 0.0:
            return False
        out[words] = value
        words += 1
    return True


@jit
def _sort_row(indices, data, first, last):
    """Sort ``[first, last)`` by index (stable insertion sort: a row holds tens of
    features), then add duplicates in their written order and drop zeros; returns
    the new end, or -1 when a sum overflows (the Python parser then says where)."""
    for i in range(first + 1, last):
        key = indices[i]
        value = data[i]
        j = i - 1
        while j >= first and indices[j] > key:
            indices[j + 1] = indices[j]
            data[j + 1] = data[j]
            j -= 1
        indices[j + 1] = key
        data[j + 1] = value
    out = first
    i = first
    while i < last:
        key = indices[i]
        total = data[i]
        i += 1
        while i < last and indices[i] == key:
            total += data[i]
            i += 1
        if not np.isfinite(total):
            return -1
        if total != 0.0:
            indices[out] = key
            data[out] = total
            out += 1
    return out


@jit
def _blank(buf, pos, end):
    for i in range(pos, end):
        if not _space(buf[i]):
            return False
    return True


@jit
def vw_capacity(buf):
    """``(lines, words)``: upper bounds on the data lines and the features of
    ``buf`` (a word ends at a separator or at the end), for the output arrays;
    branch-free, so that it vectorises."""
    lines = 1
    separators = 1
    for i in range(buf.shape[0]):
        c = buf[i]
        lines += c == 10
        separators += (c == 32) | (c == 10) | (c == 124) | (c == 9) | (c == 13) | (c == 11) \
            | (c == 12)
    return lines, separators


@jit
def vw_parse(buf, n_features, powers, indptr, indices, data, labels, weights, slow, starts,
             lines):
    """Parse the whole lines of ``buf`` (uint8) into CSR rows: ``indptr``,
    ``indices`` (column = hash modulo ``n_features``), ``data``; ``labels`` (NaN
    when a line has none) and ``weights`` per row; ``starts`` and ``lines`` each
    row's start byte and line (from 0: where a block of rows starts, for a file
    read in one pass). A line the fast path does not take gets an empty row, and
    ``slow`` its ``(row, start byte, end byte, line from 0)``. Returns ``(rows,
    stored values, slow lines, lines read)``. The arrays need room for every row
    and value: at most one of each per two bytes of ``buf``, or what
    :func:`vw_capacity` counts.

    One pass over the bytes: the label section up to the first ``|``, then the
    namespaces and features up to the newline, each feature name's digits
    accumulated as it is read (VW's number for a name of digits) and hashed by
    MurmurHash3 otherwise."""
    n = buf.shape[0]
    mask = n_features - 1 if (n_features & (n_features - 1)) == 0 else -1
    pos = 0
    row = 0
    nnz = 0
    n_slow = 0
    line = 0
    header = np.empty(2)
    while pos < n:
        bar = pos
        while bar < n and buf[bar] != 124 and buf[bar] != 10:
            bar += 1
        i = bar
        if bar >= n or buf[bar] == 10:
            if _blank(buf, pos, bar):
                line += 1
                pos = bar + 1
                continue
            ok = False  # no '|'
        else:
            ok = _header(buf, pos, bar, powers, header)
        first = nnz
        last = -1
        ordered = True
        while ok and i < n and buf[i] != 10:  # at a '|'
            i += 1
            seed = 0
            scale = 1.0
            c = buf[i] if i < n else 10
            if not _space(c) and c != 124 and c != 10:  # a namespace touching the bar
                a = i
                colon = -1
                while i < n:
                    c = buf[i]
                    if _space(c) or c == 124 or c == 10:
                        break
                    if c == 58 and colon < 0:
                        colon = i
                    i += 1
                if colon == a:
                    ok = False
                    break
                seed = hash_name(buf, a, i if colon < 0 else colon, 0)
                if colon >= 0:
                    good, scale = parse_number(buf, colon + 1, i, powers)
                    if not good or not np.isfinite(scale):
                        ok = False
                        break
            while i < n:
                c = buf[i]
                if c == 10 or c == 124:
                    break
                if _CLASSES[c] == _SEPARATOR:
                    i += 1
                    continue
                a = i
                number = np.int64(0)
                digits = True
                while i < n:
                    kind = _CLASSES[buf[i]]
                    if kind >= _COLON:
                        break
                    if kind == _DIGIT:
                        number = (number * 10 + (np.int64(buf[i]) - 48)) & _MASK
                    else:
                        digits = False
                    i += 1
                stop = i
                if stop == a:
                    ok = False
                    break
                value = 1.0
                if i < n and buf[i] == 58:  # a value
                    i += 1
                    b = i
                    while i < n and _CLASSES[buf[i]] != _SEPARATOR:
                        i += 1
                    good, value = parse_number(buf, b, i, powers)
                    if not good:
                        ok = False
                        break
                value *= scale
                if not np.isfinite(value):
                    ok = False
                    break
                if value == 0.0:
                    continue
                h = (number + seed) & _MASK if digits else murmur3(buf, a, stop, seed)
                column = h & mask if mask >= 0 else h % n_features
                ordered = ordered and column > last
                last = column
                indices[nnz] = column
                data[nnz] = value
                nnz += 1
        if ok and not ordered:
            nnz = _sort_row(indices, data, first, nnz)
            ok = nnz >= 0
        end = i
        while end < n and buf[end] != 10:
            end += 1
        if ok:
            labels[row] = header[0]
            weights[row] = header[1]
        else:
            nnz = first
            labels[row] = np.nan
            weights[row] = 1.0
            slow[n_slow, 0] = row
            slow[n_slow, 1] = pos
            slow[n_slow, 2] = end
            slow[n_slow, 3] = line
            n_slow += 1
        starts[row] = pos
        lines[row] = line
        row += 1
        indptr[row] = nnz
        line += 1
        pos = end + 1
    return row, nnz, n_slow, line


@jit
def vw_scan(buf, newlines, powers, starts, lines, labels, weights, slow):
    """The first pass over ``buf`` (whole lines; ``newlines`` the positions of its
    ``\\n``, and ``len(buf)`` last when it does not end with one): for each data
    line its start byte, its line (from 0), its label (NaN: none) and weight; a
    line whose label section the fast path does not take is marked in ``slow``.
    Returns the number of data lines."""
    row = 0
    pos = 0
    header = np.empty(2)
    for line in range(newlines.shape[0]):
        end = newlines[line]
        bar = pos
        while bar < end and buf[bar] != 124:
            bar += 1
        if bar == end and _blank(buf, pos, end):
            pos = end + 1
            continue
        starts[row] = pos
        lines[row] = line
        if bar < end and _header(buf, pos, bar, powers, header):
            labels[row] = header[0]
            weights[row] = header[1]
            slow[row] = False
        else:
            labels[row] = np.nan
            weights[row] = 1.0
            slow[row] = True
        row += 1
        pos = end + 1
    return row


POWERS = _POWERS
