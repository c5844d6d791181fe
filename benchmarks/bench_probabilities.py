"""Probabilities on a9a: log-loss of the models that define them, against scikit-learn.

    python benchmarks/bench_probabilities.py            # ~2 minutes
    python benchmarks/bench_probabilities.py --scale    # adds predict_proba on 1M x 2^20 CSR

Trains on a9a (32,561 rows, 123 binary features) and scores a9a.t (16,281 rows):
accuracy, log-loss of ``predict_proba`` (``sklearn.metrics.log_loss``) and CPU time
(``time.process_time``) of the fit and of ``predict_proba``. Two settings:

- **one pass**: ``max_iter=1``, rows in the stored order (ours ``shuffle="none"``,
  scikit-learn's ``SGDClassifier(loss="log_loss", max_iter=1, tol=None,
  shuffle=False)``);
- **defaults**: every other parameter at its default (scikit-learn's
  ``SGDClassifier(loss="log_loss", random_state=0)``; ours ``random_state=0``).

Ours: ``OnlineGradientDescent(loss="logistic")`` (``σ(w·x + b)``) and the
confidence-weighted rules AROW, SCW (I) and CW with diagonal and full ``Σ``
(``Φ(M/√V)``), and AROW (diagonal) wrapped in scikit-learn's
``CalibratedClassifierCV`` (sigmoid, 3 folds) for comparison. Fit times include the
input checks, not the compilation (each contender is fitted once on 200 rows
first); ``predict_proba`` times are the best of three calls.

``--scale``: ``AROW(covariance="diagonal")`` fitted on 100,000 rows of a Zipf CSR set
with 2²⁰ features (``bench_all.zipf_csr``, ~20 values per row), then
``decision_function`` and ``predict_proba`` on 1,000,000 rows of it (wall and CPU
time; scoring runs on several threads from the main thread).
"""

import argparse
import os
import pathlib
import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_online_family import machine  # noqa: E402
from sklearn.calibration import CalibratedClassifierCV  # noqa: E402
from sklearn.linear_model import SGDClassifier  # noqa: E402
from sklearn.metrics import accuracy_score, log_loss  # noqa: E402

from rosenblatt.datasets import load_libsvm  # noqa: E402
from rosenblatt.linear_model import (  # noqa: E402
    AROW,
    ConfidenceWeighted,
    OnlineGradientDescent,
    SoftConfidenceWeighted,
)

warnings.simplefilter("ignore")
SHARED = ROOT.parent / "shared" / "data"


def a9a():
    X, y = load_libsvm(SHARED / "a9a", n_features=123)
    Xt, yt = load_libsvm(SHARED / "a9a.t", n_features=123)
    def as_csr(X):  # int32 indices: scikit-learn's SGD refuses int64 ones
        X = sp.csr_matrix(X, dtype=np.float64)
        X.indices, X.indptr = X.indices.astype(np.int32), X.indptr.astype(np.int32)
        return X
    return as_csr(X), np.asarray(y).astype(int), as_csr(Xt), np.asarray(yt).astype(int)


def contenders(one_pass):
    ours = {"max_iter": 1, "shuffle": "none"} if one_pass else {"random_state": 0}
    sklearn = {"max_iter": 1, "tol": None, "shuffle": False} if one_pass else \
        {"random_state": 0}
    rows = [("SGDClassifier(log_loss) [scikit-learn]",
             lambda: SGDClassifier(loss="log_loss", **sklearn)),
            ("OnlineGradientDescent(logistic)",
             lambda: OnlineGradientDescent(loss="logistic", **ours))]
    for covariance in ("diagonal", "full"):
        rows += [(f"AROW({covariance})", lambda c=covariance: AROW(covariance=c, **ours)),
                 (f"SCW-I({covariance})",
                  lambda c=covariance: SoftConfidenceWeighted(covariance=c, **ours)),
                 (f"CW({covariance})",
                  lambda c=covariance: ConfidenceWeighted(covariance=c, **ours))]
    rows.append(("AROW(diagonal) + CalibratedClassifierCV",
                 lambda: CalibratedClassifierCV(AROW(covariance="diagonal", **ours), cv=3)))
    return rows


def cpu(function):
    start = time.process_time()
    result = function()
    return time.process_time() - start, result


def table(X, y, Xt, yt, one_pass):
    title = "one pass (max_iter=1, stored order)" if one_pass else "defaults"
    print(f"\n## a9a -> a9a.t, {title}\n")
    print(f"| {'model':40s} | accuracy | log-loss | fit CPU s | epochs | predict_proba CPU ms |")
    print(f"|{'-' * 42}|---------:|---------:|----------:|-------:|---------------------:|")
    for name, make in contenders(one_pass):
        make().fit(X[:200], y[:200])  # compiled, or loaded from numba's cache: not timed
        fit_time, model = cpu(lambda make=make: make().fit(X, y))
        proba_time = min(cpu(lambda m=model: m.predict_proba(Xt))[0] for _ in range(3))
        proba = model.predict_proba(Xt)
        accuracy = accuracy_score(yt, model.predict(Xt))
        loss = log_loss(yt, proba, labels=model.classes_)
        epochs = getattr(model, "n_iter_", "-")  # CalibratedClassifierCV: 3 fits
        print(f"| {name:40s} | {accuracy:8.4f} | {loss:8.4f} | {fit_time:9.2f} | "
              f"{epochs!s:>6} | {1000 * proba_time:20.1f} |")


def scale():
    from bench_all import zipf_csr

    X, y = zipf_csr(1_000_000, 2**20, 20, 0)
    model = AROW(covariance="diagonal", max_iter=1, shuffle="none").fit(X[:100_000], y[:100_000])
    print(f"\n## predict_proba at scale: {X.shape[0]:,} rows x 2^20 features, "
          f"{X.nnz / X.shape[0]:.1f} values per row, AROW(covariance='diagonal')\n")
    print("| call | wall s | CPU s |")
    print("|---|---:|---:|")
    for name in ("decision_function", "predict_proba"):
        method = getattr(model, name)
        method(X[:1000])  # compiled / loaded from the cache
        best = None
        for _ in range(3):
            wall, start = time.perf_counter(), time.process_time()
            method(X)
            times = (time.perf_counter() - wall, time.process_time() - start)
            best = times if best is None or times[0] < best[0] else best
        print(f"| {name} | {best[0]:.2f} | {best[1]:.2f} |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", action="store_true",
                        help="also time predict_proba on 1M rows x 2^20 features")
    args = parser.parse_args(argv)
    print(f"# {machine()[0]}")
    print(f"# load average {os.getloadavg()[0]:.1f}")
    X, y, Xt, yt = a9a()
    for one_pass in (True, False):
        table(X, y, Xt, yt, one_pass)
    if args.scale:
        scale()


if __name__ == "__main__":
    main()
