"""Whether a training set can be separated: the certificate behind the stopping rule.

The perceptron convergence theorem (Novikoff; Ahmed & Pavlu, Daumé §4.5,
Kowalczyk ch. 3) promises an epoch without a mistake on separable data, however
slowly the mistakes fall; no count of mistakes can tell "separating slowly"
from "cannot be separated". A linear program can: the rows are separable when
``A z >= 1`` is feasible, with one row of ``A`` per constraint

- two classes: ``y_i (w·x_i + b) >= 1`` (``z = (w, b)``);
- one weight vector per class (Kesler's construction):
  ``(w_{y_i} − w_k)·x_i + b_{y_i} − b_k >= 1`` for every other class ``k``;
- a kernel (the dual form): ``y_i (Σ_j α_j K(x_j, x_i)) >= 1`` (``z = α``; any
  separator in feature space may be projected onto the span of the rows).

Every constraint is homogeneous (``> 0`` scaled), so columns may be rescaled
(any invertible diagonal map keeps separability) and each row of ``A`` divided
by its largest entry: the program HiGHS sees is the same for ``X`` and ``c·X``,
whatever ``c``. The test costs milliseconds on the texts' data and 0.1 s on
8,000 rows; beyond :data:`CHECK_LIMIT` nonzeros of ``A`` it is not run and the
answer is ``None`` (unknown).

>>> import numpy as np
>>> X = np.array([[0., 0], [0, 1], [1, 0], [1, 1]])
>>> linearly_separable(X, np.array([-1., -1, -1, 1]), fit_intercept=True)
True
>>> linearly_separable(X, np.array([-1., 1, 1, -1]), fit_intercept=True)
False
>>> linearly_separable(1e-30 * X, np.array([-1., -1, -1, 1]), fit_intercept=True)
True
"""

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

#: The largest program the stopping rule solves, in nonzeros of ``A``: 50,000
#: holds the texts' data and the random sets of the tests (milliseconds), and
#: leaves out pendigits (7,494 rows × 17: 0.1 s a program, 1.1 s for its ten
#: one-vs-rest problems against 0.06 s for the whole default fit), mushrooms and
#: a9a (0.3 s). Larger data stop by ``tol`` alone.
CHECK_LIMIT = 50_000


def program_size(n_rows, n_values, n_classes=2, fit_intercept=True):
    """Nonzeros of ``A`` for ``n_rows`` rows holding ``n_values`` stored values."""
    per_row = n_values + n_rows * int(fit_intercept)
    return per_row if n_classes <= 2 else 2 * (n_classes - 1) * per_row


def linearly_separable(X, y, *, fit_intercept=True):
    """Whether a hyperplane (through the origin without ``fit_intercept``) puts
    every row of ``X`` (dense or CSR) on the side of its label ``y`` (±1)
    strictly: ``True``, ``False``, or ``None`` when HiGHS cannot decide."""
    A = _with_intercept(_scaled_columns(X), fit_intercept)
    return _feasible(sp.diags(np.asarray(y, dtype=np.float64)) @ A)


def classes_separable(X, codes, n_classes, *, fit_intercept=True):
    """Whether one weight vector per class scores every row's class (``codes``,
    0 … n_classes − 1) above every other class (Kesler's construction)."""
    rows = _with_intercept(_scaled_columns(X), fit_intercept).tocsr()
    codes = np.asarray(codes, dtype=np.intp)
    blocks = []
    for k in range(n_classes):
        others = codes != k
        if not others.any():
            continue
        part = rows[others]
        # z holds every class's weights side by side: + for the row's class, − for k
        blocks.append(sp.hstack([_class_block(part, codes[others], j, k)
                                 for j in range(n_classes)]))
    return _feasible(sp.vstack(blocks).tocsr()) if blocks else True


def kernel_separable(gram, y):
    """Whether ``y_i Σ_j α_j K_ij >= 1`` is feasible (``gram`` the kernel
    matrix of the rows, with ``+ 1`` added for an intercept)."""
    return _feasible(np.asarray(y, dtype=np.float64)[:, None] * np.asarray(gram))


def _class_block(part, codes, j, k):
    sign = (codes == j).astype(np.float64) - float(j == k)
    return sp.diags(sign) @ part


def _scaled_columns(X):
    """``X`` with every column divided by its largest magnitude (CSR stays CSR)."""
    X = sp.csr_matrix(X, dtype=np.float64) if sp.issparse(X) else \
        sp.csr_matrix(np.asarray(X, dtype=np.float64))
    largest = np.asarray(abs(X).max(axis=0).todense()).ravel()
    largest[largest == 0] = 1.0
    return X @ sp.diags(1.0 / largest)


def _with_intercept(X, fit_intercept):
    if not fit_intercept:
        return X.tocsr()
    return sp.hstack([X, np.ones((X.shape[0], 1))], format="csr")


def _feasible(A):
    """Whether ``A z >= 1`` has a solution, each row scaled to a largest entry
    of 1 first; ``None`` when HiGHS ends otherwise than solved or infeasible.
    A row of zeros can never reach 1: infeasible at once."""
    A = sp.csr_matrix(A)
    largest = np.asarray(abs(A).max(axis=1).todense()).ravel()
    if np.any(largest == 0):
        return False
    A = sp.diags(1.0 / largest) @ A
    result = linprog(np.zeros(A.shape[1]), A_ub=-A, b_ub=-np.ones(A.shape[0]),
                     bounds=[(None, None)] * A.shape[1], method="highs")
    return {0: True, 2: False}.get(result.status)
