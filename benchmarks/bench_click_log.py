"""A text file to a model in one pass: rosenblatt against Vowpal Wabbit and scikit-learn
on the click log of ``benchmarks/click_log.py``, by CPU time.

    pip install -e ".[bench]"
    python benchmarks/bench_click_log.py                 # 1,000,000 rows, 3 rounds
    python benchmarks/bench_click_log.py --rows 100000 --rounds 2 --river
    python benchmarks/bench_click_log.py --a9a          # the same contenders on a9a → a9a.t

Every contender reads the training file itself and makes one pass, in file order;
each round runs them all, one after the other, and each ratio is taken against
rosenblatt *in the same round* (median [min-max] over the rounds):

- **vw logistic** / **vw hinge**: ``vowpalwabbit.Workspace("-d train.vw -b 20
  --loss_function logistic --link logistic -f model --quiet")`` and ``run_parser()``,
  VW's own driver (its parser thread and its learner, in this process; VW's defaults:
  adaptive, normalised, invariant updates); then a second workspace ``-t -i model -d
  test.vw -p predictions`` for the test metrics (not timed).
- **rosenblatt**: ``python -m rosenblatt train train.vw --hash-bits 20 --set max_iter=1
  --set shuffle=none`` in a subprocess (its CPU time is the child's, from
  ``getrusage``: interpreter start, imports and the numba cache included), with
  ``--model ftrl`` when this installation has FTRL-Proximal, else ``ogd --set
  loss=logistic``. The test file is read by ``load_vw`` in this process (not timed).
- **rosenblatt in-process**: the same, as ``load_vw`` and ``fit`` in this process: the
  command's cost without the interpreter's start and the imports (about 2 s of CPU:
  numpy, scipy, scikit-learn, numba and every estimator's module).
- **sklearn**: ``load_svmlight_file(train.svm)`` then ``SGDClassifier(loss="log_loss",
  max_iter=1, tol=None, shuffle=False)`` (timed together: reading is part of the job).
- **river** (``--river``): ``LogisticRegression`` over ``stream.iter_libsvm``, one row
  at a time.

CPU time is ``time.process_time()`` (every thread of this process) or the children's
``ru_utime + ru_stime`` for a subprocess. The table prints the test log-loss and
accuracy of each model and the machine's CPU.
"""

import argparse
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
warnings.simplefilter("ignore")

from bench_ab import cpu_model  # the CPU line every benchmark prints
from click_log import click_files


def a9a_files(folder):
    """a9a and a9a.t (``../shared/data``) in the click log's layout: the LIBSVM files
    as they are, and as VW text (``label | column:value``)."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    shared = ROOT.parent / "shared" / "data"
    for part, source in (("train", "a9a"), ("test", "a9a.t")):
        lines = (shared / source).read_text().splitlines()
        (folder / f"{part}.svm").write_text("\n".join(lines) + "\n")
        vw = [f"{int(float(label))} | {' '.join(rest)}"
              for label, *rest in (line.split() for line in lines if line.strip())]
        (folder / f"{part}.vw").write_text("\n".join(vw) + "\n")
    return {name: folder / name for name in ("train.vw", "test.vw", "train.svm", "test.svm")}


def test_labels(files):
    from rosenblatt.datasets import load_vw

    return load_vw(files["test.vw"], hash_bits=20)


def metrics(y, proba):
    """Test log-loss (``None`` without probabilities) and accuracy."""
    y = np.asarray(y)
    positive = (y == 1)
    if proba is None:
        return None, None
    p = np.clip(proba, 1e-15, 1 - 1e-15)
    log_loss = -np.mean(np.where(positive, np.log(p), np.log(1 - p)))
    return float(log_loss), float(np.mean((p > 0.5) == positive))


def run_vw(files, loss, work):
    import vowpalwabbit

    model = work / f"vw_{loss}.model"
    link = " --link logistic" if loss == "logistic" else ""
    start = time.process_time()
    trainer = vowpalwabbit.Workspace(f"-d {files['train.vw']} -b 20 --loss_function {loss}"
                                     f"{link} -f {model} --quiet")
    trainer.run_parser()
    trainer.finish()
    seconds = time.process_time() - start
    predictions = work / f"vw_{loss}.pred"
    tester = vowpalwabbit.Workspace(f"-t -i {model} -d {files['test.vw']} -p {predictions} "
                                    "--quiet")
    tester.run_parser()
    tester.finish()
    scores = np.loadtxt(predictions, usecols=0)
    _, y = test_labels(files)
    if loss == "logistic":
        return seconds, metrics(y, scores)
    return seconds, (None, float(np.mean(np.where(scores > 0, 1, -1) == y)))


def rosenblatt_model():
    from rosenblatt.base._registry import short_names

    if "ftrl" in short_names():
        return ["--model", "ftrl"], "rosenblatt ftrl"
    return ["--model", "ogd", "--set", "loss=logistic"], "rosenblatt ogd(logistic)"


def run_rosenblatt(files, work):
    from rosenblatt.io import load

    options, _ = rosenblatt_model()
    model = work / "rosenblatt.npz"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "rosenblatt", "train", str(files["train.vw"]),
                           *options, "--hash-bits", "20", "--set", "max_iter=1", "--set",
                           "shuffle=none", "--set", "tol=None", "-o", str(model)],
                          capture_output=True, text=True, env={**os.environ,
                                                               "PYTHONPATH": str(ROOT)})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(done.stderr)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    fitted = load(model)
    X, y = test_labels(files)
    if hasattr(fitted, "predict_proba"):
        proba = fitted.predict_proba(X)[:, list(fitted.classes_).index(1)]
    else:  # logistic OGD before predict_proba: the logistic link of its score
        proba = 1.0 / (1.0 + np.exp(-fitted.decision_function(X)))
    passes = [line for line in done.stdout.splitlines() if line.startswith("pass ")]
    return seconds, metrics(y, proba), passes


def run_in_process(files):
    from rosenblatt.datasets import load_vw
    from rosenblatt.engine import make_estimator

    options, _ = rosenblatt_model()
    name = options[1]
    settings = dict(option.split("=", 1) for option in options[3:] if "=" in option)
    model = make_estimator(name, **settings, max_iter=1, shuffle="none", tol=None)
    start = time.process_time()
    X, y, weights = load_vw(files["train.vw"], hash_bits=20, with_weights=True)
    parsed = time.process_time() - start
    model.fit(X, y)
    seconds = time.process_time() - start
    X_test, y_test = test_labels(files)
    if hasattr(model, "predict_proba"):
        proba = model.predict_proba(X_test)[:, list(model.classes_).index(1)]
    else:
        proba = 1.0 / (1.0 + np.exp(-model.decision_function(X_test)))
    return seconds, metrics(y_test, proba), parsed


def run_sklearn(files):
    from sklearn.datasets import load_svmlight_file
    from sklearn.linear_model import SGDClassifier

    def read(path):  # SGDClassifier takes int32 indices only; the loader gives int64
        X, y = load_svmlight_file(str(path), n_features=2**20)
        X.indices, X.indptr = X.indices.astype(np.int32), X.indptr.astype(np.int32)
        return X, y

    start = time.process_time()
    X, y = read(files["train.svm"])
    model = SGDClassifier(loss="log_loss", max_iter=1, tol=None, shuffle=False).fit(X, y)
    seconds = time.process_time() - start
    X_test, y_test = read(files["test.svm"])
    proba = model.predict_proba(X_test)[:, list(model.classes_).index(1)]
    return seconds, metrics(y_test, proba)


def run_river(files):
    from river import linear_model, stream

    model = linear_model.LogisticRegression()
    start = time.process_time()
    for x, y in stream.iter_libsvm(str(files["train.svm"])):
        model.learn_one(x, y == "1" or y == 1)
    seconds = time.process_time() - start
    labels, proba = [], []
    for x, y in stream.iter_libsvm(str(files["test.svm"])):
        labels.append(1 if y in ("1", 1) else -1)
        proba.append(model.predict_proba_one(x).get(True, 0.0))
    return seconds, metrics(np.array(labels), np.array(proba))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--data", default=None, help="folder of the click log files "
                                                       "(written when missing)")
    parser.add_argument("--river", action="store_true", help="add river (slow: a row at a "
                                                             "time in Python)")
    parser.add_argument("--a9a", action="store_true", help="the same contenders on a9a "
                                                           "(../shared/data) instead")
    args = parser.parse_args()
    if args.a9a:
        files = a9a_files(tempfile.mkdtemp(prefix="a9a_"))
        args.rows = sum(1 for _ in open(files["train.svm"])) + \
            sum(1 for _ in open(files["test.svm"]))
    else:
        files = click_files(args.rows, args.data or f"/tmp/click_log_{args.rows}")
    _, ours = rosenblatt_model()
    contenders = {ours: None, f"{ours} in-process": None, "vw logistic": None,
                  "vw hinge": None, "sklearn SGD(log_loss)": None}
    if args.river:
        contenders["river LogisticRegression"] = None
    times = {name: [] for name in contenders}
    size = files["train.vw"].stat().st_size / 1e6
    split = "a9a, test a9a.t" if args.a9a else "80 %"
    print(f"{'a9a' if args.a9a else 'click log'}: {args.rows:,} rows ({size:.0f} MB VW, "
          f"{files['train.svm'].stat().st_size / 1e6:.0f} MB LIBSVM, train {split}), "
          f"{args.rounds} rounds, CPU: {cpu_model()}, {os.cpu_count()} cores", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        work = pathlib.Path(folder)
        run_rosenblatt(files, work)  # warm the numba cache: a first run compiles
        for round_ in range(args.rounds):
            for name in contenders:
                if name == ours:
                    seconds, quality, passes = run_rosenblatt(files, work)
                    if round_ == 0:
                        print("  " + "\n  ".join(passes), flush=True)
                elif name.endswith("in-process"):
                    seconds, quality, parsed = run_in_process(files)
                    print(f"         load_vw: {parsed:.2f} s CPU, "
                          f"{size / parsed:.0f} MB/s", flush=True)
                elif name.startswith("vw"):
                    seconds, quality = run_vw(files, name.split()[1], work)
                elif name.startswith("sklearn"):
                    seconds, quality = run_sklearn(files)
                else:
                    seconds, quality = run_river(files)
                times[name].append(seconds)
                contenders[name] = quality
                print(f"round {round_ + 1}  {name:38s} {seconds:8.2f} s CPU", flush=True)
    print(f"\n{'contender':38s} {'CPU s (median)':>14s} {'MB/s':>7s} {'x rosenblatt':>22s} "
          f"{'test log-loss':>13s} {'accuracy':>8s}")
    for name, seconds in times.items():
        ratios = [s / r for s, r in zip(seconds, times[ours])]
        log_loss, accuracy = contenders[name]
        print(f"{name:38s} {statistics.median(seconds):14.2f} "
              f"{size / statistics.median(seconds):7.1f} "
              f"{statistics.median(ratios):10.2f} [{min(ratios):.2f}-{max(ratios):.2f}] "
              f"{'n/a' if log_loss is None else f'{log_loss:.4f}':>13s} "
              f"{'n/a' if accuracy is None else f'{accuracy:.4f}':>8s}")


if __name__ == "__main__":
    main()
