"""The online family's options, measured: the numbers behind ``covariance="auto"``,
docs/user_guide/choosing.rst and OnlineGradientDescent's options.

    python benchmarks/bench_family_options.py                       # every section, ~15 min
    python benchmarks/bench_family_options.py covariance            # one section
    python benchmarks/bench_family_options.py first-order ogd --quick

Sections (accuracy on a held-out test set, CPU seconds by ``time.process_time``):

``covariance``
    AROW and SoftConfidenceWeighted (SCW-I) with ``covariance="full"`` and
    ``"diagonal"``, default parameters otherwise (``random_state=0``), on a9a
    (test: a9a.t), w8a (test: the last 20 % of the rows; the file has no test
    split), pendigits (test: pendigits.t; 10 classes one-vs-rest) and MNIST
    (only the t10k file is in shared/data: its first 7,000 images to train, the
    last 3,000 to test, 10 classes one-vs-rest, pixels / 255): the whole
    ``fit`` (compilation left out: one warm-up fit first), its epochs, and the
    test accuracy.
``covariance-multiclass``
    The same for MulticlassAROW and MulticlassSCW (one shared ``Σ``) on pendigits
    and MNIST.
``first-order``
    The marginal epoch (``bench_sparse.marginal``: ``fit`` with ``1 + E`` epochs
    minus ``fit`` with 1, over ``E``; rows in the stored order) of the
    perceptron, ROMMA, ALMA (p = 2 and p = 3), the p-norm perceptron, online
    gradient descent and the Winnows on a9a; one epoch over the first 20,000 rows
    of the Zipf 2**20-feature CSR set of ``bench_all.py`` (1,000 rows for ALMA
    p = 3 and the p-norm perceptron, whose updates raise every weight to a
    power); and the test accuracy of every rule on a9a.t after a default fit
    (``random_state=0``), with and without ``average=True``.
``ogd``
    OnlineGradientDescent's learning-rate schedules, penalties and averaging on
    a9a (test a9a.t) and w8a: accuracy and CPU of a default-otherwise fit.

The first line printed names the CPU and the library versions.
"""

import argparse
import gzip
import pathlib
import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_all import zipf_csr  # noqa: E402
from bench_online_family import machine  # noqa: E402
from bench_sparse import marginal  # noqa: E402

from rosenblatt import Perceptron  # noqa: E402
from rosenblatt.datasets import load_libsvm  # noqa: E402
from rosenblatt.linear_model import (  # noqa: E402
    ALMA,
    AROW,
    ROMMA,
    BalancedWinnow,
    MulticlassAROW,
    MulticlassSCW,
    OnlineGradientDescent,
    PNormPerceptron,
    SoftConfidenceWeighted,
    Winnow,
)

warnings.simplefilter("ignore")
SHARED = ROOT.parent / "shared" / "data"


def cpu(function):
    start = time.process_time()
    result = function()
    return time.process_time() - start, result


def libsvm(name, n_features):
    X, y = load_libsvm(SHARED / name, n_features=n_features)
    return sp.csr_matrix(X, dtype=np.float64), np.asarray(y).astype(int)


def mnist():
    with gzip.open(SHARED / "mnist-t10k-images-idx3-ubyte.gz") as handle:
        X = np.frombuffer(handle.read(), np.uint8, offset=16).reshape(-1, 784) / 255.0
    with gzip.open(SHARED / "mnist-t10k-labels-idx1-ubyte.gz") as handle:
        y = np.frombuffer(handle.read(), np.uint8, offset=8).astype(int)
    X = np.ascontiguousarray(X)
    return X[:7000], y[:7000], X[7000:], y[7000:]


def splits(names):
    """``{name: (X_train, y_train, X_test, y_test)}`` for the sets that exist."""
    sets = {}
    for name in names:
        if name == "a9a":
            sets[name] = libsvm("a9a", 123) + libsvm("a9a.t", 123)
        elif name == "w8a":
            X, y = libsvm("w8a", 300)
            cut = int(0.8 * X.shape[0])
            sets[name] = (X[:cut], y[:cut], X[cut:], y[cut:])
        elif name == "pendigits":
            sets[name] = libsvm("pendigits", 16) + libsvm("pendigits.t", 16)
        elif name == "mnist":
            sets[name] = mnist()
    return sets


def fit_and_score(make, X, y, X_test, y_test):
    """CPU seconds of ``make().fit(X, y)`` (after a one-epoch warm-up fit on the same
    arrays, which compiles the kernels for their types: a slice of a CSR matrix may
    have other index types), its epochs, and its test accuracy."""
    make().set_params(max_iter=1).fit(X, y)
    seconds, model = cpu(lambda: make().fit(X, y))
    return seconds, int(np.max(model.n_iter_)), model.score(X_test, y_test), model


# ----------------------------------------------------------------------- covariance

def covariance_section(quick, multiclass=False):
    names = ("a9a", "pendigits") if quick else ("a9a", "w8a", "pendigits", "mnist")
    rules = (("AROW", AROW), ("SCW", SoftConfidenceWeighted))
    if multiclass:
        names = [name for name in names if name in ("pendigits", "mnist")]
        rules = (("MAROW", MulticlassAROW), ("MSCW", MulticlassSCW))
    print("\n## covariance: full against diagonal (default parameters, random_state=0)")
    print(f"{'set':10} {'D':>5} {'rule':5} {'covariance':10} {'epochs':>6} {'CPU s':>8} "
          f"{'accuracy':>8}  full/diagonal CPU")
    for name, (X, y, X_test, y_test) in splits(names).items():
        for rule, cls in rules:
            seconds = {}
            for covariance in ("full", "diagonal"):
                s, epochs, accuracy, _ = fit_and_score(
                    lambda: cls(covariance=covariance, random_state=0), X, y, X_test, y_test)
                seconds[covariance] = s
                ratio = f"  {seconds['full'] / max(s, 1e-9):.1f}x" if covariance == "diagonal" \
                    else ""
                print(f"{name:10} {X.shape[1] + 1:5d} {rule:5} {covariance:10} {epochs:6d} "
                      f"{s:8.2f} {accuracy:8.4f}{ratio}", flush=True)


# ---------------------------------------------------------------------- first-order

FIRST_ORDER = {
    "Perceptron": lambda **k: Perceptron(**k),
    "ROMMA": lambda **k: ROMMA(**k),
    "ALMA p=2": lambda **k: ALMA(**k),
    "ALMA p=3": lambda **k: ALMA(p=3.0, **k),
    "PNormPerceptron": lambda **k: PNormPerceptron(**k),
    "OnlineGradientDescent": lambda **k: OnlineGradientDescent(**k),
    "Winnow": lambda **k: Winnow(**k),
    "BalancedWinnow": lambda **k: BalancedWinnow(**k),
}


#: rules whose update renormalises the whole weight vector with a power per component
#: (g_p): on 2**20 features an epoch of the Zipf set takes hours, so they get fewer rows
SLOW_ON_WIDE = ("ALMA p=3", "PNormPerceptron")


def first_order_section(quick):
    print("\n## first-order rules: marginal epoch on a9a (CPU s, rows in stored order)")
    X, y, X_test, y_test = splits(["a9a"])["a9a"]
    for rule, make in FIRST_ORDER.items():
        build = (lambda e, make=make: make(shuffle="none", max_iter=e, tol=None))
        build(1).fit(X, y)  # compiles for these arrays' types (a slice's may differ)
        print(f"{'a9a':8} {rule:22} {marginal(build, X, y, 3):8.4f} s/epoch", flush=True)
    n = 2_000 if quick else 20_000
    Z, z = zipf_csr(n, 2**20, 50, 2)
    print(f"\n## first-order rules: one epoch over the first rows of the Zipf {n // 1000}k x "
          "2^20 set (from w = 0, stored order; CPU s, and µs a row)")
    for rule, make in FIRST_ORDER.items():
        if rule.startswith(("Winnow", "BalancedWinnow")):
            continue  # features of either sign: Winnow's positive weights do not fit
        rows = min(n, 1_000) if rule in SLOW_ON_WIDE else n
        build = make(shuffle="none", max_iter=1, tol=None)
        build.fit(Z[:100], z[:100])  # the same index types and prefetching as Z
        seconds, _ = cpu(lambda: make(shuffle="none", max_iter=1, tol=None).fit(Z[:rows],
                                                                               z[:rows]))
        print(f"{rows:6d} rows  {rule:22} {seconds:8.3f} s  {1e6 * seconds / rows:9.1f} µs a row",
              flush=True)
    print("\n## first-order rules: a9a.t accuracy after a default fit (random_state=0)")
    for rule, make in FIRST_ORDER.items():
        for average in (False, True):
            label = rule + (" average" if average else "")
            try:
                s, epochs, accuracy, _ = fit_and_score(
                    lambda: make(random_state=0, **({"average": True} if average else {})), X,
                    y, X_test, y_test)
            except ValueError as error:  # Winnow's weights underflow on a9a's 0/1 rows
                print(f"{label:30} refused: {str(error)[:90]}...", flush=True)
                continue
            print(f"{label:30} epochs {epochs:5d}  CPU {s:7.2f} s  accuracy {accuracy:.4f}",
                  flush=True)
            if rule == "Perceptron":
                break  # AveragedPerceptron is its averaged form


# ------------------------------------------------------------------------------ ogd

OGD_OPTIONS = {
    "invscaling eta=1 (default)": {},
    "constant eta=0.01": {"learning_rate": "constant", "eta": 0.01},
    "optimal alpha=1e-4 l2": {"learning_rate": "optimal", "penalty": "l2"},
    "adaptive eta=0.01": {"learning_rate": "adaptive", "eta": 0.01},
    "invscaling l2 alpha=1e-4": {"penalty": "l2"},
    "invscaling l1 alpha=1e-4": {"penalty": "l1"},
    "invscaling elasticnet": {"penalty": "elasticnet"},
    "invscaling average": {"average": True},
    "optimal l2 average": {"learning_rate": "optimal", "penalty": "l2", "average": True},
}


def ogd_section(quick):
    print("\n## OnlineGradientDescent options (hinge, random_state=0)")
    for name, (X, y, X_test, y_test) in splits(["a9a"] if quick else ["a9a", "w8a"]).items():
        for label, options in OGD_OPTIONS.items():
            s, epochs, accuracy, model = fit_and_score(
                lambda: OnlineGradientDescent(random_state=0, **options), X, y, X_test,
                y_test)
            print(f"{name:5} {label:28} epochs {epochs:5d}  CPU {s:6.2f} s  "
                  f"accuracy {accuracy:.4f}  nonzero weights {np.count_nonzero(model.coef_)}",
                  flush=True)


SECTIONS = {"covariance": covariance_section,
            "covariance-multiclass": lambda quick: covariance_section(quick, multiclass=True),
            "first-order": first_order_section,
            "ogd": ogd_section}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", help=f"any of {', '.join(SECTIONS)}")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    unknown = set(args.sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections {sorted(unknown)}; choose from {list(SECTIONS)}")
    print(machine()[0])
    for section in args.sections or SECTIONS:
        SECTIONS[section](args.quick)


if __name__ == "__main__":
    main()
