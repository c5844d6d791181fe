"""The kernel perceptron against scikit-learn's SVC: interleaved rounds, CPU time.

    pip install -e ".[bench]"
    python benchmarks/bench_kernel.py              # ~5 minutes
    python benchmarks/bench_kernel.py --quick      # 2,000 rows, a minute

MNIST's 10,000 test images (the shared data set), even digits against odd: the
first 8,000 train, the last 2,000 score. Both sides use the same polynomial
kernel ``(⟨x, x'⟩ / 784 + 1)^degree`` and a 200 MB kernel cache; ours is
``KernelPerceptron(voting="average", max_iter=10)`` (10 epochs, shuffled every
epoch), theirs ``SVC(kernel="poly")`` with its defaults otherwise. Every round
fits both, one after the other, by CPU time (``time.process_time``, which counts
every thread of the matrix products); the table gives per-round speed-ups
(SVC's time / ours) as median [min-max], and each side's test accuracy.
"""

import argparse
import pathlib
import statistics
import sys
import time

from bench_sparse import machine

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "examples"))

from budget_mnist import load_mnist  # noqa: E402
from sklearn.svm import SVC  # noqa: E402

from rosenblatt import KernelPerceptron  # noqa: E402


def timed_fit(model, X, y):
    start = time.process_time()
    model.fit(X, y)
    return time.process_time() - start, model


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--degrees", type=int, nargs="+", default=[2, 3, 4])
    args = parser.parse_args(argv)
    rounds = args.rounds or (2 if args.quick else 3)
    X, y = load_mnist()
    n_train = 2000 if args.quick else 8000
    X_train, y_train, X_test, y_test = X[:n_train], y[:n_train], X[8000:], y[8000:]
    print(f"# {machine()}")
    print(f"# MNIST even vs odd, {n_train} training rows, {len(y_test)} test rows; "
          f"{rounds} rounds, CPU time")
    print(f"\n{'kernel':22s} {'ours s':>8s} {'SVC s':>8s} {'speed-up vs SVC':>20s} "
          f"{'ours acc':>9s} {'SVC acc':>8s}")
    failures = []
    for degree in args.degrees:
        kernel = dict(kernel="poly", degree=degree, gamma=1 / X.shape[1], coef0=1.0)
        ratios, ours_times, theirs_times = [], [], []
        for _ in range(rounds):
            ours_time, ours = timed_fit(KernelPerceptron(voting="average", max_iter=10,
                                                         random_state=0, **kernel),
                                        X_train, y_train)
            theirs_time, theirs = timed_fit(SVC(cache_size=200, **kernel), X_train, y_train)
            ratios.append(theirs_time / ours_time)
            ours_times.append(ours_time)
            theirs_times.append(theirs_time)
        ours_accuracy, theirs_accuracy = ours.score(X_test, y_test), theirs.score(X_test, y_test)
        ratio = statistics.median(ratios)
        print(f"{'poly, degree ' + str(degree):22s} {statistics.median(ours_times):8.2f} "
              f"{statistics.median(theirs_times):8.2f} "
              f"{f'{ratio:.2f}x [{min(ratios):.2f}-{max(ratios):.2f}]':>20s} "
              f"{ours_accuracy:9.4f} {theirs_accuracy:8.4f}")
        if ratio < 1.0 or ours_accuracy < theirs_accuracy:
            failures.append(f"degree {degree}: {ratio:.2f}x, accuracy {ours_accuracy:.4f} "
                            f"vs {theirs_accuracy:.4f}")
    print()
    for failure in failures:
        print(f"FAIL  averaged KernelPerceptron (10 epochs) faster than SVC at equal or "
              f"better accuracy, {failure}")
    if not failures:
        print("PASS  averaged KernelPerceptron (10 epochs) faster than SVC at equal or better "
              "accuracy, every degree")


if __name__ == "__main__":
    main()
