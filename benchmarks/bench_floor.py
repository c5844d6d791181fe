"""The SpMV floor: a training epoch and prediction against a bare single-thread ``X @ w``.

    python benchmarks/bench_floor.py               # ~3 minutes
    python benchmarks/bench_floor.py --rounds 3    # quicker

SPEC §8 asks for a sparse ``Perceptron`` epoch within 1.2x of a bare single-thread
``X @ w`` on the same CSR (scipy's ``csr_matvec``: one multiply-add per stored value,
nothing else), and issue 33 for prediction at least 1.5x scikit-learn's. This
script puts the three on one scale, in the same rounds:

- ``epoch / X@w``: the perceptron's marginal epoch (``bench_sparse.marginal``:
  ``fit`` with 1 + E epochs minus ``fit`` with 1, over E; rows in the stored order,
  ``tol=None``) divided by ``X @ w``;
- ``ours / X@w`` and ``sklearn / X@w``: ``decision_function`` of the same weights
  (ours, and scikit-learn's ``SGDClassifier`` holding them), every check included.

CPU time (``time.process_time``), contenders interleaved in every round, per-round
ratios as median [min-max]. With ``NUMBA_NUM_THREADS=1`` every contender runs on one
thread. Sets: a9a and w8a (LIBSVM, shared data) and ``bench_predict``'s 2**20 set
(50,000 rows, 56 random values a row).
"""

import argparse
import pathlib
import statistics
import sys
import time
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_predict import data_sets, fitted_pair
from bench_sparse import machine, marginal

from rosenblatt import Perceptron

warnings.simplefilter("ignore")


def cpu(function, repeat):
    start = time.process_time()
    for _ in range(repeat):
        function()
    return (time.process_time() - start) / repeat


def summary(values):
    return f"{statistics.median(values):5.2f}x [{min(values):.2f}-{max(values):.2f}]"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--epochs", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"# {machine()}")
    print(f"# CPU time, {args.rounds} interleaved rounds, per-round ratios median [min-max]")
    print("| data | X@w ms | epoch / X@w | ours / X@w | sklearn / X@w | ours vs sklearn |")
    print("|---|---|---|---|---|---|")
    sets = data_sets()
    for name in ("a9a", "w8a", "2^20"):
        X, y = sets[name]
        ours, theirs = fitted_pair(X, y)
        w = np.ascontiguousarray(ours.coef_.ravel())
        repeat = max(1, int(2e6 // X.nnz))

        def make(epochs):
            return Perceptron(shuffle="none", max_iter=epochs, tol=None)

        make(1).fit(X, y)  # compiled outside the timing
        times = {"floor": [], "epoch": [], "ours": [], "sklearn": []}
        for r in range(args.rounds):
            calls = {"floor": lambda X=X, w=w, n=repeat: cpu(lambda: X @ w, n),
                     "epoch": lambda X=X, y=y: marginal(make, X, y, args.epochs),
                     "ours": lambda X=X, m=ours, n=repeat: cpu(lambda: m.decision_function(X), n),
                     "sklearn": lambda X=X, m=theirs, n=repeat: cpu(
                         lambda: m.decision_function(X), n)}
            names = list(calls)
            for who in names[r % 4:] + names[:r % 4]:
                times[who].append(calls[who]())
        ratio = {who: [t / f for t, f in zip(times[who], times["floor"])] for who in times}
        speed = [s / o for s, o in zip(times["sklearn"], times["ours"])]
        print(f"| {name} ({X.shape[0]}x{X.shape[1]}, {X.nnz / X.shape[0]:.0f}/row) | "
              f"{statistics.median(times['floor']) * 1e3:.3f} | {summary(ratio['epoch'])} | "
              f"{summary(ratio['ours'])} | {summary(ratio['sklearn'])} | {summary(speed)} |",
              flush=True)


if __name__ == "__main__":
    main()
