"""ROMMA's and the diagonal second-order rules' epoch against the perceptron's.

    python benchmarks/bench_epoch_ratios.py            # ~5 minutes
    python benchmarks/bench_epoch_ratios.py --quick    # under a minute

The marginal epoch of each rule (``bench_sparse.marginal``: ``fit`` with ``1 + E``
epochs minus ``fit`` with 1, over ``E``; rows in the stored order, ``tol=None``),
by CPU time (``time.process_time``), divided by the perceptron's measured *in the
same round*; the rules' order turns from round to round, and the table gives the
per-round ratios as median [min-max]. Sets: a9a (LIBSVM, shared data; 123 binary
features) and a click log of ``click_log.make_click_log`` (200,000 rows of ~40
distinct binary features hashed into 2**20, Zipf-popular, 8 % label noise).
Rules: ROMMA, AROW and SCW-I with ``covariance="diagonal"``.

The first line printed names the CPU and the library versions.
"""

import argparse
import pathlib
import platform
import statistics
import sys
import warnings

import numpy as np
import scipy.sparse as sp

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_sparse import machine, marginal  # noqa: E402
from click_log import make_click_log  # noqa: E402

from rosenblatt import Perceptron  # noqa: E402
from rosenblatt.datasets import load_libsvm  # noqa: E402
from rosenblatt.linear_model import AROW, ROMMA, SoftConfidenceWeighted  # noqa: E402

warnings.simplefilter("ignore")
SHARED = ROOT.parent / "shared" / "data"

RULES = {
    "Perceptron": lambda e: Perceptron(shuffle="none", max_iter=e, tol=None),
    "ROMMA": lambda e: ROMMA(shuffle="none", max_iter=e, tol=None),
    "AROW diagonal": lambda e: AROW(covariance="diagonal", shuffle="none", max_iter=e,
                                    tol=None),
    "SCW-I diagonal": lambda e: SoftConfidenceWeighted(variant="I", covariance="diagonal",
                                                       shuffle="none", max_iter=e, tol=None),
}


def data_sets(quick):
    sets = {}
    if (SHARED / "a9a").exists():
        X, y = load_libsvm(SHARED / "a9a", n_features=123)
        sets["a9a"] = (sp.csr_matrix(X, dtype=np.float64), np.asarray(y).astype(int))
    n = 20_000 if quick else 200_000
    columns, labels = make_click_log(n_rows=n, hash_bits=20, per_row=40)
    lengths = np.array([len(c) for c in columns])
    X = sp.csr_matrix((np.ones(lengths.sum()), np.concatenate(columns),
                       np.r_[0, np.cumsum(lengths)]), shape=(n, 2**20))
    sets[f"click {n // 1000}k x 2^20"] = (X, labels)
    return sets


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--epochs", type=int, default=5)
    args = parser.parse_args(argv)
    rounds = args.rounds or (3 if args.quick else 7)
    import numba
    import sklearn

    print(f"# {machine()}")
    print(f"# Python {platform.python_version()}, numpy {np.__version__}, numba "
          f"{numba.__version__}, scikit-learn {sklearn.__version__}; {rounds} rounds, CPU "
          f"time, marginal epoch of {args.epochs}")
    print("# ratio = the rule's epoch / the perceptron's in the same round: median [min-max]\n")
    print(f"{'data':20s} {'rule':16s} {'s/epoch':>9s} {'epoch / perceptron':>22s}")
    for name, (X, y) in data_sets(args.quick).items():
        for make in RULES.values():
            make(1).fit(X[:200], y[:200])  # compile outside the timing
        names = list(RULES)
        times = {rule: [] for rule in names}
        for r in range(rounds):
            turn = names[r % len(names):] + names[:r % len(names)]
            for rule in turn:
                times[rule].append(marginal(RULES[rule], X, y, args.epochs))
        for rule in names:
            ratios = [t / p for t, p in zip(times[rule], times["Perceptron"])]
            summary = (f"{statistics.median(ratios):5.2f}x "
                       f"[{min(ratios):.2f}-{max(ratios):.2f}]")
            print(f"{name:20s} {rule:16s} {statistics.median(times[rule]):9.4f} {summary:>22s}",
                  flush=True)


if __name__ == "__main__":
    main()
