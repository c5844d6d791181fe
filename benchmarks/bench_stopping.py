"""The one stopping rule, measured: separable sets, scaled data, real data against scikit-learn.

    pip install -e ".[bench]"
    python benchmarks/bench_stopping.py               # ~3-4 minutes of CPU (6 on a busy machine)
    python benchmarks/bench_stopping.py --quick       # under a minute
    python benchmarks/bench_stopping.py --seeds 3     # seeds of parts 3 and 4

The rule (``rosenblatt/base/_stopping.py``): a mistake-free epoch ends training;
else a stall of the epoch's mistakes (not below the fewest so far by
``tol × rows`` for ``n_iter_no_change`` epochs) ends it, unless a linear program
proves the rows separable (``_separability.py``), in which case the run waits for
the mistake-free epoch; ``max_iter`` cuts a run and warns. ``stop_reason_`` says
which. Four measurements, every estimator with its defaults:

1. **Separable sets.** Every mistake-driven estimator (the perceptron and its
   pocket, averaged, voted, multiclass and kernel forms, passive-aggressive) and
   every class of the online family, plus scikit-learn's ``Perceptron()`` as the
   "before", on (a) Kowalczyk's 14 points x 50 seeds, (b) AND, OR and NAND x 100
   seeds each, (c) 150 random separable 2-D sets of 20-100 points (uniform in
   [-1, 1]², labelled by a random line with an offset; set ``s`` drawn by
   ``RandomState(s)``, fitted with ``random_state=s``; the one-class draws are
   skipped), (d) XOR x 100 seeds for the degree-2 polynomial kernel. Columns: runs
   whose training predictions are not all right, runs that raised a
   ``ConvergenceWarning``, ``converged_``, the stop reasons, epochs
   (``n_iter_``), the runs in which the separability program was solved ("LP"),
   and CPU milliseconds per fit.
2. **Scale.** ``Perceptron(fit_intercept=False)`` on Kowalczyk's points times c,
   seeds 0-9: the same ``n_iter_`` and ``n_updates_`` as at c = 1? (and
   scikit-learn's ``Perceptron(fit_intercept=False)``'s ``n_iter_`` beside it).
3. **Non-separable real data against scikit-learn.** a9a (tested on a9a.t), w8a
   and MNIST's 10,000 test images (10 classes one-vs-rest, pixels / 255; both
   with a stratified 80/20 split drawn by ``random_state=0``): our
   ``Perceptron()`` against scikit-learn's, ``random_state`` = seed. The seeds are
   interleaved (even seeds ours first, odd seeds theirs first); the epoch ratio is
   taken per seed.
4. **The online family's default fits** on the same three sets
   (``covariance="diagonal"`` where a class takes ``covariance``; AROW's default
   full covariance on a9a too): epochs, stop reason, warnings (their first 100
   characters), test accuracy and CPU seconds (every seed is a round that fits
   every class once, the order rotated from round to round; one untimed
   ``max_iter=1`` fit per class and set first, so that compilation is left out).

CPU time by ``time.process_time``; the header records the CPU model, the
versions and the command line. ``LP`` reads ``model._problems[i].certified``
(private, read only).
"""

import argparse
import datetime
import gzip
import os
import pathlib
import platform
import shlex
import statistics
import subprocess
import sys
import time
import warnings
from collections import Counter

import numpy as np
import scipy
import scipy.sparse as sp
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SklearnPerceptron
from sklearn.model_selection import train_test_split

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rosenblatt import linear_model as lm  # noqa: E402
from rosenblatt.base._separability import (  # noqa: E402
    kernel_separable,
    linearly_separable,
)
from rosenblatt.datasets import load_libsvm, load_svm_succinctly  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
CORNERS = np.array([[0, 0], [0, 1], [1, 0], [1, 1.0]])
GATES = {"AND": np.array([0, 0, 0, 1]), "OR": np.array([0, 1, 1, 1]),
         "NAND": np.array([1, 1, 1, 0])}
XOR = np.array([0, 1, 1, 0])

#: the mistake-driven estimators of the issue, then the online family
MISTAKE_DRIVEN = {
    "Perceptron": lambda s: lm.Perceptron(random_state=s),
    "PocketPerceptron": lambda s: lm.PocketPerceptron(random_state=s),
    "AveragedPerceptron": lambda s: lm.AveragedPerceptron(random_state=s),
    "VotedPerceptron": lambda s: lm.VotedPerceptron(random_state=s),
    "MulticlassPerceptron": lambda s: lm.MulticlassPerceptron(random_state=s),
    'KernelPerceptron("linear")': lambda s: lm.KernelPerceptron(kernel="linear",
                                                                random_state=s),
    'KernelPerceptron("poly", 2)': lambda s: lm.KernelPerceptron(kernel="poly", degree=2,
                                                                 random_state=s),
    "PassiveAggressiveClassifier": lambda s: lm.PassiveAggressiveClassifier(random_state=s),
}
FAMILY = ("ROMMA", "ALMA", "OnlineGradientDescent", "Winnow", "BalancedWinnow",
          "PNormPerceptron", "SecondOrderPerceptron", "ConfidenceWeighted", "AROW", "NAROW",
          "NHERD", "IELLIP", "SoftConfidenceWeighted", "MulticlassPassiveAggressive",
          "MulticlassAROW", "MulticlassSCW")
SKLEARN = "sklearn Perceptron()"


def family(name, diagonal=False):
    cls = getattr(lm, name)
    extra = {"covariance": "diagonal"} if diagonal and "covariance" in cls().get_params() \
        else {}
    return lambda s, **more: cls(random_state=s, **extra, **more)


def all_separable_contenders():
    contenders = dict(MISTAKE_DRIVEN)
    contenders.update({name: family(name) for name in FAMILY})
    contenders[SKLEARN] = lambda s: SklearnPerceptron(random_state=s)
    return contenders


# ------------------------------------------------------------------ the machine

def header(args):
    import numba

    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    command = "python " + " ".join(shlex.quote(a) for a in [
        os.path.relpath(sys.argv[0], ROOT), *sys.argv[1:]])
    print(f"# bench_stopping — {datetime.date.today().isoformat()}, commit {commit}")
    print(f"# command: {command}")
    print(f"# CPU: {model}, {os.cpu_count()} cores; Python {platform.python_version()}, "
          f"numpy {np.__version__}, scipy {scipy.__version__}, scikit-learn "
          f"{sklearn.__version__}, numba {numba.__version__}")
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    print(f"# load average at the start: {load}; CPU time by time.process_time; spreads are "
          "median [min-max]\n")


# ------------------------------------------------------------------ helpers

def fit_watched(make, seed, X, y):
    """(model, ConvergenceWarning texts, CPU seconds) of one default fit."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start = time.process_time()
        model = make(seed).fit(X, y)
        seconds = time.process_time() - start
    texts = [str(w.message) for w in caught if issubclass(w.category, ConvergenceWarning)]
    return model, texts, seconds


def stop_reason(model):
    """Ours: ``stop_reason_``; scikit-learn's: ``max_iter`` when it ran them all,
    else its loss tolerance."""
    if hasattr(model, "stop_reason_"):
        return model.stop_reason_
    return "max_iter" if model.n_iter_ >= model.max_iter else "tol (loss)"


def asked_lp(model):
    return any(getattr(p, "certified", False) for p in getattr(model, "_problems", ()))


def spread(values, fmt="{:.2f}"):
    values = list(values)
    return (f"{fmt.format(statistics.median(values))} "
            f"[{fmt.format(min(values))}–{fmt.format(max(values))}]")


def reasons(counter):
    short = {"mistake_free": "mf", "tol": "tol", "max_iter": "max_iter",
             "tol (loss)": "loss tol", "early_stopping": "es"}
    return ", ".join(f"{short.get(k, k)} {v}" for k, v in counter.most_common())


def random_separable(seed):
    """tests/test_stopping.py's generator: n in [20, 100], uniform in [-1, 1]²,
    labelled by a random line with an offset in [-0.5, 0.5]."""
    rng = np.random.RandomState(seed)
    n = rng.randint(20, 101)
    X = rng.uniform(-1, 1, (n, 2))
    y = np.where(X @ rng.randn(2) + rng.uniform(-0.5, 0.5) > 0, 1, -1)
    return X, y


def random_sets(count):
    sets, seed = [], 0
    while len(sets) < count:
        X, y = random_separable(seed)
        if len(set(y)) == 2:
            sets.append((seed, X, y))
        seed += 1
    return sets, seed - 1


# ------------------------------------------------------------- 1. separable sets

def separable_runs(make, runs):
    """Rows of one table cell group over ``runs`` = [(seed, X, y)]."""
    stats = {"runs": 0, "unseparated": 0, "warned": 0, "converged": 0, "epochs": [],
             "reasons": Counter(), "lp": 0, "ms": [], "bad_warn": 0, "claims": 0}
    for seed, X, y in runs:
        model, texts, seconds = fit_watched(make, seed, X, y)
        wrong = bool((model.predict(X) != y).any())
        reason = stop_reason(model)
        converged = bool(getattr(model, "converged_", False))
        stats["runs"] += 1
        stats["unseparated"] += wrong
        stats["warned"] += bool(texts)
        stats["converged"] += converged
        stats["claims"] += converged and wrong  # converged_ True on unseparated rows
        stats["bad_warn"] += bool(texts) != (reason == "max_iter")
        stats["epochs"].append(int(model.n_iter_))
        stats["reasons"][reason] += 1
        stats["lp"] += asked_lp(model)
        stats["ms"].append(1000 * seconds)
    return stats


def separable_table(title, contenders, runs, warm):
    print(f"### {title}\n")
    print("| estimator | unseparated / runs | warned | converged_ | converged_ but "
          "unseparated | stops | epochs median | epochs max | LP | ms/fit |")
    print("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|")
    problems = []
    for name, make in contenders.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            make(0).fit(*warm)  # compile (or load) the kernels outside the timing
        s = separable_runs(make, runs)
        converged = "—" if name == SKLEARN else str(s["converged"])
        lp = "—" if name == SKLEARN else str(s["lp"])
        claims = "—" if name == SKLEARN else str(s["claims"])
        print(f"| {name} | {s['unseparated']} / {s['runs']} | {s['warned']} | {converged} | "
              f"{claims} | {reasons(s['reasons'])} | {statistics.median(s['epochs']):g} | "
              f"{max(s['epochs'])} | {lp} | {statistics.median(s['ms']):.1f} |")
        if name != SKLEARN and s["bad_warn"]:
            problems.append(f"{title}, {name}: {s['bad_warn']} runs")
    print()
    return problems


def part_separable(args):
    print("## 1. Separable sets, defaults\n")
    contenders = all_separable_contenders()
    X, y = load_svm_succinctly()
    n_kow, n_gate, n_random = (10, 10, 30) if args.quick else (50, 100, 150)
    kowalczyk = [(s, X, y) for s in range(n_kow)]
    gates = [(s, CORNERS, labels) for labels in GATES.values() for s in range(n_gate)]
    sets, last_seed = random_sets(n_random)
    lp_says = sum(linearly_separable(Xs, ys) is True for _, Xs, ys in sets)
    print(f"The random sets: the first {n_random} two-class draws of RandomState(0…"
          f"{last_seed}); the linear program calls {lp_says} of {n_random} separable. "
          f"Kowalczyk's points: separable = {linearly_separable(X, y)}; AND/OR/NAND: "
          f"{[linearly_separable(CORNERS, 2 * g - 1) for g in GATES.values()]}.\n")
    problems = []
    problems += separable_table(f"(a) Kowalczyk's 14 points × {n_kow} seeds", contenders,
                                kowalczyk, (X, y))
    problems += separable_table(f"(b) AND, OR, NAND × {n_gate} seeds "
                                f"({3 * n_gate} runs)", contenders, gates, (CORNERS, GATES["AND"]))
    problems += separable_table(f"(c) {n_random} random separable 2-D sets, one seed each",
                                contenders, sets, (sets[0][1], sets[0][2]))
    poly = MISTAKE_DRIVEN['KernelPerceptron("poly", 2)']
    gram = (CORNERS @ CORNERS.T / 2 + 1.0) ** 2 + 1.0  # gamma = 1/n_features, coef0 = 1
    print(f"XOR in the degree-2 polynomial kernel's space: separable = "
          f"{kernel_separable(gram, 2 * XOR - 1)}\n")
    problems += separable_table(f"(d) XOR × {n_gate} seeds, degree-2 polynomial kernel",
                                {'KernelPerceptron("poly", 2)': poly},
                                [(s, CORNERS, XOR) for s in range(n_gate)], (CORNERS, XOR))
    print("Ours: a ConvergenceWarning exactly when stop_reason_ == 'max_iter': "
          + ("yes, in every run" if not problems else "NO — " + "; ".join(problems)) + "\n")


# ------------------------------------------------------------------- 2. scale

def part_scale(args):
    print("## 2. Scale: Perceptron(fit_intercept=False) on Kowalczyk's points × c\n")
    X, y = load_svm_succinctly()
    seeds = range(3 if args.quick else 10)
    step = 50 if args.quick else 10
    scales = [(f"2^{k}", 2.0 ** k) for k in range(-100, 101, step)] + \
        [("1e-30", 1e-30), ("1e30", 1e30)]

    def ours(c, s):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m = lm.Perceptron(fit_intercept=False, random_state=s).fit(c * X, y)
        return m.n_iter_, m.n_updates_, m.stop_reason_, bool((m.predict(c * X) == y).all())

    def theirs(c, s):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return SklearnPerceptron(fit_intercept=False, random_state=s).fit(c * X, y).n_iter_

    reference = {s: ours(1.0, s) for s in seeds}
    sk_reference = {s: theirs(1.0, s) for s in seeds}
    print(f"Through the origin the points are separable = "
          f"{linearly_separable(X, y, fit_intercept=False)} (the linear program), so every "
          "run ends by the stall of its mistakes. "
          f"Seeds {seeds.start}–{seeds.stop - 1}; at c = 1 ours runs n_iter_ "
          f"{[reference[s][0] for s in seeds]}, stop_reason_ "
          f"{sorted(Counter(reference[s][2] for s in seeds).items())}; scikit-learn's "
          f"n_iter_ {[sk_reference[s] for s in seeds]}.\n")
    print("| c | ours: same n_iter_ and n_updates_ as c = 1 (all seeds) | ours stop_reason_ | "
          "ours separated | sklearn: same n_iter_ as c = 1 | sklearn n_iter_ |")
    print("|---|---|---|---:|---|---|")
    for label, c in scales:
        mine = {s: ours(c, s) for s in seeds}
        same = all(mine[s][:2] == reference[s][:2] for s in seeds)
        sk = {s: theirs(c, s) for s in seeds}
        sk_same = sum(sk[s] == sk_reference[s] for s in seeds)
        print(f"| {label} | {'yes' if same else 'NO'} | "
              f"{reasons(Counter(mine[s][2] for s in seeds))} | "
              f"{sum(mine[s][3] for s in seeds)}/{len(seeds)} | "
              f"{'yes' if sk_same == len(seeds) else f'no ({sk_same}/{len(seeds)})'} | "
              f"{spread([sk[s] for s in seeds], '{:g}')} |")
    print()


# --------------------------------------------------------------- real data

def int32_csr(X):
    X = sp.csr_matrix(X, dtype=np.float64, copy=True)
    X.indices = X.indices.astype(np.int32)
    X.indptr = X.indptr.astype(np.int32)
    return X


def real_sets(quick):
    """{name: (X_train, y_train, X_test, y_test, note)}; CSR with int32 indices
    (scikit-learn's Perceptron refuses int64 ones; ours takes both)."""
    sets = {}
    if (SHARED / "a9a").exists():
        X, y = load_libsvm(SHARED / "a9a", n_features=123)
        Xt, yt = load_libsvm(SHARED / "a9a.t", n_features=123)
        sets["a9a"] = (int32_csr(X), y, int32_csr(Xt), yt, "a9a → a9a.t")
    if (SHARED / "w8a").exists():
        X, y = load_libsvm(SHARED / "w8a", n_features=300)
        X, Xt, y, yt = train_test_split(X, y, test_size=0.2, stratify=y, random_state=0)
        sets["w8a"] = (int32_csr(X), y, int32_csr(Xt), yt, "w8a, stratified 80/20 split")
    images = SHARED / "mnist-t10k-images-idx3-ubyte.gz"
    if images.exists():
        with gzip.open(images) as handle:
            X = np.frombuffer(handle.read(), np.uint8, offset=16).reshape(-1, 784) / 255.0
        with gzip.open(SHARED / "mnist-t10k-labels-idx1-ubyte.gz") as handle:
            y = np.frombuffer(handle.read(), np.uint8, offset=8).astype(np.int64)
        n = 5000 if quick else len(y)
        X, Xt, y, yt = train_test_split(X[:n], y[:n], test_size=0.2, stratify=y[:n],
                                        random_state=0)
        sets["MNIST"] = (np.ascontiguousarray(X), y, np.ascontiguousarray(Xt), yt,
                         f"MNIST t10k ({n:,} images), 10 classes one-vs-rest, "
                         "stratified 80/20 split")
    return sets


# ------------------------------------------------------- 3. against scikit-learn

def part_real(args, sets):
    seeds = list(range(args.seeds))
    print(f"## 3. Non-separable real data: Perceptron() defaults, ours against "
          f"scikit-learn's, seeds {seeds[0]}–{seeds[-1]}\n")
    for name, (X, y, *_), in sets.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lm.Perceptron(max_iter=1).fit(X, y)  # compile outside the timing
    print("| data | contender | epochs | epochs ours / theirs | stop reasons | warned | "
          "converged_ | train acc | test acc | CPU s |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|---:|")
    makers = {"ours": lambda s: lm.Perceptron(random_state=s),
              "scikit-learn": lambda s: SklearnPerceptron(random_state=s)}
    texts = []
    for name, (X, y, Xt, yt, note) in sets.items():
        results = {who: [] for who in makers}
        for seed in seeds:
            order = list(makers) if seed % 2 == 0 else list(makers)[::-1]
            for who in order:
                model, warned, seconds = fit_watched(makers[who], seed, X, y)
                results[who].append((model.n_iter_, stop_reason(model), warned,
                                     getattr(model, "converged_", None), model.score(X, y),
                                     model.score(Xt, yt), seconds))
                texts += [f"{name}, {who}, seed {seed}: {w[:100]}" for w in warned]
        ratios = [a[0] / b[0] for a, b in zip(results["ours"], results["scikit-learn"])]
        for who, rows in results.items():
            ratio = spread(ratios) if who == "ours" else "—"
            converged = str(sum(bool(r[3]) for r in rows)) if who == "ours" else "—"
            print(f"| {name} | {who} | {spread([r[0] for r in rows], '{:g}')} | {ratio} | "
                  f"{reasons(Counter(r[1] for r in rows))} | "
                  f"{sum(bool(r[2]) for r in rows)}/{len(rows)} | {converged} | "
                  f"{spread([r[4] for r in rows], '{:.4f}')} | "
                  f"{spread([r[5] for r in rows], '{:.4f}')} | "
                  f"{spread([r[6] for r in rows], '{:.3f}')} |")
    print("\nData: " + "; ".join(note for *_, note in sets.values()) + ".")
    print("Warnings: " + ("none" if not texts else "\n- " + "\n- ".join(texts)) + "\n")


# ----------------------------------------------------------- 4. online family

def part_family(args, sets):
    seeds = list(range(args.seeds))
    print(f"## 4. The online family's default fits (covariance='diagonal' where taken), "
          f"seeds {seeds[0]}–{seeds[-1]}\n")
    contenders = {name + (" (diagonal)" if "covariance" in getattr(lm, name)().get_params()
                          else ""): family(name, diagonal=True) for name in FAMILY}
    print("| data | estimator | epochs | stop reasons | warned | converged_ | test acc | "
          "CPU s |")
    print("|---|---|---:|---|---:|---:|---:|---:|")
    texts, mismatched = [], []
    for name, (X, y, Xt, yt, _) in sets.items():
        here = dict(contenders)
        if name == "a9a":
            here["AROW (full, the default)"] = family("AROW")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for make in here.values():
                make(0, max_iter=1).fit(X, y)  # compile outside the timing
        results = {label: [] for label in here}
        labels = list(here)
        for r, seed in enumerate(seeds):
            shift = r % len(labels)
            for label in labels[shift:] + labels[:shift]:
                model, warned, seconds = fit_watched(here[label], seed, X, y)
                reason = stop_reason(model)
                results[label].append((model.n_iter_, reason, warned, model.converged_,
                                       model.score(Xt, yt), seconds))
                texts += [f"{name}, {label}, seed {seed} (n_iter_ {model.n_iter_}, "
                          f"stop_reason_ {reason!r}): {w[:100]}" for w in warned]
                if bool(warned) != (reason == "max_iter"):
                    mismatched.append(f"{name}, {label}, seed {seed}")
        for label, rows in results.items():
            print(f"| {name} | {label} | {spread([r[0] for r in rows], '{:g}')} | "
                  f"{reasons(Counter(r[1] for r in rows))} | "
                  f"{sum(bool(r[2]) for r in rows)}/{len(rows)} | "
                  f"{sum(bool(r[3]) for r in rows)} | "
                  f"{spread([r[4] for r in rows], '{:.4f}')} | "
                  f"{spread([r[5] for r in rows], '{:.3f}')} |")
    print("\nWarnings: " + ("none" if not texts else "\n- " + "\n- ".join(texts)))
    print("A warning exactly when stop_reason_ == 'max_iter': "
          + ("yes" if not mismatched else "NO — " + "; ".join(mismatched)) + "\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="fewer seeds and sets, MNIST's first 5,000 images")
    parser.add_argument("--seeds", type=int, default=None,
                        help="seeds of the real-data parts 3 and 4 (default 5; --quick 1)")
    parser.add_argument("--parts", default="1234", help="which parts to run (default 1234)")
    args = parser.parse_args(argv)
    if args.seeds is None:
        args.seeds = 1 if args.quick else 5
    header(args)
    start = time.process_time()
    if "1" in args.parts:
        part_separable(args)
    if "2" in args.parts:
        part_scale(args)
    if "3" in args.parts or "4" in args.parts:
        sets = real_sets(args.quick)
        if "3" in args.parts:
            part_real(args, sets)
        if "4" in args.parts:
            part_family(args, sets)
    print(f"# total CPU time {time.process_time() - start:.0f} s")


if __name__ == "__main__":
    main()
