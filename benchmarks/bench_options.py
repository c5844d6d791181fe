"""The speed options of wide sparse data, each against our default in the same run.

    python benchmarks/bench_options.py            # ~5 minutes
    python benchmarks/bench_options.py --quick    # a minute

- ``weights_dtype="float32"`` (Perceptron, AveragedPerceptron): the marginal
  epoch against float64 weights.
- ``rosenblatt.set_config(renumber_columns=True)``: the marginal epoch against
  the columns' own numbering (the same model bit for bit), and the one-off cost
  of counting and renumbering, in epochs of the own numbering.

Contenders interleaved in every round, CPU time, the marginal epoch as in
``bench_sparse.py``; per-round ratios as median [min-max]. Sets (1 % of the rows repeated with
the other label, so that every fit runs all its epochs): Zipf-distributed
columns hashed over 2**20 and 2**22 of them (text features through the hashing
trick: the frequent columns scattered), and the balanced 2**20 set of
``bench_sparse.py`` (every column about as frequent).
"""

import argparse
import platform
import statistics
import sys
import warnings

import numpy as np
import scipy.sparse as sp
import sklearn
from bench_sparse import ROOT, cpu, machine, marginal, summary

sys.path.insert(0, str(ROOT))

import rosenblatt  # noqa: E402
from rosenblatt import AveragedPerceptron, Perceptron  # noqa: E402

warnings.simplefilter("ignore")


def data_sets(quick):
    rng = np.random.RandomState(0)
    n, k = (20_000 if quick else 200_000), 50
    sets = {}
    for log_d in (20, 22):
        d = 2**log_d
        indices = np.minimum(rng.zipf(1.2, size=n * k) - 1, d - 1)
        X = sp.csr_matrix((rng.rand(n * k), rng.permutation(d)[indices].astype(np.int32),
                           np.arange(0, n * k + 1, k)), shape=(n, d))
        X.sum_duplicates()
        score = X @ (rng.randn(d) * (rng.rand(d) < 0.05))
        sets[f"hashed Zipf 2^{log_d}"] = not_separable(X, score)
    d = 2**20
    X = sp.csr_matrix((rng.rand(n * k), rng.randint(0, d, size=n * k).astype(np.int32),
                       np.arange(0, n * k + 1, k)), shape=(n, d))
    X.sum_duplicates()
    score = X @ (rng.randn(d) * (rng.rand(d) < 0.05))
    sets["balanced 2^20"] = not_separable(X, score)
    return sets


def not_separable(X, score):
    """Labels from the score's sign around its median, and the first 1 % of the rows
    repeated with the other label: no weights separate that, so every fit runs all
    its epochs (wide data with rare columns is separable otherwise)."""
    y = np.where(score > np.median(score), 1, -1)
    repeated = np.arange(len(y) // 100)
    return sp.vstack([X, X[repeated]], format="csr"), np.r_[y, -y[repeated]]


def renumbered(make):
    """``make`` with the columns renumbered during its fits."""
    def fit_renumbered(epochs):
        model = make(epochs)
        fit = model.fit

        def fit_in_context(X, y):
            with rosenblatt.config_context(renumber_columns=True):
                return fit(X, y)
        model.fit = fit_in_context
        return model
    return fit_renumbered


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--epochs", type=int, default=5)
    args = parser.parse_args(argv)
    rounds = args.rounds or (3 if args.quick else 5)
    print(f"# {machine()}")
    print(f"# Python {platform.python_version()}, numpy {np.__version__}, scikit-learn "
          f"{sklearn.__version__}; {rounds} rounds, CPU time, marginal epoch of {args.epochs}")
    print("# speed-up = our default's time / the option's, per round: median [min-max]\n")
    print(f"{'data':20s} {'option':44s} {'s/epoch':>9s} {'speed-up':>20s}")
    for name, (X, y) in data_sets(args.quick).items():
        for cls in (Perceptron, AveragedPerceptron):
            for shuffle in ("none", "every_epoch"):
                def plain(e, dtype="float64"):
                    return cls(max_iter=e, shuffle=shuffle, random_state=0, weights_dtype=dtype)
                options = {
                    "float32 weights": lambda e: plain(e, "float32"),
                    "renumbered columns": renumbered(plain),
                }
                plain(1).fit(X[:200], y[:200])  # compile outside the timing
                options["float32 weights"](1).fit(X[:200], y[:200])
                options["renumbered columns"](1).fit(X[:200], y[:200])
                ratios = {option: [] for option in options}
                costs, times = [], {option: [] for option in options}
                for _ in range(rounds):
                    own = marginal(plain, X, y, args.epochs)
                    for option, make in options.items():
                        mine = marginal(make, X, y, args.epochs)
                        ratios[option].append(own / mine)
                        times[option].append(mine)
                    # the one-off cost: a 1-epoch fit renumbered minus one in the own numbering
                    extra = cpu(lambda: options["renumbered columns"](1).fit(X, y)) - \
                        cpu(lambda: plain(1).fit(X, y))
                    costs.append(extra / own)
                for option in options:
                    order = "natural" if shuffle == "none" else "shuffled"
                    label = f"{cls.__name__} {option} ({order})"
                    print(f"{name:20s} {label:44s} {statistics.median(times[option]):9.4f} "
                          f"{summary(ratios[option]):>20s}")
                print(f"{name:20s} {'  renumbering one-off cost, in epochs':44s} {'':9s} "
                      f"{statistics.median(costs):8.1f} [{min(costs):.1f}-{max(costs):.1f}]",
                      flush=True)


if __name__ == "__main__":
    main()
