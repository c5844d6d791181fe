"""Prediction against scikit-learn: ``decision_function`` and ``predict`` of a
fitted Perceptron against scikit-learn's ``LinearClassifierMixin`` (an
SGDClassifier holding the same ``coef_`` and ``intercept_``), on CSR with sorted
and with unsorted column indices (as scipy arithmetic leaves them), and the fit
of one epoch on unsorted 2^20-feature CSR.

    python benchmarks/bench_predict.py              # ~2 minutes
    python benchmarks/bench_predict.py --rounds 3   # quicker

Each round times every contender once, interleaved, by CPU time
(``time.process_time``, several calls a round so that a9a's 0.3 ms calls are
measured over tens of milliseconds); ratios (scikit-learn's time / ours) are taken
within a round and reported as median [min-max]. ``ROSENBLATT_ROOT`` points at
another checkout to measure it instead (the "before" of a change).
"""

import argparse
import os
import pathlib
import statistics
import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, os.environ.get("ROSENBLATT_ROOT", str(ROOT)))
sys.path.insert(1, str(ROOT / "benchmarks"))

import sklearn  # noqa: E402
import sklearn.linear_model  # noqa: E402

from bench_sparse import machine  # noqa: E402

import rosenblatt  # noqa: E402
from rosenblatt import Perceptron  # noqa: E402

warnings.simplefilter("ignore")
SHARED = ROOT.parent / "shared" / "data"


def unsorted(X):
    """``X`` with every row's entries in reverse order: the same matrix, its
    indices not sorted (no duplicate), without a copy's ``has_sorted_indices``."""
    X = X.copy()
    rows = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))
    k = np.arange(X.nnz)
    reverse = X.indptr[rows] + X.indptr[rows + 1] - 1 - k
    Y = sp.csr_matrix((X.data[reverse], X.indices[reverse], X.indptr), shape=X.shape)
    Y.has_sorted_indices = False
    return Y


def int32(X):
    X = sp.csr_matrix(X, dtype=np.float64)
    X.indices, X.indptr = X.indices.astype(np.int32), X.indptr.astype(np.int32)
    return X


def data_sets():
    from rosenblatt.datasets import load_libsvm

    sets = {}
    for name, features in (("a9a", 123), ("w8a", 300)):
        X, y = load_libsvm(str(SHARED / name), n_features=features)
        sets[name] = (int32(X), y)
    rng = np.random.RandomState(0)
    n, d, k = 50_000, 2**20, 56
    X = sp.csr_matrix((rng.rand(n * k), rng.randint(0, d, size=n * k),
                       np.arange(0, n * k + 1, k)), shape=(n, d))
    raw = int32(X)  # random draws: unsorted, a few rows repeat a column
    X = raw.copy()
    X.sum_duplicates()
    score = X @ (rng.randn(d) * (rng.rand(d) < 0.05))
    sets["2^20"] = (X, np.where(score > np.median(score), 1, -1))
    sets["2^20 repeats"] = (raw, sets["2^20"][1])
    return sets


def fitted_pair(X, y):
    ours = Perceptron(max_iter=3, random_state=0).fit(X, y)
    theirs = sklearn.linear_model.SGDClassifier(max_iter=1, tol=None).fit(X, y)
    theirs.coef_ = np.atleast_2d(ours.coef_).copy()
    theirs.intercept_ = np.atleast_1d(ours.intercept_).copy()
    theirs.classes_ = ours.classes_
    return ours, theirs


def cpu(function, repeat):
    start = time.process_time()
    for _ in range(repeat):
        function()
    return (time.process_time() - start) / repeat


def summary(values, fmt):
    return f"{fmt(statistics.median(values))} [{fmt(min(values))}-{fmt(max(values))}]"


def prediction_table(sets, rounds):
    rows = []
    for name, (X, y) in sets.items():
        ours, theirs = fitted_pair(X if name != "2^20 repeats" else sets["2^20"][0], y)
        layouts = {"unsorted + repeats": X} if name == "2^20 repeats" else \
            {"sorted": X, "unsorted": unsorted(X)}
        for layout, M in layouts.items():
            assert np.allclose(ours.decision_function(M), theirs.decision_function(M),
                               rtol=1e-9, atol=1e-9)
            repeat = max(1, int(2e6 // M.nnz))
            for method in ("decision_function", "predict"):
                times = {"ours": [], "sklearn": []}
                for _ in range(rounds):
                    for who, model in (("ours", ours), ("sklearn", theirs)):
                        call = getattr(model, method)
                        times[who].append(cpu(lambda c=call, m=M: c(m), repeat))
                ratios = [s / o for s, o in zip(times["sklearn"], times["ours"])]
                rows.append((f"{name} ({M.shape[0]}x{M.shape[1]}, {M.nnz / M.shape[0]:.0f}/row)",
                             layout, method, summary(times["ours"], lambda t: f"{t * 1e3:.2f}"),
                             summary(times["sklearn"], lambda t: f"{t * 1e3:.2f}"),
                             summary(ratios, lambda r: f"{r:.2f}x")))
    return rows


def fit_table(sets, rounds):
    X, y = sets["2^20"]
    M = unsorted(X)
    times = []
    for _ in range(rounds):
        times.append(cpu(lambda: Perceptron(max_iter=1, tol=None, random_state=0).fit(M, y), 1))
    return summary(times, lambda t: f"{t:.3f}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    sets = data_sets()
    print(f"# {machine()}")
    print(f"# rosenblatt from {os.path.dirname(rosenblatt.__file__)}, numpy {np.__version__}, "
          f"scikit-learn {sklearn.__version__}; CPU ms a call, median [min-max] of "
          f"{args.rounds} interleaved rounds; ratio = scikit-learn's time / ours")
    print("| data | indices | call | rosenblatt ms | scikit-learn ms | speed vs sklearn |")
    print("|---|---|---|---|---|---|")
    for row in prediction_table(sets, args.rounds):
        print("| " + " | ".join(row) + " |")
    print(f"\nPerceptron(max_iter=1).fit on unsorted 2^20 CSR: {fit_table(sets, args.rounds)} "
          "CPU s, median [min-max]")


if __name__ == "__main__":
    main()
