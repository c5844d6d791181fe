"""The online family's speed: second-order epochs, river's rules, full covariance.

    pip install -e ".[bench]"
    python benchmarks/bench_online_family.py              # ~10 minutes
    python benchmarks/bench_online_family.py --quick      # a minute or two

Three measurements, every one interleaved (each round times every contender
once, the order rotating from round to round), by CPU time
(``time.process_time``), each ratio taken within its round and reported as
median [min-max] over the rounds:

1. **Diagonal second-order epoch against the perceptron's.** The marginal epoch
   ``(fit with 1 + E epochs − fit with 1) / E`` (``bench_sparse.marginal``: input
   checks and compilation left out) of ``Perceptron``, ``AROW`` and
   ``SoftConfidenceWeighted`` (both ``covariance="diagonal"``), rows in the
   stored order (``shuffle="none"``, the same for all), on a9a, w8a and the
   Zipf 2²⁰-feature CSR set of ``bench_all.py`` (``zipf_csr``). Target: at most
   2× the perceptron's epoch.
2. **Against river, per example.** Ours: the marginal epoch divided by the
   rows. river: ``learn_one`` over a random subsample of rows already turned
   into dicts (not timed), as ``bench_all.py`` times river's perceptron.
   ``PAClassifier(C=1, mode=1)`` against our ``PassiveAggressiveClassifier``
   (PA-I, C=1) and ``MulticlassPassiveAggressive`` on the same two classes;
   ``ALMAClassifier`` against our ``ALMA`` (both p=2, alpha=0.9, B=1/alpha,
   C=√2). Target: ≥ 20× river per example.
3. **Full covariance on a9a** (D = 123 + 1): AROW's marginal epoch as rows/s and
   as GFLOP/s of the work its updates do (``Σx̃`` as a sum of ``nnz + 1`` rows of
   ``Σ``, then the rank-one ``Σ −= β (Σx̃)(Σx̃)ᵀ``), against a compiled
   reference doing the same arithmetic with a vectorised rank-one update
   (fastmath), and the core's nominal peak.

The machine line names the CPU; ``--asm`` prints what the generated code of
each kernel holds (vector instructions, gathers, calls), the basis of the
explanations in BENCHMARKS.md.
"""

import argparse
import os
import pathlib
import platform
import re
import statistics
import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp

ROOT = pathlib.Path(__file__).resolve().parents[1]
if "--asm" in sys.argv:  # kernels loaded from the disk cache keep no assembly: compile afresh
    import tempfile

    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp()
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_all import zipf_csr  # noqa: E402
from bench_sparse import cpu, marginal, summary  # noqa: E402

from rosenblatt import PassiveAggressiveClassifier, Perceptron  # noqa: E402
from rosenblatt.datasets import load_libsvm  # noqa: E402
from rosenblatt.linear_model import (  # noqa: E402
    ALMA,
    AROW,
    MulticlassPassiveAggressive,
    SoftConfidenceWeighted,
)

warnings.simplefilter("ignore")
SHARED = ROOT.parent / "shared" / "data"


def machine():
    import numba
    import sklearn

    model, mhz, flags = "unknown CPU", "", set()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                key = line.split(":", 1)[0].strip()
                if key == "model name" and model == "unknown CPU":
                    model = line.split(":", 1)[1].strip()
                elif key == "cpu MHz" and not mhz:
                    mhz = line.split(":", 1)[1].strip()
                elif key == "flags" and not flags:
                    flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    vector = "AVX-512" if "avx512f" in flags else "AVX2" if "avx2" in flags else "SSE"
    try:
        import river
        river_version = f", river {river.__version__}"
    except ImportError:
        river_version = ", river not installed"
    return (f"{model} ({float(mhz or 0) / 1000:.2f} GHz, {vector}"
            f"{', FMA' if 'fma' in flags else ''}), {os.cpu_count()} cores; Python "
            f"{platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}, "
            f"scikit-learn {sklearn.__version__}{river_version}"), mhz, flags


def data_sets(quick):
    sets = {}
    for name, features in (("a9a", 123), ("w8a", 300)):
        if (SHARED / name).exists():
            X, y = load_libsvm(SHARED / name, n_features=features)
            sets[name] = (sp.csr_matrix(X, dtype=np.float64), np.asarray(y).astype(int))
    n = 20_000 if quick else 200_000
    sets[f"Zipf {n // 1000}k x 2^20"] = zipf_csr(n, 2**20, 50, 2)
    return sets


def rotated(measures, rounds):
    """``{label: [value per round]}``: every measure once per round, the order
    rotated from round to round (bench_all's ``round_robin``)."""
    labels = list(measures)
    values = {label: [] for label in labels}
    for r in range(rounds):
        shift = r % len(labels)
        for label in labels[shift:] + labels[:shift]:
            values[label].append(measures[label]())
    return values


def warm_up(make, X, y):
    """One fit on the whole set, outside the timing: the kernels' signature for
    these arrays (large CSR sets get a look-ahead variant that a small sample
    would not compile) is compiled or loaded from the cache here."""
    make(1).fit(X, y)


# ------------------------------------------------------------- 1. diagonal epochs

EPOCH_CONTENDERS = {
    "Perceptron": lambda e: Perceptron(shuffle="none", max_iter=e),
    "AROW diagonal": lambda e: AROW(covariance="diagonal", shuffle="none", max_iter=e),
    "SCW-I diagonal": lambda e: SoftConfidenceWeighted(covariance="diagonal", shuffle="none",
                                                       max_iter=e),
}


def diagonal_epochs(sets, rounds, epochs):
    print("## 1. Marginal epoch, CPU time (shuffle='none'); ratio = rule / Perceptron "
          "in the same round, target <= 2x\n")
    print(f"{'data':18s} {'rows':>7s} {'nnz/row':>7s} {'contender':16s} {'s/epoch':>9s} "
          f"{'ratio to Perceptron':>22s}")
    failures = []
    for name, (X, y) in sets.items():
        for make in EPOCH_CONTENDERS.values():
            warm_up(make, X, y)
        times = rotated({label: (lambda make=make: marginal(make, X, y, epochs))
                         for label, make in EPOCH_CONTENDERS.items()}, rounds)
        for label, values in times.items():
            ratios = [v / p for v, p in zip(values, times["Perceptron"])]
            shown = "" if label == "Perceptron" else summary(ratios)
            print(f"{name:18s} {X.shape[0]:7d} {X.nnz / X.shape[0]:7.1f} {label:16s} "
                  f"{statistics.median(values):9.5f} {shown:>22s}")
            if label != "Perceptron" and statistics.median(ratios) > 2.0:
                failures.append(f"{label} on {name}: {statistics.median(ratios):.2f}x the "
                                "perceptron's epoch (target <= 2x)")
    return failures


# ------------------------------------------------------------------ 2. river

def as_dicts(X):
    X = sp.csr_matrix(X)
    return [dict(zip(X.indices[X.indptr[i]:X.indptr[i + 1]].tolist(),
                     X.data[X.indptr[i]:X.indptr[i + 1]].tolist()))
            for i in range(X.shape[0])]


def river_seconds_per_row(make, rows, labels):
    model = make()
    start = time.process_time()
    for row, label in zip(rows, labels):
        model.learn_one(row, label)
    return (time.process_time() - start) / len(rows)


def against_river(sets, rounds, epochs, sample):
    from river import linear_model as river_lm

    print(f"\n## 2. Per example against river (ours: marginal epoch / rows; river: "
          f"learn_one on {sample} rows); speed-up = river / ours, target >= 20x\n")
    print(f"{'data':18s} {'rule':32s} {'ours us/row':>11s} {'river us/row':>12s} "
          f"{'speed-up':>22s}")
    ours = {
        "PA-I (PassiveAggressiveClassifier)": lambda e: PassiveAggressiveClassifier(
            C=1.0, variant="pa1", tol=None, shuffle="none", max_iter=e),
        "PA-I (MulticlassPassiveAggressive)": lambda e: MulticlassPassiveAggressive(
            shuffle="none", max_iter=e),
        "ALMA_2": lambda e: ALMA(shuffle="none", max_iter=e),
    }
    theirs = {
        "PA-I (PassiveAggressiveClassifier)": lambda: river_lm.PAClassifier(C=1.0, mode=1),
        "PA-I (MulticlassPassiveAggressive)": lambda: river_lm.PAClassifier(C=1.0, mode=1),
        "ALMA_2": lambda: river_lm.ALMAClassifier(),
    }
    failures = []
    for name, (X, y) in sets.items():
        take = np.random.RandomState(0).choice(X.shape[0], size=min(sample, X.shape[0]),
                                               replace=False)
        rows, labels = as_dicts(X[take]), [bool(v > 0) for v in y[take]]
        measures = {}
        for label, make in ours.items():
            Xo, yo, e = X, y, epochs
            if label == "ALMA_2" and X.shape[1] > 100_000:
                # ALMA renormalises the whole w (2^20 entries) at every correction:
                # ~1 ms each, so it is timed on the first 2,000 rows, one more epoch
                Xo, yo, e = X[:2000], y[:2000], 1
            warm_up(make, Xo, yo)
            measures["ours " + label] = (lambda make=make, Xo=Xo, yo=yo, e=e:
                                         marginal(make, Xo, yo, e) / Xo.shape[0])
        for label in ("PA-I (PassiveAggressiveClassifier)", "ALMA_2"):
            measures["river " + label] = (lambda make=theirs[label]:
                                          river_seconds_per_row(make, rows, labels))
        values = rotated(measures, rounds)
        for label in ours:
            peer = values["river " + ("ALMA_2" if label == "ALMA_2"
                                      else "PA-I (PassiveAggressiveClassifier)")]
            mine = values["ours " + label]
            ratios = [p / m for p, m in zip(peer, mine)]
            print(f"{name:18s} {label:32s} {statistics.median(mine) * 1e6:11.3f} "
                  f"{statistics.median(peer) * 1e6:12.2f} {summary(ratios):>22s}")
            if statistics.median(ratios) < 20:
                failures.append(f"{label} on {name}: {statistics.median(ratios):.1f}x river "
                                "(target >= 20x)")
    return failures


# ----------------------------------------------------------- 3. full covariance

def reference_kernel():
    """The full form's arithmetic per update, compiled with fastmath (vectorised,
    FMA): g = Σ over the row's entries of x_k Σ[j_k] plus the bias row, then
    Σ -= β g gᵀ. The achievable speed of this work on this core."""
    from numba import njit

    @njit(fastmath=True, cache=False)
    def updates(cov, data, indices, indptr, rows, beta):
        D = cov.shape[0]
        g = np.empty(D)
        for i in rows:
            g[:] = cov[D - 1]
            for k in range(indptr[i], indptr[i + 1]):
                x, j = data[k], indices[k]
                for q in range(D):
                    g[q] += x * cov[j, q]
            for p in range(D):
                gp = beta * g[p]
                for q in range(D):
                    cov[p, q] -= gp * g[q]
        return cov

    return updates


def full_covariance(sets, rounds, epochs, mhz, flags):
    if "a9a" not in sets:
        return []
    X, y = sets["a9a"]
    D = X.shape[1] + 1
    nnz = X.nnz / X.shape[0]
    make = lambda e: AROW(covariance="full", shuffle="none", max_iter=e)  # noqa: E731
    warm_up(make, X, y)
    model = make(1 + epochs).fit(X, y)
    updates_per_epoch = model.n_updates_ / model.n_iter_
    reference = reference_kernel()
    # the same number of updates on a9a's rows, β small enough to keep Σ positive
    rows = np.flatnonzero(np.random.RandomState(0).rand(X.shape[0]) <
                          updates_per_epoch / X.shape[0]).astype(np.int64)
    cov0 = np.eye(D)
    reference(cov0.copy(), X.data, X.indices.astype(np.int64), X.indptr.astype(np.int64),
              rows[:10], 1e-3)

    def ref():
        return cpu(lambda: reference(cov0.copy(), X.data, X.indices.astype(np.int64),
                                     X.indptr.astype(np.int64), rows, 1e-3))

    values = rotated({"ours": lambda: marginal(make, X, y, epochs), "reference": ref}, rounds)
    ours, refs = values["ours"], values["reference"]
    per_update = 2 * D * (nnz + 1) + 2 * D * D  # g = Σx̃ (mul+add), rank one (mul+sub)
    nominal = 4 * D * D  # the brief's count: ~2·D² + 2·D² per row
    flops = updates_per_epoch * per_update
    ghz = float(mhz or 0) / 1000
    lanes = 8 if "avx512f" in flags else 4
    peak = ghz * 2 * lanes * 2  # two FMA ports, `lanes` doubles, 2 flops per FMA
    print(f"\n## 3. AROW(covariance='full') on a9a: D = {D}, {nnz:.1f} nnz/row, "
          f"{updates_per_epoch:.0f} of {X.shape[0]} rows update per epoch (m < 1)\n")
    print(f"  ours       {statistics.median(ours):.4f} s/epoch  "
          f"{X.shape[0] / statistics.median(ours):10,.0f} rows/s  "
          f"{flops / statistics.median(ours) / 1e9:5.2f} GFLOP/s "
          f"({per_update:,.0f} flops per update: 2D(nnz+1) + 2D²)")
    print(f"  reference  {statistics.median(refs):.4f} s/epoch  "
          f"{X.shape[0] / statistics.median(refs):10,.0f} rows/s  "
          f"{flops / statistics.median(refs) / 1e9:5.2f} GFLOP/s (fastmath, same updates)")
    print(f"  ours / reference time per round: {summary([o / r for o, r in zip(ours, refs)])}")
    print(f"  the brief's count, 4D² = {nominal:,} flops for every row: "
          f"{X.shape[0] * nominal / statistics.median(ours) / 1e9:.2f} GFLOP/s")
    print(f"  nominal peak of one core: {peak:.0f} GFLOP/s ({ghz:.2f} GHz x 2 FMA x "
          f"{lanes} doubles x 2)")
    return []


# ------------------------------------------------------------ generated code

def kernel_report(sets, dump):
    """What the compiled epochs hold: vector instructions, gathers, FMAs, calls
    (counted in numba's assembly; ``--asm`` compiles in a fresh cache folder,
    as kernels loaded from the disk cache keep none)."""
    from rosenblatt._kernels import _online, _second_order

    print("\n## Generated code (instruction counts per compiled signature)\n")
    for name, (X, y) in sets.items():
        for make in (*EPOCH_CONTENDERS.values(),
                     lambda e: AROW(covariance="full", shuffle="none", max_iter=e)):
            if X.shape[1] <= 1000 or "diagonal" in repr(make(1)) or "Perc" in repr(make(1)):
                make(1).fit(X[:2000], y[:2000])
    for name, kernel in (("online_epoch", _online.online_epoch),
                         ("second_order_epoch", _second_order.second_order_epoch)):
        for n, signature in enumerate(kernel.signatures):
            asm = kernel.inspect_asm(signature)
            if asm.count("\n") < 10:
                continue
            described = ", ".join(str(t) for t in signature[:1])
            form = ""
            if name == "second_order_epoch":
                form = " full" if "array(float64, 2d" in str(signature) else " diagonal"
            counts = {
                "lines": asm.count("\n"),
                "zmm": len(re.findall(r"%zmm", asm)),
                "ymm": len(re.findall(r"%ymm", asm)),
                "gather": len(re.findall(r"vgather\w+", asm)),
                "fma": len(re.findall(r"vfn?m(?:add|sub)\w+", asm)),
                "packed-pd": len(re.findall(r"\bv\w+pd\b", asm)),
                "call": len(re.findall(r"\bcall", asm)),
                "prefetch": len(re.findall(r"prefetch", asm)),
            }
            print(f"{name}{form} X={described}")
            print("    " + ", ".join(f"{k} {v}" for k, v in counts.items()))
            if dump:
                path = pathlib.Path(dump) / f"{name}{form.strip() and '_' + form.strip()}_{n}.s"
                path.write_text(asm)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--sample", type=int, default=5000,
                        help="rows river learns per round (default 5000)")
    parser.add_argument("--only", default="123", help="which parts to run, e.g. 13")
    parser.add_argument("--asm", action="store_true", help="print the generated-code counts")
    parser.add_argument("--dump", default="", help="with --asm: a folder for the .s files")
    args = parser.parse_args(argv)
    rounds = args.rounds or (3 if args.quick else 5)
    line, mhz, flags = machine()
    print(f"# {line}")
    print(f"# load average {os.getloadavg()[0]:.1f} (shared machine: contenders interleaved, "
          f"CPU time); {rounds} rounds, marginal epoch of {args.epochs}; per-round "
          "ratios as median [min-max]\n")
    sets = data_sets(args.quick)
    failures = []
    if "1" in args.only:
        failures += diagonal_epochs(sets, rounds, args.epochs)
    if "2" in args.only:
        failures += against_river(sets, rounds, args.epochs, args.sample)
    if "3" in args.only:
        failures += full_covariance(sets, rounds, args.epochs, mhz, flags)
    if args.asm:
        kernel_report(sets, args.dump)
    print()
    for failure in failures:
        print(f"FAIL  {failure}")
    if not failures:
        print("PASS  every online-family target")


if __name__ == "__main__":
    main()
