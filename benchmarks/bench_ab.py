"""Epoch time of two rosenblatt trees, measured alternately in the same run.

    python benchmarks/bench_ab.py OLD_TREE NEW_TREE [--rounds 5]

Each round runs one process per tree (alternating which goes first), and each
process times the marginal epoch of every contender by CPU time:
(fit(max_iter=6) − fit(max_iter=1)) / 5, best of 3. Prints per-round ratios
new/old as median [min–max]. Used to check that a refactoring kept the speed.
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys

CHILD = r"""
import json, time, warnings, sys
import numpy as np, scipy.sparse as sp
warnings.simplefilter("ignore")
from rosenblatt import AveragedPerceptron, LinearUnit, MulticlassPerceptron, Perceptron

def data():
    rng = np.random.RandomState(0)
    X = rng.randn(200_000, 100); y = np.where(X @ rng.randn(100) + rng.randn(200_000) > 0, 1, -1)
    X32 = rng.randn(40_000, 1000).astype(np.float32)
    y32 = np.where(X32 @ rng.randn(1000) + 3 * rng.randn(40_000) > 0, 1, -1)
    n, d, k = 100_000, 2**20, 50
    indices = rng.randint(0, d, size=n * k)
    csr = sp.csr_matrix((np.ones(n * k), indices, np.arange(0, n * k + 1, k)), shape=(n, d))
    csr.sum_duplicates()
    w = rng.randn(d)
    ycsr = np.where(csr @ w > np.median(csr @ w), 1, -1)
    X10 = rng.randn(50_000, 50); y10 = rng.randint(0, 10, size=50_000)
    # small: the per-epoch cost around the kernel (pendigits' shape)
    Xs = rng.randn(7_500, 16); ys = rng.randint(0, 10, size=7_500)
    return {"dense 200000x100 f64": (X, y), "dense 40000x1000 f32": (X32, y32),
            "csr 100000x2^20 50nnz": (csr, ycsr), "multiclass 50000x50 10 classes": (X10, y10),
            "multiclass small 7500x16 10 classes": (Xs, ys)}

CONTENDERS = {
    "Perceptron": lambda k: Perceptron(max_iter=k, shuffle="none"),
    "Perceptron shuffled": lambda k: Perceptron(max_iter=k, random_state=0),
    "AveragedPerceptron": lambda k: AveragedPerceptron(max_iter=k, shuffle="none"),
    "LinearUnit sgd": lambda k: LinearUnit(solver="sgd", eta=1e-4, tol=0, max_iter=k,
                                           shuffle="none"),
    "LinearUnit batch": lambda k: LinearUnit(eta=1e-7, tol=0, max_iter=k),
}

def cpu(f):
    start = time.process_time(); f(); return time.process_time() - start

out = {}
for name, (X, y) in data().items():
    contenders = ({"MulticlassPerceptron":
                       lambda k: MulticlassPerceptron(max_iter=k, shuffle="none"),
                   "Perceptron OvR": lambda k: Perceptron(max_iter=k, shuffle="none"),
                   "Perceptron OvR shuffled": lambda k: Perceptron(max_iter=k, random_state=0)}
                  if name.startswith("multiclass") else CONTENDERS)
    for who, make in contenders.items():
        make(1).fit(X[:100], y[:100])  # compile
        one = min(cpu(lambda: make(1).fit(X, y)) for _ in range(3))
        six = min(cpu(lambda: make(6).fit(X, y)) for _ in range(3))
        out[f"{name} | {who}"] = max(six - one, 1e-9) / 5
print(json.dumps(out))
"""


def run(tree):
    env = dict(os.environ, PYTHONPATH=tree, NUMBA_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, cwd=tree,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def cpu_model():
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"# {cpu_model()}, {os.cpu_count()} cores; CPU time, marginal epoch, best of 3")
    ratios, old_times, new_times = {}, {}, {}
    for round_ in range(args.rounds):
        order = [("old", args.old), ("new", args.new)]
        results = dict((label, run(tree)) for label, tree in (order if round_ % 2 == 0
                                                               else order[::-1]))
        for key in results["new"]:
            ratios.setdefault(key, []).append(results["new"][key] / results["old"][key])
            old_times.setdefault(key, []).append(results["old"][key])
            new_times.setdefault(key, []).append(results["new"][key])
        print(f"# round {round_ + 1} done", file=sys.stderr)
    print(f"{'data | contender':58s} {'old s':>9s} {'new s':>9s}   new/old median [min-max]")
    for key, values in ratios.items():
        print(f"{key:58s} {statistics.median(old_times[key]):9.5f} "
              f"{statistics.median(new_times[key]):9.5f}   {statistics.median(values):.2f} "
              f"[{min(values):.2f}-{max(values):.2f}]")


if __name__ == "__main__":
    main()
