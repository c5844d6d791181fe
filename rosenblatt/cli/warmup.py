"""``rosenblatt warmup``: compile every kernel into numba's disk cache, once."""

import time
import warnings

import numpy as np
import scipy.sparse as sp

from .._config import cache_folder
from ..engine import SHORT_NAMES, make_estimator


def warmup(models=None):
    """Fit each estimator (all by default) once on tiny dense and CSR data in
    float64 and float32, so that numba compiles their kernels and caches them on
    disk: a container image or a CI job built with this starts training at once
    (a first fit otherwise compiles for seconds per layout and dtype). Returns the
    number of fits and the seconds they took.

    >>> fits, seconds = warmup(["perceptron"])
    >>> fits
    4
    """
    rng = np.random.RandomState(0)
    X = rng.randn(40, 3)
    y = np.arange(40) % 2
    layouts = [X, X.astype(np.float32), sp.csr_matrix(X), sp.csr_matrix(X.astype(np.float32))]
    start, fits = time.perf_counter(), 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a few epochs on noise never converge
        for name in models or sorted(SHORT_NAMES):
            limit = {"max_updates": 5} if name == "pla" else {"max_iter": 2}
            for data in layouts:
                model = make_estimator(name, **limit)
                model.fit(data, y)
                model.decision_function(data)
                fits += 1
    return fits, time.perf_counter() - start


def add_arguments(parser):
    parser.add_argument("--model", action="append", choices=sorted(SHORT_NAMES),
                        help="only this model (repeatable; default: all)")


def run(args):
    fits, seconds = warmup(args.model)
    print(f"compiled and cached: {fits} fits in {seconds:.1f} s, cache in {cache_folder()}")
    return 0
