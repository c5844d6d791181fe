"""
A kernel perceptron on a budget, on MNIST
=========================================

Accuracy of the budget kernel perceptron against its budget, on MNIST digits, for
the four ways of keeping the budget.

Even against odd digits of MNIST's 10,000 test images (the shared data set): the
first ``--train`` images (3,000) train a ``KernelPerceptron(kernel="rbf")`` with
``budget=B`` support vectors at most, for 2 epochs, and the other 7,000 score it.
The four ``budget_policy`` values:

- ``"random"``: a mistake on a new example when the budget is full removes a
  random support vector (Cavallanti, Cesa-Bianchi & Gentile 2007);
- ``"oldest"``: it removes the oldest;
- ``"forgetron"``: the self-tuned Forgetron (Dekel, Shalev-Shwartz & Singer
  2008) shrinks every coefficient by the largest factor that keeps the damage of
  its removals within 15/32 of the mistakes, then removes the oldest;
- ``"projectron++"``: Projectron++ (Orabona, Keshet & Caputo 2009) adds a mistake
  only when it lies farther than ``projectron_eta`` (0.1) from the span of the
  support, and otherwise, or once the budget is full, adds its projection on that
  span to the coefficients; margin errors move them too.

No bias (``fit_intercept=False``): the papers' rules have none, and the two
classes are balanced. Prints a table and draws accuracy against budget, with the
unbounded kernel perceptron as the line to reach::

    python examples/budget_mnist.py --out docs/images/budget_mnist.png

The figure it draws (three seeds, their spread as error bars; the seed draws the
order of every epoch and, for ``"random"``, the vectors removed):

.. image:: /images/budget_mnist.png
   :alt: test accuracy against the budget for the four budget policies

Sizes are kept small so that the whole run takes under two minutes of CPU time:
with a budget, each policy scores blocks of training rows against its at most
``B`` support vectors, rather than keeping ``f`` on every row.
"""

import argparse
import gzip
import pathlib
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import KernelPerceptron

SHARED = pathlib.Path(__file__).resolve().parents[2] / "shared" / "data"
BUDGETS = (25, 50, 100, 200, 400)
POLICIES = ("random", "oldest", "forgetron", "projectron++")


def load_mnist(folder=SHARED):
    """MNIST's t10k images scaled to [0, 1], labelled +1 (even digit) or -1 (odd)."""
    with gzip.open(folder / "mnist-t10k-images-idx3-ubyte.gz") as handle:
        X = np.frombuffer(handle.read(), np.uint8, offset=16).reshape(-1, 784) / 255.0
    with gzip.open(folder / "mnist-t10k-labels-idx1-ubyte.gz") as handle:
        digits = np.frombuffer(handle.read(), np.uint8, offset=8)
    return np.ascontiguousarray(X), np.where(digits % 2 == 0, 1, -1)


def accuracy_by_budget(X, y, n_train, budgets=BUDGETS, epochs=2, seeds=(0, 1, 2),
                       policies=POLICIES):
    """``{(policy, budget): (test accuracies over the seeds, support vectors, CPU
    seconds per fit)}``; ``("random", None)`` is the unbounded kernel perceptron.
    The seed draws the order of every epoch and, for ``"random"``, the vectors
    removed."""
    X_train, y_train, X_test, y_test = X[:n_train], y[:n_train], X[n_train:], y[n_train:]
    results = {}
    for policy in policies:
        for budget in (*budgets, None):
            if budget is None and policy != "random":
                continue
            accuracies, start = [], time.process_time()
            for seed in seeds:
                model = KernelPerceptron(kernel="rbf", gamma=0.02, budget=budget,
                                         budget_policy=policy, projectron_eta=0.1,
                                         fit_intercept=False, max_iter=epochs,
                                         random_state=seed)
                with warnings.catch_warnings():  # two epochs never make a clean pass
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    model.fit(X_train, y_train)
                accuracies.append(model.score(X_test, y_test))
            seconds = (time.process_time() - start) / len(seeds)
            results[policy, budget] = (np.array(accuracies), model.support_vectors_.shape[0],
                                       seconds)
    return results


def plot(results, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=120)
    policies = [p for p in POLICIES if any(q == p and b is not None for q, b in results)]
    markers = dict(zip(POLICIES, "osD^"))
    for k, policy in enumerate(policies):
        budgets = np.array(sorted(b for p, b in results if p == policy and b is not None))
        runs = np.array([results[policy, b][0] for b in budgets])
        mean = runs.mean(axis=1)
        spread = [mean - runs.min(axis=1), runs.max(axis=1) - mean]
        shift = 1.06 ** (k - (len(policies) - 1) / 2)  # side by side on the log axis
        ax.errorbar(budgets * shift, mean, yerr=spread, marker=markers[policy], capsize=3,
                    label=f'"{policy}"')
    unbounded, n_support, _ = results["random", None]
    ax.axhline(unbounded.mean(), color="grey", linestyle="--",
               label=f"no budget ({n_support} support vectors)")
    ax.set(xscale="log", xlabel="budget (support vectors kept)", ylabel="test accuracy",
           title="Budget kernel perceptron, MNIST even vs odd (RBF, 2 epochs)")
    ax.set_xticks(budgets, [str(b) for b in budgets])
    ax.minorticks_off()
    ax.legend(title=f"budget_policy (mean, min–max of {runs.shape[1]} seeds)",
              loc="lower right", fontsize="small", title_fontsize="small")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--train", type=int, default=3000)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--out", default="budget_mnist.png")
    args = parser.parse_args()
    X, y = load_mnist()
    results = accuracy_by_budget(X, y, args.train, epochs=args.epochs)
    print(f"{'policy':13} {'budget':>6} {'accuracy mean [min-max]':>24} {'support':>8} "
          f"{'CPU s/fit':>9}")
    for (policy, budget), (runs, n_support, seconds) in results.items():
        spread = f"{runs.mean():.4f} [{runs.min():.4f}-{runs.max():.4f}]"
        print(f"{policy:13} {budget or 'none':>6} {spread:>24} {n_support:8d} {seconds:9.1f}")
    plot(results, args.out)
    print(f"figure: {args.out}")


if __name__ == "__main__":
    main()
