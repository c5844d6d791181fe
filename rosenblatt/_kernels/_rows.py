"""Row primitives shared by every kernel, for dense and CSR data alike.

A kernel receives ``X`` either as a 2-D C-contiguous array or as the CSR triplet
``(data, indices, indptr)``. ``row_dot`` and ``row_axpy`` dispatch on that type
at compile time, so each rule is written once and numba builds the dense and the
sparse twin (and the float32/float64, int32/int64-index variants) from it.

An epoch visits the rows of an ``order`` array, or every row in turn when
``order`` is empty: the common "no shuffling" case then reads no index array.

CSR ``indices`` and ``indptr`` arrive as unsigned views (see
:func:`rosenblatt._validation.kernel_view`; validation has checked that they
are in range): with signed indices numba must allow negative (wrap-around)
indexing and guards every ``w[indices[k]]`` with a sign test and a select, which
also turns the contiguous loads into gathers once the loop is vectorised. The
CSR dot is compiled without reassociation (``fastmath=False``): a reassociated
loop is vectorised 32 values wide, which rows of a few dozen values hardly
enter. Together: 2.4× faster on a9a, bit for bit the same results (the sum
runs in the same order either way).

When every stored value is 1 (one-hot and binarised features: a9a, w8a), the
triplet's ``data`` is ``None`` and the binary twins skip reading it: ``1 · w`` is
``w`` exactly, so the results do not change.

When the weight vector is larger than a core's L2 cache, every ``w[indices[k]]``
is a cache miss that the CPU cannot foresee, and the loop waits for memory. The
CSR triplet then carries a fourth element, a look-ahead ``R`` in rows (see
:func:`rosenblatt._validation.kernel_view`), and :func:`prefetch_ahead` runs a
three-stage pipeline along the epoch's order: the row pointer of the row ``3R``
ahead, that row's stored values ``2R`` ahead, and its weights ``R`` ahead are
requested early, so that each is in cache when needed. The same pipeline serves
natural and shuffled order (in shuffled order the rows themselves are scattered
in memory too). Prefetches change no value; on small weights they only cost, so
the look-ahead is there only for wide data.

The plain-Python bodies below are what runs under ``NUMBA_DISABLE_JIT=1``.
"""

from numba import types
from numba.extending import overload, register_jitable

from ._prefetch import prefetch


@register_jitable
def _dense_dot(X, i, w):
    total = 0.0
    for j in range(X.shape[1]):
        total += X[i, j] * w[j]
    return total


@register_jitable
def _csr_dot(X, i, w):
    data, indices, indptr = X[0], X[1], X[2]
    total = 0.0
    for k in range(indptr[i], indptr[i + 1]):
        total += data[k] * w[indices[k]]
    return total


@register_jitable
def _binary_csr_dot(X, i, w):
    """:func:`_csr_dot` for stored values that are all 1 (``X[0]`` is ``None``):
    ``1 · w_j`` is ``w_j`` exactly, so the sum is the same, without reading data."""
    indices, indptr = X[1], X[2]
    total = 0.0
    for k in range(indptr[i], indptr[i + 1]):
        total += w[indices[k]]
    return total


@register_jitable
def _dense_axpy(X, i, w, step):
    for j in range(X.shape[1]):
        w[j] += step * X[i, j]


@register_jitable
def _csr_axpy(X, i, w, step):
    data, indices, indptr = X[0], X[1], X[2]
    for k in range(indptr[i], indptr[i + 1]):
        w[indices[k]] += step * data[k]


@register_jitable
def _binary_csr_axpy(X, i, w, step):
    indices, indptr = X[1], X[2]
    for k in range(indptr[i], indptr[i + 1]):
        w[indices[k]] += step


def n_rows(X):
    """Number of rows of a dense matrix or a CSR triplet."""
    if isinstance(X, tuple):
        return X[2].shape[0] - 1
    return X.shape[0]


def epoch_length(X, order):
    """Rows in an epoch: ``len(order)``, or every row when ``order`` is empty (natural order)."""
    return order.shape[0] if order.shape[0] > 0 else n_rows(X)


def epoch_row(order, t):
    """The ``t``-th row of an epoch (``t`` itself in natural order)."""
    return order[t] if order.shape[0] > 0 else t


def row_dot(X, i, w):
    """``x_i · w`` for row ``i`` of ``X``."""
    if isinstance(X, tuple):
        return _binary_csr_dot(X, i, w) if X[0] is None else _csr_dot(X, i, w)
    return _dense_dot(X, i, w)


def row_axpy(X, i, w, step):
    """``w += step * x_i`` in place."""
    if isinstance(X, tuple):
        (_binary_csr_axpy if X[0] is None else _csr_axpy)(X, i, w, step)
    else:
        _dense_axpy(X, i, w, step)


def row_weight(sw, i):
    """The weight of row ``i``; 1 for every row when ``sw`` is ``None`` (all weights
    are 1). ``eta · 1 · e`` is ``eta · e`` exactly, so passing ``None`` changes no
    result; it saves the read of ``sw[i]``, a cache miss per row in shuffled order
    on large data, and the test of a zero weight, which numba then compiles away."""
    return 1.0 if sw is None else sw[i]


@overload(n_rows)
def _n_rows_overload(X):
    if isinstance(X, types.BaseTuple):
        return lambda X: X[2].shape[0] - 1
    return lambda X: X.shape[0]


@overload(epoch_length)
def _epoch_length_overload(X, order):
    return lambda X, order: order.shape[0] if order.shape[0] > 0 else n_rows(X)


@overload(epoch_row)
def _epoch_row_overload(order, t):
    return lambda order, t: order[t] if order.shape[0] > 0 else t


@overload(row_weight)
def _row_weight_overload(sw, i):
    if isinstance(sw, types.NoneType):
        return lambda sw, i: 1.0
    return lambda sw, i: sw[i]


@overload(row_dot, jit_options={"fastmath": False})
def _row_dot_csr_overload(X, i, w):
    # compiled without reassociation (see the module docstring)
    if isinstance(X, types.BaseTuple):
        return _binary_csr_dot if isinstance(X[0], types.NoneType) else _csr_dot
    return None


@overload(row_dot)
def _row_dot_dense_overload(X, i, w):
    if not isinstance(X, types.BaseTuple):
        return _dense_dot
    return None


@overload(row_axpy)
def _row_axpy_overload(X, i, w, step):
    if isinstance(X, types.BaseTuple):
        return _binary_csr_axpy if isinstance(X[0], types.NoneType) else _csr_axpy
    return _dense_axpy


@register_jitable
def _dense_sqnorm(X, i):
    total = 0.0
    for j in range(X.shape[1]):
        total += X[i, j] * X[i, j]
    return total


@register_jitable
def _csr_sqnorm(X, i):
    data, indptr = X[0], X[2]
    total = 0.0
    for k in range(indptr[i], indptr[i + 1]):
        total += data[k] * data[k]
    return total


@register_jitable
def _binary_csr_sqnorm(X, i):
    indptr = X[2]
    return float(indptr[i + 1] - indptr[i])


def row_sqnorm(X, i):
    """``‖x_i‖²`` for row ``i`` of ``X`` (the passive-aggressive step needs it)."""
    if isinstance(X, tuple):
        return _binary_csr_sqnorm(X, i) if X[0] is None else _csr_sqnorm(X, i)
    return _dense_sqnorm(X, i)


@overload(row_sqnorm)
def _row_sqnorm_overload(X, i):
    if isinstance(X, types.BaseTuple):
        return _binary_csr_sqnorm if isinstance(X[0], types.NoneType) else _csr_sqnorm
    return _dense_sqnorm


# A 64-byte cache line holds 8 values of 8 bytes (16 uint32 indices: every other
# prefetch of those falls on a line already requested, which costs next to nothing).
# A constant: a step computed from itemsize would be a division that can raise.
_PER_LINE = 8


# Each stage takes the whole triplet and a row, and makes no call that could fail:
# numba then prunes the reference counts of the arrays it unpacks, which would
# otherwise cost two atomic operations per array and row (read in the LLVM IR).

@register_jitable
def _prefetch_row_pointer(X, i):
    prefetch(X[2], i)


@register_jitable
def _prefetch_lines(array, start, end):
    k = start
    while k < end:
        prefetch(array, k)
        k += _PER_LINE


@register_jitable
def _prefetch_row_indices(X, i):
    _prefetch_lines(X[1], X[2][i], X[2][i + 1])


@register_jitable
def _prefetch_row_values(X, i):
    _prefetch_lines(X[0], X[2][i], X[2][i + 1])


@register_jitable
def _prefetch_row_weights(X, i, w):
    indices, indptr = X[1], X[2]
    for k in range(indptr[i], indptr[i + 1]):
        prefetch(w, indices[k])


@register_jitable
def _binary_pipelined_prefetch(X, order, t, n, w):
    # rows past the end are clamped to the last row rather than tested for
    rows_ahead, last = X[3], n - 1
    _prefetch_row_pointer(X, epoch_row(order, min(t + 3 * rows_ahead, last)))
    _prefetch_row_indices(X, epoch_row(order, min(t + 2 * rows_ahead, last)))
    _prefetch_row_weights(X, epoch_row(order, min(t + rows_ahead, last)), w)


@register_jitable
def _pipelined_prefetch(X, order, t, n, w):
    _binary_pipelined_prefetch(X, order, t, n, w)
    _prefetch_row_values(X, epoch_row(order, min(t + 2 * X[3], n - 1)))


def prefetch_ahead(X, order, t, n, w):
    """At step ``t`` of an epoch of ``n`` rows over ``order``, request what the rows ahead will
    read (see the module docstring). Compiled away unless ``X`` is a CSR triplet
    carrying a look-ahead."""


@overload(prefetch_ahead)
def _prefetch_ahead_overload(X, order, t, n, w):
    if isinstance(X, types.BaseTuple) and len(X) == 4:
        return (_binary_pipelined_prefetch if isinstance(X[0], types.NoneType)
                else _pipelined_prefetch)
    return lambda X, order, t, n, w: None


#: Raised where a rule divides by ``‖x‖²`` and a row that is not zero has a
#: squared norm of 0: its values are below ~1e-154, and skipping the row as if it
#: were x = 0 would report a converged model that never saw it.
UNDERFLOW_MESSAGE = (
    "A row of X is not zero but its squared norm ‖x‖² underflows float64 to 0 (all its "
    "values are below about 1e-154), and this rule divides by ‖x‖². Scale X up, e.g. "
    "with sklearn.preprocessing.MaxAbsScaler or StandardScaler."
)


def check_underflow(X, i):
    """Refuse row ``i`` (whose ``‖x‖²`` came out 0) unless all its values are 0."""
    if isinstance(X, tuple):
        start, stop = X[2][i], X[2][i + 1]
        values = X[0][start:stop] if X[0] is not None else [1.0] * int(stop - start)
    else:
        values = X[i]
    for value in values:
        if value != 0.0:
            raise ValueError(UNDERFLOW_MESSAGE)


@register_jitable
def _dense_check_underflow(X, i):
    for j in range(X.shape[1]):
        if X[i, j] != 0.0:
            raise ValueError(UNDERFLOW_MESSAGE)


@register_jitable
def _csr_check_underflow(X, i):
    data, indptr = X[0], X[2]
    for k in range(indptr[i], indptr[i + 1]):
        if data[k] != 0.0:
            raise ValueError(UNDERFLOW_MESSAGE)


@register_jitable
def _binary_csr_check_underflow(X, i):
    if X[2][i + 1] > X[2][i]:
        raise ValueError(UNDERFLOW_MESSAGE)  # a stored 1 squares to 1: never reached


@overload(check_underflow)
def _check_underflow_overload(X, i):
    if isinstance(X, types.BaseTuple):
        return (_binary_csr_check_underflow if isinstance(X[0], types.NoneType)
                else _csr_check_underflow)
    return _dense_check_underflow
