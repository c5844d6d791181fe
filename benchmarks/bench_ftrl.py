"""FTRL-Proximal's epoch against online gradient descent's, on hashed 2²⁰-feature rows.

    python benchmarks/bench_ftrl.py                # 200,000 rows x 40 values, 7 rounds
    python benchmarks/bench_ftrl.py --quick        # 50,000 rows, 3 rounds

Rows as a feature hasher makes them: 40 columns a row drawn uniformly from 2²⁰
(so every weight read is a cache miss), either all ones (the binary kernels, which
skip the values) or real values. The time of one epoch is the marginal epoch
``(fit with 1 + E epochs − fit with 1) / E`` (``bench_sparse.marginal``: input checks
and compilation left out), rows in the stored order, ``tol=None`` so that every fit
runs its epochs. Contenders: ``FTRLProximal()`` (the paper's rates, L1 and L2) and
``OnlineGradientDescent(loss="logistic")``, the family's other logistic learner,
whose epoch is one dot and one axpy per row. Interleaved: each round times both
(the order alternating), by CPU time; the ratio FTRL/OGD is taken within a round and
reported as median [min-max] over the rounds.

FTRL reads and writes two arrays per coordinate (``z`` and ``n``) where OGD reads and
writes one (``w``), and computes a square root and a division per value of the row
(the lazy weight) and two more square roots per value whose weight is not 0.
"""

import argparse
import pathlib
import platform
import sys
import warnings

import numpy as np
import scipy.sparse as sp

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_sparse import marginal, summary  # noqa: E402

from rosenblatt.linear_model import FTRLProximal, OnlineGradientDescent  # noqa: E402

WIDTH = 2**20


def hashed_rows(n, per_row, binary, seed=0):
    """``n`` rows of ``per_row`` distinct columns out of 2²⁰, labels of a planted model."""
    rng = np.random.RandomState(seed)
    columns = np.sort(rng.randint(WIDTH, size=(n, per_row)), axis=1).astype(np.int32)
    values = np.ones(n * per_row) if binary else rng.rand(n * per_row)
    X = sp.csr_matrix((values, columns.ravel(), np.arange(0, n * per_row + 1, per_row)),
                      shape=(n, WIDTH))
    X.sum_duplicates()
    truth = rng.standard_normal(WIDTH)
    scores = X @ truth
    y = (scores + 0.5 * rng.standard_normal(n) > np.median(scores)).astype(int)
    return X, y


def contenders(epochs):
    common = {"shuffle": "none", "tol": None, "random_state": 0}
    return {
        "FTRLProximal": lambda e: FTRLProximal(max_iter=e, **common),
        "OGD logistic": lambda e: OnlineGradientDescent(loss="logistic", max_iter=e, **common),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--rows", type=int, default=None)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args(argv)
    rounds = args.rounds or (3 if args.quick else 7)
    n = args.rows or (50_000 if args.quick else 200_000)
    print(f"# {platform.processor() or platform.machine()}, Python "
          f"{platform.python_version()}, numpy {np.__version__}")
    print(f"# {n:,} rows x 40 values of 2^20 columns; {rounds} rounds, CPU time, marginal "
          f"epoch of {args.epochs}; ratio = FTRL / OGD per round: median [min-max]\n")
    print(f"{'rows':8s} {'FTRL s/epoch':>13s} {'OGD s/epoch':>12s} {'FTRL/OGD':>22s}")
    warnings.simplefilter("ignore")  # tol=None runs every epoch and warns: expected
    for binary in (True, False):
        X, y = hashed_rows(n, 40, binary)
        makers = contenders(args.epochs)
        for make in makers.values():  # compile outside the timing
            make(1).fit(X[:100], y[:100])
        times = {name: [] for name in makers}
        for round_ in range(rounds):
            order = list(makers) if round_ % 2 == 0 else list(makers)[::-1]
            for name in order:
                times[name].append(marginal(makers[name], X, y, args.epochs))
        ratios = [f / o for f, o in zip(times["FTRLProximal"], times["OGD logistic"])]
        print(f"{'binary' if binary else 'valued':8s} "
              f"{np.median(times['FTRLProximal']):13.3f} {np.median(times['OGD logistic']):12.3f} "
              f"{summary(ratios):>22s}")


if __name__ == "__main__":
    main()
