"""The online mistake rate of every binary online rule against the examples seen.

    pip install -e ".[bench]"        # matplotlib
    python benchmarks/bench_online_mistakes.py              # ~5 minutes
    python benchmarks/bench_online_mistakes.py --orders 5   # quicker

One pass over a9a and over w8a (LIBSVM, shared data), in ``--orders`` random row
orders (seeds 0, 1, ...): each rule with its default parameters learns the rows
with ``partial_fit`` over ``--blocks`` consecutive blocks of the order (each
block in its stored order, ``shuffle="none"``). ``n_mistakes_`` gains one
entry per ``partial_fit`` call, the mistakes of that call's block (an epoch is
a call; checked below): their running sum over the examples seen so far is the
online mistake rate, ``y w·x <= 0`` counted on each row before the rule learns
it (LIBOL's measure). The binary ``PassiveAggressiveClassifier`` keeps no
``n_mistakes_`` (it updates on margin errors too, so ``n_updates_`` is not its
mistakes): PA is drawn as ``MulticlassPassiveAggressive`` on the two classes,
which has it; the perceptron's mistakes are its updates (``n_updates_``, margin 0).
Writes ``docs/images/online_mistakes.png`` (mean over the orders, min–max band)
and prints the final rates, mean ± sd [min–max] over the orders.
"""

import argparse
import pathlib
import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rosenblatt import Perceptron  # noqa: E402
from rosenblatt.datasets import load_libsvm  # noqa: E402
from rosenblatt.linear_model import (  # noqa: E402
    ALMA,
    AROW,
    IELLIP,
    NAROW,
    NHERD,
    ROMMA,
    BalancedWinnow,
    ConfidenceWeighted,
    MulticlassPassiveAggressive,
    OnlineGradientDescent,
    PNormPerceptron,
    SecondOrderPerceptron,
    SoftConfidenceWeighted,
    Winnow,
)

warnings.simplefilter("ignore")
SHARED = ROOT.parent / "shared" / "data"
IMAGE = ROOT / "docs" / "images" / "online_mistakes.png"

#: label -> (factory, second order?)
RULES = {
    "Perceptron": (lambda: Perceptron(shuffle="none"), False),
    "PA-I (multiclass form)": (lambda: MulticlassPassiveAggressive(shuffle="none"), False),
    "ROMMA": (lambda: ROMMA(shuffle="none"), False),
    "ALMA_2": (lambda: ALMA(shuffle="none"), False),
    "OGD (hinge)": (lambda: OnlineGradientDescent(shuffle="none"), False),
    "p-norm": (lambda: PNormPerceptron(shuffle="none"), False),
    "Winnow": (lambda: Winnow(shuffle="none"), False),
    "Balanced Winnow": (lambda: BalancedWinnow(shuffle="none"), False),
    "SOP": (lambda: SecondOrderPerceptron(shuffle="none"), True),
    "CW": (lambda: ConfidenceWeighted(shuffle="none"), True),
    "AROW": (lambda: AROW(shuffle="none"), True),
    "AROW diagonal": (lambda: AROW(covariance="diagonal", shuffle="none"), True),
    "NAROW": (lambda: NAROW(shuffle="none"), True),
    "NHERD": (lambda: NHERD(shuffle="none"), True),
    "IELLIP": (lambda: IELLIP(shuffle="none"), True),
    "SCW-I": (lambda: SoftConfidenceWeighted(shuffle="none"), True),
    "SCW-I diagonal": (lambda: SoftConfidenceWeighted(covariance="diagonal",
                                                      shuffle="none"), True),
    "SCW-II": (lambda: SoftConfidenceWeighted(variant="II", shuffle="none"), True),
}

#: one pass over a9a, the literature's online mistake rates (%): Crammer et al.,
#: Wang, Zhao & Hoi (ICML 2012) and LIBOL's tables
LITERATURE_A9A = {"Perceptron": "21.8", "AROW": "15.5-16", "NHERD": "15.5-16",
                  "SCW-I": "15.5-16", "SCW-II": "15.5-16"}


def curve(make, X, y, order, blocks):
    """Cumulative mistakes after each block of ``order``, one partial_fit per block."""
    model = make()
    classes = np.unique(y)
    counts, seen = [], []
    total = 0
    for k, block in enumerate(np.array_split(order, blocks)):
        model.partial_fit(X[block], y[block], classes=classes)
        if isinstance(model, Perceptron):
            # no n_mistakes_: the perceptron updates on its mistakes only (margin 0),
            # and n_updates_ runs over the calls
            total = int(model.n_updates_)
        else:
            mistakes = np.asarray(model.n_mistakes_)
            # n_mistakes_ after the k-th partial_fit call has one entry per call (one
            # epoch = one block), the last being this call's: checked, then summed
            if mistakes.shape != (k + 1,):
                raise AssertionError(f"n_mistakes_ after call {k + 1}: {mistakes.shape}")
            total += int(mistakes[-1])
            assert total == int(mistakes.sum())
        counts.append(total)
        seen.append((seen[-1] if seen else 0) + len(block))
    return np.array(seen), np.array(counts)


def check_per_call(X, y):
    """n_mistakes_ of partial_fit is per call: the blocks' sum equals one fit's pass."""
    order = np.arange(X.shape[0])
    _, counts = curve(lambda: AROW(covariance="diagonal", shuffle="none"), X, y, order, 10)
    whole = AROW(covariance="diagonal", shuffle="none", max_iter=1).fit(X, y).n_mistakes_[0]
    assert counts[-1] == whole, (counts[-1], whole)
    _, counts = curve(lambda: Perceptron(shuffle="none"), X, y, order, 10)
    once = Perceptron(shuffle="none", max_iter=1).fit(X, y).n_updates_
    assert counts[-1] == once, (counts[-1], once)
    return int(whole)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orders", type=int, default=20)
    parser.add_argument("--blocks", type=int, default=200)
    parser.add_argument("--no-plot", action="store_true")
    args = parser.parse_args(argv)
    sets = {}
    for name, features in (("a9a", 123), ("w8a", 300)):
        X, y = load_libsvm(SHARED / name, n_features=features)
        sets[name] = (sp.csr_matrix(X, dtype=np.float64), np.asarray(y).astype(int))
    whole = check_per_call(*sets["a9a"])
    print(f"# {args.orders} random orders, one pass, partial_fit over {args.blocks} blocks; "
          f"default parameters. Check: a9a's 10 partial_fit calls sum to one fit's "
          f"{whole} mistakes (AROW diagonal, stored order).\n")
    results = {}
    for name, (X, y) in sets.items():
        print(f"{name}: {X.shape[0]} rows, {X.shape[1]} features, "
              f"{np.mean(y > 0):.1%} positive")
        print(f"  {'rule':22s} {'online mistakes %':>26s} {'s/pass':>7s}"
              + ("  literature" if name == "a9a" else ""))
        for label, (make, _) in RULES.items():
            rates, seconds = [], []
            for seed in range(args.orders):
                order = np.random.default_rng(seed).permutation(X.shape[0])
                start = time.process_time()
                seen, counts = curve(make, X, y, order, args.blocks)
                seconds.append(time.process_time() - start)
                rates.append(counts / seen)
            rates = np.array(rates) * 100
            results[name, label] = (seen, rates)
            final = rates[:, -1]
            literature = LITERATURE_A9A.get(label, "") if name == "a9a" else ""
            print(f"  {label:22s} {final.mean():6.2f} ± {final.std():4.2f} "
                  f"[{final.min():5.2f}-{final.max():5.2f}] {np.median(seconds):7.2f}"
                  f"  {literature}")
        print()
    if not args.no_plot:
        plot(results, sets, args)


def plot(results, sets, args):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(sets), figsize=(13, 5.5), sharey=False)
    colours = plt.get_cmap("tab20").colors
    for ax, name in zip(np.atleast_1d(axes), sets):
        for k, (label, (_, second)) in enumerate(RULES.items()):
            seen, rates = results[name, label]
            mean = rates.mean(axis=0)
            colour = colours[k % len(colours)]
            ax.plot(seen, mean, color=colour, lw=1.6 if second else 1.2,
                    ls="-" if second else "--", label=f"{label} ({mean[-1]:.1f} %)")
            ax.fill_between(seen, rates.min(axis=0), rates.max(axis=0), color=colour,
                            alpha=0.15, lw=0)
        finals = [results[name, label][1].mean(axis=0)[-1] for label in RULES]
        ax.set_ylim(max(0, min(finals) * 0.7), min(60, max(finals) * 1.6))
        ax.set_xscale("log")
        ax.set_xlim(seen[0], seen[-1])
        ax.set_xlabel("examples seen")
        ax.set_ylabel("online mistake rate (%)")
        ax.set_title(f"{name}: one pass, {args.orders} random orders (mean, min–max band)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, ncol=2, loc="upper right")
    figure.tight_layout()
    IMAGE.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(IMAGE, dpi=110)
    print(f"wrote {IMAGE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
